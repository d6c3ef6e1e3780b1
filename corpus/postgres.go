package corpus

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/internal/backend"
	"github.com/verity-fc/verity/internal/migrate"
)

//go:embed migrations/postgres/*.sql
var postgresMigrations embed.FS

// BackendError is a failed call to PostgreSQL. The HTTP layer answers it
// with 503 naming "postgres" when its Unavailable method reports true: the
// server could not be reached, cut the connection, is shutting down or
// starting, has no connection slot left, or did not answer within
// PostgresConfig.Timeout.
type BackendError = backend.Error

// PostgresConfig tunes the PostgreSQL store. The zero value works.
type PostgresConfig struct {
	// Schema, when set, holds verity's tables and is created when missing;
	// by default they go to the first schema of the URL's search_path
	// (usually public). It must be a plain lower-case identifier.
	Schema string
	// MaxConns bounds the connection pool; default pgxpool's, the larger of
	// 4 and the number of CPUs.
	MaxConns int32
	// Timeout bounds each call; default 15 s. A call that runs out of it
	// fails as unavailable.
	Timeout time.Duration
	// ConnectTimeout bounds one connection attempt when the URL sets no
	// connect_timeout; default 5 s, so that a server that drops packets
	// fails requests fast.
	ConnectTimeout time.Duration
}

// DefaultPostgresConfig returns the defaults the zero PostgresConfig
// stands for.
func DefaultPostgresConfig() PostgresConfig { return PostgresConfig{}.withDefaults() }

// Validate reports the first setting that cannot work, naming it as
// verity's configuration does (database.schema). It checks the values as
// given: start from DefaultPostgresConfig.
func (c PostgresConfig) Validate() error {
	switch {
	case c.Schema != "" && !schemaName.MatchString(c.Schema):
		return fmt.Errorf("database.schema %q is not a lower-case identifier (a-z, 0-9, _; at most 63)", c.Schema)
	case c.MaxConns < 0:
		return fmt.Errorf("corpus: postgres MaxConns must not be negative, got %d", c.MaxConns)
	case c.Timeout <= 0:
		return fmt.Errorf("corpus: postgres Timeout must be positive, got %v", c.Timeout)
	case c.ConnectTimeout <= 0:
		return fmt.Errorf("corpus: postgres ConnectTimeout must be positive, got %v", c.ConnectTimeout)
	}
	return nil
}

func (c PostgresConfig) withDefaults() PostgresConfig {
	if c.Timeout <= 0 {
		c.Timeout = 15 * time.Second
	}
	if c.ConnectTimeout <= 0 {
		c.ConnectTimeout = 5 * time.Second
	}
	return c
}

// Postgres is the Store of the scale-out deployment, on PostgreSQL through
// a pgx connection pool. Several verity processes share one database: the
// migrations run under an advisory lock, and every write is one statement
// or one transaction. A write that returned is committed.
//
// PostgreSQL text cannot hold NUL bytes or invalid UTF-8, which SQLite
// stores; Postgres stores each such byte as U+FFFD.
type Postgres struct {
	pool *pgxpool.Pool
	cfg  PostgresConfig
	now  func() time.Time
}

var _ Store = (*Postgres)(nil)

var schemaName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// migrationLock is the key of the advisory lock that serialises migrations
// of verity's corpus across processes.
var migrationLock = func() int64 {
	h := fnv.New64a()
	h.Write([]byte("verity corpus migrations"))
	return int64(h.Sum64())
}()

// OpenPostgres connects to the database at url (postgres://user:pw@host:5432/db?sslmode=disable,
// or any form pgx accepts) and migrates it to this binary's schema,
// recording versions in the table schema_migrations.
func OpenPostgres(ctx context.Context, url string, cfg PostgresConfig) (*Postgres, error) {
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("open corpus: %w", err)
	}
	pc, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's message quotes the URL, password included.
		return nil, errors.New("open corpus: the postgres URL does not parse; want postgres://user:password@host:5432/database")
	}
	if pc.ConnConfig.ConnectTimeout == 0 {
		pc.ConnConfig.ConnectTimeout = cfg.ConnectTimeout
	}
	if cfg.MaxConns > 0 {
		pc.MaxConns = cfg.MaxConns
	}
	if cfg.Schema != "" {
		pc.ConnConfig.RuntimeParams["search_path"] = cfg.Schema
	}
	if _, ok := pc.ConnConfig.RuntimeParams["application_name"]; !ok {
		pc.ConnConfig.RuntimeParams["application_name"] = "verity"
	}
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fmt.Errorf("open corpus: %w", err)
	}
	p := &Postgres{pool: pool, cfg: cfg, now: time.Now}
	if err := p.migrate(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open corpus: %w", err)
	}
	return p, nil
}

