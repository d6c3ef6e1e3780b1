package jobs

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"math"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"

	"github.com/verity-fc/verity/corpus"
)

// TxStore keeps job records and can record a new job in the transaction
// that enqueues it; corpus.Postgres implements it.
type TxStore interface {
	Store
	CreateJobTx(ctx context.Context, j corpus.Job, also func(ctx context.Context, tx pgx.Tx) error) error
}

// RiverConfig tunes a River runner. The zero value works.
type RiverConfig struct {
	// Workers is the number of jobs this process runs at once; default 1.
	Workers int
	// MaxSources bounds the sources of one job; default 1,000.
	MaxSources int
	// MaxAttempts is how many times a job whose work fails as a whole (a
	// backend down, say) is tried before it is marked failed; default 5.
	MaxAttempts int
	// Backoff is the wait before attempt n+1 after attempt n failed;
	// default n⁴ seconds (1 s, 16 s, 81 s, 256 s), River's own schedule.
	Backoff func(attempt int) time.Duration
	// JobTimeout bounds one attempt; default 1 h. A worker that dies holds
	// its job until JobTimeout plus 10 minutes have passed; then another
	// worker takes it up.
	JobTimeout time.Duration
	// ProgressEvery throttles progress writes to the store; default 250 ms.
	ProgressEvery time.Duration
	// PollInterval is how often an idle worker looks for jobs besides the
	// notifications PostgreSQL sends on insert; default 1 s. It also bounds
	// River's fetch cooldown (default 100 ms).
	PollInterval time.Duration
	// StopTimeout bounds how long Run waits, once its context is done, for
	// running jobs to finish before it cancels them; default 10 s. A
	// cancelled job is tried again, by this or another process.
	StopTimeout time.Duration
}

// DefaultRiverConfig returns the defaults the zero RiverConfig stands for.
func DefaultRiverConfig() RiverConfig { return RiverConfig{}.withDefaults() }

// Validate reports the first setting that cannot work, naming it as
// verity's configuration does (jobs.workers). It checks the values as
// given: start from DefaultRiverConfig.
func (c RiverConfig) Validate() error {
	switch {
	case c.Workers < 1 || c.Workers > MaxWorkers:
		return fmt.Errorf("jobs.workers must be between 1 and %d, got %d", MaxWorkers, c.Workers)
	case c.MaxAttempts < 1 || c.MaxAttempts > 100:
		return fmt.Errorf("jobs.max_attempts must be between 1 and 100, got %d", c.MaxAttempts)
	case c.JobTimeout <= 0:
		return fmt.Errorf("jobs.timeout must be positive, got %v", c.JobTimeout)
	}
	return nil
}

func (c RiverConfig) withDefaults() RiverConfig {
	if c.Workers <= 0 {
		c.Workers = 1
	}
	if c.MaxSources <= 0 {
		c.MaxSources = 1000
	}
	if c.MaxAttempts <= 0 {
		c.MaxAttempts = 5
	}
	if c.Backoff == nil {
		c.Backoff = func(n int) time.Duration { return time.Duration(math.Pow(float64(n), 4)) * time.Second }
	}
	if c.JobTimeout <= 0 {
		c.JobTimeout = time.Hour
	}
	if c.ProgressEvery <= 0 {
		c.ProgressEvery = 250 * time.Millisecond
	}
	if c.PollInterval <= 0 {
		c.PollInterval = time.Second
	}
	if c.StopTimeout <= 0 {
		c.StopTimeout = 10 * time.Second
	}
	return c
}

// riverQueue is the River queue of ingest jobs.
const riverQueue = "verity_ingest"

// riverArgs is the queue entry of an ingest job: the ID of its record in
// the store, which holds the sources and the progress.
type riverArgs struct {
	JobID string `json:"job_id"`
}

func (riverArgs) Kind() string { return "verity_ingest" }

// River runs ingest jobs from a durable queue in PostgreSQL
// (github.com/riverqueue/river), shared by every process on the database:
// `verity serve` processes enqueue, `verity worker` processes work. The
// job's record in the store and its queue entry are committed in one
// transaction. A job whose work fails as a whole is tried again with
// backoff; a job whose worker dies is taken up by another worker once
// its time limit has passed. Progress and per-source errors go to the
// job's record, as with Local.
type River struct {
	store  TxStore
	work   Work
	cfg    RiverConfig
	log    *slog.Logger
	now    func() time.Time
	client *river.Client[pgx.Tx]
}

