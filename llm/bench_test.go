package llm_test

import (
	"context"
	"testing"

	"github.com/verity-fc/verity/llm"
	"github.com/verity-fc/verity/llm/llmtest"
)

// The benchmarks measure the clients' own cost (encoding, streaming,
// decoding, validation) against the in-process fake servers on loopback;
// a real model's time comes on top.

func BenchmarkChat(b *testing.B) {
	reply := func(llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Content: "The passage states that the tower is in Paris, which supports the claim in full."}
	}
	for name, start := range map[string]func(testing.TB, llmtest.Config) *llmtest.Server{"ollama": llmtest.NewOllama, "openai": llmtest.NewOpenAI} {
		b.Run(name, func(b *testing.B) {
			srv := start(b, llmtest.Config{Reply: reply})
			var c llm.Chatter
			var err error
			if name == "ollama" {
				c, err = llm.NewOllama(srv.URL, nil, llm.OllamaConfig{ChatModel: llmtest.ChatModel}, nil)
			} else {
				c, err = llm.NewOpenAI(srv.URL+"/v1", nil, llm.OpenAIConfig{ChatModel: llmtest.ChatModel}, nil)
			}
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := c.Chat(context.Background(), hi); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkStructured(b *testing.B) {
	c := &scripted{replies: []string{"```json\n{\"verdict\": \"supported\", \"confidence\": 0.8}\n```"}}
	req := llm.ChatRequest{Model: "m", Messages: []llm.Message{{Role: "user", Content: "judge"}}, Schema: verdictSchema}
	for b.Loop() {
		c.reqs = c.reqs[:0]
		var out verdict
		if err := llm.Structured(context.Background(), c, req, &out, llm.StructuredOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
