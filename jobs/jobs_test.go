package jobs

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/evidence"
)

func openStore(t *testing.T, path string) *corpus.SQLite {
	t.Helper()
	s, err := corpus.OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// countingWork ingests each source, failing those named "bad".
func countingWork(ctx context.Context, sources []string, report func(Update)) error {
	var u Update
	u.Total = len(sources)
	for _, s := range sources {
		u.Done++
		if s == "bad" {
			u.Failed++
			u.Errors = append(u.Errors, corpus.JobError{Source: s, Reason: "no such file"})
		} else {
			u.Ingested++
		}
		report(u)
	}
	return nil
}

func waitFinal(t *testing.T, l *Local, id string) corpus.Job {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		j, err := l.Job(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if j.State.Final() {
			return j
		}
		select {
		case <-ctx.Done():
			t.Fatalf("job %s did not finish: %+v", id, j)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func TestSubmitRunsToCompletion(t *testing.T) {
	store := openStore(t, filepath.Join(t.TempDir(), "c.db"))
	l := NewLocal(store, countingWork, Config{}, quiet)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	j, err := l.Submit(ctx, []string{"a", "bad", "c"})
	if err != nil {
		t.Fatal(err)
	}
	if j.State != corpus.JobQueued || j.Total != 3 {
		t.Errorf("submitted job = %+v", j)
	}
	got := waitFinal(t, l, j.ID)
	if got.State != corpus.JobPartial || got.Message != "1 of 3 sources failed" || got.Done != 3 || got.Ingested != 2 || got.Failed != 1 || len(got.Errors) != 1 || got.Errors[0].Source != "bad" {
		t.Errorf("finished job = %+v, want partial", got)
	}

	good, err := l.Submit(ctx, []string{"a", "c"})
	if err != nil {
		t.Fatal(err)
	}
	if got := waitFinal(t, l, good.ID); got.State != corpus.JobSucceeded || got.Message != "" || got.Ingested != 2 {
		t.Errorf("job whose every source was ingested = %+v, want succeeded", got)
	}

	all, err := l.Submit(ctx, []string{"bad"})
	if err != nil {
		t.Fatal(err)
	}
	if got := waitFinal(t, l, all.ID); got.State != corpus.JobFailed || got.Message == "" {
		t.Errorf("job whose every source failed = %+v, want failed with a message", got)
	}
}

func TestWorkErrorFailsJob(t *testing.T) {
	store := openStore(t, filepath.Join(t.TempDir(), "c.db"))
	l := NewLocal(store, func(context.Context, []string, func(Update)) error { return errors.New("index is read-only") }, Config{}, quiet)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	j, err := l.Submit(ctx, []string{"a"})
	if err != nil {
		t.Fatal(err)
	}
	if got := waitFinal(t, l, j.ID); got.State != corpus.JobFailed || got.Message != "index is read-only" {
		t.Errorf("job = %+v", got)
	}
}

// TestResumeAfterRestart: a job acknowledged by one process and interrupted
// is finished by the next.
func TestResumeAfterRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	started := make(chan struct{})
	blocking := func(ctx context.Context, sources []string, report func(Update)) error {
		close(started)
		<-ctx.Done()
		return ctx.Err()
	}
	store1, err := corpus.OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	l1 := NewLocal(store1, blocking, Config{}, quiet)
	ctx1, cancel1 := context.WithCancel(context.Background())
	done1 := make(chan struct{})
	go func() { l1.Run(ctx1); close(done1) }()
	j, err := l1.Submit(ctx1, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	queued, err := l1.Submit(ctx1, []string{"c"}) // waits behind the first
	if err != nil {
		t.Fatal(err)
	}
	<-started
	cancel1()
	<-done1
	store1.Close()

	store2 := openStore(t, path)
	l2 := NewLocal(store2, countingWork, Config{}, quiet)
	ctx2, cancel2 := context.WithCancel(context.Background())
	done2 := make(chan struct{})
	go func() { l2.Run(ctx2); close(done2) }()
	defer func() { cancel2(); <-done2 }()
	for _, id := range []string{j.ID, queued.ID} {
		if got := waitFinal(t, l2, id); got.State != corpus.JobSucceeded || got.Ingested != got.Total {
			t.Errorf("resumed job = %+v", got)
		}
	}
}

func TestValidateSources(t *testing.T) {
	tests := []struct {
		name    string
		sources []string
		field   string
	}{
		{"none", nil, "sources"},
		{"too many", make([]string, 1001), "sources"},
		{"empty entry", []string{"a", ""}, "sources[1]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ie *evidence.InputError
			if err := ValidateSources(tt.sources, 1000); !errors.As(err, &ie) || ie.Field != tt.field {
				t.Errorf("err = %v, want field %q", err, tt.field)
			}
		})
	}
}

func TestQueueFull(t *testing.T) {
	store := openStore(t, filepath.Join(t.TempDir(), "c.db"))
	l := NewLocal(store, countingWork, Config{QueueSize: 1}, quiet) // no Run: nothing drains
	ctx := context.Background()
	if _, err := l.Submit(ctx, []string{"a"}); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Submit(ctx, []string{"b"}); !errors.Is(err, ErrBusy) {
		t.Errorf("second submit = %v, want ErrBusy", err)
	}
}