// riverMigrationLock is the key of the advisory lock that serialises
// River's migrations across processes.
var riverMigrationLock = func() int64 {
	h := fnv.New64a()
	h.Write([]byte("verity river migrations"))
	return int64(h.Sum64())
}()

// NewRiver migrates River's tables in pool's database (to the schema of
// its search_path) and returns a runner. With work nil it only enqueues
// and reports jobs, as `verity serve` does when workers run elsewhere.
func NewRiver(ctx context.Context, pool *pgxpool.Pool, store TxStore, work Work, cfg RiverConfig, logger *slog.Logger) (*River, error) {
	cfg = cfg.withDefaults()
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	driver := riverpgxv5.New(pool)
	if err := migrateRiver(ctx, pool, driver, logger); err != nil {
		return nil, fmt.Errorf("migrate the job queue: %w", err)
	}
	r := &River{store: store, work: work, cfg: cfg, log: logger, now: time.Now}
	rc := &river.Config{
		Logger:            logger,
		MaxAttempts:       cfg.MaxAttempts,
		JobTimeout:        cfg.JobTimeout,
		RetryPolicy:       backoffPolicy{cfg.Backoff},
		FetchPollInterval: cfg.PollInterval,
		FetchCooldown:     min(cfg.PollInterval, river.FetchCooldownDefault),
		SoftStopTimeout:   cfg.StopTimeout,
	}
	if work != nil {
		workers := river.NewWorkers()
		river.AddWorker(workers, river.WorkFunc(r.runJob))
		rc.Workers = workers
		rc.Queues = map[string]river.QueueConfig{riverQueue: {MaxWorkers: cfg.Workers}}
		rc.RescueStuckJobsAfter = cfg.JobTimeout + 10*time.Minute
	}
	client, err := river.NewClient(driver, rc)
	if err != nil {
		return nil, fmt.Errorf("job queue client: %w", err)
	}
	r.client = client
	return r, nil
}

