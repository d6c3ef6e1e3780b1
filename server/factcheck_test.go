package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/agents/factcheck"
	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/llm"
)

// chatFunc is a fake model backend.
type chatFunc func(ctx context.Context, req llm.ChatRequest) (llm.ChatResponse, error)

func (f chatFunc) Chat(ctx context.Context, req llm.ChatRequest) (llm.ChatResponse, error) {
	return f(ctx, req)
}

const fcArticle = "The Paris Agreement was signed in 2015 by 196 countries. China produces 30% of global emissions. I think it is wonderful."

const fcExtraction = "CLAIM 1: The Paris Agreement was signed in 2015 by 196 countries\nContext: The Paris Agreement was signed in 2015 by 196 countries.\nType: DATE\n\n" +
	"CLAIM 2: China produces 30% of global emissions\nContext: China produces 30% of global emissions.\nType: STATISTIC"

const fcVerification = "VERIFICATION claim_1: VERIFIED\nEvidence: Signed in Paris.\nCorrection: N/A\nConfidence: HIGH\n\n" +
	"VERIFICATION claim_2: DISPUTED\nEvidence: About 27%.\nCorrection: China produces about 27% of global emissions.\nConfidence: MEDIUM"

// models answers "ext" and "c1" in the seed's formats; hook, when set, runs
// first for c1 and may hold it.
func models(hook func(ctx context.Context) error) llm.Chatter {
	return chatFunc(func(ctx context.Context, req llm.ChatRequest) (llm.ChatResponse, error) {
		switch req.Model {
		case "ext":
			return llm.ChatResponse{Content: fcExtraction}, nil
		case "c1":
			if hook != nil {
				if err := hook(ctx); err != nil {
					return llm.ChatResponse{}, err
				}
			}
			return llm.ChatResponse{Content: fcVerification}, nil
		case "down":
			return llm.ChatResponse{}, errors.New("connection refused")
		}
		return llm.ChatResponse{}, fmt.Errorf("no model %q", req.Model)
	})
}

// factcheckServer serves a real pipeline over the real verify service (an
// empty corpus) and a SQLite stage store.
func factcheckServer(t *testing.T, chat llm.Chatter, cfg Config) (*httptest.Server, *corpus.SQLite) {
	t.Helper()
	db, err := corpus.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "corpus.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	p := factcheck.New(factcheck.Deps{Chat: chat, Verifier: realVerifier(), Stages: db, Logger: quietLogger()},
		factcheck.Config{StageTimeout: 20 * time.Second})
	cfg.MaxBodyBytes = 1 << 20
	ts := httptest.NewServer(New(cfg, Deps{Verifier: realVerifier(), FactCheck: p}, quietLogger()).Handler())
	t.Cleanup(ts.Close)
	return ts, db
}

func factcheckBody(checkers ...string) string {
	b, _ := json.Marshal(factcheck.Request{Question: "Fact-check this", Mode: "fact_check",
		ModeConfig: &factcheck.ModeConfig{ContentToCheck: fcArticle, ExtractorModel: "ext", CheckerModels: checkers}})
	return string(b)
}

type sseEvent struct {
	Name string
	Data json.RawMessage
}

// readEvents reads server-sent events until the stream ends, calling on
// for each as it arrives.
func readEvents(t *testing.T, r io.Reader, on func(sseEvent)) []sseEvent {
	t.Helper()
	var out []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, ":"):
			// A comment (keep-alive): not an event.
		case strings.HasPrefix(line, "event: "):
			cur.Name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.Data = json.RawMessage(strings.TrimPrefix(line, "data: "))
			if !json.Valid(cur.Data) {
				t.Errorf("event %s carries invalid JSON: %s", cur.Name, cur.Data)
			}
		case line == "" && cur.Name == "" && cur.Data == nil:
			// The blank line closing a comment dispatches nothing.
		case line == "":
			if cur.Name == "" {
				t.Errorf("an event without a name")
				continue
			}
			out = append(out, cur)
			if on != nil {
				on(cur)
			}
			cur = sseEvent{}
		default:
			t.Errorf("unexpected stream line %q", line)
		}
	}
	return out
}

func names(evs []sseEvent) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Name
	}
	return out
}

