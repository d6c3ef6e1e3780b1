package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/jobs"
)

// recordingJobs accepts or refuses submissions and keeps what it accepted.
type recordingJobs struct {
	mu     sync.Mutex
	err    error // returned by Submit when set
	jobs   map[string]corpus.Job
	order  []string
	failOn string // a source that makes the job fail, with its path in the error
}

func (r *recordingJobs) Submit(_ context.Context, sources []string) (corpus.Job, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return corpus.Job{}, r.err
	}
	j := corpus.Job{ID: jobs.NewID(), State: corpus.JobQueued, Sources: sources, Total: len(sources)}
	for _, s := range sources {
		if strings.HasSuffix(s, r.failOn) && r.failOn != "" {
			j.State, j.Failed, j.Done = corpus.JobFailed, 1, 1
			j.Errors = []corpus.JobError{{Source: s, Reason: "open " + s + ": permission denied"}}
			j.Message = "every source failed: open " + s
		}
	}
	if r.jobs == nil {
		r.jobs = map[string]corpus.Job{}
	}
	r.jobs[j.ID] = j
	r.order = append(r.order, j.ID)
	return j, nil
}

func (r *recordingJobs) Job(_ context.Context, id string) (corpus.Job, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	j, ok := r.jobs[id]
	if !ok {
		return corpus.Job{}, corpus.ErrNotFound
	}
	return j, nil
}

func (r *recordingJobs) List(_ context.Context, limit int) ([]corpus.Job, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []corpus.Job
	for i := len(r.order) - 1; i >= 0 && len(out) < limit; i-- {
		out = append(out, r.jobs[r.order[i]])
	}
	return out, nil
}

func uploadServer(t *testing.T, js *recordingJobs) (*httptest.Server, string) {
	t.Helper()
	dir := t.TempDir()
	ts := httptest.NewServer(New(Config{MaxBodyBytes: 4096, UploadDir: dir}, Deps{Verifier: realVerifier(), Jobs: js}, quietLogger()).Handler())
	t.Cleanup(ts.Close)
	return ts, dir
}

type part struct{ field, name, body string }

func postMultipart(t *testing.T, url string, parts ...part) (*http.Response, []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, p := range parts {
		if p.name == "" {
			mw.WriteField(p.field, p.body)
			continue
		}
		fw, err := mw.CreateFormFile(p.field, p.name)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write([]byte(p.body))
	}
	mw.Close()
	resp, err := http.Post(url, mw.FormDataContentType(), &buf)
	return readResponse(t, resp, err)
}

// filesUnder lists the regular files under dir, relative to it.
func filesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, path)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

func TestUploadDuplicateNames(t *testing.T) {
	js := &recordingJobs{}
	ts, dir := uploadServer(t, js)
	resp, body := postMultipart(t, ts.URL+"/v1/ingest",
		part{"file", "notes.md", "first"}, part{"file", "sub/notes.md", "second"}, part{"file", "NOTES.md", "third"}, part{"file", "notes-2.md", "fourth"})
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var j corpus.Job
	if err := json.Unmarshal(body, &j); err != nil {
		t.Fatal(err)
	}
	stored := js.jobs[j.ID].Sources
	got := map[string]string{}
	for _, p := range stored {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		got[filepath.Base(p)] = string(b)
	}
	want := map[string]string{"notes.md": "first", "notes-2.md": "second", "NOTES-3.md": "third", "notes-2-2.md": "fourth"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stored files (-want +got):\n%s", diff)
	}
	if n := len(filesUnder(t, dir)); n != 4 {
		t.Errorf("%d files under the upload directory, want 4", n)
	}
}

func TestUploadFailedRequestLeavesNothing(t *testing.T) {
	tests := []struct {
		name   string
		jobErr error
		parts  []part
		status int
	}{
		{"bad extension after a good file", nil, []part{{"file", "a.md", "x"}, {"file", "b.sh", "y"}}, 400},
		{"bad url field", nil, []part{{"file", "a.md", "x"}, {"url", "", "file:///etc/passwd"}}, 400},
		{"NUL in a field", nil, []part{{"file", "a.md", "x"}, {"url", "", "https://a.example/\x00"}}, 400},
		{"invalid UTF-8 in a file name", nil, []part{{"file", "a\xff.md", "x"}}, 400},
		{"queue full", jobs.ErrBusy, []part{{"file", "a.md", "x"}, {"file", "b.md", "y"}}, 503},
		{"store down", errors.New("disk full"), []part{{"file", "a.md", "x"}}, 500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			js := &recordingJobs{err: tt.jobErr}
			ts, dir := uploadServer(t, js)
			resp, body := postMultipart(t, ts.URL+"/v1/ingest", tt.parts...)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.status, body)
			}
			if left := filesUnder(t, dir); len(left) != 0 {
				t.Errorf("the failed request left %v", left)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 0 {
				t.Errorf("the failed request left %d directories", len(entries))
			}
		})
	}
}

