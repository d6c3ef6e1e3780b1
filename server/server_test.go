package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/agents/citations"
	"github.com/verity-fc/verity/agents/entail"
	"github.com/verity-fc/verity/agents/factcheck"
	"github.com/verity-fc/verity/agents/jury"
	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/jobs"
	"github.com/verity-fc/verity/llm"
	"github.com/verity-fc/verity/retrieval"
	"github.com/verity-fc/verity/scoring"
	"github.com/verity-fc/verity/verify"
)

type emptyRetriever struct{}

func (emptyRetriever) Retrieve(context.Context, string, retrieval.Options) ([]evidence.Judged, error) {
	return nil, nil
}

type neutralJudge struct{}

func (neutralJudge) Judge(_ context.Context, _ string, ps []string) ([]evidence.Judgment, error) {
	out := make([]evidence.Judgment, len(ps))
	for i := range out {
		out[i].Neutral = 1
	}
	return out, nil
}

// realVerifier is the verify service over an empty corpus, so the handler's
// validation is the service's own.
func realVerifier() Verifier {
	return verify.New(emptyRetriever{}, neutralJudge{}, scoring.New(scoring.DefaultConfig(), nil),
		func(string, string) evidence.NumCheck { return evidence.NumCheck{} }, verify.Limits{})
}

type verifierFunc func(ctx context.Context, req verify.Request) (evidence.Result, error)

func (f verifierFunc) Verify(ctx context.Context, req verify.Request) (evidence.Result, error) {
	return f(ctx, req)
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func newTestServer(t *testing.T, deps Deps) *httptest.Server {
	t.Helper()
	if deps.Verifier == nil {
		deps.Verifier = realVerifier()
	}
	ts := httptest.NewServer(New(Config{MaxBodyBytes: 4096}, deps, quietLogger()).Handler())
	t.Cleanup(ts.Close)
	return ts
}

func post(t *testing.T, url, body string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	return readResponse(t, resp, err)
}

// readResponse reads a whole response.
func readResponse(t *testing.T, resp *http.Response, err error) (*http.Response, []byte) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

func TestVerifyBadInput(t *testing.T) {
	ts := newTestServer(t, Deps{})
	tests := []struct {
		name      string
		body      string
		wantField string
	}{
		{"empty body", "", "body"},
		{"malformed", `{"claim": "x"`, "body"},
		{"syntax", `{"claim": x}`, "body"},
		{"not an object", `["claim"]`, "body"},
		{"trailing data", `{"claim": "x"} {"claim": "y"}`, "body"},
		{"unknown field", `{"claim": "x", "kk": 3}`, "kk"},
		{"wrong type", `{"claim": 42}`, "claim"},
		{"wrong type k", `{"claim": "x", "k": "twenty"}`, "k"},
		{"empty claim", `{"claim": ""}`, "claim"},
		{"long claim", `{"claim": "` + strings.Repeat("a", 1001) + `"}`, "claim"},
		{"k out of range", `{"claim": "The bridge opened in 1937.", "k": 500}`, "k"},
		{"k negative", `{"claim": "x", "k": -3}`, "k"},
		{"k zero", `{"claim": "The bridge opened in 1937.", "k": 0}`, "k"},
		{"top_n zero", `{"claim": "The bridge opened in 1937.", "top_n": 0}`, "top_n"},
		{"k fractional", `{"claim": "The bridge opened in 1937.", "k": 2.5}`, "k"},
		{"since", `{"claim": "x", "since": "yesterday"}`, "since"},
		{"too large", `{"claim": "` + strings.Repeat("a", 5000) + `"}`, "body"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := post(t, ts.URL+"/v1/verify", tt.body)
			if resp.StatusCode != http.StatusBadRequest {
				t.Fatalf("status = %d, want 400; body %s", resp.StatusCode, body)
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/problem+json") {
				t.Errorf("content type = %q", ct)
			}
			var p Problem
			if err := json.Unmarshal(body, &p); err != nil {
				t.Fatalf("problem is not JSON: %v: %s", err, body)
			}
			if p.Field != tt.wantField || p.Status != 400 || p.Detail == "" {
				t.Errorf("problem = %+v, want field %q", p, tt.wantField)
			}
		})
	}
}