// migrate creates the schema when configured and applies the migrations,
// holding an advisory lock so that processes starting together apply each
// migration once.
func (p *Postgres) migrate(ctx context.Context) error {
	ms, err := migrate.Load(postgresMigrations, "migrations/postgres")
	if err != nil {
		return err
	}
	return p.call(ctx, "migrate", func(ctx context.Context) error {
		conn, err := p.pool.Acquire(ctx)
		if err != nil {
			return err
		}
		defer conn.Release()
		if p.cfg.Schema != "" {
			if _, err := conn.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+pgx.Identifier{p.cfg.Schema}.Sanitize()); err != nil {
				return fmt.Errorf("create schema %s: %w", p.cfg.Schema, err)
			}
		}
		if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrationLock); err != nil {
			return fmt.Errorf("lock migrations: %w", err)
		}
		defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLock) //nolint:errcheck // the session ends the lock anyway
		db := stdlib.OpenDBFromPool(p.pool)
		defer db.Close()
		_, err = migrate.Up(ctx, db, "schema_migrations", ms)
		return err
	})
}

// Close closes the pool.
func (p *Postgres) Close() error {
	p.pool.Close()
	return nil
}

// Pool is the connection pool, for the job queue that shares the database.
func (p *Postgres) Pool() *pgxpool.Pool { return p.pool }

// Ping checks that the database answers, for /readyz.
func (p *Postgres) Ping(ctx context.Context) error {
	return p.call(ctx, "ping", func(ctx context.Context) error { return p.pool.Ping(ctx) })
}

// postgresTransient reports errors of a server that is down, restarting or
// out of connection slots.
func postgresTransient(err error) bool {
	var (
		pe *pgconn.PgError
		ce *pgconn.ConnectError
	)
	if errors.As(err, &pe) {
		switch pe.Code {
		case "57P01", "57P02", "57P03", // admin_shutdown, crash_shutdown, cannot_connect_now
			"53300": // too_many_connections
			return true
		}
		return strings.HasPrefix(pe.Code, "08") // connection_exception
	}
	return errors.As(err, &ce) || pgconn.Timeout(err) || pgconn.SafeToRetry(err) || backend.Network(err)
}

// call runs f with the store's time limit and wraps its error. An error
// raised before anything reached the server (a dead pooled connection) is
// tried once more on another connection.
func (p *Postgres) call(ctx context.Context, op string, f func(ctx context.Context) error) error {
	return backend.Call(ctx, "postgres", op, p.cfg.Timeout, postgresTransient, func(ctx context.Context) error {
		err := f(ctx)
		if err != nil && pgconn.SafeToRetry(err) && ctx.Err() == nil {
			err = f(ctx)
		}
		return err
	})
}

// text makes s storable in a PostgreSQL text column: NUL bytes and invalid
// UTF-8 become U+FFFD.
func text(s string) string {
	if utf8.ValidString(s) && !strings.ContainsRune(s, 0) {
		return s
	}
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\uFFFD")
}

// ts is t as a timestamptz, NULL for the zero time.
func ts(t time.Time) pgtype.Timestamptz {
	return pgtype.Timestamptz{Time: t, Valid: !t.IsZero()}
}

// fromTS is the inverse of ts, in UTC.
func fromTS(v pgtype.Timestamptz) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return v.Time.UTC()
}

// exec runs one statement and returns the rows it affected.
func (p *Postgres) exec(ctx context.Context, op, sql string, args ...any) (int64, error) {
	var n int64
	err := p.call(ctx, op, func(ctx context.Context) error {
		tag, err := p.pool.Exec(ctx, sql, args...)
		n = tag.RowsAffected()
		return err
	})
	return n, err
}

// PutSource implements Store.
func (p *Postgres) PutSource(ctx context.Context, src evidence.Source) error {
	if err := validateSource(src); err != nil {
		return err
	}
	_, err := p.exec(ctx, fmt.Sprintf("put source %q", src.ID), putSourceSQL,
		text(src.ID), text(src.URL), text(src.Domain), text(src.Title), ts(src.PublishedAt), src.Reliability,
		text(src.ContentHash), ts(src.IngestedAt), src.Passages)
	return err
}

func scanPGSource(r pgx.Row) (evidence.Source, error) {
	var src evidence.Source
	var published, ingested pgtype.Timestamptz
	err := r.Scan(&src.ID, &src.URL, &src.Domain, &src.Title, &published, &src.Reliability, &src.ContentHash, &ingested, &src.Passages)
	src.PublishedAt, src.IngestedAt = fromTS(published), fromTS(ingested)
	return src, err
}

