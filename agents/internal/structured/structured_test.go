package structured

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/llm"
)

type item struct {
	ID   int    `json:"id"`
	Text string `json:"text"`
}

type out struct {
	Agent string   `json:"agent"`
	Items []item   `json:"items"`
	Note  string   `json:"note,omitempty"`
	Tags  []string `json:"tags,omitempty"`
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    out
		wantErr string // a fragment of the message, which the model is shown
	}{
		{"valid", ` {"agent": "A", "items": [{"id": 1, "text": "x"}]}` + "\n", out{Agent: "A", Items: []item{{1, "x"}}}, ""},
		{"optional present", `{"agent": "A", "items": [], "note": "n", "tags": ["t"]}`, out{Agent: "A", Items: []item{}, Note: "n", Tags: []string{"t"}}, ""},
		{"empty", "  ", out{}, "empty"},
		{"markdown fence", "```json\n{\"agent\": \"A\", \"items\": []}\n```", out{}, "must be a JSON object and nothing else"},
		{"prose before", `Sure! {"agent": "A", "items": []}`, out{}, "nothing else"},
		{"trailing text", `{"agent": "A", "items": []} Hope this helps`, out{}, "text after the JSON object"},
		{"two objects", `{"agent": "A", "items": []}{"agent": "B", "items": []}`, out{}, "text after"},
		{"missing field", `{"agent": "A"}`, out{}, "items: is required"},
		{"null field", `{"agent": "A", "items": null}`, out{}, "items: is required"},
		{"missing nested", `{"agent": "A", "items": [{"id": 1}]}`, out{}, "items[0].text: is required"},
		{"unknown field", `{"agent": "A", "items": [], "extra": 1}`, out{}, "extra: is not a field"},
		{"wrong type", `{"agent": 7, "items": []}`, out{}, "agent: must be a string"},
		{"wrong nested type", `{"agent": "A", "items": [{"id": "one", "text": "x"}]}`, out{}, "must be an integer"},
		{"array not object", `[1]`, out{}, "must be a JSON object"},
		{"truncated", `{"agent": "A", "items": [`, out{}, "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode[out](tt.content)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// scripted replies with the given contents in turn and records requests.
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
	r := s.replies[0]
	if len(s.replies) > 1 {
		s.replies = s.replies[1:]
	}
	return llm.ChatResponse{Content: r}, nil
}

func TestAskRetriesThenSucceeds(t *testing.T) {
	c := &scripted{replies: []string{"not json", `{"agent": "B", "items": []}`, `{"agent": "A", "items": []}`}}
	check := func(o *out) error {
		if o.Agent != "A" {
			return errors.New(`agent: must be "A"`)
		}
		return nil
	}
	got, err := Ask(context.Background(), c, "TEST", llm.ChatRequest{Model: "m", Messages: []llm.Message{{Role: "user", Content: "go"}}}, 3, check)
	if err != nil {
		t.Fatal(err)
	}
	if got.Agent != "A" || len(c.reqs) != 3 {
		t.Fatalf("got %+v after %d requests", got, len(c.reqs))
	}
	// The third request carries both invalid replies and what was wrong.
	last := c.reqs[2].Messages
	if len(last) != 5 || last[1].Content != "not json" || !strings.Contains(last[4].Content, `agent: must be "A"`) {
		t.Errorf("feedback messages = %+v", last)
	}
	if len(c.reqs[0].Messages) != 1 {
		t.Errorf("the first request was changed by later ones: %+v", c.reqs[0].Messages)
	}
}

func TestAskFailsNamingTheAgent(t *testing.T) {
	c := &scripted{replies: []string{`{"agent": "A"}`}}
	_, err := Ask[out](context.Background(), c, "ENTAILMENT_JUDGE", llm.ChatRequest{Model: "m"}, 2, nil)
	var se *Error
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want *Error", err)
	}
	if se.Agent != "ENTAILMENT_JUDGE" || se.Attempts != 2 || len(c.reqs) != 2 || !strings.Contains(err.Error(), "ENTAILMENT_JUDGE") {
		t.Errorf("err = %+v after %d requests", se, len(c.reqs))
	}
}

func TestAskDoesNotRetryBackendErrors(t *testing.T) {
	boom := errors.New("connection refused")
	c := &scripted{err: boom}
	_, err := Ask[out](context.Background(), c, "EXTRACTOR", llm.ChatRequest{}, 3, nil)
	if !errors.Is(err, boom) || len(c.reqs) != 1 || !strings.Contains(err.Error(), "EXTRACTOR") {
		t.Errorf("err = %v after %d requests", err, len(c.reqs))
	}
	var se *Error
	if errors.As(err, &se) {
		t.Errorf("a backend error is not an invalid output: %v", err)
	}
}

func TestCheck(t *testing.T) {
	o := out{}
	err := Check("RELIABILITY", &o, func(*out) error { return errors.New("reliability: must be HIGH, MEDIUM or LOW") })
	var se *Error
	if !errors.As(err, &se) || se.Agent != "RELIABILITY" {
		t.Errorf("err = %v", err)
	}
	if err := Check("RELIABILITY", &o, func(*out) error { return nil }); err != nil {
		t.Error(err)
	}
}

func TestAskValidatesTheSchema(t *testing.T) {
	schema := []byte(`{"type":"object","required":["agent","items"],"properties":{"agent":{"enum":["A"]},"items":{"type":"array","maxItems":1}}}`)
	c := &scripted{replies: []string{`{"agent": "B", "items": []}`, `{"agent": "A", "items": [{"id": 1, "text": "x"}, {"id": 2, "text": "y"}]}`, `{"agent": "A", "items": []}`}}
	got, err := Ask[out](context.Background(), c, "TEST", llm.ChatRequest{Schema: schema}, 3, nil)
	if err != nil || got.Agent != "A" || len(c.reqs) != 3 {
		t.Fatalf("got %+v, %v after %d requests", got, err, len(c.reqs))
	}
	if msg := c.reqs[1].Messages[len(c.reqs[1].Messages)-1].Content; !strings.Contains(msg, "breaks the schema") || !strings.Contains(msg, "/agent") {
		t.Errorf("feedback = %q", msg)
	}
}

func TestValidate(t *testing.T) {
	schema := []byte(`{"type":"object","properties":{"n":{"type":"integer","minimum":0,"maximum":100}}}`)
	for content, ok := range map[string]bool{`{"n": 5}`: true, `{"n": 101}`: false, `{"n": 1.5}`: false, `{`: false} {
		if err := Validate(schema, content); (err == nil) != ok {
			t.Errorf("Validate(%s) = %v", content, err)
		}
	}
	if err := Validate([]byte(`{"type": 3}`), `{}`); err == nil {
		t.Error("an invalid schema compiled")
	}
}
