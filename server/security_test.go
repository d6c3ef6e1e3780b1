package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/jobs"
	"github.com/verity-fc/verity/verify"
)

// acceptingJobs accepts every submission without running it.
type acceptingJobs struct{}

func (acceptingJobs) Submit(_ context.Context, sources []string) (corpus.Job, error) {
	return corpus.Job{ID: jobs.NewID(), State: corpus.JobQueued, Sources: sources, Total: len(sources)}, nil
}
func (acceptingJobs) Job(_ context.Context, id string) (corpus.Job, error) {
	return corpus.Job{}, fmt.Errorf("job %q: %w", id, corpus.ErrNotFound)
}
func (acceptingJobs) List(context.Context, int) ([]corpus.Job, error) { return nil, nil }

type secured struct {
	url         string
	read, write string // API keys of each scope
	revoked     string
	metrics     *Metrics
}

// securedServer runs the API with keys in a real SQLite corpus, on a real
// http.Server built by HTTPServer, with cfg's limits.
func securedServer(t *testing.T, cfg Config, deps Deps) secured {
	t.Helper()
	ctx := context.Background()
	store, err := corpus.OpenSQLite(ctx, filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	var s secured
	for _, k := range []struct {
		dst   *string
		scope corpus.KeyScope
	}{{&s.read, corpus.ScopeRead}, {&s.write, corpus.ScopeWrite}, {&s.revoked, corpus.ScopeWrite}} {
		key, rec, err := NewKey("test", k.scope, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if err := store.CreateKey(ctx, rec); err != nil {
			t.Fatal(err)
		}
		*k.dst = key
		if k.dst == &s.revoked {
			if err := store.RevokeKey(ctx, rec.ID, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
	}
	if deps.Verifier == nil {
		deps.Verifier = realVerifier()
	}
	if deps.Jobs == nil {
		deps.Jobs = acceptingJobs{}
	}
	deps.Keys = store
	s.metrics = NewMetrics()
	deps.Metrics = s.metrics
	if cfg.MaxBodyBytes == 0 {
		cfg.MaxBodyBytes = 4096
	}
	srv := New(cfg, deps, quietLogger())
	ts := httptest.NewUnstartedServer(nil)
	ts.Config = srv.HTTPServer()
	ts.Listener = srv.Listener(ts.Listener)
	ts.Start()
	t.Cleanup(ts.Close)
	s.url = ts.URL
	return s
}

// do sends one request with optional headers ("Authorization: Bearer ..."
// as key) and returns the response and its body.
func do(t *testing.T, method, url, contentType, body string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func bearerOf(key string) map[string]string {
	return map[string]string{"Authorization": "Bearer " + key}
}

const claimBody = `{"claim": "The Eiffel Tower is in Paris."}`

func TestAuthentication(t *testing.T) {
	s := securedServer(t, Config{}, Deps{})
	tests := []struct {
		name, method, path, body string
		key                      string
		want                     int
	}{
		{"no key", "POST", "/v1/verify", claimBody, "", 401},
		{"unknown key", "POST", "/v1/verify", claimBody, "vk_not-a-key", 401},
		{"revoked key", "POST", "/v1/verify", claimBody, s.revoked, 401},
		{"read key verifies", "POST", "/v1/verify", claimBody, s.read, 200},
		{"write implies read", "POST", "/v1/verify", claimBody, s.write, 200},
		{"read key lists jobs", "GET", "/v1/jobs", "", s.read, 200},
		{"no key lists jobs", "GET", "/v1/jobs", "", "", 401},
		{"read key cannot ingest", "POST", "/v1/ingest", `{"sources": ["https://example.org/a"]}`, s.read, 403},
		{"write key ingests", "POST", "/v1/ingest", `{"sources": ["https://example.org/a"]}`, s.write, 202},
		{"unknown route needs a key", "GET", "/v1/nothing", "", "", 401},
		{"metrics need a key", "GET", "/metrics", "", "", 401},
		{"metrics with a key", "GET", "/metrics", "", s.read, 200},
		{"health is public", "GET", "/healthz", "", "", 200},
		{"API description is public", "GET", "/openapi.json", "", "", 200},
		{"UI is public", "GET", "/", "", "", 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h map[string]string
			if tt.key != "" {
				h = bearerOf(tt.key)
			}
			ct := ""
			if tt.body != "" {
				ct = "application/json"
			}
			resp, body := do(t, tt.method, s.url+tt.path, ct, tt.body, h)
			if resp.StatusCode != tt.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.want, body)
			}
			if tt.want == 401 && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("401 without a Bearer challenge: %q", resp.Header.Get("WWW-Authenticate"))
			}
			if tt.want >= 400 && resp.Header.Get("Content-Type") != "application/problem+json" {
				t.Errorf("error answered as %q, want problem JSON", resp.Header.Get("Content-Type"))
			}
		})
	}
}

func TestMediaType(t *testing.T) {
	s := securedServer(t, Config{}, Deps{})
	key := bearerOf(s.write)
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	_ = mw.WriteField("url", "https://example.org/a")
	mw.Close()
	tests := []struct {
		name, path, ctype, body string
		want                    int
	}{
		{"JSON as text/plain", "/v1/verify", "text/plain", claimBody, 415},
		{"JSON without a type", "/v1/verify", "", claimBody, 415},
		{"urlencoded form", "/v1/verify", "application/x-www-form-urlencoded", "claim=x", 415},
		{"multipart on a JSON route", "/v1/verify", mw.FormDataContentType(), form.String(), 415},
		{"JSON with charset", "/v1/verify", "application/json; charset=utf-8", claimBody, 200},
		{"ingest as text/plain", "/v1/ingest", "text/plain", `{"sources": ["https://example.org/a"]}`, 415},
		{"multipart on an upload route", "/v1/ingest", mw.FormDataContentType(), form.String(), 400}, // uploads are off here
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := do(t, "POST", s.url+tt.path, tt.ctype, tt.body, key)
			if resp.StatusCode != tt.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.want, body)
			}
		})
	}
}

