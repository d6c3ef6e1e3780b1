// Package jobstest is the conformance suite of the job runners: the local
// runner (jobs.Local, over SQLite) and River (jobs.River, over PostgreSQL)
// run [Run].
package jobstest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/jobs"
)

// Runner is the contract the HTTP layer and the worker use.
type Runner interface {
	Validate(sources []string) error
	Submit(ctx context.Context, sources []string) (corpus.Job, error)
	Job(ctx context.Context, id string) (corpus.Job, error)
	List(ctx context.Context, limit int) ([]corpus.Job, error)
	Run(ctx context.Context) error
}

// New returns a fresh runner over an empty store that does its jobs with
// work.
type New func(t *testing.T, work jobs.Work) Runner

// CountingWork ingests each source, failing those named "bad" as a source
// that cannot be read, and the whole job when a source is named "crash".
func CountingWork(ctx context.Context, sources []string, report func(jobs.Update)) error {
	var u jobs.Update
	u.Total = len(sources)
	for _, s := range sources {
		if s == "crash" {
			return errors.New("index is read-only")
		}
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

// start runs r until the test ends, and checks that Run returns once its
// context is cancelled.
func start(t *testing.T, r Runner) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run after its context was cancelled: %v", err)
			}
		case <-time.After(time.Minute):
			t.Errorf("Run did not return within a minute of its context being cancelled")
		}
	})
}

// WaitFinal polls the job until it reaches a final state, for at most
// a minute.
func WaitFinal(t *testing.T, r interface {
	Job(context.Context, string) (corpus.Job, error)
}, id string) corpus.Job {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		j, err := r.Job(ctx, id)
		if err != nil {
			t.Fatalf("Job(%s): %v", id, err)
		}
		if j.State.Final() {
			return j
		}
		select {
		case <-ctx.Done():
			t.Fatalf("job %s did not finish: %+v", id, j)
		case <-tick.C:
		}
	}
}

