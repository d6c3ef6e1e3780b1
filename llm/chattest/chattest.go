// Package chattest is the conformance suite of llm.Chatter: the Ollama and
// OpenAI clients, over the fake servers of llmtest and real ones, run
// [Run]. FakeModel is the fake servers' stand-in for a model that follows
// the suite's prompts.
package chattest

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/verity-fc/verity/llm"
	"github.com/verity-fc/verity/llm/llmtest"
)

// Options name the model to ask and bound the suite.
type Options struct {
	// Model is the chat model the suite asks for by name; "" asks the
	// client's default.
	Model string
	// Timeout bounds the whole suite; default 5 minutes (a real model).
	Timeout time.Duration
}

// FakeModel answers as a model that follows the suite's prompts: JSON when
// a schema is asked for, a lower-case "yes" otherwise, and Yes with its
// alternatives when log-probabilities are asked for.
func FakeModel(r llmtest.Request) llmtest.Reply {
	switch {
	case len(r.Format) > 0:
		return llmtest.Reply{Content: `{"answer": "yes"}`}
	case r.Logprobs:
		return llmtest.Reply{Content: "Yes", Alternatives: []llm.TokenLogprob{{Token: "Yes", Logprob: -0.05}, {Token: "No", Logprob: -3.2}, {Token: " yes", Logprob: -4.1}}}
	default:
		return llmtest.Reply{Content: "yes"}
	}
}

var question = []llm.Message{
	{Role: "system", Content: "You answer with one lower-case word."},
	{Role: "user", Content: "Is fire hot? Answer yes or no."},
}

// Run checks the contract of llm.Chatter: a reply with content and a token
// count; a JSON schema constrains the reply; a request with no messages or
// an unknown model is an error that does not blame the backend's
// availability; a cancelled context ends the call with its error;
// concurrent calls are safe (run the suite with -race).
func Run(t *testing.T, c llm.Chatter, opts Options) {
	if opts.Timeout <= 0 {
		opts.Timeout = 5 * time.Minute
	}
	ctx, cancel := context.WithTimeout(t.Context(), opts.Timeout)
	defer cancel()

	t.Run("reply", func(t *testing.T) {
		resp, err := c.Chat(ctx, llm.ChatRequest{Model: opts.Model, Messages: question, MaxTokens: 64})
		if err != nil {
			t.Fatalf("Chat: %v", err)
		}
		if resp.Content == "" || resp.CompletionTokens == 0 {
			t.Errorf("Chat = %+v, want content and a token count", resp)
		}
	})

	t.Run("schema", func(t *testing.T) {
		schema := json.RawMessage(`{"type":"object","properties":{"answer":{"type":"string","enum":["yes","no"]}},"required":["answer"],"additionalProperties":false}`)
		var out struct {
			Answer string `json:"answer"`
		}
		err := llm.Structured(ctx, c, llm.ChatRequest{
			Model:    opts.Model,
			Messages: []llm.Message{{Role: "user", Content: `Is fire hot? Reply with JSON like {"answer": "yes"} or {"answer": "no"}.`}},
			Schema:   schema,
		}, &out, llm.StructuredOptions{})
		if err != nil {
			t.Fatalf("Structured: %v", err)
		}
		if out.Answer != "yes" {
			t.Errorf("answer = %q, want yes", out.Answer)
		}
	})

	t.Run("bad requests", func(t *testing.T) {
		for name, req := range map[string]llm.ChatRequest{
			"no messages":   {Model: opts.Model},
			"unknown model": {Model: "no-such-model-xyz", Messages: question},
		} {
			_, err := c.Chat(ctx, req)
			if err == nil {
				t.Errorf("%s: no error", name)
				continue
			}
			if errors.Is(err, llm.ErrUnavailable) {
				t.Errorf("%s: reported as the backend being unavailable: %v", name, err)
			}
		}
	})

	t.Run("cancelled context", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err := c.Chat(cctx, llm.ChatRequest{Model: opts.Model, Messages: question})
		if !errors.Is(err, context.Canceled) || errors.Is(err, llm.ErrUnavailable) {
			t.Errorf("Chat with a cancelled context: err = %v, want context.Canceled and not unavailable", err)
		}
	})

	t.Run("concurrent calls", func(t *testing.T) {
		const callers = 4
		var wg sync.WaitGroup
		errs := make([]error, callers)
		replies := make([]llm.ChatResponse, callers)
		for i := range callers {
			wg.Go(func() {
				replies[i], errs[i] = c.Chat(ctx, llm.ChatRequest{Model: opts.Model, Messages: question, MaxTokens: 64})
			})
		}
		wg.Wait()
		for i := range callers {
			if errs[i] != nil {
				t.Errorf("caller %d: %v", i, errs[i])
			} else if replies[i].Content == "" {
				t.Errorf("caller %d: empty reply", i)
			}
		}
	})
}
