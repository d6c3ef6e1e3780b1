package jobs

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/corpus/corpustest"
	"github.com/verity-fc/verity/evidence"
)

// openPG opens a corpus store in a schema of its own in the test database;
// River's tables go to the same schema.
func openPG(t *testing.T) *corpus.Postgres {
	t.Helper()
	dbURL := corpustest.PostgresURL(t)
	s, err := corpus.OpenPostgres(context.Background(), dbURL, corpus.PostgresConfig{Schema: corpustest.NewSchema(t, dbURL)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// fast retries and polls at once, so that tests do not wait on River's
// production schedule.
func fast(cfg RiverConfig) RiverConfig {
	cfg.Backoff = func(int) time.Duration { return time.Millisecond }
	cfg.PollInterval = 20 * time.Millisecond
	cfg.ProgressEvery = time.Nanosecond
	return cfg
}

func newRiver(t *testing.T, store *corpus.Postgres, work Work, cfg RiverConfig) *River {
	t.Helper()
	r, err := NewRiver(context.Background(), store.Pool(), store, work, fast(cfg), quiet)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// start runs r until the test ends or the returned stop is called.
func start(t *testing.T, r *River) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// waitState polls the job's record until it reaches state, for at most
// 30 s.
func waitState(t *testing.T, s interface {
	Job(context.Context, string) (corpus.Job, error)
}, id string, state corpus.JobState) corpus.Job {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		j, err := s.Job(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if j.State == state {
			return j
		}
		if j.State.Final() {
			t.Fatalf("job %s ended %s, want %s: %+v", id, j.State, state, j)
		}
		select {
		case <-ctx.Done():
			t.Fatalf("job %s did not reach %s: %+v", id, state, j)
		case <-tick.C:
		}
	}
}

var ignoreTimes = cmpopts.IgnoreFields(corpus.Job{}, "CreatedAt", "UpdatedAt", "FinishedAt")

// TestRiverServeAndWorker: an enqueue-only runner (serve) and a working
// runner (worker) share the queue; the job's record carries progress and
// per-source errors.
func TestRiverServeAndWorker(t *testing.T) {
	store := openPG(t)
	serve := newRiver(t, store, nil, RiverConfig{})
	worker := newRiver(t, store, countingWork, RiverConfig{})
	start(t, serve) // returns at once: it has no work
	start(t, worker)

	j, err := serve.Submit(context.Background(), []string{"a", "bad", "c"})
	if err != nil {
		t.Fatal(err)
	}
	if j.State != corpus.JobQueued || j.Total != 3 {
		t.Errorf("submitted job = %+v", j)
	}
	got := waitState(t, serve, j.ID, corpus.JobPartial)
	want := corpus.Job{
		ID: j.ID, State: corpus.JobPartial, Sources: []string{"a", "bad", "c"}, Total: 3, Done: 3, Ingested: 2, Failed: 1,
		Errors:  []corpus.JobError{{Source: "bad", Reason: "no such file"}},
		Message: "1 of 3 sources failed",
	}
	if diff := cmp.Diff(want, got, ignoreTimes); diff != "" {
		t.Errorf("finished job (-want +got):\n%s", diff)
	}
	if got.FinishedAt.IsZero() {
		t.Error("FinishedAt not set")
	}
	list, err := serve.List(context.Background(), 10)
	if err != nil || len(list) != 1 || list[0].ID != j.ID {
		t.Errorf("List = %v, %v", list, err)
	}
}

func TestRiverSubmitValidates(t *testing.T) {
	store := openPG(t)
	r := newRiver(t, store, nil, RiverConfig{MaxSources: 2})
	for _, sources := range [][]string{nil, {"a", "b", "c"}, {""}} {
		_, err := r.Submit(context.Background(), sources)
		var ie *evidence.InputError
		if !errors.As(err, &ie) {
			t.Errorf("Submit(%q): error = %v, want an *evidence.InputError", sources, err)
		}
	}
	if list, err := r.List(context.Background(), 10); err != nil || len(list) != 0 {
		t.Errorf("rejected jobs were recorded: %v, %v", list, err)
	}
}

// TestRiverRetries: work that fails as a whole is tried again, and the
// record says which attempt failed and why; the job succeeds when an
// attempt does.
func TestRiverRetries(t *testing.T) {
	store := openPG(t)
	var attempts atomic.Int32
	flaky := func(ctx context.Context, sources []string, report func(Update)) error {
		if attempts.Add(1) < 3 {
			return errors.New("qdrant is unavailable")
		}
		return countingWork(ctx, sources, report)
	}
	r := newRiver(t, store, flaky, RiverConfig{MaxAttempts: 5})
	start(t, r)
	j, err := r.Submit(context.Background(), []string{"a"})
	if err != nil {
		t.Fatal(err)
	}
	got := waitState(t, r, j.ID, corpus.JobSucceeded)
	if n := attempts.Load(); n != 3 {
		t.Errorf("work ran %d times, want 3", n)
	}
	if got.Ingested != 1 || got.Message != "" {
		t.Errorf("job after the successful attempt: %+v", got)
	}
}

// TestRiverGivesUp marks a job failed after its last attempt, with the
// last error.
func TestRiverGivesUp(t *testing.T) {
	store := openPG(t)
	var attempts atomic.Int32
	broken := func(context.Context, []string, func(Update)) error {
		attempts.Add(1)
		return errors.New("postgres is unavailable")
	}
	r := newRiver(t, store, broken, RiverConfig{MaxAttempts: 2})
	start(t, r)
	j, err := r.Submit(context.Background(), []string{"a"})
	if err != nil {
		t.Fatal(err)
	}
	got := waitState(t, r, j.ID, corpus.JobFailed)
	if want := "failed after 2 attempts: postgres is unavailable"; got.Message != want {
		t.Errorf("message %q, want %q", got.Message, want)
	}
	if n := attempts.Load(); n != 2 {
		t.Errorf("work ran %d times, want 2", n)
	}
}

// TestRiverEveryJobOnce runs jobs on two workers: each job is worked once.
func TestRiverEveryJobOnce(t *testing.T) {
	store := openPG(t)
	var mu sync.Mutex
	seen := map[string]int{}
	work := func(ctx context.Context, sources []string, report func(Update)) error {
		mu.Lock()
		seen[sources[0]]++
		mu.Unlock()
		return countingWork(ctx, sources, report)
	}
	a := newRiver(t, store, work, RiverConfig{Workers: 2})
	b := newRiver(t, store, work, RiverConfig{Workers: 2})
	start(t, a)
	start(t, b)
	var ids []string
	for i := range 12 {
		j, err := a.Submit(context.Background(), []string{fmt.Sprint("s", i)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, j.ID)
	}
	for _, id := range ids {
		waitState(t, b, id, corpus.JobSucceeded)
	}
	mu.Lock()
	defer mu.Unlock()
	for i := range 12 {
		if n := seen[fmt.Sprint("s", i)]; n != 1 {
			t.Errorf("job s%d worked %d times, want once", i, n)
		}
	}
}

// TestRiverWorkerStops stops a worker in the middle of a job: the job is
// not lost, and another worker finishes it.
func TestRiverWorkerStops(t *testing.T) {
	store := openPG(t)
	started := make(chan struct{}, 1)
	blocking := func(ctx context.Context, sources []string, report func(Update)) error {
		select {
		case started <- struct{}{}:
		default:
		}
		<-ctx.Done()
		return ctx.Err()
	}
	first := newRiver(t, store, blocking, RiverConfig{StopTimeout: time.Millisecond})
	stopFirst := start(t, first)
	j, err := first.Submit(context.Background(), []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("the first worker did not take the job")
	}
	stopFirst()
	got, err := store.Job(context.Background(), j.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != corpus.JobQueued {
		t.Errorf("job after its worker stopped: %+v, want queued for another attempt", got)
	}

	second := newRiver(t, store, countingWork, RiverConfig{})
	start(t, second)
	got = waitState(t, second, j.ID, corpus.JobSucceeded)
	if got.Ingested != 2 {
		t.Errorf("job finished by the second worker: %+v", got)
	}
}

// TestRiverEnqueueIsAtomic: when the queue entry cannot be written, no job
// is recorded either.
func TestRiverEnqueueIsAtomic(t *testing.T) {
	store := openPG(t)
	r := newRiver(t, store, nil, RiverConfig{})
	if _, err := store.Pool().Exec(context.Background(), "DROP TABLE river_job CASCADE"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Submit(context.Background(), []string{"a"}); err == nil {
		t.Fatal("Submit succeeded without a queue table")
	}
	list, err := r.List(context.Background(), 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 0 {
		t.Errorf("a job without a queue entry was recorded: %+v", list)
	}
}