// Run checks the contract of a job runner: a valid submission is recorded
// queued and acknowledged, then run to a final state whose counts and
// message follow its sources; bad input is an *evidence.InputError and
// records nothing; an unknown job is corpus.ErrNotFound; List returns the
// newest first within its limit; concurrent submissions each run exactly
// once; Run returns when its context ends.
func Run(t *testing.T, newRunner New) {
	ctx := t.Context()

	t.Run("outcomes", func(t *testing.T) {
		r := newRunner(t, CountingWork)
		start(t, r)
		for _, tc := range []struct {
			sources          []string
			state            corpus.JobState
			msg              string
			ingested, failed int
		}{
			{[]string{"a", "b"}, corpus.JobSucceeded, "", 2, 0},
			{[]string{"a", "bad", "c"}, corpus.JobPartial, "1 of 3 sources failed", 2, 1},
			{[]string{"bad"}, corpus.JobFailed, "", 0, 1},
			{[]string{"a", "crash"}, corpus.JobFailed, "index is read-only", 1, 0},
		} {
			j, err := r.Submit(ctx, tc.sources)
			if err != nil {
				t.Fatalf("Submit(%v): %v", tc.sources, err)
			}
			if j.ID == "" || j.State != corpus.JobQueued || j.Total != len(tc.sources) {
				t.Errorf("Submit(%v) = %+v, want a queued job with an ID and %d sources", tc.sources, j, len(tc.sources))
			}
			got := WaitFinal(t, r, j.ID)
			if got.State != tc.state || got.Ingested != tc.ingested || got.Failed != tc.failed {
				t.Errorf("job of %v = %+v, want %s with %d ingested, %d failed", tc.sources, got, tc.state, tc.ingested, tc.failed)
			}
			// A runner may add to the message (River says how many
			// attempts failed) but must keep the cause.
			if !strings.Contains(got.Message, tc.msg) {
				t.Errorf("job of %v: message %q, want it to say %q", tc.sources, got.Message, tc.msg)
			}
			if tc.state == corpus.JobFailed && got.Message == "" {
				t.Errorf("failed job of %v has no message", tc.sources)
			}
			if tc.failed > 0 && (len(got.Errors) != tc.failed || got.Errors[0].Source != "bad") {
				t.Errorf("job of %v: errors %+v, want one naming the bad source", tc.sources, got.Errors)
			}
			if got.FinishedAt.IsZero() {
				t.Errorf("job of %v: FinishedAt not set", tc.sources)
			}
		}
	})

	t.Run("bad input records nothing", func(t *testing.T) {
		r := newRunner(t, CountingWork)
		for _, sources := range [][]string{nil, {""}, {"a", string(make([]byte, 2049))}} {
			var ie *evidence.InputError
			if err := r.Validate(sources); !errors.As(err, &ie) {
				t.Errorf("Validate(%d sources) = %v, want an *evidence.InputError", len(sources), err)
			}
			if _, err := r.Submit(ctx, sources); !errors.As(err, &ie) {
				t.Errorf("Submit(%d sources) = %v, want an *evidence.InputError", len(sources), err)
			}
		}
		if err := r.Validate([]string{"a"}); err != nil {
			t.Errorf("Validate of one source: %v", err)
		}
		if list, err := r.List(ctx, 10); err != nil || len(list) != 0 {
			t.Errorf("List after refused submissions = %v, %v; want none", list, err)
		}
	})

	t.Run("unknown job", func(t *testing.T) {
		r := newRunner(t, CountingWork)
		if _, err := r.Job(ctx, "no-such-job"); !errors.Is(err, corpus.ErrNotFound) {
			t.Errorf("Job of an unknown ID: err = %v, want corpus.ErrNotFound", err)
		}
	})

	t.Run("list newest first", func(t *testing.T) {
		r := newRunner(t, CountingWork)
		var ids []string
		for i := range 3 {
			j, err := r.Submit(ctx, []string{fmt.Sprintf("s%d", i)})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, j.ID)
			time.Sleep(5 * time.Millisecond) // distinct creation times, which List orders by
		}
		list, err := r.List(ctx, 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 2 || list[0].ID != ids[2] || list[1].ID != ids[1] {
			t.Errorf("List(2) = %v, want the jobs %s, %s", jobIDs(list), ids[2], ids[1])
		}
	})

	t.Run("concurrent submissions run once each", func(t *testing.T) {
		var mu sync.Mutex
		runs := map[string]int{}
		var calls atomic.Int64
		work := func(ctx context.Context, sources []string, report func(jobs.Update)) error {
			calls.Add(1)
			mu.Lock()
			runs[sources[0]]++
			mu.Unlock()
			return CountingWork(ctx, sources, report)
		}
		r := newRunner(t, work)
		start(t, r)
		const n = 8
		var wg sync.WaitGroup
		ids := make([]string, n)
		errs := make([]error, n)
		for i := range n {
			wg.Go(func() {
				j, err := r.Submit(ctx, []string{fmt.Sprintf("source-%d", i)})
				ids[i], errs[i] = j.ID, err
			})
		}
		wg.Wait()
		for i := range n {
			if errs[i] != nil {
				t.Fatalf("Submit %d: %v", i, errs[i])
			}
			if got := WaitFinal(t, r, ids[i]); got.State != corpus.JobSucceeded {
				t.Errorf("job %d = %+v, want succeeded", i, got)
			}
		}
		mu.Lock()
		defer mu.Unlock()
		for i := range n {
			if c := runs[fmt.Sprintf("source-%d", i)]; c != 1 {
				t.Errorf("job %d ran %d times, want once", i, c)
			}
		}
		if c := calls.Load(); c != n {
			t.Errorf("work called %d times for %d jobs", c, n)
		}
	})
}

func jobIDs(js []corpus.Job) []string {
	out := make([]string, len(js))
	for i, j := range js {
		out[i] = j.ID
	}
	return out
}
