package llm_test

import (
	"testing"

	"github.com/verity-fc/verity/llm"
	"github.com/verity-fc/verity/llm/chattest"
	"github.com/verity-fc/verity/llm/embedtest"
)

var (
	_ llm.Chatter  = (*llm.Ollama)(nil)
	_ llm.Chatter  = (*llm.OpenAI)(nil)
	_ llm.Embedder = (*llm.Ollama)(nil)
	_ llm.Embedder = (*llm.OpenAI)(nil)
)

// TestChatterConformance runs the Chatter suite against every backend: the
// fake servers always, real servers when the environment names them (see
// backends).
func TestChatterConformance(t *testing.T) {
	for name, b := range backends(t) {
		t.Run(name, func(t *testing.T) {
			chattest.Run(t, b.c, chattest.Options{Model: b.chatModel})
		})
	}
}

// TestEmbedderConformance runs the Embedder suite against every backend.
// The fake servers' vectors hash the text, so only real models are asked
// to place a paraphrase near its sentence.
func TestEmbedderConformance(t *testing.T) {
	for name, b := range backends(t) {
		t.Run(name, func(t *testing.T) {
			embedtest.Run(t, b.c, embedtest.Options{Semantic: name == "real ollama" || name == "real openai"})
		})
	}
}
