package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// StructuredOptions tune Structured. The zero value works.
type StructuredOptions struct {
	// Retries is how many times a reply that is not JSON, breaks the
	// schema or does not fit out is asked for again, with the problem
	// quoted. Default 2; negative means none.
	Retries int
	// AllowUnknownFields decodes leniently into out. By default a field out
	// does not declare fails the attempt like a schema violation.
	AllowUnknownFields bool
	// Logger receives a debug line per failed attempt. Default: discard.
	Logger *slog.Logger
	// Strict applies seed 000's rule to each reply (see DecodeStrict):
	// exactly one JSON object, no markdown and no text around it, no
	// unknown field, no required field missing or null. By default the
	// JSON value is looked for inside code fences or prose. In strict mode
	// the request's schema is optional.
	Strict bool
	// Check, when set, runs on each decoded reply (a pointer of out's type)
	// before it is accepted; an error is sent back and retried like a
	// schema violation. It carries the checks that depend on the caller's
	// inputs (statements copied word for word, an auditor that only
	// downgrades).
	Check func(v any) error
}

// Structured asks c for a reply satisfying req.Schema (a JSON schema, which
// must be set) and decodes it into out, a non-nil pointer. It tolerates
// code fences and prose around the JSON value. A reply that is not JSON,
// violates the schema (checked with github.com/santhosh-tekuri/jsonschema)
// or does not fit out is asked for again, up to opts.Retries times, with the
// problem appended to the conversation; then Structured returns a
// *SchemaError. Backend errors are returned at once. The reply is data: it
// is parsed and validated, never acted on.
func Structured(ctx context.Context, c Chatter, req ChatRequest, out any, opts StructuredOptions) error {
	if len(req.Schema) == 0 && !opts.Strict {
		return errors.New("structured reply: the request has no schema")
	}
	if v := reflect.ValueOf(out); v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("structured reply: out must be a non-nil pointer, got %T", out)
	}
	var schema *jsonschema.Schema
	if len(req.Schema) > 0 {
		var err error
		if schema, err = compileSchema(req.Schema); err != nil {
			return fmt.Errorf("structured reply: %w", err)
		}
	}
	retries := opts.Retries
	switch {
	case retries == 0:
		retries = 2
	case retries < 0:
		retries = 0
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}

	var last error
	attempts := 0
	for attempts < 1+retries {
		attempts++
		resp, err := c.Chat(ctx, req)
		if err != nil {
			return fmt.Errorf("structured reply: %w", err)
		}
		feedback := retryPrompt
		if opts.Strict {
			last = acceptStrict(resp.Content, schema, out, opts.Check)
			feedback = strictRetryPrompt
		} else {
			last = decodeReply(resp.Content, schema, out, !opts.AllowUnknownFields, opts.Check)
		}
		if last == nil {
			return nil
		}
		log.Debug("structured reply rejected", "model", req.Model, "attempt", attempts, "err", last)
		req.Messages = append(slices.Clip(req.Messages),
			Message{Role: "assistant", Content: clip(resp.Content, 4<<10)},
			Message{Role: "user", Content: feedback(last, req.Schema)},
		)
	}
	return &SchemaError{Model: req.Model, Attempts: attempts, Err: last}
}

// decodeReply finds the JSON value in reply, validates it against schema,
// decodes it and runs check (when set) on it; it changes out only on
// success.
func decodeReply(reply string, schema *jsonschema.Schema, out any, strict bool, check func(any) error) error {
	raw, err := extractJSON(reply)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("reply is not JSON: %w", err)
	}
	if err := schema.Validate(inst); err != nil {
		return fmt.Errorf("reply breaks the schema: %w", err)
	}
	target := reflect.New(reflect.TypeOf(out).Elem())
	dec := json.NewDecoder(bytes.NewReader(raw))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(target.Interface()); err != nil {
		return fmt.Errorf("reply does not fit %s: %w", target.Type().Elem(), err)
	}
	if check != nil {
		if err := check(target.Interface()); err != nil {
			return err
		}
	}
	reflect.ValueOf(out).Elem().Set(target.Elem())
	return nil
}