func TestOrigin(t *testing.T) {
	s := securedServer(t, Config{AllowedOrigins: []string{"https://app.example.org"}}, Deps{})
	host := strings.TrimPrefix(s.url, "http://")
	t.Run("disallowed origin", func(t *testing.T) {
		h := bearerOf(s.read)
		h["Origin"] = "https://evil.example"
		resp, body := do(t, "POST", s.url+"/v1/verify", "application/json", claimBody, h)
		if resp.StatusCode != 403 || resp.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Fatalf("status %d, ACAO %q, want 403 without CORS: %s", resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"), body)
		}
	})
	t.Run("disallowed origin without a key", func(t *testing.T) {
		resp, _ := do(t, "POST", s.url+"/v1/verify", "application/json", claimBody, map[string]string{"Origin": "https://evil.example"})
		if resp.StatusCode != 403 {
			t.Fatalf("status %d, want 403", resp.StatusCode)
		}
	})
	t.Run("own origin", func(t *testing.T) {
		h := bearerOf(s.read)
		h["Origin"] = "http://" + host
		if resp, body := do(t, "POST", s.url+"/v1/verify", "application/json", claimBody, h); resp.StatusCode != 200 {
			t.Fatalf("status %d: %s", resp.StatusCode, body)
		}
	})
	t.Run("allowed origin", func(t *testing.T) {
		h := bearerOf(s.read)
		h["Origin"] = "https://app.example.org"
		resp, body := do(t, "POST", s.url+"/v1/verify", "application/json", claimBody, h)
		if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != "https://app.example.org" ||
			!strings.Contains(resp.Header.Get("Vary"), "Origin") {
			t.Fatalf("status %d, ACAO %q, Vary %q: %s", resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"), resp.Header.Get("Vary"), body)
		}
	})
	t.Run("preflight", func(t *testing.T) {
		resp, _ := do(t, "OPTIONS", s.url+"/v1/verify", "", "", map[string]string{
			"Origin": "https://app.example.org", "Access-Control-Request-Method": "POST",
			"Access-Control-Request-Headers": "authorization, content-type",
		})
		allow := resp.Header.Get("Access-Control-Allow-Headers")
		if resp.StatusCode != 204 || resp.Header.Get("Access-Control-Allow-Origin") != "https://app.example.org" ||
			!strings.Contains(allow, "Authorization") || !strings.Contains(allow, "Content-Type") ||
			!strings.Contains(resp.Header.Get("Access-Control-Allow-Methods"), "POST") {
			t.Fatalf("preflight: status %d, headers %v", resp.StatusCode, resp.Header)
		}
	})
	t.Run("preflight from a disallowed origin", func(t *testing.T) {
		resp, _ := do(t, "OPTIONS", s.url+"/v1/verify", "", "", map[string]string{"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"})
		if resp.StatusCode != 403 || resp.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Fatalf("preflight: status %d, headers %v", resp.StatusCode, resp.Header)
		}
	})
}