// Source implements Store.
func (p *Postgres) Source(ctx context.Context, id string) (evidence.Source, error) {
	var src evidence.Source
	err := p.call(ctx, fmt.Sprintf("get source %q", id), func(ctx context.Context) error {
		var err error
		src, err = scanPGSource(p.pool.QueryRow(ctx, "SELECT "+sourceColumns+" FROM sources WHERE id = $1", text(id)))
		return err
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return evidence.Source{}, fmt.Errorf("source %q: %w", id, ErrNotFound)
	}
	return src, err
}

// SourceHash implements Store.
func (p *Postgres) SourceHash(ctx context.Context, id string) (string, bool, error) {
	var h string
	err := p.call(ctx, fmt.Sprintf("get source hash %q", id), func(ctx context.Context) error {
		return p.pool.QueryRow(ctx, "SELECT content_hash FROM sources WHERE id = $1", text(id)).Scan(&h)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return "", false, nil
	}
	return h, err == nil, err
}

// ListSources implements Store.
func (p *Postgres) ListSources(ctx context.Context, opts ListOptions) ([]evidence.Source, int, error) {
	opts, err := normalizeListOptions(opts)
	if err != nil {
		return nil, 0, err
	}
	var where []string
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	if opts.Query != "" {
		q := arg(likePattern(text(opts.Query)))
		where = append(where, fmt.Sprintf(`(lower(title) LIKE %[1]s ESCAPE '\' OR lower(url) LIKE %[1]s ESCAPE '\' OR lower(domain) LIKE %[1]s ESCAPE '\')`, q))
	}
	if opts.Domain != "" {
		where = append(where, "lower(domain) = "+arg(text(opts.Domain)))
	}
	if !opts.Since.IsZero() {
		where = append(where, "published_at >= "+arg(ts(opts.Since)))
	}
	cond := ""
	if len(where) > 0 {
		cond = " WHERE " + strings.Join(where, " AND ")
	}
	var (
		total int
		out   = []evidence.Source{}
	)
	err = p.call(ctx, "list sources", func(ctx context.Context) error {
		if err := p.pool.QueryRow(ctx, "SELECT COUNT(*) FROM sources"+cond, args...).Scan(&total); err != nil {
			return err
		}
		page := append(args, opts.Limit, opts.Offset)
		rows, err := p.pool.Query(ctx, "SELECT "+sourceColumns+" FROM sources"+cond+
			fmt.Sprintf(" ORDER BY ingested_at DESC NULLS LAST, id LIMIT $%d OFFSET $%d", len(page)-1, len(page)), page...)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (evidence.Source, error) { return scanPGSource(r) })
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// DeleteSource implements Store.
func (p *Postgres) DeleteSource(ctx context.Context, id string) error {
	n, err := p.exec(ctx, fmt.Sprintf("delete source %q", id), "DELETE FROM sources WHERE id = $1", text(id))
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("delete source %q: %w", id, ErrNotFound)
	}
	return nil
}

// Stats implements Store.
func (p *Postgres) Stats(ctx context.Context) (Stats, error) {
	var st Stats
	err := p.call(ctx, "corpus stats", func(ctx context.Context) error {
		return p.pool.QueryRow(ctx, "SELECT COUNT(*), COALESCE(SUM(passages), 0)::BIGINT FROM sources").Scan(&st.Sources, &st.Passages)
	})
	return st, err
}

// pgJobArgs returns the column values of j in jobColumns order.
func pgJobArgs(j Job) ([]any, error) {
	srcs := make([]string, len(j.Sources))
	for i, s := range j.Sources {
		srcs[i] = text(s)
	}
	errs := make([]JobError, len(j.Errors))
	for i, e := range j.Errors {
		errs[i] = JobError{Source: text(e.Source), Reason: text(e.Reason)}
	}
	sj, err := json.Marshal(srcs)
	if err != nil {
		return nil, err
	}
	ej, err := json.Marshal(errs)
	if err != nil {
		return nil, err
	}
	return []any{text(j.ID), string(j.State), string(sj), j.Total, j.Done, j.Ingested, j.Skipped, j.Failed, string(ej),
		ts(j.CreatedAt), ts(j.UpdatedAt), ts(j.FinishedAt), text(j.Message)}, nil
}

func scanPGJob(r pgx.Row) (Job, error) {
	var j Job
	var state string
	var srcs, errs []byte
	var created, updated, finished pgtype.Timestamptz
	if err := r.Scan(&j.ID, &state, &srcs, &j.Total, &j.Done, &j.Ingested, &j.Skipped, &j.Failed, &errs,
		&created, &updated, &finished, &j.Message); err != nil {
		return Job{}, err
	}
	j.State = JobState(state)
	if err := json.Unmarshal(srcs, &j.Sources); err != nil {
		return Job{}, fmt.Errorf("job %q sources: %w", j.ID, err)
	}
	if err := json.Unmarshal(errs, &j.Errors); err != nil {
		return Job{}, fmt.Errorf("job %q errors: %w", j.ID, err)
	}
	if len(j.Errors) == 0 {
		j.Errors = nil
	}
	j.CreatedAt, j.UpdatedAt, j.FinishedAt = fromTS(created), fromTS(updated), fromTS(finished)
	return j, nil
}

// CreateJob implements Store.
func (p *Postgres) CreateJob(ctx context.Context, j Job) error {
	return p.CreateJobTx(ctx, j, nil)
}

// CreateJobTx stores a new job as CreateJob does and, in the same
// transaction, runs also (when not nil): the job and whatever also writes
// are committed together or not at all. The job queue enqueues the job's
// work this way, so that a job is never recorded without its queue entry.
func (p *Postgres) CreateJobTx(ctx context.Context, j Job, also func(ctx context.Context, tx pgx.Tx) error) error {
	if err := validateJob(j); err != nil {
		return err
	}
	args, err := pgJobArgs(j)
	if err != nil {
		return fmt.Errorf("create job %q: %w", j.ID, err)
	}
	exists := false
	err = p.call(ctx, fmt.Sprintf("create job %q", j.ID), func(ctx context.Context) error {
		return pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
			tag, err := tx.Exec(ctx, insertJobSQL, args...)
			if err != nil {
				return err
			}
			if exists = tag.RowsAffected() == 0; exists {
				return nil
			}
			if also != nil {
				return also(ctx, tx)
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	if exists {
		return fmt.Errorf("create job %q: %w", j.ID, ErrExists)
	}
	return nil
}

// UpdateJob implements Store.
func (p *Postgres) UpdateJob(ctx context.Context, j Job) error {
	if err := validateJob(j); err != nil {
		return err
	}
	args, err := pgJobArgs(j)
	if err != nil {
		return fmt.Errorf("update job %q: %w", j.ID, err)
	}
	// created_at (args[9]) is left as it was created.
	n, err := p.exec(ctx, fmt.Sprintf("update job %q", j.ID), updateJobSQL, append(args[:9:9], args[10:]...)...)
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("update job %q: %w", j.ID, ErrNotFound)
	}
	return nil
}

// Job implements Store.
func (p *Postgres) Job(ctx context.Context, id string) (Job, error) {
	var j Job
	err := p.call(ctx, fmt.Sprintf("get job %q", id), func(ctx context.Context) error {
		var err error
		j, err = scanPGJob(p.pool.QueryRow(ctx, "SELECT "+jobColumns+" FROM jobs WHERE id = $1", text(id)))
		return err
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return Job{}, fmt.Errorf("job %q: %w", id, ErrNotFound)
	}
	return j, err
}

// ListJobs implements Store.
func (p *Postgres) ListJobs(ctx context.Context, limit int) ([]Job, error) {
	limit, err := normalizeJobLimit(limit)
	if err != nil {
		return nil, err
	}
	return p.queryJobs(ctx, "list jobs", "SELECT "+jobColumns+" FROM jobs ORDER BY created_at DESC, id DESC LIMIT $1", limit)
}

// PutStage implements Store.
func (p *Postgres) PutStage(ctx context.Context, st Stage) error {
	if err := validateStage(st); err != nil {
		return err
	}
	if st.CreatedAt.IsZero() {
		st.CreatedAt = p.now()
	}
	var parsed *string
	if len(st.ParsedData) > 0 {
		s := text(string(st.ParsedData))
		parsed = &s
	}
	_, err := p.exec(ctx, fmt.Sprintf("put stage %q", st.ID), putStageSQL,
		text(st.ID), text(st.MessageID), text(st.ConversationID), text(st.StageType), st.StageOrder, text(st.Model),
		text(st.Role), text(st.Content), parsed, st.ResponseTimeMS, ts(st.CreatedAt))
	return err
}

// Stages implements Store.
func (p *Postgres) Stages(ctx context.Context, messageID string) ([]Stage, error) {
	var out []Stage
	err := p.call(ctx, fmt.Sprintf("list stages of %q", messageID), func(ctx context.Context) error {
		rows, err := p.pool.Query(ctx, "SELECT "+stageColumns+` FROM deliberation_stages
			WHERE message_id = $1 ORDER BY stage_order, created_at, id`, text(messageID))
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Stage, error) {
			var st Stage
			var parsed *string
			var created pgtype.Timestamptz
			err := r.Scan(&st.ID, &st.MessageID, &st.ConversationID, &st.StageType, &st.StageOrder, &st.Model,
				&st.Role, &st.Content, &parsed, &st.ResponseTimeMS, &created)
			if parsed != nil {
				st.ParsedData = json.RawMessage(*parsed)
			}
			st.CreatedAt = fromTS(created)
			return st, err
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
