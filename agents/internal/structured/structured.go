// Package structured asks a chat model for one JSON object on behalf of
// an agent of seed 000 or seed 002 and names the agent when the model
// gives no valid output. The work is llm.Structured's in its strict mode
// (StructuredOptions.Strict): the whole reply is a single JSON object, with
// no markdown, no text around it, no unknown field and no required field
// missing or null, it satisfies the request's JSON schema, and the
// caller's own check passes (statements copied word for word, reasoning
// that cites existing statements, an auditor that only downgrades). An
// invalid reply is sent back to the model with the problem named and asked
// again, a bounded number of times; then the call fails with an *Error
// naming the agent.
package structured

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/verity-fc/verity/llm"
)

// DefaultAttempts is how many replies Ask reads when the caller gives no
// number: the first and two retries.
const DefaultAttempts = 3

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
// check on it (check may be nil) and validates it against req.Schema when
// set. attempts bounds the replies read; 0 means DefaultAttempts. A backend
// error is returned at once, wrapped with the agent's name: only invalid
// replies are retried.
func Ask[T any](ctx context.Context, c llm.Chatter, agent string, req llm.ChatRequest, attempts int, check func(*T) error) (T, error) {
	if attempts <= 0 {
		attempts = DefaultAttempts
	}
	opts := llm.StructuredOptions{Strict: true, Retries: attempts - 1}
	if attempts == 1 {
		opts.Retries = -1 // none; 0 would mean llm's default
	}
	if check != nil {
		opts.Check = func(v any) error { return check(v.(*T)) }
	}
	var out T
	err := llm.Structured(ctx, c, req, &out, opts)
	var se *llm.SchemaError
	switch {
	case errors.As(err, &se):
		var zero T
		return zero, &Error{Agent: agent, Model: req.Model, Attempts: se.Attempts, Err: se.Err}
	case err != nil:
		var zero T
		return zero, fmt.Errorf("agent %s: %w", agent, err)
	}
	return out, nil
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

// Decode reads content strictly into a T; see llm.DecodeStrict.
func Decode[T any](content string) (T, error) {
	var out T
	err := llm.DecodeStrict(content, &out)
	return out, err
}

// Validate checks the JSON value content against schema; see
// llm.ValidateReply.
func Validate(schema json.RawMessage, content string) error {
	return llm.ValidateReply(schema, content)
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