func TestHost(t *testing.T) {
	s := securedServer(t, Config{AllowedHosts: []string{"verity.example.org", "127.0.0.1"}}, Deps{})
	for host, want := range map[string]int{"verity.example.org": 200, "verity.example.org:8443": 200, "127.0.0.1": 200, "rebound.evil.example": 421} {
		req, _ := http.NewRequest("GET", s.url+"/v1/jobs", nil)
		req.Host = host
		req.Header.Set("Authorization", "Bearer "+s.read)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %s: status %d, want %d", host, resp.StatusCode, want)
		}
	}
}

// TestRateLimit sends a burst over one key's bucket: the requests beyond
// the burst get 429 with Retry-After, another key is not affected, and the
// rejections are counted.
func TestRateLimit(t *testing.T) {
	const burst = 5
	s := securedServer(t, Config{RateLimit: 0.01, RateBurst: burst}, Deps{})
	var ok, limited int
	for range burst + 5 {
		resp, body := do(t, "GET", s.url+"/v1/jobs", "", "", bearerOf(s.read))
		switch resp.StatusCode {
		case 200:
			ok++
		case 429:
			limited++
			if ra, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || ra < 1 {
				t.Errorf("429 with Retry-After %q, want whole seconds >= 1", resp.Header.Get("Retry-After"))
			}
			if !strings.Contains(body, "rate") {
				t.Errorf("429 body does not say why: %s", body)
			}
		default:
			t.Fatalf("status %d: %s", resp.StatusCode, body)
		}
	}
	// A bucket refills at 0.01 a second: at most one more token may have
	// come while the loop ran.
	if ok < burst || ok > burst+1 || limited < 4 {
		t.Errorf("%d answered, %d limited; want the burst of %d answered and the rest limited", ok, limited, burst)
	}
	if resp, _ := do(t, "GET", s.url+"/v1/jobs", "", "", bearerOf(s.write)); resp.StatusCode != 200 {
		t.Errorf("another key got %d, want its own bucket", resp.StatusCode)
	}
	if resp, _ := do(t, "GET", s.url+"/healthz", "", "", nil); resp.StatusCode != 200 {
		t.Errorf("health check got %d, want probes never limited", resp.StatusCode)
	}
	_, metrics := do(t, "GET", s.url+"/metrics", "", "", bearerOf(s.write))
	if !strings.Contains(metrics, fmt.Sprintf(`verity_rejected_requests_total{reason="rate"} %d`, limited)) {
		t.Errorf("metrics do not count %d rate rejections:\n%s", limited, grepLines(metrics, "verity_rejected"))
	}
}

