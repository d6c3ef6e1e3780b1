package main

// End-to-end tests of the scale-out backends: the verity binary over the
// in-process Qdrant (retrieval/qdranttest, the real gRPC protocol on
// loopback) and the PostgreSQL of VERITY_TEST_DATABASE_URL, with `verity
// serve` and `verity worker` as separate processes.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/verity-fc/verity/corpus/corpustest"
	"github.com/verity-fc/verity/retrieval/qdranttest"
)

// syncBuffer is a bytes.Buffer safe for the writer goroutine of exec and a
// reading test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startVerity starts the binary with env added to a clean environment and
// waits until a line of its stdout matches ready; it returns the first
// submatch (or the line). The process is killed when the test ends.
func startVerity(t *testing.T, env []string, ready *regexp.Regexp, args ...string) string {
	t.Helper()
	cmd := exec.Command(verityBin, args...)
	cmd.Env = append(cleanEnv(), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("verity %s logs:\n%s", args[0], logs.String())
		}
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := ready.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[len(m)-1]
			}
		}
		close(found)
	}()
	select {
	case s, ok := <-found:
		if !ok {
			t.Fatalf("verity %s exited before it was ready; logs:\n%s", args[0], logs.String())
		}
		return s
	case <-time.After(90 * time.Second):
		t.Fatalf("verity %s did not start; logs:\n%s", args[0], logs.String())
	}
	return ""
}

var workerReady = regexp.MustCompile(`taking ingest jobs`)

// call sends a request with an optional JSON body and decodes the JSON
// answer into out (when not nil); it returns the status.
func call(t *testing.T, method, u, body string, out any) int {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, u, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %d %s: %v", method, u, resp.StatusCode, b, err)
		}
	}
	return resp.StatusCode
}

// eventually calls f until it returns true, for at most 30 s.
func eventually(t *testing.T, what string, f func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for !f() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 30 s", what)
		}
		<-tick.C
	}
}

type problem struct {
	Status int
	Detail string
}

type readiness struct {
	Status string
	Checks map[string]string
}

type verifyResult struct {
	Verdict   string
	Citations []struct{ URL string }
	Passages  []json.RawMessage
}

const goldenGate = `{"claim": "The Golden Gate Bridge opened in 1937."}`

// TestScaleOutQdrant serves over the in-process Qdrant: the demo corpus
// is ingested into it and verified against; when Qdrant stops, verify
// fails fast with a 503 naming it and /readyz reports it; when it returns,
// the service recovers by itself with nothing lost. An ingest job while
// Qdrant is down fails naming it.
func TestScaleOutQdrant(t *testing.T) {
	q := qdranttest.Start(t)
	base := startVerity(t, []string{"VERITY_QDRANT_URL=" + q.URL()}, listening,
		"serve", "--data", filepath.Join(t.TempDir(), "data"), "--addr", "127.0.0.1:0", "--allow-private")

	var res verifyResult
	if code := call(t, "POST", base+"/v1/verify", goldenGate, &res); code != 200 || len(res.Passages) == 0 || len(res.Citations) < 2 {
		t.Fatalf("verify on the demo corpus in Qdrant = %d %+v; want passages and 2-3 citations", code, res)
	}
	var ready readiness
	if code := call(t, "GET", base+"/readyz", "", &ready); code != 200 || ready.Checks["qdrant"] != "ok" {
		t.Errorf("readyz = %d %+v, want 200 with qdrant ok", code, ready)
	}

	q.Stop()
	var p problem
	if code := call(t, "POST", base+"/v1/verify", goldenGate, &p); code != 503 || !strings.Contains(p.Detail, "qdrant") {
		t.Errorf("verify while Qdrant is down = %d %+v, want 503 naming qdrant", code, p)
	}
	if code := call(t, "GET", base+"/readyz", "", &ready); code != 503 || !strings.HasPrefix(ready.Checks["qdrant"], "unavailable") {
		t.Errorf("readyz while Qdrant is down = %d %+v, want 503 with qdrant unavailable", code, ready)
	}
	page := pageServer(t, "Lighthouse keepers on the northern coast lit 41 lamps every night in 1901.")
	var job struct{ ID string }
	if code := call(t, "POST", base+"/v1/ingest", fmt.Sprintf(`{"sources": [%q]}`, page), &job); code != 202 {
		t.Fatalf("ingest = %d", code)
	}
	var j struct {
		State, Message string
	}
	eventually(t, "the job while Qdrant is down ends", func() bool {
		call(t, "GET", base+"/v1/jobs/"+job.ID, "", &j)
		return j.State == "failed" || j.State == "succeeded"
	})
	t.Logf("503 while down: %q; job while down: %+v", p.Detail, j)
	if j.State != "failed" || !strings.Contains(j.Message, "qdrant") {
		t.Errorf("ingest job while Qdrant is down: %+v, want failed naming qdrant", j)
	}

	if err := q.Restart(); err != nil {
		t.Fatal(err)
	}
	eventually(t, "verify recovers after Qdrant returns", func() bool {
		return call(t, "POST", base+"/v1/verify", goldenGate, &res) == 200 && len(res.Citations) >= 2
	})
	if code := call(t, "GET", base+"/readyz", "", &ready); code != 200 {
		t.Errorf("readyz after Qdrant returned = %d %+v", code, ready)
	}
}

