package entail

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/verity-fc/verity/llm"
	"github.com/verity-fc/verity/llm/llmtest"
)

// byAgent answers each agent's prompt (its first message) over the fake
// server's HTTP API.
func byAgent(r llmtest.Request) llmtest.Reply {
	prompt := r.Messages[0].Content
	switch {
	case strings.Contains(prompt, "You are the EXTRACTOR"):
		return llmtest.Reply{Content: `{"agent": "EXTRACTOR", "statements": [{"id": 1, "text": "The Zephyr bridge opened to traffic in 1932."}]}`}
	case strings.Contains(prompt, "You are the RELIABILITY"):
		return llmtest.Reply{Content: `{"agent": "RELIABILITY", "source_type": "newspaper", "reliability": "MEDIUM", "confidence": 70}`}
	case strings.Contains(prompt, "You are the ENTAILMENT JUDGE"):
		return llmtest.Reply{Content: `{"agent": "ENTAILMENT_JUDGE", "verdict": "SUPPORTED", "confidence": 95, "reasoning": ["Statement 1 states it."]}`}
	case strings.Contains(prompt, "You are the ADVERSARIAL AUDITOR"):
		return llmtest.Reply{Content: `{"agent": "ADVERSARIAL_AUDITOR", "final_verdict": "UNCHANGED", "confidence_adjustment": 0, "auditor_reasoning": []}`}
	}
	return llmtest.Reply{Status: http.StatusBadRequest, Error: "unexpected prompt"}
}

func TestOverOllama(t *testing.T) {
	srv := llmtest.NewOllama(t, llmtest.Config{Reply: byAgent})
	client, err := llm.NewOllama(srv.URL, nil, llm.OllamaConfig{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	models := Models{Extractor: llmtest.ChatModel, Reliability: llmtest.ChatModel, Judge: llmtest.ChatModel, Auditor: llmtest.ChatModel}
	p := newPipeline(t, Deps{Chatter: client}, Config{Models: models})
	res, err := p.Run(context.Background(), Request{Claim: claim, SourceExcerpt: excerpt, SourceType: "newspaper"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Final.FinalVerdict != Supported || res.Final.FinalConfidence != 95 || res.Final.ReliabilityRating != Medium {
		t.Errorf("final = %+v", res.Final)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	for _, r := range reqs {
		if !strings.Contains(string(r.Format), `"agent"`) {
			t.Errorf("request without the agent's schema as its format: %s", r.Format)
		}
	}
}

func TestBackendDownOverOllama(t *testing.T) {
	srv := llmtest.NewOllama(t, llmtest.Config{Reply: func(llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Status: http.StatusServiceUnavailable, Error: "overloaded"}
	}})
	client, err := llm.NewOllama(srv.URL, nil, llm.OllamaConfig{Limits: llm.Limits{Retries: -1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := newPipeline(t, Deps{Chatter: client}, Config{Models: Models{Extractor: llmtest.ChatModel, Reliability: llmtest.ChatModel, Judge: llmtest.ChatModel, Auditor: llmtest.ChatModel}})
	_, err = p.Run(context.Background(), Request{Claim: claim, SourceExcerpt: excerpt, SourceType: "newspaper"})
	if !errors.Is(err, llm.ErrUnavailable) {
		t.Errorf("err = %v, want one matching llm.ErrUnavailable", err)
	}
}
