package llm_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/verity-fc/verity/llm"
	"github.com/verity-fc/verity/llm/llmtest"
)

// named is a Chatter that answers with its name and the model it was asked.
type named string

func (n named) Chat(_ context.Context, req llm.ChatRequest) (llm.ChatResponse, error) {
	return llm.ChatResponse{Content: string(n), Model: req.Model}, nil
}

func TestRouter(t *testing.T) {
	r := llm.NewRouter(named("default"), map[string]llm.Chatter{"ollama": named("ollama"), "openai": named("openai")})
	tests := []struct {
		model   string
		backend string
		name    string
	}{
		{"openai/gpt-4o-mini", "openai", "gpt-4o-mini"},
		{"ollama/llama3.1:8b", "ollama", "llama3.1:8b"},
		{"llama3.1:8b", "default", "llama3.1:8b"},
		{"hf.co/org/model:Q4", "default", "hf.co/org/model:Q4"},
		{"openai/meta-llama/Llama-3.1-8B-Instruct", "openai", "meta-llama/Llama-3.1-8B-Instruct"},
		{"openai/", "openai", ""},
		{"", "default", ""},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			resp, err := r.Chat(context.Background(), llm.ChatRequest{Model: tt.model})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(llm.ChatResponse{Content: tt.backend, Model: tt.name}, resp); diff != "" {
				t.Errorf("routed (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRouterWithoutDefault(t *testing.T) {
	r := llm.NewRouter(nil, map[string]llm.Chatter{"openai": named("openai")})
	if _, err := r.Chat(context.Background(), llm.ChatRequest{Model: "llama3.1"}); err == nil {
		t.Error("a bare model name with no default backend was routed")
	}
	if _, err := r.LabelLogprobs(context.Background(), "openai/m", "p", []string{"a"}); err == nil {
		t.Error("LabelLogprobs on a backend without log-probabilities succeeded")
	}
}

func TestRouterLabelLogprobs(t *testing.T) {
	srv := llmtest.NewOllama(t, llmtest.Config{Reply: func(llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Content: "yes", Alternatives: []llm.TokenLogprob{{Token: "yes", Logprob: -0.1}}}
	}})
	o, err := llm.NewOllama(srv.URL, nil, llm.OllamaConfig{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := llm.NewRouter(nil, map[string]llm.Chatter{"ollama": o})
	got, err := r.LabelLogprobs(context.Background(), "ollama/"+llmtest.ChatModel, "p", []string{"yes", "no"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]float64{"yes": -0.1}, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("LabelLogprobs (-want +got):\n%s", diff)
	}
	if m := srv.Requests()[0].Model; m != llmtest.ChatModel {
		t.Errorf("backend was asked for model %q, want %q", m, llmtest.ChatModel)
	}
}
