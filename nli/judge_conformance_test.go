package nli_test

import (
	"cmp"
	"math"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/verity-fc/verity/llm"
	"github.com/verity-fc/verity/llm/llmtest"
	"github.com/verity-fc/verity/nli"
	"github.com/verity-fc/verity/nli/judgetest"
)

var (
	_ nli.Judge = (*nli.Builtin)(nil)
	_ nli.Judge = (*nli.Ollama)(nil)
)

func TestBuiltinFeatureModelConformance(t *testing.T) {
	b, err := nli.LoadFeatureModel()
	if err != nil {
		t.Fatal(err)
	}
	judgetest.Run(t, b, judgetest.Options{Deterministic: true, Semantic: true, Contradiction: true})
}

func TestBuiltinAlignerConformance(t *testing.T) {
	b, err := nli.LoadAligner()
	if err != nil {
		t.Fatal(err)
	}
	judgetest.Run(t, b, judgetest.Options{Deterministic: true, Semantic: true, Contradiction: true})
}

// fakeNLIModel stands in for a model over the fake Ollama server: it
// answers the suite's passages as a model that follows the prompt would,
// from the log-probabilities of its first token.
func fakeNLIModel(r llmtest.Request) llmtest.Reply {
	p := r.LastUser()
	lp := func(probs ...float64) []llm.TokenLogprob {
		labels := []string{"Ent", "Contr", "Neutral"}
		if strings.HasPrefix(p, "Document:") { // MiniCheck's prompt
			labels = []string{"Yes", "No"}
		}
		out := make([]llm.TokenLogprob, len(labels))
		for i, l := range labels {
			out[i] = llm.TokenLogprob{Token: l, Logprob: math.Log(probs[i])}
		}
		return out
	}
	var alts []llm.TokenLogprob
	switch {
	case strings.Contains(p, "wrought-iron"):
		alts = lp(0.9, 0.05, 0.05)
	case strings.Contains(p, "Berlin"):
		alts = lp(0.05, 0.9, 0.05)
	default:
		alts = lp(0.1, 0.2, 0.7)
	}
	return llmtest.Reply{Content: alts[0].Token, Alternatives: alts}
}

// fakeOpenAIClient is the same fake model behind the fake
// OpenAI-compatible endpoint: the log-probability judge works over either
// client.
func fakeOpenAIClient(t *testing.T) *llm.OpenAI {
	t.Helper()
	srv := llmtest.NewOpenAI(t, llmtest.Config{Reply: fakeNLIModel, Models: []string{llmtest.ChatModel, "bespoke-minicheck"}})
	c, err := llm.NewOpenAI(srv.URL+"/v1", http.DefaultClient, llm.OpenAIConfig{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func fakeOllamaClient(t *testing.T) *llm.Ollama {
	t.Helper()
	srv := llmtest.NewOllama(t, llmtest.Config{Reply: fakeNLIModel, Models: []string{llmtest.ChatModel, "bespoke-minicheck"}})
	c, err := llm.NewOllama(srv.URL, http.DefaultClient, llm.OllamaConfig{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestOllamaJudgeConformance(t *testing.T) {
	for name, c := range map[string]nli.LogprobScorer{"ollama": fakeOllamaClient(t), "openai": fakeOpenAIClient(t)} {
		t.Run(name, func(t *testing.T) {
			j, err := nli.NewOllama(c, nli.OllamaConfig{Model: llmtest.ChatModel}, nil)
			if err != nil {
				t.Fatal(err)
			}
			judgetest.Run(t, j, judgetest.Options{Deterministic: true, Semantic: true, Contradiction: true})
		})
	}
}

func TestMiniCheckJudgeConformance(t *testing.T) {
	split, err := nli.LoadFeatureModel()
	if err != nil {
		t.Fatal(err)
	}
	for name, cfg := range map[string]nli.OllamaConfig{
		"no split":    {Model: "bespoke-minicheck"},
		"split":       {Model: "bespoke-minicheck", Split: split},
		"forced form": {Model: llmtest.ChatModel, Profile: nli.ProfileMiniCheck},
	} {
		t.Run(name, func(t *testing.T) {
			var c nli.LogprobScorer = fakeOllamaClient(t)
			if name == "forced form" {
				c = fakeOpenAIClient(t) // the profile over the other client
			}
			j, err := nli.NewOllama(c, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			judgetest.Run(t, j, judgetest.Options{Deterministic: true, Semantic: true, Contradiction: cfg.Split != nil})
		})
	}
}

// TestOllamaJudgeConformanceRealServer runs the suite against the Ollama
// server OLLAMA_HOST names, with VERITY_TEST_OLLAMA_CHAT_MODEL (default
// llama3.2:1b), and the OpenAI-compatible endpoint VERITY_OPENAI_BASE_URL
// names, with VERITY_OPENAI_API_KEY and VERITY_TEST_OPENAI_CHAT_MODEL
// (default gpt-4o-mini). A real model is not promised to be deterministic.
func TestOllamaJudgeConformanceRealServer(t *testing.T) {
	servers := map[string]func() (nli.LogprobScorer, string, error){}
	if host := os.Getenv("OLLAMA_HOST"); host != "" {
		servers["ollama"] = func() (nli.LogprobScorer, string, error) {
			c, err := llm.NewOllama(host, http.DefaultClient, llm.OllamaConfig{}, nil)
			return c, cmp.Or(os.Getenv("VERITY_TEST_OLLAMA_CHAT_MODEL"), "llama3.2:1b"), err
		}
	}
	if base := os.Getenv("VERITY_OPENAI_BASE_URL"); base != "" {
		servers["openai"] = func() (nli.LogprobScorer, string, error) {
			c, err := llm.NewOpenAI(base, http.DefaultClient, llm.OpenAIConfig{APIKey: os.Getenv("VERITY_OPENAI_API_KEY")}, nil)
			return c, cmp.Or(os.Getenv("VERITY_TEST_OPENAI_CHAT_MODEL"), "gpt-4o-mini"), err
		}
	}
	if len(servers) == 0 {
		t.Skip("neither OLLAMA_HOST nor VERITY_OPENAI_BASE_URL is set")
	}
	for name, open := range servers {
		t.Run(name, func(t *testing.T) {
			c, model, err := open()
			if err != nil {
				t.Fatal(err)
			}
			j, err := nli.NewOllama(c, nli.OllamaConfig{Model: model}, nil)
			if err != nil {
				t.Fatal(err)
			}
			judgetest.Run(t, j, judgetest.Options{Semantic: true, Contradiction: true})
		})
	}
}
