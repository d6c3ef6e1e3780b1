package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/verity-fc/verity/agents/jury"
)

// realJury is the jury with every role built in over the neutral judge.
func realJury(t *testing.T) JuryRunner {
	t.Helper()
	j, err := jury.New(jury.Deps{NLI: neutralJudge{}, Logger: quietLogger()}, jury.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestJuryBadInput(t *testing.T) {
	ts := newTestServer(t, Deps{Jury: realJury(t)})
	tests := []struct {
		name, body, field string
	}{
		{"nothing", `{}`, "pairs"},
		{"no truth", `{"claim": "c"}`, "truth"},
		{"empty claim", `{"claim": " ", "truth": "t"}`, "claim"},
		{"both forms", `{"claim": "c", "truth": "t", "pairs": [{"claim": "c", "truth": "t"}]}`, "pairs"},
		{"empty batch", `{"pairs": []}`, "pairs"},
		{"a bad pair", `{"pairs": [{"claim": "c", "truth": "t"}, {"claim": "c", "truth": ""}]}`, "pairs[1].truth"},
		{"unknown pair field", `{"pairs": [{"claim": "c", "truth": "t", "id": 4}]}`, "id"},
		{"batch over 50", `{"pairs": [` + strings.Repeat(`{"claim": "c", "truth": "t"},`, 50) + `{"claim": "c", "truth": "t"}]}`, "pairs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := post(t, ts.URL+"/v1/jury", tt.body)
			wantProblem(t, resp, body, http.StatusBadRequest, tt.field, "")
		})
	}
}

func TestJuryOnePair(t *testing.T) {
	ts := newTestServer(t, Deps{Jury: realJury(t)})
	resp, body := post(t, ts.URL+"/v1/jury", `{"claim": "Sales rose 12% in 2022.", "truth": "Sales rose 21% in 2022."}`)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var card jury.Card
	if err := json.Unmarshal(body, &card); err != nil {
		t.Fatal(err)
	}
	if card.Verdict != jury.Mutated || len(card.Rubric) != 5 || card.MinimalEdit != "Sales rose 21% in 2022." || len(card.Round0) != 4 || len(card.Round2) != 4 {
		t.Errorf("card = %s", body)
	}
}

func TestJuryBatch(t *testing.T) {
	ts := newTestServer(t, Deps{Jury: realJury(t)})
	resp, body := post(t, ts.URL+"/v1/jury", `{"pairs": [{"claim": "Sales rose 12% in 2022.", "truth": "Sales rose 21% in 2022."}, {"claim": "Sales rose.", "truth": "Sales rose."}]}`)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var batch JuryBatch
	if err := json.Unmarshal(body, &batch); err != nil {
		t.Fatal(err)
	}
	if len(batch.Results) != 2 || batch.Results[1].PairID != 1 || batch.Results[1].Card == nil || batch.Results[0].Card.Verdict != jury.Mutated {
		t.Errorf("batch = %s", body)
	}
}

// juryFunc is a JuryRunner whose pairs all fail with err.
type juryFunc struct{ err error }

func (j juryFunc) Run(context.Context, jury.Pair) (jury.Card, error) { return jury.Card{}, j.err }
func (j juryFunc) RunBatch(_ context.Context, ps []jury.Pair) []jury.Outcome {
	out := make([]jury.Outcome, len(ps))
	for i := range ps {
		out[i] = jury.Outcome{PairID: i, Err: j.err, Error: j.err.Error()}
	}
	return out
}

// agentErr stands for a model that gave no valid output.
type agentErr struct{ agent string }

func (e agentErr) Error() string       { return "agent " + e.agent + " gave no valid output" }
func (e agentErr) FailedAgent() string { return e.agent }

type downErr struct{}

func (downErr) Error() string       { return "connection refused" }
func (downErr) Unavailable() bool   { return true }
func (downErr) BackendName() string { return "ollama" }

func TestJuryFailures(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		status int
		detail string
	}{
		{"too few jurors, causes unknown", &jury.TooFewJurorsError{Have: 2, Need: 3}, http.StatusInternalServerError, ""},
		{"an agent's invalid output", fmt.Errorf("pair 0: foreperson: %w", agentErr{"FOREPERSON"}), http.StatusBadGateway, "FOREPERSON"},
		{"the model backend is down", fmt.Errorf("pair 0: parse: %w", downErr{}), http.StatusServiceUnavailable, "ollama"},
		{"the deadline", fmt.Errorf("pair 0: %w", context.DeadlineExceeded), http.StatusGatewayTimeout, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := newTestServer(t, Deps{Jury: juryFunc{tt.err}})
			resp, body := post(t, ts.URL+"/v1/jury", `{"claim": "c", "truth": "t"}`)
			wantProblem(t, resp, body, tt.status, "", tt.detail)
		})
	}
	// In a batch a failed pair is reported in its result.
	ts := newTestServer(t, Deps{Jury: juryFunc{errors.New("boom")}})
	resp, body := post(t, ts.URL+"/v1/jury", `{"pairs": [{"claim": "c", "truth": "t"}]}`)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"error":"boom"`) {
		t.Errorf("batch: %d %s", resp.StatusCode, body)
	}
}
