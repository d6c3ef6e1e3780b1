// Package jobs runs ingest jobs. A job is recorded in the corpus store
// before it is acknowledged, updated as its sources finish, and taken up
// again after a restart, so an acknowledged job is never lost. Local runs
// jobs on a bounded in-process worker pool, the embedded default.
package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/evidence"
)

// Store keeps job records; corpus.Store implements it.
type Store interface {
	CreateJob(ctx context.Context, j corpus.Job) error
	UpdateJob(ctx context.Context, j corpus.Job) error
	Job(ctx context.Context, id string) (corpus.Job, error)
	ListJobs(ctx context.Context, limit int) ([]corpus.Job, error)
	LiveJobs(ctx context.Context) ([]corpus.Job, error)
}

// Update is the progress of a running job.
type Update struct {
	Total, Done, Ingested, Skipped, Failed int
	Errors                                 []corpus.JobError
}

// Work ingests sources, calling report as sources finish. It returns an
// error only when the job as a whole failed; a source that fails is counted
// in the Update.
type Work func(ctx context.Context, sources []string, report func(Update)) error

// BackendDown is the retry policy of a job whose sources failed: it
// returns the first of errs, the sources' errors, that comes from a
// backend that is unavailable (its Unavailable method reports true: a
// store, a model server), or nil. A Work function returns such an error
// for the job as a whole, so that the PostgreSQL queue tries the job again
// later instead of recording the sources as failed for good.
func BackendDown(errs []error) error {
	for _, err := range errs {
		var u interface{ Unavailable() bool }
		if errors.As(err, &u) && u.Unavailable() {
			return err
		}
	}
	return nil
}

// ErrBusy reports that the queue is full; try again later. Its Busy method
// tells the HTTP layer to answer 503 without importing this package.
var ErrBusy error = busyError{}

type busyError struct{}

func (busyError) Error() string { return "the ingest queue is full" }

// Busy reports that trying again later may succeed.
func (busyError) Busy() bool { return true }

// Config tunes a Local runner. The zero value works.
type Config struct {
	// Workers is the number of jobs run at once. Default 1.
	Workers int
	// MaxSources bounds the sources of one job. Default 1,000.
	MaxSources int
	// QueueSize bounds the jobs waiting to run. Default 100.
	QueueSize int
	// ProgressEvery throttles progress writes to the store. Default 250 ms.
	ProgressEvery time.Duration
}

// MaxWorkers bounds Config.Workers and RiverConfig.Workers (jobs.workers).
const MaxWorkers = 64

// DefaultConfig returns the defaults the zero Config stands for.
func DefaultConfig() Config { return Config{}.withDefaults() }

// Validate reports the first setting that cannot work, naming it as
// verity's configuration does (jobs.workers). It checks the values as
// given: start from DefaultConfig.
func (c Config) Validate() error {
	switch {
	case c.Workers < 1 || c.Workers > MaxWorkers:
		return fmt.Errorf("jobs.workers must be between 1 and %d, got %d", MaxWorkers, c.Workers)
	case c.MaxSources < 1:
		return fmt.Errorf("jobs: MaxSources must be positive, got %d", c.MaxSources)
	case c.QueueSize < 1:
		return fmt.Errorf("jobs: QueueSize must be positive, got %d", c.QueueSize)
	case c.ProgressEvery <= 0:
		return fmt.Errorf("jobs: ProgressEvery must be positive, got %v", c.ProgressEvery)
	}
	return nil
}

func (c Config) withDefaults() Config {
	if c.Workers <= 0 {
		c.Workers = 1
	}
	if c.MaxSources <= 0 {
		c.MaxSources = 1000
	}
	if c.QueueSize <= 0 {
		c.QueueSize = 100
	}
	if c.ProgressEvery <= 0 {
		c.ProgressEvery = 250 * time.Millisecond
	}
	return c
}

// Local runs jobs in this process.
type Local struct {
	store Store
	work  Work
	cfg   Config
	log   *slog.Logger
	now   func() time.Time
	// slots holds a token for each submitted job not yet taken by a
	// worker: a submission that finds no free slot is refused before any
	// record is written.
	slots chan struct{}
	// queue carries submitted jobs, resumed those left by a previous
	// process; neither blocks a submission.
	queue   chan string
	resumed chan string

	mu     sync.Mutex
	active map[string]bool // jobs a worker holds now
}

// NewLocal returns a runner; call Run to start its workers.
func NewLocal(store Store, work Work, cfg Config, logger *slog.Logger) *Local {
	cfg = cfg.withDefaults()
	return &Local{store: store, work: work, cfg: cfg, log: logger, now: time.Now, slots: make(chan struct{}, cfg.QueueSize),
		queue: make(chan string, cfg.QueueSize), resumed: make(chan string), active: map[string]bool{}}
}

// Validate checks the sources of a job request.
func (l *Local) Validate(sources []string) error {
	return ValidateSources(sources, l.cfg.MaxSources)
}

// ValidateSources checks that there is at least one source, at most max,
// and that none is empty or longer than 2,048 bytes.
func ValidateSources(sources []string, max int) error {
	if len(sources) == 0 {
		return evidence.Invalid("sources", "must list at least one source")
	}
	if len(sources) > max {
		return evidence.Invalid("sources", "lists %d sources; the limit is %d", len(sources), max)
	}
	for i, s := range sources {
		if s == "" || len(s) > 2048 {
			return evidence.Invalid(fmt.Sprintf("sources[%d]", i), "must be 1 to 2048 bytes")
		}
	}
	return nil
}