// TestVerifyCountDetails: a given 0 states the range, a fraction asks for a
// whole number.
func TestVerifyCountDetails(t *testing.T) {
	ts := newTestServer(t, Deps{})
	for body, want := range map[string]string{
		`{"claim": "The bridge opened in 1937.", "k": 0}`:       "must be between 1 and 200, got 0",
		`{"claim": "The bridge opened in 1937.", "top_n": 0}`:   "must be between 1 and 20, got 0",
		`{"claim": "The bridge opened in 1937.", "k": 2.5}`:     "must be a whole number, got 2.5",
		`{"claim": "The bridge opened in 1937.", "k": "seven"}`: "must be a whole number, got string",
	} {
		resp, got := post(t, ts.URL+"/v1/verify", body)
		var p Problem
		if err := json.Unmarshal(got, &p); err != nil || resp.StatusCode != http.StatusBadRequest || !strings.Contains(p.Detail, want) {
			t.Errorf("%s: status %d, problem %s; want 400 saying %q", body, resp.StatusCode, got, want)
		}
	}
}

func TestVerifyEmptyCorpus(t *testing.T) {
	ts := newTestServer(t, Deps{})
	resp, body := post(t, ts.URL+"/v1/verify", `{"claim": "The moon is made of cheese.", "k": 20, "top_n": 6}`)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var got map[string]any
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"claim", "verdict", "score", "citations", "features", "passages", "timings_ms"} {
		if _, ok := got[key]; !ok {
			t.Errorf("response lacks %q: %s", key, body)
		}
	}
	if got["verdict"] != "Not enough evidence" {
		t.Errorf("verdict = %v", got["verdict"])
	}
	f := got["features"].(map[string]any)
	for _, key := range []string{"e_max", "e_mean3", "c_max", "agree_dom", "rel_avg", "rec_max"} {
		if _, ok := f[key]; !ok {
			t.Errorf("features lack %q", key)
		}
	}
}

func TestErrorMapping(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"input", evidence.Invalid("claim", "bad"), 400},
		{"not found", fmt.Errorf("job %q: %w", "x", corpus.ErrNotFound), 404},
		{"unavailable", downError{"qdrant"}, 503},
		{"deadline", context.DeadlineExceeded, 504},
		{"model output", fmt.Errorf("judge: %w", &llm.SchemaError{Model: "llama3", Attempts: 3, Err: errors.New("missing verdict")}), 502},
		{"backend error", &llm.BackendError{Backend: "ollama", Op: "chat", Status: 503, Err: errors.New("overloaded")}, 503},
		{"other", errors.New("disk on fire"), 500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := newTestServer(t, Deps{Verifier: verifierFunc(func(context.Context, verify.Request) (evidence.Result, error) {
				return evidence.Result{}, tt.err
			})})
			resp, body := post(t, ts.URL+"/v1/verify", `{"claim": "x"}`)
			if resp.StatusCode != tt.want {
				t.Errorf("status = %d, want %d (%s)", resp.StatusCode, tt.want, body)
			}
			if tt.want == 500 && strings.Contains(string(body), "disk on fire") {
				t.Errorf("internal detail leaked to the client: %s", body)
			}
			if tt.want == 503 && !strings.Contains(string(body), "qdrant") && !strings.Contains(string(body), "ollama") {
				t.Errorf("503 does not name the backend: %s", body)
			}
		})
	}
}

// downError is a backend's error that knows it is transient.
type downError struct{ backend string }

func (e downError) Error() string       { return e.backend + ": connection refused" }
func (e downError) Unavailable() bool   { return true }
func (e downError) BackendName() string { return e.backend }