func TestJobsHideServerPaths(t *testing.T) {
	js := &recordingJobs{failOn: "b.md"}
	ts, dir := uploadServer(t, js)
	resp, body := postMultipart(t, ts.URL+"/v1/ingest", part{"file", "a.md", "x"}, part{"file", "b.md", "y"}, part{"url", "", "https://e.example/p"})
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var j corpus.Job
	json.Unmarshal(body, &j)
	for _, path := range []string{"/v1/jobs/" + j.ID, "/v1/jobs"} {
		r, err := http.Get(ts.URL + path)
		_, listed := readResponse(t, r, err)
		for _, text := range []string{string(body), string(listed)} {
			if strings.Contains(text, dir) || strings.Contains(text, filepath.ToSlash(dir)) {
				t.Errorf("%s shows the server path %s: %s", path, dir, text)
			}
		}
	}
	id := filepath.Base(filepath.Dir(js.jobs[j.ID].Sources[1]))
	want := []string{"https://e.example/p", "upload:" + id + "/a.md", "upload:" + id + "/b.md"}
	if diff := cmp.Diff(want, j.Sources); diff != "" {
		t.Errorf("sources (-want +got):\n%s", diff)
	}
	if j.Errors[0].Source != want[2] || !strings.Contains(j.Errors[0].Reason, want[2]) || !strings.Contains(j.Message, want[2]) {
		t.Errorf("errors %+v, message %q: want the upload named %s", j.Errors, j.Message, want[2])
	}
}

// TestJobsHideRelativeUploadDir: with a relative upload directory (the
// default data directory is ./verity-data), neither the path as given nor
// the absolute one ingest reports reaches the client.
func TestJobsHideRelativeUploadDir(t *testing.T) {
	t.Chdir(t.TempDir())
	js := &recordingJobs{failOn: "a.md"}
	ts := httptest.NewServer(New(Config{UploadDir: filepath.Join("data", "uploads")}, Deps{Verifier: realVerifier(), Jobs: js}, quietLogger()).Handler())
	defer ts.Close()
	resp, body := postMultipart(t, ts.URL+"/v1/ingest", part{"file", "a.md", "x"})
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var j corpus.Job
	json.Unmarshal(body, &j)
	abs, _ := filepath.Abs(js.jobs[j.ID].Sources[0])
	js.mu.Lock()
	stored := js.jobs[j.ID]
	stored.Errors = []corpus.JobError{{Source: abs, Reason: "open " + abs + ": denied"}}
	js.jobs[j.ID] = stored
	js.mu.Unlock()
	r, err := http.Get(ts.URL + "/v1/jobs/" + j.ID)
	_, got := readResponse(t, r, err)
	if strings.Contains(string(got), "data/uploads") || strings.Contains(string(got), abs) {
		t.Errorf("the job shows a server path: %s", got)
	}
}

func TestPublicJobHidesOtherFiles(t *testing.T) {
	s := New(Config{UploadDir: "/srv/verity/uploads"}, Deps{Verifier: realVerifier()}, quietLogger())
	j := s.publicJob(corpus.Job{
		Sources: []string{"/srv/verity/demo-corpus.jsonl", "/srv/verity/uploads/u1/a.md", "https://e.example/x"},
		Errors:  []corpus.JobError{{Source: "/srv/verity/demo-corpus.jsonl", Reason: "line 3 of /srv/verity/demo-corpus.jsonl: bad"}},
		Message: "open /srv/verity/uploads/u1/a.md: denied",
	})
	want := corpus.Job{
		Sources: []string{"demo-corpus.jsonl", "upload:u1/a.md", "https://e.example/x"},
		Errors:  []corpus.JobError{{Source: "demo-corpus.jsonl", Reason: "line 3 of demo-corpus.jsonl: bad"}},
		Message: "open upload:u1/a.md: denied",
	}
	if diff := cmp.Diff(want, j); diff != "" {
		t.Errorf("publicJob (-want +got):\n%s", diff)
	}
}
