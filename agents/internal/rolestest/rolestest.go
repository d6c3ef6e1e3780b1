// Package rolestest holds the fakes that the agent pipelines' tests share:
// an NLI judge that answers from a table and a chat backend whose models
// answer with functions of their prompts and record what they were asked.
package rolestest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/llm"
	"github.com/verity-fc/verity/nli"
)

// NLI answers from Table keyed by claim and passage; any other pair is
// neutral. It records every pair it judged. Err, when set, fails every
// call.
type NLI struct {
	Table map[[2]string]evidence.Judgment
	Err   error

	mu   sync.Mutex
	seen [][2]string
}

// Judge implements the nli.Judge contract.
func (f *NLI) Judge(_ context.Context, claim string, passages []string) ([]evidence.Judgment, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.Err != nil {
		return nil, f.Err
	}
	out := make([]evidence.Judgment, len(passages))
	for i, p := range passages {
		f.seen = append(f.seen, [2]string{claim, p})
		j, ok := f.Table[[2]string{claim, p}]
		if !ok {
			j = evidence.Judgment{Neutral: 1}
		}
		out[i] = j
	}
	return out, nil
}

// Seen returns the (claim, passage) pairs judged so far.
func (f *NLI) Seen() [][2]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][2]string(nil), f.seen...)
}

// Entails is a judgment with entailment p and the rest neutral.
func Entails(p float64) evidence.Judgment { return evidence.Judgment{Entail: p, Neutral: 1 - p} }

// Contradicts is a judgment with contradiction p and the rest neutral.
func Contradicts(p float64) evidence.Judgment {
	return evidence.Judgment{Contradict: p, Neutral: 1 - p}
}

// Models is a chat backend whose models each answer with a function of
// the prompt (the first message); it records every request's messages,
// joined, by model.
type Models struct {
	Answer map[string]func(prompt string) (string, error)

	mu      sync.Mutex
	prompts map[string][]string
}

// ErrNoModel answers a request for a model that Answer lacks.
var ErrNoModel = errors.New("no such model")

// Chat implements llm.Chatter.
func (m *Models) Chat(_ context.Context, req llm.ChatRequest) (llm.ChatResponse, error) {
	m.mu.Lock()
	if m.prompts == nil {
		m.prompts = map[string][]string{}
	}
	var all []string
	for _, msg := range req.Messages {
		all = append(all, msg.Content)
	}
	m.prompts[req.Model] = append(m.prompts[req.Model], strings.Join(all, "\n"))
	f, ok := m.Answer[req.Model]
	m.mu.Unlock()
	if !ok {
		return llm.ChatResponse{}, fmt.Errorf("%w: %q", ErrNoModel, req.Model)
	}
	content, err := f(req.Messages[0].Content)
	if err != nil {
		return llm.ChatResponse{}, err
	}
	return llm.ChatResponse{Content: content, Model: req.Model}, nil
}

// Prompts returns the prompts model received, in order.
func (m *Models) Prompts(model string) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.prompts[model]...)
}

// Reply is an answer that is always s.
func Reply(s string) func(string) (string, error) {
	return func(string) (string, error) { return s, nil }
}

// AssertErr fails t unless err mentions want, or, when want is "", unless
// err is nil.
func AssertErr(t testing.TB, err error, want string) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Errorf("err = %v, want none", err)
		}
		return
	}
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want one about %q", err, want)
	}
}

// Row is one labeled example.
type Row struct {
	Claim string
	// Text is the evidence sentences, or a SciFact abstract, joined.
	Text  string
	Label string
}

// ReadRows reads every every-th line of the JSONL file at path (a labeled
// set of the shared data) that has evidence, up to max rows. With
// abstract, the text is the line's "abstract" rather than its "evidence".
func ReadRows(t testing.TB, path string, every, max int, abstract bool) []Row {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("labeled data: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var out []Row
	for i := 1; sc.Scan() && len(out) < max; i++ {
		if i%every != 0 {
			continue
		}
		var d struct {
			Claim    string   `json:"claim"`
			Evidence []string `json:"evidence"`
			Abstract []string `json:"abstract"`
			Label    string   `json:"label"`
		}
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatalf("%s line %d: %v", path, i, err)
		}
		text := d.Evidence
		if abstract {
			text = d.Abstract
		}
		if len(text) > 0 {
			out = append(out, Row{Claim: d.Claim, Text: strings.Join(text, " "), Label: d.Label})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out
}

// BuiltinNLI returns the NLI judge that ships with verity as the default:
// the aligning network.
func BuiltinNLI(t testing.TB) *nli.Builtin {
	t.Helper()
	j, err := nli.LoadBuiltin()
	if err != nil {
		t.Fatal(err)
	}
	return j
}
