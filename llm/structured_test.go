package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/llm"
	"github.com/verity-fc/verity/llm/llmtest"
)

// scripted is a Chatter that gives replies in order, repeating the last,
// and records the requests.
type scripted struct {
	replies []string
	err     error
	reqs    []llm.ChatRequest
}

func (s *scripted) Chat(_ context.Context, req llm.ChatRequest) (llm.ChatResponse, error) {
	s.reqs = append(s.reqs, req)
	if s.err != nil {
		return llm.ChatResponse{}, s.err
	}
	return llm.ChatResponse{Content: s.replies[min(len(s.reqs), len(s.replies))-1]}, nil
}

var verdictSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"verdict": {"type": "string", "enum": ["supported", "refuted"]},
		"confidence": {"type": "number", "minimum": 0, "maximum": 1}
	},
	"required": ["verdict"]
}`)

type verdict struct {
	Verdict    string  `json:"verdict"`
	Confidence float64 `json:"confidence"`
}

func TestStructured(t *testing.T) {
	tests := []struct {
		name     string
		replies  []string
		opts     llm.StructuredOptions
		want     verdict
		attempts int  // chat calls made
		fail     bool // a *SchemaError is expected
	}{
		{name: "plain", replies: []string{`{"verdict": "supported", "confidence": 0.9}`}, want: verdict{"supported", 0.9}, attempts: 1},
		{name: "code fence", replies: []string{"```json\n{\"verdict\": \"refuted\"}\n```"}, want: verdict{Verdict: "refuted"}, attempts: 1},
		{name: "prose around", replies: []string{`Sure! Here is {my} answer: {"verdict": "refuted"} Hope it helps.`}, want: verdict{Verdict: "refuted"}, attempts: 1},
		{name: "invalid then valid", replies: []string{`{"verdict": "maybe"}`, `{"verdict": "supported"}`}, want: verdict{Verdict: "supported"}, attempts: 2},
		{name: "not JSON then valid", replies: []string{`I think it is supported.`, `{"verdict": "supported"}`}, want: verdict{Verdict: "supported"}, attempts: 2},
		{name: "unknown field is rejected", replies: []string{`{"verdict": "supported", "extra": 1}`, `{"verdict": "supported"}`}, want: verdict{Verdict: "supported"}, attempts: 2},
		{name: "unknown field allowed", replies: []string{`{"verdict": "supported", "extra": 1}`}, opts: llm.StructuredOptions{AllowUnknownFields: true}, want: verdict{Verdict: "supported"}, attempts: 1},
		{name: "always invalid", replies: []string{`{"verdict": "supported", "confidence": 7}`}, attempts: 3, fail: true},
		{name: "more retries", replies: []string{`{}`}, opts: llm.StructuredOptions{Retries: 4}, attempts: 5, fail: true},
		{name: "no retries", replies: []string{`{}`}, opts: llm.StructuredOptions{Retries: -1}, attempts: 1, fail: true},
		{name: "empty reply", replies: []string{``}, attempts: 3, fail: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &scripted{replies: tt.replies}
			req := llm.ChatRequest{Model: "m", Messages: []llm.Message{{Role: "user", Content: "judge"}}, Schema: verdictSchema}
			got := verdict{Verdict: "untouched"}
			err := llm.Structured(context.Background(), c, req, &got, tt.opts)
			if len(c.reqs) != tt.attempts {
				t.Errorf("chat calls = %d, want %d", len(c.reqs), tt.attempts)
			}
			if tt.fail {
				var se *llm.SchemaError
				if !errors.As(err, &se) || se.Attempts != tt.attempts || se.Model != "m" {
					t.Fatalf("err = %v, want a *SchemaError for model m after %d attempts", err, tt.attempts)
				}
				if got.Verdict != "untouched" {
					t.Errorf("out changed on failure: %+v", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("Structured: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("out (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStructuredRetryQuotesTheProblem(t *testing.T) {
	c := &scripted{replies: []string{`{"verdict": "maybe"}`, `{"verdict": "refuted"}`}}
	msgs := []llm.Message{{Role: "user", Content: "judge"}}
	var out verdict
	if err := llm.Structured(context.Background(), c, llm.ChatRequest{Messages: msgs, Schema: verdictSchema}, &out, llm.StructuredOptions{}); err != nil {
		t.Fatal(err)
	}
	second := c.reqs[1].Messages
	if len(second) != 3 || second[1].Role != "assistant" || second[1].Content != `{"verdict": "maybe"}` || second[2].Role != "user" {
		t.Fatalf("second request's messages = %+v, want the bad reply then a user turn", second)
	}
	if !strings.Contains(second[2].Content, "/verdict") {
		t.Errorf("retry prompt %q does not point at the offending field", second[2].Content)
	}
	if len(msgs) != 1 || len(c.reqs[0].Messages) != 1 {
		t.Errorf("the caller's messages were changed: %+v", msgs)
	}
	if string(c.reqs[1].Schema) != string(verdictSchema) {
		t.Errorf("the retry did not send the schema")
	}
}

func TestStructuredErrors(t *testing.T) {
	down := &llm.BackendError{Backend: "ollama", Op: "chat", Status: 503, Err: errors.New("busy")}
	tests := []struct {
		name  string
		c     *scripted
		req   llm.ChatRequest
		out   any
		calls int
	}{
		{name: "no schema", c: &scripted{replies: []string{`{}`}}, req: llm.ChatRequest{}, out: &verdict{}},
		{name: "out not a pointer", c: &scripted{replies: []string{`{}`}}, req: llm.ChatRequest{Schema: verdictSchema}, out: verdict{}},
		{name: "nil out", c: &scripted{replies: []string{`{}`}}, req: llm.ChatRequest{Schema: verdictSchema}, out: (*verdict)(nil)},
		{name: "schema does not compile", c: &scripted{replies: []string{`{}`}}, req: llm.ChatRequest{Schema: json.RawMessage(`{"type": 5}`)}, out: &verdict{}},
		{name: "external ref", c: &scripted{replies: []string{`{}`}}, req: llm.ChatRequest{Schema: json.RawMessage(`{"$ref": "file:///etc/passwd"}`)}, out: &verdict{}},
		{name: "backend error is not retried", c: &scripted{err: down}, req: llm.ChatRequest{Schema: verdictSchema}, out: &verdict{}, calls: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := llm.Structured(context.Background(), tt.c, tt.req, tt.out, llm.StructuredOptions{})
			var se *llm.SchemaError
			if err == nil || errors.As(err, &se) {
				t.Fatalf("err = %v, want an error that is not a SchemaError", err)
			}
			if len(tt.c.reqs) != tt.calls {
				t.Errorf("chat calls = %d, want %d", len(tt.c.reqs), tt.calls)
			}
		})
	}
	if err := llm.Structured(context.Background(), &scripted{err: down}, llm.ChatRequest{Schema: verdictSchema}, &verdict{}, llm.StructuredOptions{}); !errors.Is(err, llm.ErrUnavailable) {
		t.Errorf("a backend error lost its type: %v", err)
	}
}

// TestStructuredOverBackends runs invalid-then-valid and always-invalid
// replies through the fake servers.
func TestStructuredOverBackends(t *testing.T) {
	for bname, start := range fakes {
		t.Run(bname, func(t *testing.T) {
			srv, b := start(t, llmtest.Config{Reply: llmtest.Sequence(
				llmtest.Reply{Content: `{"verdict": "probably"}`},
				llmtest.Reply{Content: "```json\n{\"verdict\": \"supported\", \"confidence\": 0.75}\n```"},
			)}, llm.Limits{})
			var got verdict
			err := llm.Structured(context.Background(), b.c, llm.ChatRequest{Messages: []llm.Message{{Role: "user", Content: "judge"}}, Schema: verdictSchema}, &got, llm.StructuredOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(verdict{"supported", 0.75}, got); diff != "" {
				t.Errorf("out (-want +got):\n%s", diff)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 || !sameJSON(reqs[1].Format, verdictSchema) {
				t.Errorf("server saw %d requests, want 2 each with the schema as format", len(reqs))
			}

			_, b = start(t, llmtest.Config{Reply: func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: "no JSON here"} }}, llm.Limits{})
			err = llm.Structured(context.Background(), b.c, llm.ChatRequest{Messages: []llm.Message{{Role: "user", Content: "judge"}}, Schema: verdictSchema}, &got, llm.StructuredOptions{})
			var se *llm.SchemaError
			if !errors.As(err, &se) || se.Attempts != 3 {
				t.Errorf("err = %v, want a SchemaError after 3 attempts", err)
			}
		})
	}
}

// sameJSON reports whether a and b hold equal JSON values.
func sameJSON(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && cmp.Equal(x, y)
}

// TestStructuredStrict: seed 000's strict mode refuses what the lenient
// mode finds inside fences or prose, requires every field without
// omitempty, needs no schema, and retries what the caller's Check refuses.
func TestStructuredStrict(t *testing.T) {
	strictOpts := func(check func(any) error) llm.StructuredOptions {
		return llm.StructuredOptions{Strict: true, Check: check}
	}
	notRefuted := func(v any) error {
		if v.(*verdict).Verdict == "refuted" {
			return errors.New(`verdict: must not be "refuted" here`)
		}
		return nil
	}
	tests := []struct {
		name     string
		replies  []string
		schema   json.RawMessage
		check    func(any) error
		want     verdict
		attempts int
		fail     bool
		feedback string // in the second request's last message
	}{
		{name: "plain", replies: []string{`{"verdict": "supported", "confidence": 0.5}`}, want: verdict{"supported", 0.5}, attempts: 1},
		{name: "no schema needed", replies: []string{`{"verdict": "refuted", "confidence": 1}`}, want: verdict{"refuted", 1}, attempts: 1},
		{name: "fence refused", replies: []string{"```json\n{\"verdict\": \"refuted\", \"confidence\": 1}\n```", `{"verdict": "refuted", "confidence": 1}`}, want: verdict{"refuted", 1}, attempts: 2, feedback: "nothing else"},
		{name: "missing field", replies: []string{`{"verdict": "refuted"}`}, attempts: 3, fail: true, feedback: "confidence: is required"},
		{name: "schema", replies: []string{`{"verdict": "maybe", "confidence": 1}`, `{"verdict": "supported", "confidence": 1}`}, schema: verdictSchema, want: verdict{"supported", 1}, attempts: 2, feedback: "breaks the schema"},
		{name: "check", replies: []string{`{"verdict": "refuted", "confidence": 1}`, `{"verdict": "supported", "confidence": 1}`}, check: notRefuted, want: verdict{"supported", 1}, attempts: 2, feedback: `must not be "refuted"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &scripted{replies: tt.replies}
			var got verdict
			err := llm.Structured(context.Background(), c, llm.ChatRequest{Model: "m", Schema: tt.schema}, &got, strictOpts(tt.check))
			var se *llm.SchemaError
			if tt.fail != errors.As(err, &se) || (!tt.fail && err != nil) {
				t.Fatalf("err = %v, want failure %v", err, tt.fail)
			}
			if len(c.reqs) != tt.attempts {
				t.Errorf("%d chat calls, want %d", len(c.reqs), tt.attempts)
			}
			if !tt.fail {
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
			}
			if tt.feedback != "" {
				msgs := c.reqs[1].Messages
				if msg := msgs[len(msgs)-1].Content; !strings.Contains(msg, tt.feedback) || !strings.Contains(msg, "no markdown") {
					t.Errorf("feedback %q, want it to say %q", msg, tt.feedback)
				}
			}
		})
	}
}
