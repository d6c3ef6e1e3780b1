package nli

import (
	"context"
	"math"
	"net/http"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/llm"
	"github.com/verity-fc/verity/llm/llmtest"
)

// fixedJudge judges every passage the same; a test fake of the built-in
// judge that splits MiniCheck's "No".
type fixedJudge evidence.Judgment

func (f fixedJudge) Judge(_ context.Context, _ string, passages []string) ([]evidence.Judgment, error) {
	out := make([]evidence.Judgment, len(passages))
	for i := range out {
		out[i] = evidence.Judgment(f)
	}
	return out, nil
}

func TestMiniCheckProfile(t *testing.T) {
	ln := math.Log
	srv := llmtest.NewOllama(t, llmtest.Config{Models: []string{"bespoke-minicheck"}, Reply: func(llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Content: "Yes", Alternatives: []llm.TokenLogprob{{Token: "Yes", Logprob: ln(0.6)}, {Token: "No", Logprob: ln(0.15)}, {Token: "The", Logprob: ln(0.25)}}}
	}})
	c, err := llm.NewOllama(srv.URL, http.DefaultClient, llm.OllamaConfig{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		split Judge
		want  evidence.Judgment
	}{
		{"no split: No is neutral", nil, evidence.Judgment{Entail: 0.8, Neutral: 0.2}},
		{"split by the built-in ratio", fixedJudge{Entail: 0.5, Contradict: 0.3, Neutral: 0.2}, evidence.Judgment{Entail: 0.8, Contradict: 0.2 * 0.6, Neutral: 0.2 * 0.4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, err := NewOllama(c, OllamaConfig{Model: "bespoke-minicheck", Split: tt.split}, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := j.Judge(context.Background(), "The bridge opened in 1937.", []string{"The bridge was opened to traffic in 1937.", " "})
			if err != nil {
				t.Fatal(err)
			}
			want := []evidence.Judgment{tt.want, {Neutral: 1}}
			if diff := gocmp.Diff(want, got, approx); diff != "" {
				t.Errorf("Judge (-want +got):\n%s", diff)
			}
		})
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want one per non-empty passage per judge (2)", len(reqs))
	}
	if p := reqs[0].Prompt; p != "Document: The bridge was opened to traffic in 1937.\nClaim: The bridge opened in 1937." {
		t.Errorf("prompt = %q, want MiniCheck's Document/Claim form", p)
	}
	if reqs[0].Model != "bespoke-minicheck" || !reqs[0].Logprobs {
		t.Errorf("request = %+v, want bespoke-minicheck with log-probabilities", reqs[0])
	}
}

func TestMiniCheckProfileErrors(t *testing.T) {
	srv := llmtest.NewOllama(t, llmtest.Config{Reply: func(llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Content: "Maybe", Alternatives: []llm.TokenLogprob{{Token: "Maybe", Logprob: -0.1}}}
	}})
	c, err := llm.NewOllama(srv.URL, http.DefaultClient, llm.OllamaConfig{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	j, err := NewOllama(c, OllamaConfig{Model: llmtest.ChatModel, Profile: ProfileMiniCheck}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Judge(context.Background(), "c", []string{"p"}); err == nil || !strings.Contains(err.Error(), "neither Yes nor No") {
		t.Errorf("Judge with no yes/no answer = %v, want an error saying so", err)
	}
	if _, err := NewOllama(c, OllamaConfig{Model: "x", Profile: "chat"}, nil); err == nil {
		t.Error("NewOllama with an unknown profile: want an error")
	}
}
