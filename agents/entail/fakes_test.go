package entail

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/llm"
)

// fakeNLI answers from a table keyed by claim and passage; any other pair
// is neutral. It records every pair it judged.
type fakeNLI struct {
	mu    sync.Mutex
	table map[[2]string]evidence.Judgment
	seen  [][2]string
}

func (f *fakeNLI) Judge(_ context.Context, claim string, passages []string) ([]evidence.Judgment, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]evidence.Judgment, len(passages))
	for i, p := range passages {
		f.seen = append(f.seen, [2]string{claim, p})
		j, ok := f.table[[2]string{claim, p}]
		if !ok {
			j = evidence.Judgment{Neutral: 1}
		}
		out[i] = j
	}
	return out, nil
}

func entails(p float64) evidence.Judgment {
	return evidence.Judgment{Entail: p, Neutral: 1 - p}
}

func contradicts(p float64) evidence.Judgment {
	return evidence.Judgment{Contradict: p, Neutral: 1 - p}
}

// noNumbers is a number check that finds nothing to compare.
func noNumbers(string, string) evidence.NumCheck { return evidence.NumCheck{} }

// numbersDiffer reports claim figure c against source figure s whenever
// the source contains s.
func numbersDiffer(c, s string) func(string, string) evidence.NumCheck {
	return func(_, source string) evidence.NumCheck {
		if strings.Contains(source, s) {
			return evidence.NumCheck{Applicable: true, Mismatches: []evidence.Mismatch{{Claim: c, Source: s}}}
		}
		return evidence.NumCheck{}
	}
}

// models is a chat backend whose models each answer with a function of
// the prompt; it records the prompts each model received.
type models struct {
	mu      sync.Mutex
	answer  map[string]func(prompt string) string
	prompts map[string][]string
}

func (m *models) Chat(_ context.Context, req llm.ChatRequest) (llm.ChatResponse, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.prompts == nil {
		m.prompts = map[string][]string{}
	}
	var all []string
	for _, msg := range req.Messages {
		all = append(all, msg.Content)
	}
	m.prompts[req.Model] = append(m.prompts[req.Model], strings.Join(all, "\n"))
	f, ok := m.answer[req.Model]
	if !ok {
		return llm.ChatResponse{}, fmt.Errorf("no model %q", req.Model)
	}
	return llm.ChatResponse{Content: f(req.Messages[0].Content), Model: req.Model}, nil
}

func reply(s string) func(string) string { return func(string) string { return s } }

func (m *models) count(model string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.prompts[model])
}