func streamRequest(ctx context.Context, t *testing.T, url, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/v1/factcheck", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestFactcheckStreamAndLoad(t *testing.T) {
	ts, _ := factcheckServer(t, models(nil), Config{})
	resp := streamRequest(context.Background(), t, ts.URL, factcheckBody("c1", factcheck.BuiltinEvidence))
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status = %d", resp.StatusCode)
	}
	for h, want := range map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"} {
		if got := resp.Header.Get(h); got != want {
			t.Errorf("%s = %q, want %q", h, got, want)
		}
	}
	evs := readEvents(t, resp.Body, nil)
	want := []string{"factcheck_start", "extract_start", "extract_complete", "verify_start", "checker_complete", "checker_complete",
		"all_checkers_complete", "report_start", "report_complete", "title_complete", "complete"}
	if diff := cmp.Diff(want, names(evs)); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	var start factcheck.StartPayload
	if err := json.Unmarshal(evs[0].Data, &start); err != nil || start.MessageID == "" {
		t.Fatalf("factcheck_start = %s (%v)", evs[0].Data, err)
	}
	var all factcheck.AllCheckersPayload
	if err := json.Unmarshal(evs[6].Data, &all); err != nil {
		t.Fatal(err)
	}

	// GET rebuilds the same result from the stored stages.
	r, body := get(t, ts.URL+"/v1/factchecks/"+start.MessageID)
	if r.StatusCode != http.StatusOK {
		t.Fatalf("GET status = %d: %s", r.StatusCode, body)
	}
	var loaded factcheck.Result
	if err := json.Unmarshal(body, &loaded); err != nil {
		t.Fatal(err)
	}
	if loaded.MessageID != start.MessageID || loaded.ConversationID != start.ConversationID || len(loaded.Verification.Checkers) != 2 {
		t.Errorf("loaded = %+v", loaded)
	}
	for i, c := range loaded.Verification.Consensus {
		if c.ConsensusVerdict != all.Consensus[i].ConsensusVerdict || c.AgreementRate != all.Consensus[i].AgreementRate {
			t.Errorf("claim %d: loaded %s %v%%, streamed %s %v%%", i, c.ConsensusVerdict, c.AgreementRate, all.Consensus[i].ConsensusVerdict, all.Consensus[i].AgreementRate)
		}
	}
}

