// Package llm holds the model contracts (chat and embeddings) and their
// clients: Ollama through the official client, and any OpenAI-compatible
// endpoint. Structured output is validated against a JSON schema and retried
// a bounded number of times.
package llm

import (
	"context"
	"encoding/json"
)

// Message is one chat turn. Role is "system", "user" or "assistant".
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// ChatRequest asks a model for one reply.
type ChatRequest struct {
	// Model names the model on its backend, e.g. "llama3.1:8b".
	Model    string
	Messages []Message
	// Schema, when set, is a JSON schema the reply must satisfy; backends
	// that support constrained decoding receive it as their format.
	Schema json.RawMessage
	// Temperature defaults to 0 (deterministic where the backend allows).
	Temperature float64
	// MaxTokens bounds the reply; 0 means the backend default.
	MaxTokens int
}

// ChatResponse is a model's reply.
type ChatResponse struct {
	Content          string
	Model            string
	PromptTokens     int
	CompletionTokens int
	// FinishReason is why the model stopped, as the backend says it:
	// "stop", or "length" when MaxTokens cut the reply short.
	FinishReason string
}

// Chatter is a chat backend.
type Chatter interface {
	Chat(ctx context.Context, req ChatRequest) (ChatResponse, error)
}

// Embedder turns texts into dense vectors, one per text, all of the same
// dimension.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}
