package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/verity-fc/verity/agents/entail"
	"github.com/verity-fc/verity/llm"
)

// realEntail is the entailment audit with every role built in over the
// neutral judge, so that the handler's validation is the pipeline's own.
func realEntail(t *testing.T) EntailmentRunner {
	t.Helper()
	p, err := entail.New(entail.Deps{NLI: neutralJudge{}, Logger: quietLogger()}, entail.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestEntailmentBadInput(t *testing.T) {
	ts := newTestServer(t, Deps{Entail: realEntail(t)})
	tests := []struct {
		name, body, field string
	}{
		{"empty claim", `{"claim": "", "source_excerpt": "x", "source_type": "news"}`, "claim"},
		{"no source type", `{"claim": "c", "source_excerpt": "x"}`, "source_type"},
		{"no source excerpt", `{"claim": "c", "source_type": "news"}`, "source_excerpt"},
		{"wrong type", `{"claim": "c", "source_excerpt": 3, "source_type": "news"}`, "source_excerpt"},
		{"unknown field", `{"claim": "c", "source_excerpt": "", "source_type": "news", "reliability": "HIGH"}`, "reliability"},
		{"long claim", `{"claim": "` + strings.Repeat("a", 1001) + `", "source_excerpt": "", "source_type": "news"}`, "claim"},
		{"too large", `{"claim": "c", "source_excerpt": "` + strings.Repeat("b", 5000) + `", "source_type": "news"}`, "body"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := post(t, ts.URL+"/v1/entailment", tt.body)
			wantProblem(t, resp, body, http.StatusBadRequest, tt.field, "")
		})
	}
}

func TestEntailment(t *testing.T) {
	ts := newTestServer(t, Deps{Entail: realEntail(t)})
	resp, body := post(t, ts.URL+"/v1/entailment", `{"claim": "The bridge opened in 1932.", "source_excerpt": "The bridge opened in 1932. It is red.", "source_type": "personal blog"}`)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var res entail.Result
	if err := json.Unmarshal(body, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Extractor.Statements) != 2 || res.Reliability.Reliability != entail.Low || res.Judge.Verdict != entail.NotEnoughInfo ||
		res.Auditor.Agent != entail.AgentAuditor || len(res.Final.Notes) != 2 {
		t.Errorf("result = %s", body)
	}

	resp, body = post(t, ts.URL+"/v1/entailment", `{"claim": "The bridge opened in 1932.", "source_excerpt": "", "source_type": "government report"}`)
	if err := json.Unmarshal(body, &res); err != nil || resp.StatusCode != http.StatusOK || res.Final.FinalVerdict != entail.NotEnoughInfo || res.Final.FinalConfidence > 20 {
		t.Errorf("empty source: %d %s", resp.StatusCode, body)
	}
}

// garbage is a model that never answers with JSON.
type garbage struct{}

func (garbage) Chat(context.Context, llm.ChatRequest) (llm.ChatResponse, error) {
	return llm.ChatResponse{Content: "I think it is true."}, nil
}

func TestEntailmentAgentFailureNamesTheAgent(t *testing.T) {
	p, err := entail.New(entail.Deps{Chatter: garbage{}, NLI: neutralJudge{}, Logger: quietLogger()}, entail.Config{Models: entail.Models{Reliability: "m"}, Attempts: 2})
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, Deps{Entail: p})
	resp, body := post(t, ts.URL+"/v1/entailment", `{"claim": "c", "source_excerpt": "s", "source_type": "news"}`)
	wantProblem(t, resp, body, http.StatusBadGateway, "", "RELIABILITY")
}

func TestEntailmentRouteNeedsAPipeline(t *testing.T) {
	ts := newTestServer(t, Deps{})
	resp, _ := post(t, ts.URL+"/v1/entailment", `{}`)
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("status %d without a pipeline", resp.StatusCode)
	}
}

// wantProblem checks a problem answer: its status, the field it names and
// a fragment of its detail.
func wantProblem(t *testing.T, resp *http.Response, body []byte, status int, field, detail string) {
	t.Helper()
	var p Problem
	if err := json.Unmarshal(body, &p); err != nil || resp.StatusCode != status || p.Field != field || !strings.Contains(p.Detail, detail) {
		t.Errorf("status %d, problem %s; want %d naming field %q and %q", resp.StatusCode, body, status, field, detail)
	}
}
