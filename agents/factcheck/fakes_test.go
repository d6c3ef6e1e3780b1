package factcheck

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/llm"
)

// reply answers one prompt for a fake model.
type reply func(ctx context.Context, prompt string) (string, error)

func answer(s string) reply { return func(context.Context, string) (string, error) { return s, nil } }

func failWith(err error) reply {
	return func(context.Context, string) (string, error) { return "", err }
}

// hang blocks until the context ends, as a model that never answers.
func hang(ctx context.Context, _ string) (string, error) {
	<-ctx.Done()
	return "", ctx.Err()
}

// fakeChat is a Chatter whose models are scripted replies.
type fakeChat struct {
	mu      sync.Mutex
	models  map[string]reply
	prompts map[string][]string
}

func newChat(models map[string]reply) *fakeChat {
	return &fakeChat{models: models, prompts: map[string][]string{}}
}

func (f *fakeChat) Chat(ctx context.Context, req llm.ChatRequest) (llm.ChatResponse, error) {
	f.mu.Lock()
	fn, ok := f.models[req.Model]
	if len(req.Messages) != 1 || req.Messages[0].Role != "user" {
		f.mu.Unlock()
		return llm.ChatResponse{}, fmt.Errorf("want one user message, got %+v", req.Messages)
	}
	f.prompts[req.Model] = append(f.prompts[req.Model], req.Messages[0].Content)
	f.mu.Unlock()
	if !ok {
		return llm.ChatResponse{}, fmt.Errorf("no such model %q", req.Model)
	}
	s, err := fn(ctx, req.Messages[0].Content)
	return llm.ChatResponse{Content: s, Model: req.Model}, err
}

func (f *fakeChat) promptsFor(model string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.prompts[model])
}

// memStore is an in-memory StageStore.
type memStore struct {
	mu     sync.Mutex
	stages []corpus.Stage
	err    error
}

func (m *memStore) PutStage(ctx context.Context, s corpus.Stage) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return m.err
	}
	m.stages = append(m.stages, s)
	return nil
}

func (m *memStore) Stages(_ context.Context, messageID string) ([]corpus.Stage, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []corpus.Stage
	for _, s := range m.stages {
		if s.MessageID == messageID {
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b corpus.Stage) int {
		return cmp.Or(cmp.Compare(a.StageOrder, b.StageOrder), a.CreatedAt.Compare(b.CreatedAt))
	})
	return out, nil
}

// types lists the stored stage types in write order.
func (m *memStore) types() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for _, s := range m.stages {
		out = append(out, fmt.Sprintf("%s/%d/%s/%s", s.StageType, s.StageOrder, s.Role, s.Model))
	}
	return out
}

// fakeClock is a clock that moves only when told to.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// recorder collects events. Run calls emit from one goroutine; the mutex is
// for tests that read while a run is going.
type recorder struct {
	mu     sync.Mutex
	events []Event
	on     func(Event)
}

func (r *recorder) emit(e Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	on := r.on
	r.mu.Unlock()
	if on != nil {
		on(e)
	}
}

func (r *recorder) names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, len(r.events))
	for i, e := range r.events {
		out[i] = e.Name
	}
	return out
}

// find returns the data of the first event named name.
func find[T any](t *testing.T, r *recorder, name string) T {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.events {
		if e.Name == name {
			d, ok := e.Data.(T)
			if !ok {
				t.Fatalf("%s carries %T", name, e.Data)
			}
			return d
		}
	}
	var zero T
	t.Fatalf("no %s event in %v", name, r.events)
	return zero
}

// testEnv wires a pipeline with fakes.
type testEnv struct {
	chat     *fakeChat
	verifier *fakeVerifier
	store    *memStore
	clock    *fakeClock
	p        *Pipeline
	rec      *recorder
}

func newEnv(models map[string]reply, cfg Config) *testEnv {
	e := &testEnv{
		verifier: &fakeVerifier{},
		store:    &memStore{},
		clock:    &fakeClock{t: testNow},
		rec:      &recorder{},
	}
	deps := Deps{Verifier: e.verifier, Stages: e.store, Now: e.clock.Now,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if models != nil {
		e.chat = newChat(models)
		deps.Chat = e.chat
	}
	n := 0
	var mu sync.Mutex
	deps.NewID = func() string {
		mu.Lock()
		defer mu.Unlock()
		n++
		return fmt.Sprintf("id-%d", n)
	}
	e.p = New(deps, cfg)
	return e
}

func (e *testEnv) run(t *testing.T, req Request) (Result, error) {
	t.Helper()
	return e.p.Run(context.Background(), req, e.rec.emit)
}

// req builds a request checking content with the given models.
func req(content string, checkers ...string) Request {
	return Request{Question: "Fact-check this article", Mode: "fact_check",
		ModeConfig: &ModeConfig{ContentToCheck: content, ExtractorModel: "ext", CheckerModels: checkers, ReporterModel: "rep"}}
}

// verifications writes a checker's reply in the seed's format; verdicts
// maps claim ids to "VERDICT CONFIDENCE[ correction]".
func verifications(verdicts ...string) string {
	var b strings.Builder
	for i, v := range verdicts {
		verdict, rest, _ := strings.Cut(v, " ")
		conf, corr, _ := strings.Cut(rest, " ")
		fmt.Fprintf(&b, "VERIFICATION claim_%d: %s\nEvidence: evidence %d from the checker.\nCorrection: %s\nConfidence: %s\n\n", i+1, verdict, i+1, or(corr, "N/A"), conf)
	}
	b.WriteString("VERIFICATION SUMMARY:\nVerified: 0\nDisputed: 0\nUnverifiable: 0")
	return b.String()
}

var errModelDown = errors.New("model backend refused the connection")

// stageData decodes the parsedData of the stored stage of type typ.
func stageData[T any](t *testing.T, m *memStore, typ string) T {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	var v T
	for _, s := range m.stages {
		if s.StageType == typ {
			if err := json.Unmarshal(s.ParsedData, &v); err != nil {
				t.Fatal(err)
			}
			return v
		}
	}
	t.Fatalf("no %s stage stored", typ)
	return v
}

func corpusStage(messageID, typ string, order int, model string, parsed []byte) corpus.Stage {
	return corpus.Stage{ID: messageID + "-" + typ, MessageID: messageID, StageType: typ, StageOrder: order, Model: model, ParsedData: parsed, CreatedAt: testNow}
}
