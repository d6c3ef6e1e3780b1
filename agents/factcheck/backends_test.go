package factcheck

import (
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/llm"
	"github.com/verity-fc/verity/llm/llmtest"
)

// TestRunOverModelBackends runs the pipeline through the real Ollama and
// OpenAI clients and the router, against fake servers on loopback.
func TestRunOverModelBackends(t *testing.T) {
	reply := func(r llmtest.Request) llmtest.Reply {
		switch r.Model {
		case "ext":
			return llmtest.Reply{Content: extraction}
		case "c1":
			return llmtest.Reply{Content: verifications("VERIFIED HIGH", "VERIFIED HIGH", "DISPUTED MEDIUM About 27%.")}
		case "c3":
			return llmtest.Reply{Content: verifications("VERIFIED MEDIUM", "DISPUTED LOW Signed by 195.", "DISPUTED HIGH About 27%.")}
		case "rep":
			return llmtest.Reply{Content: modelReport}
		}
		return llmtest.Reply{Status: http.StatusServiceUnavailable, Error: "model is overloaded"}
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	oa := llmtest.NewOpenAI(t, llmtest.Config{Reply: reply, Models: []string{"ext", "c1", "rep"}})
	ol := llmtest.NewOllama(t, llmtest.Config{Reply: reply, Models: []string{"c2", "c3"}})
	openai, err := llm.NewOpenAI(oa.URL+"/v1", &http.Client{}, llm.OpenAIConfig{}, logger)
	if err != nil {
		t.Fatal(err)
	}
	ollama, err := llm.NewOllama(ol.URL, &http.Client{}, llm.OllamaConfig{}, logger)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(nil, Config{})
	e.p.deps.Chat = llm.NewRouter(nil, map[string]llm.Chatter{"openai": openai, "ollama": ollama})

	res, err := e.run(t, Request{Question: "Check", Mode: "fact_check", ModeConfig: &ModeConfig{ContentToCheck: article,
		ExtractorModel: "openai/ext", CheckerModels: []string{"openai/c1", "ollama/c2", "ollama/c3"}, ReporterModel: "openai/rep"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range res.Verification.Consensus {
		got = append(got, c.ClaimID+" "+c.ConsensusVerdict)
	}
	if diff := cmp.Diff([]string{"claim_1 VERIFIED", "claim_2 DISPUTED", "claim_3 DISPUTED"}, got); diff != "" {
		t.Errorf("consensus (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]CheckerFailure{{Model: "ollama/c2", Error: "failed"}}, res.Verification.Failed); diff != "" {
		t.Errorf("failed checkers (-want +got):\n%s", diff)
	}
	if res.Report.Model != "openai/rep" || res.Report.ReliabilityScore == nil || *res.Report.ReliabilityScore != 78 {
		t.Errorf("report = %+v", res.Report)
	}
	reqs := ol.Requests()
	var c3 string
	for _, r := range reqs {
		if r.Model == "c3" {
			c3 = r.LastUser()
		}
	}
	if !strings.Contains(c3, "CLAIM claim_2: The Paris Agreement was signed in 2015 by 196 countries") {
		t.Errorf("c3 was not sent the verification prompt: %q", c3)
	}
}