func grepLines(text, prefix string) string {
	var out []string
	for l := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// blockingJobs holds every submission until release is closed.
type blockingJobs struct {
	acceptingJobs
	entered chan struct{}
	release chan struct{}
}

func (b blockingJobs) Submit(ctx context.Context, sources []string) (corpus.Job, error) {
	b.entered <- struct{}{}
	<-b.release
	return b.acceptingJobs.Submit(ctx, sources)
}

// TestHeavyRouteCap fills the ingest route's slots; one more request gets
// 503 with Retry-After while verify still answers.
func TestHeavyRouteCap(t *testing.T) {
	jb := blockingJobs{entered: make(chan struct{}, 2), release: make(chan struct{})}
	s := securedServer(t, Config{MaxHeavy: 2}, Deps{Jobs: jb})
	ingest := `{"sources": ["https://example.org/a"]}`
	var wg sync.WaitGroup
	codes := make([]int, 2)
	for i := range codes {
		wg.Go(func() {
			resp, _ := do(t, "POST", s.url+"/v1/ingest", "application/json", ingest, bearerOf(s.write))
			codes[i] = resp.StatusCode
		})
	}
	<-jb.entered
	<-jb.entered
	resp, body := do(t, "POST", s.url+"/v1/ingest", "application/json", ingest, bearerOf(s.write))
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
		t.Errorf("third ingest: status %d, Retry-After %q, want 503 with it: %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	if resp, body := do(t, "POST", s.url+"/v1/verify", "application/json", claimBody, bearerOf(s.read)); resp.StatusCode != 200 {
		t.Errorf("verify while ingest is full: %d %s", resp.StatusCode, body)
	}
	close(jb.release)
	wg.Wait()
	if codes[0] != 202 || codes[1] != 202 {
		t.Errorf("the two admitted ingests answered %v", codes)
	}
	if resp, body := do(t, "POST", s.url+"/v1/ingest", "application/json", ingest, bearerOf(s.write)); resp.StatusCode != 202 {
		t.Errorf("ingest after the slots freed: %d %s", resp.StatusCode, body)
	}
}

// TestSlowBodyCutOff sends a body one byte at a time, slower than the
// read timeout allows, as JSON and as a multipart upload: the server
// answers 408 and long before the client would have finished.
func TestSlowBodyCutOff(t *testing.T) {
	s := securedServer(t, Config{ReadTimeout: 300 * time.Millisecond, UploadDir: t.TempDir()}, Deps{})
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	fw, _ := mw.CreateFormFile("file", "notes.txt")
	fmt.Fprint(fw, "A short note about the Eiffel Tower.")
	mw.Close()
	for _, tt := range []struct{ name, path, ctype, body string }{
		{"JSON", "/v1/verify", "application/json", claimBody},
		{"multipart", "/v1/ingest", mw.FormDataContentType(), form.String()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", strings.TrimPrefix(s.url, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n",
				tt.path, s.write, tt.ctype, len(tt.body))
			// The client would need len(body) * 200 ms, 8 s or more; the
			// server must not wait for it.
			cut := make(chan struct{})
			go func() {
				defer close(cut)
				for i := range len(tt.body) {
					if _, err := conn.Write([]byte{tt.body[i]}); err != nil {
						return
					}
					select {
					case <-time.After(200 * time.Millisecond):
					case <-t.Context().Done():
						return
					}
				}
			}()
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("no answer: %v", err)
			}
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusRequestTimeout {
				t.Fatalf("status %d, want 408: %s", resp.StatusCode, body)
			}
			select {
			case <-cut:
				t.Fatal("the client finished sending its body before the server answered")
			default:
			}
		})
	}
}

// TestLongRequestOutlivesReadTimeout checks that the read deadline ends
// with the body: a request that works longer than ReadTimeout is not
// canceled.
func TestLongRequestOutlivesReadTimeout(t *testing.T) {
	v := verifierFunc(func(ctx context.Context, req verify.Request) (evidence.Result, error) {
		select {
		case <-time.After(600 * time.Millisecond):
			return realVerifier().Verify(ctx, req)
		case <-ctx.Done():
			return evidence.Result{}, ctx.Err()
		}
	})
	s := securedServer(t, Config{ReadTimeout: 200 * time.Millisecond}, Deps{Verifier: v})
	if resp, body := do(t, "POST", s.url+"/v1/verify", "application/json", claimBody, bearerOf(s.read)); resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
}

