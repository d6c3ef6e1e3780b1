package llm

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Router sends each request to the backend its model name selects, so that
// every role (extractor, judge, auditor, ...) can name its own model and
// backend in configuration:
//
//	"openai/gpt-4o-mini"  -> the "openai" backend, model "gpt-4o-mini"
//	"ollama/llama3.1:8b"  -> the "ollama" backend, model "llama3.1:8b"
//	"llama3.1:8b"         -> the default backend, model "llama3.1:8b"
//	"hf.co/org/model"     -> the default backend (no backend is named "hf.co")
//	"openai/"             -> the "openai" backend with its configured default model
//
// Only the part before the first "/" is looked up, and only names the
// router was given count as prefixes, so model names that contain a slash
// themselves ("openai/meta-llama/Llama-3.1-8B-Instruct" for vLLM) work.
// Router is a Chatter and, when the selected backend can, a label scorer.
type Router struct {
	def      Chatter
	byPrefix map[string]Chatter
}

// NewRouter returns a router. def serves bare model names and may be nil,
// in which case a bare name is an error. byPrefix maps backend names to
// backends; it is copied.
func NewRouter(def Chatter, byPrefix map[string]Chatter) *Router {
	return &Router{def: def, byPrefix: maps.Clone(byPrefix)}
}

// SplitModel splits a model name "BACKEND/NAME" into the backend and the
// backend's own name for the model when the part before the first "/" is
// one of backends. Otherwise backend is "" and name is model: a bare name,
// or one with a slash of its own ("hf.co/org/m").
func SplitModel(model string, backends ...string) (backend, name string) {
	if prefix, rest, ok := strings.Cut(model, "/"); ok && slices.Contains(backends, prefix) {
		return prefix, rest
	}
	return "", model
}

// Resolve returns the backend for model and the model's name on it.
func (r *Router) Resolve(model string) (Chatter, string, error) {
	if prefix, rest := SplitModel(model, slices.Collect(maps.Keys(r.byPrefix))...); prefix != "" {
		return r.byPrefix[prefix], rest, nil
	}
	if r.def == nil {
		return nil, "", fmt.Errorf("model %q names no configured backend (%s) and there is no default backend", model, r.prefixes())
	}
	return r.def, model, nil
}

func (r *Router) prefixes() string {
	names := slices.Sorted(maps.Keys(r.byPrefix))
	if len(names) == 0 {
		return "none configured"
	}
	return strings.Join(names, "/, ") + "/"
}

// Chat sends req to the backend req.Model selects, with the backend's own
// name for the model.
func (r *Router) Chat(ctx context.Context, req ChatRequest) (ChatResponse, error) {
	c, model, err := r.Resolve(req.Model)
	if err != nil {
		return ChatResponse{}, err
	}
	req.Model = model
	return c.Chat(ctx, req)
}

var (
	_ Chatter     = (*Router)(nil)
	_ labelScorer = (*Router)(nil)
	_ Chatter     = (*Ollama)(nil)
	_ Embedder    = (*Ollama)(nil)
	_ labelScorer = (*Ollama)(nil)
	_ Chatter     = (*OpenAI)(nil)
	_ Embedder    = (*OpenAI)(nil)
	_ labelScorer = (*OpenAI)(nil)
)

// labelScorer is what Ollama and OpenAI offer for logprob judging.
type labelScorer interface {
	LabelLogprobs(ctx context.Context, model, prompt string, labels []string) (map[string]float64, error)
}

// LabelLogprobs scores labels on the backend model selects; see
// [Ollama.LabelLogprobs]. The backend must offer log-probabilities.
func (r *Router) LabelLogprobs(ctx context.Context, model, prompt string, labels []string) (map[string]float64, error) {
	c, name, err := r.Resolve(model)
	if err != nil {
		return nil, err
	}
	s, ok := c.(labelScorer)
	if !ok {
		return nil, fmt.Errorf("model %q: its backend (%T) does not give token log-probabilities", model, c)
	}
	return s.LabelLogprobs(ctx, name, prompt, labels)
}