// pageServer serves one HTML page holding text and returns its URL.
func pageServer(t *testing.T, text string) string {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/page" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<html><head><title>Coastal history</title></head><body><article><p>%s</p><p>%s</p></article></body></html>", text, text)
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/page"
}

// TestScaleOutServeAndWorker runs the scale-out deployment on one machine:
// `verity serve` enqueues on PostgreSQL, a separate `verity worker`
// ingests into Qdrant, serve answers from both. When PostgreSQL is cut
// off, requests that need it fail fast with a 503 naming it and /readyz
// reports it; when it is back, serve recovers by itself.
func TestScaleOutServeAndWorker(t *testing.T) {
	dbURL := corpustest.PostgresURL(t)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	schema := corpustest.NewSchema(t, dbURL)
	proxy := corpustest.StartProxy(t, u.Host)
	q := qdranttest.Start(t)
	data := filepath.Join(t.TempDir(), "data")
	env := func(db string) []string {
		return []string{"VERITY_DATABASE_URL=" + db, "VERITY_DATABASE_SCHEMA=" + schema, "QDRANT_URL=" + q.URL()}
	}
	base := startVerity(t, env(corpustest.WithHost(t, dbURL, proxy.Addr())), listening,
		"serve", "--data", data, "--addr", "127.0.0.1:0", "--demo=false")
	startVerity(t, env(dbURL), workerReady, "worker", "--data", data, "--allow-private", "--concurrency", "2")

	page := pageServer(t, "Lighthouse keepers on the northern coast lit 41 lamps every night in 1901.")
	var job struct{ ID, State string }
	if code := call(t, "POST", base+"/v1/ingest", fmt.Sprintf(`{"sources": [%q]}`, page), &job); code != 202 || job.State != "queued" {
		t.Fatalf("ingest = %d %+v, want 202 queued", code, job)
	}
	var j struct {
		State            string
		Ingested, Failed int
		Errors           []struct{ Source, Reason string }
	}
	eventually(t, "the worker finishes the job", func() bool {
		call(t, "GET", base+"/v1/jobs/"+job.ID, "", &j)
		return j.State == "succeeded" || j.State == "failed"
	})
	if j.State != "succeeded" || j.Ingested != 1 {
		t.Fatalf("job = %+v, want succeeded with 1 source ingested", j)
	}
	var res verifyResult
	claim := `{"claim": "Lighthouse keepers on the northern coast lit 41 lamps every night in 1901."}`
	if code := call(t, "POST", base+"/v1/verify", claim, &res); code != 200 || len(res.Citations) == 0 || res.Citations[0].URL != page {
		t.Errorf("verify of the ingested page = %d %+v, want it cited", code, res)
	}

	proxy.Cut()
	var p problem
	if code := call(t, "GET", base+"/v1/sources", "", &p); code != 503 || !strings.Contains(p.Detail, "postgres") {
		t.Errorf("sources while PostgreSQL is cut off = %d %+v, want 503 naming postgres", code, p)
	}
	var ready readiness
	if code := call(t, "GET", base+"/readyz", "", &ready); code != 503 || !strings.HasPrefix(ready.Checks["postgres"], "unavailable") || ready.Checks["qdrant"] != "ok" {
		t.Errorf("readyz while PostgreSQL is cut off = %d %+v, want 503 with postgres unavailable, qdrant ok", code, ready)
	}
	t.Logf("503 while PostgreSQL is cut off: %q; readyz: %+v", p.Detail, ready)
	if err := proxy.Restore(); err != nil {
		t.Fatal(err)
	}
	var list struct{ Total int }
	eventually(t, "sources recover after PostgreSQL returns", func() bool {
		return call(t, "GET", base+"/v1/sources", "", &list) == 200
	})
	if list.Total != 1 {
		t.Errorf("sources after the outage: total %d, want 1", list.Total)
	}

	// The worker's health check sees the same backends.
	out, stderr, code := verityEnv(t, env(dbURL), "health", "--data", data)
	if code != 0 || !strings.Contains(out, "postgres: ok") || !strings.Contains(out, "qdrant: ok") {
		t.Errorf("health = %d %q %q", code, out, stderr)
	}
}

// verityEnv runs the binary to completion with env added to a clean
// environment.
func verityEnv(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, verityBin, args...)
	cmd.Env = append(cleanEnv(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), errb.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run verity %v: %v", args, err)
	}
	return out.String(), errb.String(), 0
}
