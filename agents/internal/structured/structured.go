// Package structured asks a chat model for one JSON object and accepts it
// only when it is strict: the whole reply is a single JSON object, with no
// markdown, no text around it, no unknown field and no required field
// missing or null, it satisfies the request's JSON schema, and the
// caller's own check passes.
//
// llm.Structured is not used here: it accepts JSON inside code fences or
// prose, which seed 000 forbids ("a VALID standalone JSON object ... no
// markdown ... no trailing text"), and it has no place for the checks that
// depend on an agent's inputs (statements copied word for word, reasoning
// that cites existing statements, an auditor that only downgrades), which
// must be retried like any other invalid reply. An invalid reply is
// sent back to the model with the problem named and asked again, a bounded
// number of times; then the call fails with an *Error naming the agent.
package structured

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/verity-fc/verity/llm"
)

// DefaultAttempts is how many replies Ask reads when the caller gives no
// number: the first and two retries.
const DefaultAttempts = 3

// maxFeedbackChars bounds the invalid reply quoted back to the model.
const maxFeedbackChars = 4000

// Error reports an agent that produced no valid output: a model that gave
// no valid reply within Attempts, or a built-in role whose output broke its
// own schema (Attempts is then 1).
type Error struct {
	// Agent names the agent as the seed does, e.g. "ENTAILMENT_JUDGE".
	Agent string
	// Model is the model that served the agent.
	Model    string
	Attempts int
	// Err is the last reply's problem.
	Err error
}

func (e *Error) Error() string {
	return fmt.Sprintf("agent %s (model %q) gave no valid output in %d attempt(s): %v", e.Agent, e.Model, e.Attempts, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// FailedAgent names the agent; the HTTP layer reports it.
func (e *Error) FailedAgent() string { return e.Agent }

// Ask sends req to c and decodes the reply strictly into a T, then runs
// check on it (check may be nil). attempts bounds the replies read; 0 means
// DefaultAttempts. A backend error is returned at once, wrapped with the
// agent's name: only invalid replies are retried.
func Ask[T any](ctx context.Context, c llm.Chatter, agent string, req llm.ChatRequest, attempts int, check func(*T) error) (T, error) {
	if attempts <= 0 {
		attempts = DefaultAttempts
	}
	msgs := append([]llm.Message(nil), req.Messages...)
	var last error
	for i := 0; i < attempts; i++ {
		req.Messages = msgs
		resp, err := c.Chat(ctx, req)
		if err != nil {
			var zero T
			return zero, fmt.Errorf("agent %s: %w", agent, err)
		}
		out, err := Decode[T](resp.Content)
		if err == nil && check != nil {
			err = check(&out)
		}
		if err == nil && len(req.Schema) > 0 {
			err = Validate(req.Schema, resp.Content)
		}
		if err == nil {
			return out, nil
		}
		last = err
		msgs = append(msgs,
			llm.Message{Role: "assistant", Content: clip(resp.Content, maxFeedbackChars)},
			llm.Message{Role: "user", Content: "That reply is not valid: " + err.Error() + ". Reply again with the corrected JSON object only: no markdown, no text before or after it."})
	}
	var zero T
	return zero, &Error{Agent: agent, Model: req.Model, Attempts: attempts, Err: last}
}

// Check runs check on a built-in role's output and reports a broken schema
// as an *Error naming agent: the same rules bind built-in and model-backed
// roles.
func Check[T any](agent string, out *T, check func(*T) error) error {
	if err := check(out); err != nil {
		return &Error{Agent: agent, Model: "verity/builtin", Attempts: 1, Err: err}
	}
	return nil
}

// Decode reads content as exactly one JSON object into a T: white space
// around it is allowed, anything else (markdown fences, prose, a second
// value) is not; unknown fields and required fields that are missing or
// null are errors naming the field. A field is required unless its json
// tag says omitempty.
func Decode[T any](content string) (T, error) {
	var out T
	s := strings.TrimSpace(content)
	if s == "" {
		return out, errors.New("the reply is empty")
	}
	if s[0] != '{' {
		return out, fmt.Errorf("the reply must be a JSON object and nothing else; it starts with %q", clip(s, 20))
	}
	dec := json.NewDecoder(strings.NewReader(s))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return out, fmt.Errorf("the reply is not valid JSON: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return out, errors.New("the reply has text after the JSON object")
	}
	if err := required(raw, reflect.TypeFor[T](), ""); err != nil {
		return out, err
	}
	strict := json.NewDecoder(bytes.NewReader(raw))
	strict.DisallowUnknownFields()
	if err := strict.Decode(&out); err != nil {
		return out, decodeError(err)
	}
	return out, nil
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

// clip shortens s to at most n characters.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// Model is a chat model serving one role.
type Model struct {
	Chatter llm.Chatter
	// Name is the model's name on its backend.
	Name string
	// Attempts bounds the replies read for one output; see Ask.
	Attempts int
}

// Request is a one-message chat request for prompt, constrained to schema
// on backends that support it.
func (m Model) Request(prompt string, schema json.RawMessage) llm.ChatRequest {
	return llm.ChatRequest{Model: m.Name, Messages: []llm.Message{{Role: "user", Content: prompt}}, Schema: schema}
}

// schemas caches compiled schemas by their text; an agent's schemas are
// few and fixed (one per configuration at most).
var schemas sync.Map

// Validate checks the JSON value content against schema, a self-contained
// JSON schema (draft 2020-12 unless it says otherwise).
func Validate(schema json.RawMessage, content string) error {
	s, err := compile(schema)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(content))
	if err != nil {
		return fmt.Errorf("the reply is not valid JSON: %v", err)
	}
	if err := s.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return fmt.Errorf("the reply breaks the schema: %s", clip(strings.Join(strings.Fields(ve.Error()), " "), 500))
		}
		return fmt.Errorf("the reply breaks the schema: %v", err)
	}
	return nil
}

func compile(schema json.RawMessage) (*jsonschema.Schema, error) {
	if s, ok := schemas.Load(string(schema)); ok {
		return s.(*jsonschema.Schema), nil
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("schema is not JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	const loc = "mem:///agent.schema.json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, fmt.Errorf("add schema: %w", err)
	}
	s, err := c.Compile(loc)
	if err != nil {
		return nil, fmt.Errorf("compile schema: %w", err)
	}
	schemas.Store(string(schema), s)
	return s, nil
}