// migrateRiver applies River's migrations, each in its own transaction
// (some add an enum value that a later one uses), holding an advisory lock
// on a connection of its own: rivermigrate takes none itself, and several
// processes may start at once.
func migrateRiver(ctx context.Context, pool *pgxpool.Pool, driver *riverpgxv5.Driver, logger *slog.Logger) error {
	m, err := rivermigrate.New(driver, &rivermigrate.Config{Logger: logger})
	if err != nil {
		return err
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", riverMigrationLock); err != nil {
		return err
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", riverMigrationLock) //nolint:errcheck // the session ends the lock anyway
	_, err = m.Migrate(ctx, rivermigrate.DirectionUp, nil)
	return err
}

// backoffPolicy is River's retry policy from RiverConfig.Backoff.
type backoffPolicy struct{ backoff func(int) time.Duration }

// NextRetry is called with the failed attempt's error not yet in
// job.Errors, as River's own policy assumes.
func (p backoffPolicy) NextRetry(job *rivertype.JobRow) time.Time {
	return time.Now().Add(p.backoff(len(job.Errors) + 1))
}

// Validate checks the sources of a job request.
func (r *River) Validate(sources []string) error {
	return ValidateSources(sources, r.cfg.MaxSources)
}

// Submit records a queued job and enqueues it in one transaction. The job
// is durable when Submit returns.
func (r *River) Submit(ctx context.Context, sources []string) (corpus.Job, error) {
	if err := r.Validate(sources); err != nil {
		return corpus.Job{}, err
	}
	now := r.now().UTC()
	j := corpus.Job{ID: NewID(), State: corpus.JobQueued, Sources: sources, Total: len(sources), CreatedAt: now, UpdatedAt: now}
	err := r.store.CreateJobTx(ctx, j, func(ctx context.Context, tx pgx.Tx) error {
		_, err := r.client.InsertTx(ctx, tx, riverArgs{JobID: j.ID}, &river.InsertOpts{Queue: riverQueue, MaxAttempts: r.cfg.MaxAttempts})
		if err != nil {
			return fmt.Errorf("enqueue: %w", err)
		}
		return nil
	})
	if err != nil {
		return corpus.Job{}, fmt.Errorf("create job: %w", err)
	}
	return j, nil
}

// Job returns a job's record.
func (r *River) Job(ctx context.Context, id string) (corpus.Job, error) {
	return r.store.Job(ctx, id)
}

// List returns the newest jobs.
func (r *River) List(ctx context.Context, limit int) ([]corpus.Job, error) {
	return r.store.ListJobs(ctx, limit)
}

// Run works jobs until ctx is done, then stops: it waits up to
// StopTimeout for running jobs and cancels the rest, which are tried again
// later. A runner without work returns at once.
func (r *River) Run(ctx context.Context) error {
	if r.work == nil {
		return nil
	}
	if err := r.client.Start(ctx); err != nil {
		return fmt.Errorf("start the job queue: %w", err)
	}
	<-ctx.Done()
	// Start's context being done begins a soft stop that turns hard after
	// SoftStopTimeout; Stopped reports the end of both.
	<-r.client.Stopped()
	return nil
}

// runJob is River's worker: it runs one attempt of a job and writes its
// progress and outcome to the job's record. An error makes River try the
// job again after the backoff, or give it up after the last attempt.
func (r *River) runJob(ctx context.Context, rj *river.Job[riverArgs]) error {
	j, err := r.store.Job(ctx, rj.Args.JobID)
	if errors.Is(err, corpus.ErrNotFound) {
		// Nothing to do and nothing to retry: the record is gone.
		return river.JobCancel(err)
	}
	if err != nil {
		return fmt.Errorf("load job: %w", err)
	}
	if j.State.Final() {
		return nil
	}
	j.State, j.UpdatedAt, j.FinishedAt, j.Message = corpus.JobRunning, r.now().UTC(), time.Time{}, ""
	if rj.Attempt > 1 {
		j.Message = fmt.Sprintf("attempt %d of %d", rj.Attempt, rj.MaxAttempts)
	}
	j.Done, j.Ingested, j.Skipped, j.Failed, j.Errors = 0, 0, 0, 0, nil
	if err := r.store.UpdateJob(ctx, j); err != nil {
		return fmt.Errorf("mark job running: %w", err)
	}
	r.log.Info("ingest job started", "job", j.ID, "attempt", rj.Attempt, "sources", len(j.Sources))

	var mu sync.Mutex
	report := reporter(ctx, r.store, &j, &mu, r.cfg.ProgressEvery, r.now, r.log)
	werr := r.work(ctx, j.Sources, report)

	mu.Lock()
	defer mu.Unlock()
	now := r.now().UTC()
	j.UpdatedAt = now
	if werr == nil && ctx.Err() != nil {
		werr = ctx.Err() // timed out or shutting down: not done
	}
	final := rj.Attempt >= rj.MaxAttempts
	switch {
	case werr != nil && !final:
		// River retries it: the record says so, and why.
		j.State = corpus.JobQueued
		j.Message = fmt.Sprintf("attempt %d of %d failed: %v; trying again", rj.Attempt, rj.MaxAttempts, werr)
	case werr != nil:
		j.State, j.FinishedAt = corpus.JobFailed, now
		j.Message = fmt.Sprintf("failed after %d attempts: %v", rj.Attempt, werr)
	default:
		j.State, j.Message = j.Outcome()
		j.FinishedAt = now
	}
	// The attempt's context may be done (timeout, shutdown); the record
	// must still be written.
	if err := r.store.UpdateJob(context.WithoutCancel(ctx), j); err != nil {
		r.log.Error("write job outcome", "job", j.ID, "state", j.State, "err", err)
		if werr == nil {
			return fmt.Errorf("write job outcome: %w", err)
		}
	}
	r.log.Info("ingest job attempt finished", "job", j.ID, "attempt", rj.Attempt, "state", j.State,
		"ingested", j.Ingested, "skipped", j.Skipped, "failed", j.Failed, "err", werr)
	return werr
}