func TestFactcheckJSON(t *testing.T) {
	ts, _ := factcheckServer(t, models(nil), Config{})
	resp, body := post(t, ts.URL+"/v1/factcheck", factcheckBody("c1"))
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("status = %d, type %q: %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	var res factcheck.Result
	if err := json.Unmarshal(body, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Verification.Consensus) != 2 || res.Report.ReliabilityScore == nil || *res.Report.ReliabilityScore != 50 {
		t.Errorf("result = %+v", res)
	}
	r, loaded := get(t, ts.URL+"/v1/factchecks/"+res.MessageID)
	if r.StatusCode != http.StatusOK {
		t.Fatalf("GET status = %d", r.StatusCode)
	}
	var a, b any
	if err := json.Unmarshal(body, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(loaded, &b); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("GET differs from POST (-post +get):\n%s", diff)
	}
}

// TestFactcheckStreamFlushesEachEvent holds the checker until the client
// has read verify_start: a buffered stream would never deliver it.
func TestFactcheckStreamFlushesEachEvent(t *testing.T) {
	seen := make(chan struct{})
	hold := func(ctx context.Context) error {
		select {
		case <-seen:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	ts, _ := factcheckServer(t, models(hold), Config{})
	resp := streamRequest(context.Background(), t, ts.URL, factcheckBody("c1"))
	defer resp.Body.Close()
	evs := readEvents(t, resp.Body, func(e sseEvent) {
		if e.Name == "verify_start" {
			close(seen)
		}
	})
	if got := names(evs); got[len(got)-1] != "complete" || !strings.Contains(strings.Join(got, " "), "checker_complete") {
		t.Errorf("events = %v", got)
	}
}

// TestFactcheckDisconnectCancels closes the client's connection mid-verify
// and waits for the checker's context to end.
func TestFactcheckDisconnectCancels(t *testing.T) {
	stopped := make(chan error, 1)
	started := make(chan struct{})
	var once sync.Once
	hang := func(ctx context.Context) error {
		once.Do(func() { close(started) })
		<-ctx.Done()
		stopped <- ctx.Err()
		return ctx.Err()
	}
	ts, db := factcheckServer(t, models(hang), Config{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Disconnect once the checker is running, so the cancellation must
	// reach a stage in progress.
	go func() {
		select {
		case <-started:
			cancel()
		case <-time.After(30 * time.Second):
		}
	}()
	resp := streamRequest(ctx, t, ts.URL, factcheckBody("c1"))
	defer resp.Body.Close()
	var messageID string
	readEvents(t, resp.Body, func(e sseEvent) {
		if e.Name == "factcheck_start" {
			var s factcheck.StartPayload
			_ = json.Unmarshal(e.Data, &s)
			messageID = s.MessageID
		}
	})
	select {
	case err := <-stopped:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("checker stopped with %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the pipeline went on after the client disconnected")
	}
	// What was done before the disconnect is stored.
	stages, err := db.Stages(context.Background(), messageID)
	if err != nil || len(stages) != 1 || stages[0].StageType != "extract" {
		t.Errorf("stages = %+v, %v; want the extract stage", stages, err)
	}
}

// deadlineRecorder is a FactChecker that records whether its calls carry a
// deadline.
type deadlineRecorder struct {
	run, load chan bool
}

func (d deadlineRecorder) Validate(factcheck.Request) error { return nil }

func (d deadlineRecorder) Run(ctx context.Context, _ factcheck.Request, emit func(factcheck.Event)) (factcheck.Result, error) {
	_, ok := ctx.Deadline()
	d.run <- ok
	if emit != nil {
		emit(factcheck.Event{Name: factcheck.EventComplete, Data: factcheck.Empty{}})
	}
	return factcheck.Result{}, nil
}

func (d deadlineRecorder) Load(ctx context.Context, _ string) (factcheck.Result, error) {
	_, ok := ctx.Deadline()
	d.load <- ok
	return factcheck.Result{}, nil
}

func TestFactcheckStreamIsNotUnderTheRequestTimeout(t *testing.T) {
	rec := deadlineRecorder{run: make(chan bool, 2), load: make(chan bool, 1)}
	ts := newTestServer(t, Deps{FactCheck: rec})
	resp := streamRequest(context.Background(), t, ts.URL, factcheckBody("c1"))
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if <-rec.run {
		t.Error("the event stream runs under the request timeout")
	}
	post(t, ts.URL+"/v1/factcheck", factcheckBody("c1"))
	if <-rec.run {
		t.Error("the JSON fact-check runs under the request timeout")
	}
	get(t, ts.URL+"/v1/factchecks/m1")
	if !<-rec.load {
		t.Error("GET /v1/factchecks has no request timeout")
	}
}

func TestFactcheckBadRequest(t *testing.T) {
	ts, _ := factcheckServer(t, models(nil), Config{})
	tests := []struct {
		name, body, field, detail string
	}{
		{"neither content nor generator", `{"question": "q", "mode": "fact_check", "modeConfig": {"extractorModel": "ext"}}`,
			"modeConfig", "modeConfig: Either contentToCheck or generatorModel must be provided"},
		{"no modeConfig", `{"question": "q", "mode": "fact_check"}`, "modeConfig", ""},
		{"no question", `{"mode": "fact_check", "modeConfig": {"contentToCheck": "x"}}`, "question", "question: Question or content description is required"},
		{"wrong mode", `{"question": "q", "mode": "jury", "modeConfig": {"contentToCheck": "x"}}`, "mode", ""},
		{"five checkers", `{"question": "q", "mode": "fact_check", "modeConfig": {"contentToCheck": "x", "checkerModels": ["a","b","c","d","e"]}}`, "modeConfig.checkerModels", ""},
		{"content length", `{"question": "q", "mode": "fact_check", "modeConfig": {"contentToCheck": "x", "maxContentLength": 100}}`, "modeConfig.maxContentLength", ""},
		{"timeout type", `{"question": "q", "mode": "fact_check", "modeConfig": {"contentToCheck": "x", "timeoutMs": "soon"}}`, "modeConfig.timeoutMs", ""},
		{"unknown field", `{"question": "q", "mode": "fact_check", "modeConfig": {"contentToCheck": "x", "checkers": ["a"]}}`, "checkers", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A stream request is refused with a plain 400 too.
			resp := streamRequest(context.Background(), t, ts.URL, tt.body)
			defer resp.Body.Close()
			var p Problem
			if err := json.NewDecoder(resp.Body).Decode(&p); err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != http.StatusBadRequest || p.Field != tt.field || (tt.detail != "" && p.Detail != tt.detail) {
				t.Errorf("status %d, problem %+v; want 400 field %q detail %q", resp.StatusCode, p, tt.field, tt.detail)
			}
		})
	}
}

func TestFactcheckNotFound(t *testing.T) {
	ts, _ := factcheckServer(t, models(nil), Config{})
	resp, body := get(t, ts.URL+"/v1/factchecks/no-such-message")
	var p Problem
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(p.Detail, "no-such-message") {
		t.Errorf("status %d, problem %+v", resp.StatusCode, p)
	}
	resp, _ = get(t, ts.URL+"/v1/factchecks/"+strings.Repeat("m", 201))
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("long id: status %d, want 400", resp.StatusCode)
	}
}

func TestFactcheckAllCheckersFail(t *testing.T) {
	ts, _ := factcheckServer(t, models(nil), Config{})
	resp, body := post(t, ts.URL+"/v1/factcheck", factcheckBody("down"))
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("JSON: status %d: %s", resp.StatusCode, body)
	}
	sresp := streamRequest(context.Background(), t, ts.URL, factcheckBody("down"))
	defer sresp.Body.Close()
	evs := readEvents(t, sresp.Body, nil)
	last := evs[len(evs)-1]
	if last.Name != "error" || string(last.Data) != `{"message":"All verification checkers failed."}` {
		t.Errorf("last event = %s %s", last.Name, last.Data)
	}
}

// failingFactChecker fails without emitting anything.
type failingFactChecker struct{ deadlineRecorder }

func (failingFactChecker) Run(context.Context, factcheck.Request, func(factcheck.Event)) (factcheck.Result, error) {
	return factcheck.Result{}, errors.New("boom")
}

func TestFactcheckStreamReportsUnemittedErrors(t *testing.T) {
	ts := newTestServer(t, Deps{FactCheck: failingFactChecker{}})
	resp := streamRequest(context.Background(), t, ts.URL, factcheckBody("c1"))
	defer resp.Body.Close()
	evs := readEvents(t, resp.Body, nil)
	if len(evs) != 1 || evs[0].Name != "error" || !strings.Contains(string(evs[0].Data), "the server failed to answer") {
		t.Errorf("events = %+v", evs)
	}
}

func get(t *testing.T, url string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	return readResponse(t, resp, err)
}

// TestFactcheckStreamHeartbeat: while a checker works, the stream carries
// keep-alive comments, and the events around them still parse.
func TestFactcheckStreamHeartbeat(t *testing.T) {
	beat := make(chan struct{})
	// The checker holds until the client has seen a keep-alive, so the test
	// waits on the behaviour, not on a clock.
	hold := func(ctx context.Context) error {
		select {
		case <-beat:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	ts, _ := factcheckServer(t, models(hold), Config{StreamHeartbeat: 5 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp := streamRequest(ctx, t, ts.URL, factcheckBody("c1"))
	defer resp.Body.Close()
	var raw strings.Builder
	pr, pw := io.Pipe()
	go func() {
		sc := bufio.NewScanner(resp.Body)
		seen := false
		for sc.Scan() {
			line := sc.Text()
			if line == ": keep-alive" && !seen {
				seen = true
				close(beat)
			}
			raw.WriteString(line + "\n")
			pw.Write([]byte(line + "\n"))
		}
		pw.Close()
	}()
	evs := readEvents(t, pr, nil)
	if got := names(evs); len(got) == 0 || got[len(got)-1] != "complete" {
		t.Errorf("events = %v, want the stream to end with complete", got)
	}
	if !strings.Contains(raw.String(), ": keep-alive\n") {
		t.Error("no keep-alive comment in the stream")
	}
}
