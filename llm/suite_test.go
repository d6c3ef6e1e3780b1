package llm_test

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/verity-fc/verity/llm"
	"github.com/verity-fc/verity/llm/chattest"
	"github.com/verity-fc/verity/llm/llmtest"
)

// client is what both backends offer.
type client interface {
	llm.Chatter
	llm.Embedder
	LabelLogprobs(ctx context.Context, model, prompt string, labels []string) (map[string]float64, error)
	Ping(ctx context.Context) error
}

// backend is a client under test and the models it should use.
type backend struct {
	name       string // "ollama" or "openai", as BackendError.Backend says
	chatModel  string
	embedModel string
	c          client
}

func newFakeOllama(t *testing.T, cfg llmtest.Config, lim llm.Limits) (*llmtest.Server, backend) {
	t.Helper()
	srv := llmtest.NewOllama(t, cfg)
	c, err := llm.NewOllama(srv.URL, http.DefaultClient, llm.OllamaConfig{ChatModel: llmtest.ChatModel, EmbedModel: llmtest.EmbedModel, Limits: lim}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return srv, backend{name: "ollama", chatModel: llmtest.ChatModel, embedModel: llmtest.EmbedModel, c: c}
}

func newFakeOpenAI(t *testing.T, cfg llmtest.Config, lim llm.Limits) (*llmtest.Server, backend) {
	t.Helper()
	srv := llmtest.NewOpenAI(t, cfg)
	c, err := llm.NewOpenAI(srv.URL+"/v1", http.DefaultClient, llm.OpenAIConfig{APIKey: cfg.APIKey, ChatModel: llmtest.ChatModel, EmbedModel: llmtest.EmbedModel, Limits: lim}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return srv, backend{name: "openai", chatModel: llmtest.ChatModel, embedModel: llmtest.EmbedModel, c: c}
}

// backends returns the fake servers and, when the environment names them,
// real ones: OLLAMA_HOST (with VERITY_TEST_OLLAMA_CHAT_MODEL and
// VERITY_TEST_OLLAMA_EMBED_MODEL), and VERITY_OPENAI_BASE_URL with
// VERITY_OPENAI_API_KEY (and VERITY_TEST_OPENAI_CHAT_MODEL,
// VERITY_TEST_OPENAI_EMBED_MODEL).
func backends(t *testing.T) map[string]backend {
	t.Helper()
	_, fo := newFakeOllama(t, llmtest.Config{Reply: chattest.FakeModel}, llm.Limits{})
	_, fa := newFakeOpenAI(t, llmtest.Config{Reply: chattest.FakeModel, APIKey: "sk-test"}, llm.Limits{})
	out := map[string]backend{"fake ollama": fo, "fake openai": fa}
	if host := os.Getenv("OLLAMA_HOST"); host != "" {
		chat := cmp.Or(os.Getenv("VERITY_TEST_OLLAMA_CHAT_MODEL"), "llama3.2:1b")
		embed := cmp.Or(os.Getenv("VERITY_TEST_OLLAMA_EMBED_MODEL"), "nomic-embed-text")
		c, err := llm.NewOllama(host, http.DefaultClient, llm.OllamaConfig{ChatModel: chat, EmbedModel: embed}, nil)
		if err != nil {
			t.Fatal(err)
		}
		out["real ollama"] = backend{name: "ollama", chatModel: chat, embedModel: embed, c: c}
	}
	if base := os.Getenv("VERITY_OPENAI_BASE_URL"); base != "" {
		chat := cmp.Or(os.Getenv("VERITY_TEST_OPENAI_CHAT_MODEL"), "gpt-4o-mini")
		embed := cmp.Or(os.Getenv("VERITY_TEST_OPENAI_EMBED_MODEL"), "text-embedding-3-small")
		c, err := llm.NewOpenAI(base, http.DefaultClient, llm.OpenAIConfig{APIKey: os.Getenv("VERITY_OPENAI_API_KEY"), ChatModel: chat, EmbedModel: embed}, nil)
		if err != nil {
			t.Fatal(err)
		}
		out["real openai"] = backend{name: "openai", chatModel: chat, embedModel: embed, c: c}
	}
	return out
}

// TestBackendSuite runs the checks particular to verity's two clients
// against every backend: the fake servers always, real servers when the
// environment names them. What any Chatter or Embedder must do is checked by
// the conformance suites (conformance_test.go).
func TestBackendSuite(t *testing.T) {
	for name, b := range backends(t) {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()

			t.Run("ping", func(t *testing.T) {
				if err := b.c.Ping(ctx); err != nil {
					t.Fatalf("Ping: %v", err)
				}
			})

			t.Run("label logprobs", func(t *testing.T) {
				lp, err := b.c.LabelLogprobs(ctx, b.chatModel, "Is fire hot? Answer with exactly one word, yes or no.", []string{"yes", "no"})
				if err != nil {
					t.Fatalf("LabelLogprobs: %v", err)
				}
				yes, ok := lp["yes"]
				if !ok || yes > 0 {
					t.Fatalf("LabelLogprobs = %v, want a log-probability for yes", lp)
				}
				if no, ok := lp["no"]; ok && no >= yes {
					t.Errorf("LabelLogprobs = %v, want yes above no", lp)
				}
			})

			t.Run("unknown model", func(t *testing.T) {
				_, err := b.c.Chat(ctx, llm.ChatRequest{Model: "no-such-model-xyz", Messages: []llm.Message{{Role: "user", Content: "hi"}}})
				var be *llm.BackendError
				if !errors.As(err, &be) || be.Backend != b.name || be.Status != http.StatusNotFound {
					t.Fatalf("Chat with an unknown model: err = %v, want a %s BackendError with status 404", err, b.name)
				}
				if errors.Is(err, llm.ErrUnavailable) {
					t.Errorf("an unknown model is reported as the backend being unavailable: %v", err)
				}
			})
		})
	}
}