// acceptStrict decodes reply under seed 000's rule (see DecodeStrict),
// runs check (when set) and validates the reply against schema (when set);
// it changes out only on success.
func acceptStrict(reply string, schema *jsonschema.Schema, out any, check func(any) error) error {
	target := reflect.New(reflect.TypeOf(out).Elem())
	if err := decodeStrict(reply, target.Interface()); err != nil {
		return err
	}
	if check != nil {
		if err := check(target.Interface()); err != nil {
			return err
		}
	}
	if schema != nil {
		if err := validateReply(schema, reply); err != nil {
			return err
		}
	}
	reflect.ValueOf(out).Elem().Set(target.Elem())
	return nil
}

// ValidateReply checks the JSON value reply against schema, a
// self-contained JSON schema (draft 2020-12 unless it says otherwise).
func ValidateReply(schema json.RawMessage, reply string) error {
	s, err := compileSchema(schema)
	if err != nil {
		return err
	}
	return validateReply(s, reply)
}

func validateReply(schema *jsonschema.Schema, reply string) error {
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(reply))
	if err != nil {
		return fmt.Errorf("the reply is not valid JSON: %v", err)
	}
	if err := schema.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return fmt.Errorf("the reply breaks the schema: %s", clip(strings.Join(strings.Fields(ve.Error()), " "), 500))
		}
		return fmt.Errorf("the reply breaks the schema: %v", err)
	}
	return nil
}

// extractJSON returns the first JSON value in s, looking inside a code fence
// when there is one and skipping prose before the value. What follows the
// value is ignored.
func extractJSON(s string) (json.RawMessage, error) {
	s = strings.TrimSpace(s)
	if _, rest, ok := strings.Cut(s, "```"); ok {
		// Skip the fence's language tag, up to the end of its line.
		if _, body, ok := strings.Cut(rest, "\n"); ok {
			rest = body
		}
		body, _, _ := strings.Cut(rest, "```")
		s = strings.TrimSpace(body)
	}
	if s == "" {
		return nil, errors.New("reply is empty")
	}
	var first error
	// Try the whole text, then each '{' or '[' where a value may start;
	// bounded, as prose may hold many brackets.
	for start, tries := 0, 0; start >= 0 && tries < 16; tries++ {
		var raw json.RawMessage
		err := json.NewDecoder(strings.NewReader(s[start:])).Decode(&raw)
		if err == nil {
			return raw, nil
		}
		if first == nil {
			first = err
		}
		next := strings.IndexAny(s[start+1:], "{[")
		if next < 0 {
			break
		}
		start += 1 + next
	}
	return nil, fmt.Errorf("reply is not JSON: %w", first)
}

// strictRetryPrompt tells the model what was wrong with its reply under
// seed 000's rule.
func strictRetryPrompt(problem error, _ json.RawMessage) string {
	return "That reply is not valid: " + clip(problem.Error(), 2<<10) + ". Reply again with the corrected JSON object only: no markdown, no text before or after it."
}

// retryPrompt tells the model what was wrong with its reply.
func retryPrompt(problem error, schema json.RawMessage) string {
	return "Your reply could not be used: " + clip(problem.Error(), 2<<10) +
		"\nReply again with exactly one JSON value that satisfies this JSON schema, with no prose and no code fences:\n" +
		clip(string(schema), 8<<10)
}

// clip shortens s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// schemas caches compiled schemas by their text; the schemas a program
// sends are few and fixed. Past maxCachedSchemas, schemas are compiled
// each time.
var (
	schemasMu sync.Mutex
	schemas   = map[string]*jsonschema.Schema{}
)

const maxCachedSchemas = 256

// compileSchema compiles a self-contained JSON schema (draft 2020-12
// unless it says otherwise); it loads no $ref from files or the network.
func compileSchema(raw json.RawMessage) (*jsonschema.Schema, error) {
	key := string(raw)
	schemasMu.Lock()
	s, ok := schemas[key]
	schemasMu.Unlock()
	if ok {
		return s, nil
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("schema is not JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	const loc = "mem:///reply.schema.json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, fmt.Errorf("add schema: %w", err)
	}
	s, err = c.Compile(loc)
	if err != nil {
		return nil, fmt.Errorf("compile schema: %w", err)
	}
	schemasMu.Lock()
	if len(schemas) < maxCachedSchemas {
		schemas[key] = s
	}
	schemasMu.Unlock()
	return s, nil
}

// noLoader refuses every external reference.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("schema reference %q is external; schemas must be self-contained", url)
}
