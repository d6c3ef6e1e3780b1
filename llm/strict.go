package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"unicode/utf8"
)

// DecodeStrict reads reply as exactly one JSON object into out, a non-nil
// pointer, under seed 000's rule: white space around it is allowed,
// anything else (markdown fences, prose, a second value) is not; unknown
// fields and required fields that are missing or null are errors naming
// the field. A field is required unless its json tag says omitempty or
// omitzero. out is changed only on success. Structured applies it with
// StructuredOptions.Strict.
func DecodeStrict(reply string, out any) error {
	v := reflect.ValueOf(out)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("decode reply: out must be a non-nil pointer, got %T", out)
	}
	target := reflect.New(v.Type().Elem())
	if err := decodeStrict(reply, target.Interface()); err != nil {
		return err
	}
	v.Elem().Set(target.Elem())
	return nil
}

// decodeStrict is DecodeStrict into target, a fresh pointer.
func decodeStrict(reply string, target any) error {
	s := strings.TrimSpace(reply)
	if s == "" {
		return errors.New("the reply is empty")
	}
	if s[0] != '{' {
		return fmt.Errorf("the reply must be a JSON object and nothing else; it starts with %q", clipRunes(s, 20))
	}
	dec := json.NewDecoder(strings.NewReader(s))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return fmt.Errorf("the reply is not valid JSON: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("the reply has text after the JSON object")
	}
	if err := required(raw, reflect.TypeOf(target).Elem(), ""); err != nil {
		return err
	}
	strict := json.NewDecoder(bytes.NewReader(raw))
	strict.DisallowUnknownFields()
	if err := strict.Decode(target); err != nil {
		return decodeError(err)
	}
	return nil
}

// required checks that raw, a JSON value meant for type t, has every
// required field of every object in it, and that none of them is null.
func required(raw json.RawMessage, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil {
			return decodeError(fieldError(path, err))
		}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			v, ok := obj[name]
			optional := strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")
			if !ok || string(v) == "null" {
				if optional {
					continue
				}
				return fmt.Errorf("%s: is required", join(path, name))
			}
			if err := required(v, f.Type, join(path, name)); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return decodeError(fieldError(path, err))
		}
		for i, it := range items {
			if err := required(it, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			return decodeError(fieldError(path, err))
		}
		for k, v := range m {
			if err := required(v, t.Elem(), join(path, k)); err != nil {
				return err
			}
		}
	}
	return nil
}

type pathError struct {
	path string
	err  error
}

func (e *pathError) Error() string { return e.path + ": " + e.err.Error() }
func (e *pathError) Unwrap() error { return e.err }

func fieldError(path string, err error) error {
	if path == "" {
		return err
	}
	return &pathError{path, err}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// decodeError words a decoding failure so that the model (and the log) can
// see which field was wrong.
func decodeError(err error) error {
	var te *json.UnmarshalTypeError
	var pe *pathError
	prefix := ""
	if errors.As(err, &pe) {
		prefix = pe.path
	}
	switch {
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = prefix
		}
		if field == "" {
			return fmt.Errorf("the reply must be a JSON object, got %s", te.Value)
		}
		return fmt.Errorf("%s: must be %s, got %s", field, kindName(te.Type), te.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		// encoding/json has no typed error for unknown fields.
		return fmt.Errorf("%s: is not a field of this schema", strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`))
	}
	return fmt.Errorf("the reply is not valid: %v", err)
}

func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.Float64, reflect.Float32:
		return "a number"
	case reflect.Bool:
		return "a boolean"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}

// clipRunes shortens s to at most n characters.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