// Submit records a queued job and hands it to a worker. The job is durable
// when Submit returns. When QueueSize jobs are already waiting it returns
// ErrBusy and records nothing.
func (l *Local) Submit(ctx context.Context, sources []string) (corpus.Job, error) {
	if err := l.Validate(sources); err != nil {
		return corpus.Job{}, err
	}
	select {
	case l.slots <- struct{}{}:
	default:
		return corpus.Job{}, ErrBusy
	}
	now := l.now().UTC()
	j := corpus.Job{ID: NewID(), State: corpus.JobQueued, Sources: sources, Total: len(sources), CreatedAt: now, UpdatedAt: now}
	if err := l.store.CreateJob(ctx, j); err != nil {
		<-l.slots
		return corpus.Job{}, fmt.Errorf("create job: %w", err)
	}
	l.queue <- j.ID // never blocks: the queue has a place for every slot
	return j, nil
}

// Job returns a job's record.
func (l *Local) Job(ctx context.Context, id string) (corpus.Job, error) {
	return l.store.Job(ctx, id)
}

// List returns the newest jobs.
func (l *Local) List(ctx context.Context, limit int) ([]corpus.Job, error) {
	return l.store.ListJobs(ctx, limit)
}

// Run takes up jobs a previous process left queued or running, then runs
// workers until ctx is done. A job interrupted by shutdown stays running in
// the store and is taken up again at the next start; re-ingesting is
// idempotent.
func (l *Local) Run(ctx context.Context) error {
	live, err := l.store.LiveJobs(ctx)
	if err != nil {
		return fmt.Errorf("list jobs to resume: %w", err)
	}
	var wg sync.WaitGroup
	for range l.cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.worker(ctx)
		}()
	}
	if len(live) > 0 {
		l.log.Info("resuming ingest jobs", "jobs", len(live))
	}
	for _, j := range live { // oldest first
		select {
		case l.resumed <- j.ID:
		case <-ctx.Done():
		}
	}
	wg.Wait()
	return nil
}

func (l *Local) worker(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case id := <-l.queue:
			<-l.slots
			l.run(ctx, id)
		case id := <-l.resumed:
			l.run(ctx, id)
		}
	}
}

func (l *Local) run(ctx context.Context, id string) {
	if err := l.runJob(ctx, id); err != nil && ctx.Err() == nil {
		l.log.Error("ingest job failed", "job", id, "err", err)
	}
}

func (l *Local) runJob(ctx context.Context, id string) error {
	// A job can be queued twice (submitted just before Run resumed it);
	// only one worker may hold it.
	l.mu.Lock()
	if l.active[id] {
		l.mu.Unlock()
		return nil
	}
	l.active[id] = true
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		delete(l.active, id)
		l.mu.Unlock()
	}()

	j, err := l.store.Job(ctx, id)
	if err != nil {
		return fmt.Errorf("load job: %w", err)
	}
	if j.State.Final() {
		return nil
	}
	j.State, j.UpdatedAt = corpus.JobRunning, l.now().UTC()
	j.Done, j.Ingested, j.Skipped, j.Failed, j.Errors = 0, 0, 0, 0, nil
	if err := l.store.UpdateJob(ctx, j); err != nil {
		return fmt.Errorf("mark job running: %w", err)
	}

	var mu sync.Mutex
	report := reporter(ctx, l.store, &j, &mu, l.cfg.ProgressEvery, l.now, l.log)
	werr := l.work(ctx, j.Sources, report)
	if ctx.Err() != nil {
		// Shutting down: leave the job running so the next start resumes it.
		return ctx.Err()
	}

	mu.Lock()
	defer mu.Unlock()
	now := l.now().UTC()
	j.UpdatedAt, j.FinishedAt = now, now
	switch {
	case werr != nil:
		j.State, j.Message = corpus.JobFailed, werr.Error()
	default:
		j.State, j.Message = j.Outcome()
	}
	if err := l.store.UpdateJob(context.WithoutCancel(ctx), j); err != nil {
		return fmt.Errorf("finish job: %w", err)
	}
	l.log.Info("ingest job finished", "job", j.ID, "state", j.State, "ingested", j.Ingested, "skipped", j.Skipped, "failed", j.Failed)
	return nil
}

// reporter returns the report function of a running job: it applies each
// Update to *j and writes *j to store, at most every `every` apart and
// always when the last source is done. mu guards *j; the caller holds it to
// read the job once the work has returned.
func reporter(ctx context.Context, store Store, j *corpus.Job, mu *sync.Mutex, every time.Duration, now func() time.Time, log *slog.Logger) func(Update) {
	var lastWrite time.Time
	return func(u Update) {
		mu.Lock()
		defer mu.Unlock()
		j.Done, j.Ingested, j.Skipped, j.Failed = u.Done, u.Ingested, u.Skipped, u.Failed
		j.Errors = append([]corpus.JobError(nil), u.Errors...)
		if u.Total > 0 {
			j.Total = u.Total
		}
		t := now()
		if t.Sub(lastWrite) < every && u.Done < j.Total {
			return
		}
		lastWrite = t
		j.UpdatedAt = t.UTC()
		if err := store.UpdateJob(ctx, *j); err != nil && ctx.Err() == nil {
			log.Warn("write job progress", "job", j.ID, "err", err)
		}
	}
}

// NewID returns a random 128-bit hex identifier.
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