// TestProblemFor checks the one error-to-problem mapping on the errors
// whose behaviour it reads instead of their packages' types: the not-found
// sentinel, a full queue, a schema failure and a fact-check stage's cause.
func TestProblemFor(t *testing.T) {
	tests := []struct {
		name       string
		err        error
		status     int
		typ        string
		detailHas  string
		detailLack string
	}{
		{"job not found", fmt.Errorf("job %q: %w", "j-1", corpus.ErrNotFound), 404, "not-found", `job "j-1"`, ""},
		{"fact-check not found", fmt.Errorf("load: %w", fmt.Errorf("fact-check %q: %w", "m-1", factcheck.ErrNotFound)), 404, "not-found", "m-1", ""},
		{"queue full", fmt.Errorf("submit: %w", jobs.ErrBusy), 503, "busy", "queue is full", ""},
		{"schema", &llm.SchemaError{Model: "llama3", Attempts: 3, Err: errors.New("missing verdict")}, 502, "model-output", "llama3", ""},
		{"all checkers failed", &factcheck.StageError{Stage: "verify", Model: "a, b", Message: "All verification checkers failed.", Err: errors.New("no checker completed")}, 503, "backend-unavailable", "verify stage", ""},
		{"checker backend down", &factcheck.StageError{Stage: "extract", Model: "m", Err: downError{"ollama"}}, 503, "backend-unavailable", "extract stage", ""},
		{"stage write, disk full", &factcheck.StageError{Stage: "report", Model: "stage store", Store: true, Err: errors.New("disk full")}, 500, "", "", "unavailable"},
		{"stage write, store down", &factcheck.StageError{Stage: "report", Model: "stage store", Store: true, Err: downError{"postgres"}}, 503, "backend-unavailable", "stage store", ""},
		{"stage write, deadline", &factcheck.StageError{Stage: "report", Model: "stage store", Store: true, Err: context.DeadlineExceeded}, 504, "timeout", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := problemFor(tt.err)
			if p.Status != tt.status || !strings.HasSuffix(p.Type, tt.typ) {
				t.Errorf("problemFor(%v) = %d %s, want %d %s", tt.err, p.Status, p.Type, tt.status, tt.typ)
			}
			if !strings.Contains(p.Detail, tt.detailHas) || (tt.detailLack != "" && strings.Contains(p.Detail, tt.detailLack)) {
				t.Errorf("detail %q: want %q in it and not %q", p.Detail, tt.detailHas, tt.detailLack)
			}
		})
	}
}

func TestPanicBecomes500(t *testing.T) {
	ts := newTestServer(t, Deps{Verifier: verifierFunc(func(context.Context, verify.Request) (evidence.Result, error) {
		panic("boom")
	})})
	resp, body := post(t, ts.URL+"/v1/verify", `{"claim": "x"}`)
	if resp.StatusCode != 500 || !strings.Contains(string(body), "Internal server error") {
		t.Errorf("status %d body %s", resp.StatusCode, body)
	}
}

func TestReadyz(t *testing.T) {
	ts := newTestServer(t, Deps{Probes: []Probe{
		{Name: "store", Ping: func(context.Context) error { return nil }},
		{Name: "ollama", Ping: func(context.Context) error { return errors.New("connection refused") }},
	}})
	resp, err := http.Get(ts.URL + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got struct {
		Status string
		Checks map[string]string
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 503 || got.Status != "unavailable" || got.Checks["store"] != "ok" || !strings.Contains(got.Checks["ollama"], "refused") {
		t.Errorf("readyz = %d %+v", resp.StatusCode, got)
	}
}

func TestUnknownRouteAndMethod(t *testing.T) {
	ts := newTestServer(t, Deps{})
	for path, want := range map[string]int{"/nope": 404, "/v1/verify": 405} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET %s = %d, want %d", path, resp.StatusCode, want)
		}
	}
}

// TestOpenAPICoversRoutes keeps the description and the routes in step.
func TestOpenAPICoversRoutes(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]json.RawMessage
	}
	if err := json.Unmarshal(openapiJSON, &doc); err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	var documented []string
	for path, ops := range doc.Paths {
		for method := range ops {
			documented = append(documented, strings.ToUpper(method)+" "+path)
		}
	}
	var routed []string
	for _, r := range New(Config{}, allDeps(), quietLogger()).engine.Routes() {
		if r.Path == "/" || strings.HasPrefix(r.Path, uiPrefix) {
			continue // the web UI's files, not API routes
		}
		routed = append(routed, r.Method+" "+ginToOpenAPI(r.Path))
	}
	sort.Strings(documented)
	sort.Strings(routed)
	if diff := cmp.Diff(documented, routed); diff != "" {
		t.Errorf("OpenAPI paths and routes differ (-documented +routed):\n%s", diff)
	}
}

// ginToOpenAPI turns /v1/jobs/:id into /v1/jobs/{id}.
func ginToOpenAPI(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		if strings.HasPrefix(s, ":") || strings.HasPrefix(s, "*") {
			parts[i] = "{" + s[1:] + "}"
		}
	}
	return strings.Join(parts, "/")
}

// allDeps sets every dependency, so that every route is registered. The
// values are never called.
func allDeps() Deps {
	return Deps{Verifier: realVerifier(), Jobs: (*jobs.Local)(nil), Sources: (*corpus.SQLite)(nil), FactCheck: (*factcheck.Pipeline)(nil),
		Entail: (*entail.Pipeline)(nil), Jury: (*jury.Jury)(nil),
		Citations: (*citations.Checker)(nil), Metrics: NewMetrics()}
}
