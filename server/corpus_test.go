package server

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/jobs"
)

// corpusServer runs the routes over a real SQLite corpus and an in-process
// job runner whose work records the sources it was given.
func corpusServer(t *testing.T) (*httptest.Server, *corpus.SQLite, chan []string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	store, err := corpus.OpenSQLite(ctx, filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan []string, 10)
	work := func(_ context.Context, sources []string, report func(jobs.Update)) error {
		got <- sources
		report(jobs.Update{Total: len(sources), Done: len(sources), Ingested: len(sources)})
		return nil
	}
	runner := jobs.NewLocal(store, work, jobs.Config{}, quietLogger())
	done := make(chan struct{})
	go func() { runner.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done; store.Close() })
	ts := httptest.NewServer(New(Config{MaxBodyBytes: 4096, UploadDir: t.TempDir()}, Deps{Verifier: realVerifier(), Jobs: runner, Sources: store}, quietLogger()).Handler())
	t.Cleanup(ts.Close)
	return ts, store, got
}

func TestIngestJSON(t *testing.T) {
	ts, _, got := corpusServer(t)
	resp, body := post(t, ts.URL+"/v1/ingest", `{"sources": ["https://example.org/a", "http://example.com/b"]}`)
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var j corpus.Job
	if err := json.Unmarshal(body, &j); err != nil {
		t.Fatal(err)
	}
	if loc := resp.Header.Get("Location"); loc != "/v1/jobs/"+j.ID {
		t.Errorf("Location = %q", loc)
	}
	select {
	case s := <-got:
		if len(s) != 2 || s[0] != "https://example.org/a" {
			t.Errorf("work got %v", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("job never ran")
	}
	// Poll the job until it is final.
	deadline := time.Now().Add(10 * time.Second)
	for {
		r, err := http.Get(ts.URL + "/v1/jobs/" + j.ID)
		if err != nil {
			t.Fatal(err)
		}
		var cur corpus.Job
		json.NewDecoder(r.Body).Decode(&cur)
		r.Body.Close()
		if cur.State == corpus.JobSucceeded && cur.Ingested == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job = %+v", cur)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestIngestRejects(t *testing.T) {
	ts, _, _ := corpusServer(t)
	tests := []struct {
		name, body, field string
	}{
		{"no sources", `{"sources": []}`, "sources"},
		{"server path", `{"sources": ["/etc/passwd"]}`, "sources[0]"},
		{"file scheme", `{"sources": ["https://ok.example", "file:///etc/passwd"]}`, "sources[1]"},
		{"unknown field", `{"urls": ["https://a.example"]}`, "urls"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := post(t, ts.URL+"/v1/ingest", tt.body)
			var p Problem
			json.Unmarshal(body, &p)
			if resp.StatusCode != 400 || p.Field != tt.field {
				t.Errorf("status %d problem %+v, want 400 field %q", resp.StatusCode, p, tt.field)
			}
		})
	}
}

func TestIngestUpload(t *testing.T) {
	ts, _, got := corpusServer(t)
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("file", "../../notes.md")
	fw.Write([]byte("# Notes\n\nThe bridge opened in 1937."))
	mw.WriteField("url", "https://example.org/page")
	mw.Close()
	resp, err := http.Post(ts.URL+"/v1/ingest", mw.FormDataContentType(), &buf)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("status %d", resp.StatusCode)
	}
	s := <-got
	if len(s) != 2 || s[0] != "https://example.org/page" || filepath.Base(s[1]) != "notes.md" {
		t.Fatalf("work got %v", s)
	}
	b, err := os.ReadFile(s[1])
	if err != nil || !strings.Contains(string(b), "1937") {
		t.Errorf("uploaded file = %q, %v", b, err)
	}

	var bad bytes.Buffer
	mw = multipart.NewWriter(&bad)
	fw, _ = mw.CreateFormFile("file", "run.sh")
	fw.Write([]byte("echo"))
	mw.Close()
	resp, err = http.Post(ts.URL+"/v1/ingest", mw.FormDataContentType(), &bad)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Errorf("upload of .sh: status %d, want 400", resp.StatusCode)
	}
}

func TestSourcesRoutes(t *testing.T) {
	ts, store, _ := corpusServer(t)
	ctx := context.Background()
	for i, d := range []string{"a.example", "b.example"} {
		if err := store.PutSource(ctx, evidence.Source{ID: "s" + string(rune('0'+i)), URL: "https://" + d + "/x", Domain: d, Title: "T " + d, Reliability: 0.5, Passages: 3, IngestedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	get := func(path string) (int, map[string]any) {
		r, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		var m map[string]any
		json.NewDecoder(r.Body).Decode(&m)
		return r.StatusCode, m
	}
	if code, m := get("/v1/sources?domain=b.example"); code != 200 || m["total"].(float64) != 1 {
		t.Errorf("filtered list = %d %v", code, m)
	}
	if code, m := get("/v1/sources/s0"); code != 200 || m["domain"] != "a.example" {
		t.Errorf("source = %d %v", code, m)
	}
	if code, _ := get("/v1/sources/nope"); code != 404 {
		t.Errorf("missing source = %d, want 404", code)
	}
	if code, _ := get("/v1/jobs/nope"); code != 404 {
		t.Errorf("missing job = %d, want 404", code)
	}
	if code, m := get("/v1/sources?limit=0"); code != 400 || m["field"] != "limit" {
		t.Errorf("limit=0 = %d %v", code, m)
	}
	if code, m := get("/v1/stats"); code != 200 || m["sources"].(float64) != 2 || m["passages"].(float64) != 6 {
		t.Errorf("stats = %d %v", code, m)
	}
}
