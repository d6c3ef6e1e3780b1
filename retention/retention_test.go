package retention

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/jobs"
)

// upload makes an upload directory with one file, last modified age ago.
func upload(t *testing.T, root, name string, age time.Duration) string {
	t.Helper()
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "doc.md")
	if err := os.WriteFile(file, []byte("# Doc\n\nSome text."), 0o640); err != nil {
		t.Fatal(err)
	}
	at := time.Now().Add(-age)
	for _, p := range []string{file, dir} {
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	return file
}

func dirs(t *testing.T, root string) []string {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}

func openStore(t *testing.T) *corpus.SQLite {
	t.Helper()
	store, err := corpus.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

// TestCollect: one pass removes old stages, old finished jobs and the
// uploads no live job uses, and nothing else.
func TestCollect(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	root := t.TempDir()
	now := time.Now()
	day := 24 * time.Hour

	liveFile := upload(t, root, "live", 40*day)
	finishedFile := upload(t, root, "finished", 2*day)
	upload(t, root, "orphan", 40*day)
	upload(t, root, "fresh", time.Minute) // a request still between saving and submitting
	upload(t, root, "kept-days", 3*day)

	mustPut := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	mustPut(store.PutSource(ctx, evidence.Source{ID: "old-source", Title: "kept", IngestedAt: now.Add(-400 * day), Passages: 4}))
	mustPut(store.PutStage(ctx, corpus.Stage{ID: "old", MessageID: "m1", StageType: "report", CreatedAt: now.Add(-31 * day)}))
	mustPut(store.PutStage(ctx, corpus.Stage{ID: "new", MessageID: "m2", StageType: "report", CreatedAt: now.Add(-29 * day)}))
	live := corpus.Job{ID: "live", State: corpus.JobRunning, Sources: []string{liveFile}, Total: 1, CreatedAt: now.Add(-40 * day), UpdatedAt: now.Add(-40 * day)}
	finished := corpus.Job{ID: "finished", State: corpus.JobSucceeded, Sources: []string{finishedFile, "https://e.example/"}, Total: 2, Done: 2, Ingested: 2,
		CreatedAt: now.Add(-2 * day), UpdatedAt: now.Add(-2 * day), FinishedAt: now.Add(-2 * day)}
	old := corpus.Job{ID: "old", State: corpus.JobFailed, Sources: []string{"https://e.example/"}, Total: 1, Done: 1, Failed: 1, Message: "x",
		CreatedAt: now.Add(-60 * day), UpdatedAt: now.Add(-60 * day), FinishedAt: now.Add(-60 * day)}
	for _, j := range []corpus.Job{live, finished, old} {
		mustPut(store.CreateJob(ctx, j))
	}

	c := New(store, Config{Days: 30, UploadDays: 0, UploadDir: root}, nil)
	r, err := c.Collect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := Report{Pruned: corpus.Pruned{Stages: 1, Jobs: 1}, Uploads: 3, UploadBytes: 3 * int64(len("# Doc\n\nSome text."))}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"fresh", "live"}, dirs(t, root)); diff != "" {
		t.Errorf("upload directories left (-want +got):\n%s", diff)
	}
	if st, _ := store.Stages(ctx, "m2"); len(st) != 1 {
		t.Errorf("the stage within retention.days was pruned")
	}
	if _, err := store.Job(ctx, "finished"); err != nil {
		t.Errorf("the recent finished job was pruned: %v", err)
	}
	if _, err := store.Job(ctx, "old"); !errors.Is(err, corpus.ErrNotFound) {
		t.Errorf("the old finished job = %v, want pruned", err)
	}
	if _, err := store.Source(ctx, "old-source"); err != nil {
		t.Errorf("a source was pruned: %v", err)
	}

	// A second pass finds nothing more to do.
	if r, err := c.Collect(ctx); err != nil || r != (Report{}) {
		t.Errorf("second pass = %+v, %v; want nothing deleted", r, err)
	}
}

// TestCollectUploadDays: with upload_days, uploads no job uses are kept
// that many days.
func TestCollectUploadDays(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	root := t.TempDir()
	upload(t, root, "three-days", 3*24*time.Hour)
	upload(t, root, "eight-days", 8*24*time.Hour)
	r, err := New(store, Config{UploadDays: 7, UploadDir: root}, nil).Collect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if r.Uploads != 1 {
		t.Errorf("deleted %d upload directories, want 1", r.Uploads)
	}
	if diff := cmp.Diff([]string{"three-days"}, dirs(t, root)); diff != "" {
		t.Errorf("upload directories left (-want +got):\n%s", diff)
	}
	n, size, err := Usage(root)
	if err != nil || n != 1 || size == 0 {
		t.Errorf("Usage = %d, %d, %v; want the one directory", n, size, err)
	}
}

// TestDropUploads: a job's uploads go once its work has succeeded, and
// stay when it failed or was interrupted; nothing outside the upload
// directory is touched.
func TestDropUploads(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "outside.md")
	if err := os.WriteFile(outside, []byte("x"), 0o640); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		workErr error
		cancel  bool
		left    []string
	}{
		{"succeeded", nil, false, []string{"other"}},
		{"failed", errors.New("index is read-only"), false, []string{"job", "other"}},
		{"interrupted", nil, true, []string{"job", "other"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			file := upload(t, root, "job", 0)
			upload(t, root, "other", 0)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			work := DropUploads(func(context.Context, []string, func(jobs.Update)) error {
				if tt.cancel {
					cancel()
				}
				return tt.workErr
			}, root, nil)
			if err := work(ctx, []string{"https://e.example/", file, outside}, func(jobs.Update) {}); !errors.Is(err, tt.workErr) {
				t.Fatalf("work = %v, want %v", err, tt.workErr)
			}
			if diff := cmp.Diff(tt.left, dirs(t, root)); diff != "" {
				t.Errorf("upload directories left (-want +got):\n%s", diff)
			}
			if _, err := os.Stat(outside); err != nil {
				t.Errorf("a file outside the upload directory: %v", err)
			}
		})
	}
}