func TestRequestIDAndMetrics(t *testing.T) {
	s := securedServer(t, Config{}, Deps{})
	resp, _ := do(t, "POST", s.url+"/v1/verify", "application/json", claimBody, bearerOf(s.read))
	if id := resp.Header.Get(RequestIDHeader); len(id) != 16 {
		t.Errorf("X-Request-Id = %q, want a new 16-hex-digit ID", id)
	}
	h := bearerOf(s.read)
	h[RequestIDHeader] = "client-id_1.2"
	if resp, _ := do(t, "GET", s.url+"/v1/jobs", "", "", h); resp.Header.Get(RequestIDHeader) != "client-id_1.2" {
		t.Errorf("a client's valid ID was not kept: %q", resp.Header.Get(RequestIDHeader))
	}
	h[RequestIDHeader] = "bad id\twith controls"
	if resp, _ := do(t, "GET", s.url+"/v1/jobs", "", "", h); resp.Header.Get(RequestIDHeader) == "bad id\twith controls" {
		t.Errorf("an invalid client ID was echoed")
	}
	do(t, "POST", s.url+"/v1/verify", "text/plain", claimBody, bearerOf(s.read))
	_, m := do(t, "GET", s.url+"/metrics", "", "", bearerOf(s.read))
	for _, want := range []string{
		`verity_http_requests_total{method="POST",route="/v1/verify",status="200"} 1`,
		`verity_http_requests_total{method="POST",route="/v1/verify",status="415"} 1`,
		`verity_verdicts_total{verdict="Not enough evidence"} 1`,
		`verity_http_request_duration_seconds_count{method="POST",route="/v1/verify"} 2`,
		`process_resident_memory_bytes`,
	} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// TestRequestIDInLogs checks that the server's log line for a request
// carries the ID the response header gives.
func TestRequestIDInLogs(t *testing.T) {
	var buf safeBuffer
	logger := slog.New(LogHandler(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	ts := httptest.NewServer(New(Config{}, Deps{Verifier: realVerifier()}, logger).Handler())
	defer ts.Close()
	resp, body := do(t, "POST", ts.URL+"/v1/verify", "application/json", `{"claim": ""}`, nil)
	if resp.StatusCode != 400 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	id := resp.Header.Get(RequestIDHeader)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) < 2 {
		t.Fatalf("want a failure line and an access line, got:\n%s", buf.String())
	}
	for _, l := range lines {
		if !strings.Contains(l, "request_id="+id) {
			t.Errorf("log line without request_id=%s: %s", id, l)
		}
	}
}

type safeBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *safeBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *safeBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestJobStateMetrics reads job states from a real SQLite corpus at
// scrape time.
func TestJobStateMetrics(t *testing.T) {
	ctx := context.Background()
	store, err := corpus.OpenSQLite(ctx, filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	now := time.Now()
	for i, st := range []corpus.JobState{corpus.JobQueued, corpus.JobQueued, corpus.JobRunning} {
		j := corpus.Job{ID: fmt.Sprint("j", i), State: corpus.JobQueued, Sources: []string{"https://example.org"}, Total: 1, CreatedAt: now, UpdatedAt: now}
		if err := store.CreateJob(ctx, j); err != nil {
			t.Fatal(err)
		}
		j.State = st
		if err := store.UpdateJob(ctx, j); err != nil {
			t.Fatal(err)
		}
	}
	m := NewMetrics()
	m.WatchJobs(store)
	ts := httptest.NewServer(New(Config{}, Deps{Verifier: realVerifier(), Metrics: m}, quietLogger()).Handler())
	defer ts.Close()
	_, body := do(t, "GET", ts.URL+"/metrics", "", "", nil)
	for _, want := range []string{`verity_jobs{state="queued"} 2`, `verity_jobs{state="running"} 1`, `verity_jobs{state="failed"} 0`} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %s:\n%s", want, grepLines(body, "verity_jobs"))
		}
	}
}

// TestRateLimiterDropsIdleBuckets: a stream of new client addresses cannot
// grow the limiter's map without bound.
func TestRateLimiterDropsIdleBuckets(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := newRateLimiter(1, 1)
	r.now = func() time.Time { return now }
	for i := range 100 {
		r.take(fmt.Sprint("ip:10.0.0.", i))
	}
	if ok, wait := r.take("ip:10.0.0.1"); ok || wait <= 0 {
		t.Errorf("second request of a client within its second: ok %v, wait %v; want refused with a wait", ok, wait)
	}
	now = now.Add(idleAfter + time.Minute)
	if ok, _ := r.take("ip:10.0.0.200"); !ok {
		t.Error("a new client was refused")
	}
	if n := len(r.buckets); n != 1 {
		t.Errorf("%d buckets after the others went idle, want 1", n)
	}
}

// TestOpenAPIDocumentsAccess keeps the description of authentication and
// limits in step with the middleware: every /v1 operation answers 401,
// 403 and 429, every POST 408 and 415, heavy routes 503 with Retry-After.
func TestOpenAPIDocumentsAccess(t *testing.T) {
	var doc struct {
		Paths      map[string]map[string]struct{ Responses map[string]json.RawMessage }
		Components struct {
			SecuritySchemes map[string]struct{ Type, Scheme string }
		}
	}
	if err := json.Unmarshal(openapiJSON, &doc); err != nil {
		t.Fatal(err)
	}
	if s := doc.Components.SecuritySchemes["apiKey"]; s.Type != "http" || s.Scheme != "bearer" {
		t.Errorf("security scheme apiKey = %+v, want http bearer", s)
	}
	for path, ops := range doc.Paths {
		if !strings.HasPrefix(path, "/v1/") {
			continue
		}
		for method, op := range ops {
			want := []string{"401", "403", "429"}
			if method == "post" {
				want = append(want, "408", "415")
			}
			if slices.Contains(heavyRoutes, path) && method == "post" {
				want = append(want, "503")
			}
			for _, code := range want {
				if _, ok := op.Responses[code]; !ok {
					t.Errorf("%s %s does not document %s", strings.ToUpper(method), path, code)
				}
			}
		}
	}
}
