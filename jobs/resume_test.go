package jobs

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/verity-fc/verity/corpus"
)

// TestResumeBeyondListLimit: jobs a previous process left queued or
// running are all taken up again, however many newer job records there
// are (the resume path once read only the newest 1,000).
func TestResumeBeyondListLimit(t *testing.T) {
	store := openStore(t, filepath.Join(t.TempDir(), "c.db"))
	ctx := context.Background()
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var live []string
	const nLive, nFinal = 60, corpus.MaxListLimit + 50
	for i := range nLive + nFinal {
		at := base.Add(time.Duration(i) * time.Second)
		j := corpus.Job{ID: fmt.Sprintf("job-%05d", i), State: corpus.JobQueued, Sources: []string{"a", "b"}, Total: 2, CreatedAt: at, UpdatedAt: at}
		switch {
		case i < nLive && i%2 == 0:
			j.State = corpus.JobRunning
		case i >= nLive:
			j.State, j.Done, j.Ingested, j.FinishedAt = corpus.JobSucceeded, 2, 2, at
		}
		if err := store.CreateJob(ctx, j); err != nil {
			t.Fatal(err)
		}
		if i < nLive {
			live = append(live, j.ID)
		}
	}
	if newest, err := store.ListJobs(ctx, corpus.MaxListLimit); err != nil || newest[len(newest)-1].ID <= live[len(live)-1] {
		t.Fatalf("the live jobs must lie beyond the newest %d records (%v)", corpus.MaxListLimit, err)
	}

	l := NewLocal(store, countingWork, Config{Workers: 2}, quiet)
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { l.Run(runCtx); close(done) }()
	defer func() { cancel(); <-done }()
	for _, id := range live {
		got := waitFinal(t, l, id)
		if got.State != corpus.JobSucceeded || got.Ingested != 2 {
			t.Errorf("resumed job = %+v", got)
		}
	}
}

// TestRejectedSubmitRecordsNothing: a submission refused because the queue
// is full leaves no job record behind (it once stayed as a failed job).
func TestRejectedSubmitRecordsNothing(t *testing.T) {
	store := openStore(t, filepath.Join(t.TempDir(), "c.db"))
	l := NewLocal(store, countingWork, Config{QueueSize: 3}, quiet) // no Run: nothing drains
	ctx := context.Background()
	var accepted []string
	for i := range 10 {
		j, err := l.Submit(ctx, []string{fmt.Sprint(i)})
		switch {
		case i < 3 && err != nil:
			t.Fatalf("submit %d: %v", i, err)
		case i >= 3 && !errors.Is(err, ErrBusy):
			t.Fatalf("submit %d = %v, want ErrBusy", i, err)
		case err == nil:
			accepted = append(accepted, j.ID)
		}
	}
	js, err := store.ListJobs(ctx, corpus.MaxListLimit)
	if err != nil {
		t.Fatal(err)
	}
	if len(js) != len(accepted) {
		t.Errorf("%d job records after %d accepted submissions: %+v", len(js), len(accepted), js)
	}
	for _, j := range js {
		if j.State != corpus.JobQueued {
			t.Errorf("job %s is %s, want queued", j.ID, j.State)
		}
	}
}

// TestSubmitStoreErrorFreesItsSlot: a submission whose record cannot be
// written does not hold a place in the queue.
func TestSubmitStoreErrorFreesItsSlot(t *testing.T) {
	store := openStore(t, filepath.Join(t.TempDir(), "c.db"))
	l := NewLocal(store, countingWork, Config{QueueSize: 1}, quiet)
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.Submit(canceled, []string{"a"}); err == nil || errors.Is(err, ErrBusy) {
		t.Fatalf("submit with a canceled context = %v, want the store's error", err)
	}
	if _, err := l.Submit(context.Background(), []string{"a"}); err != nil {
		t.Errorf("submit after a failed one = %v, want accepted", err)
	}
}
