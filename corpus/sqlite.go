package corpus

import (
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/internal/migrate"
	"github.com/verity-fc/verity/internal/sqlitedb"
)

//go:embed migrations/sqlite/*.sql
var sqliteMigrations embed.FS

// SQLite is the embedded Store: one SQLite file in the data directory,
// written with synchronous=FULL so that every write that returned survives a
// crash. It is safe for concurrent use, also by several processes.
type SQLite struct {
	db  *sql.DB
	now func() time.Time
	// hashStmt is SourceHash's query, prepared once: ingest asks it for
	// every source, and parsing it each time cost a tenth of a JSONL
	// ingest's CPU.
	hashStmt *sql.Stmt
}

var _ Store = (*SQLite)(nil)

// OpenSQLite opens, creating and migrating when needed, the SQLite corpus at
// path (e.g. "<data>/corpus.db"). The schema versions are recorded in the
// table schema_migrations.
func OpenSQLite(ctx context.Context, path string) (*SQLite, error) {
	ms, err := migrate.Load(sqliteMigrations, "migrations/sqlite")
	if err != nil {
		return nil, fmt.Errorf("open corpus: %w", err)
	}
	db, err := sqlitedb.Open(ctx, path, "schema_migrations", ms)
	if err != nil {
		return nil, fmt.Errorf("open corpus: %w", err)
	}
	hash, err := db.PrepareContext(ctx, "SELECT content_hash FROM sources WHERE id = $1")
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open corpus: %w", err)
	}
	return &SQLite{db: db, now: time.Now, hashStmt: hash}, nil
}

// Close closes the database.
func (s *SQLite) Close() error { return errors.Join(s.hashStmt.Close(), s.db.Close()) }

// micros stores t as microseconds since the epoch, NULL for the zero time.
func micros(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UnixMicro(), Valid: true}
}

// fromMicros is the inverse of micros, in UTC.
func fromMicros(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return time.UnixMicro(v.Int64).UTC()
}

const sourceColumns = "id, url, domain, title, published_at, reliability, content_hash, ingested_at, passages"

// The statements that write, in the SQL that SQLite and PostgreSQL share.
const (
	putSourceSQL = putSourceHead + `($1, $2, $3, $4, $5, $6, $7, $8, $9)` + putSourceTail
	// putSourceHead and putSourceTail are putSourceSQL around its values.
	putSourceHead = `INSERT INTO sources (` + sourceColumns + `)
		VALUES `
	putSourceTail = `
		ON CONFLICT (id) DO UPDATE SET url = excluded.url, domain = excluded.domain, title = excluded.title,
			published_at = excluded.published_at, reliability = excluded.reliability,
			content_hash = excluded.content_hash, ingested_at = excluded.ingested_at, passages = excluded.passages`
	insertJobSQL = `INSERT INTO jobs (` + jobColumns + `)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (id) DO NOTHING`
	// updateJobSQL takes the job's columns without created_at, which is
	// kept as it was created.
	updateJobSQL = `UPDATE jobs SET state = $2, sources = $3, total = $4, done = $5, ingested = $6,
		skipped = $7, failed = $8, errors = $9, updated_at = $10, finished_at = $11, message = $12
		WHERE id = $1`
	putStageSQL = `INSERT INTO deliberation_stages (` + stageColumns + `)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
		ON CONFLICT (id) DO UPDATE SET message_id = excluded.message_id, conversation_id = excluded.conversation_id,
			stage_type = excluded.stage_type, stage_order = excluded.stage_order, model = excluded.model,
			role = excluded.role, content = excluded.content, parsed_data = excluded.parsed_data,
			response_time_ms = excluded.response_time_ms, created_at = excluded.created_at`
)

// PutSource implements Store.
func (s *SQLite) PutSource(ctx context.Context, src evidence.Source) error {
	if err := validateSource(src); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, putSourceSQL,
		src.ID, src.URL, src.Domain, src.Title, micros(src.PublishedAt), src.Reliability, src.ContentHash,
		micros(src.IngestedAt), src.Passages)
	if err != nil {
		return fmt.Errorf("put source %q: %w", src.ID, err)
	}
	return nil
}

// PutSources inserts or replaces several sources in one transaction (one
// fsync): all are stored or none. Ingest uses it to acknowledge many small
// sources at once.
func (s *SQLite) PutSources(ctx context.Context, srcs []evidence.Source) error {
	for _, src := range srcs {
		if err := validateSource(src); err != nil {
			return err
		}
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("put sources: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	args := make([]any, 0, 9*putSourcesAtOnce)
	for part := range slices.Chunk(srcs, putSourcesAtOnce) {
		args = args[:0]
		for _, src := range part {
			args = append(args, src.ID, src.URL, src.Domain, src.Title, micros(src.PublishedAt), src.Reliability,
				src.ContentHash, micros(src.IngestedAt), src.Passages)
		}
		if _, err := tx.ExecContext(ctx, putSourcesSQL(len(part)), args...); err != nil {
			if len(part) == 1 {
				return fmt.Errorf("put source %q: %w", part[0].ID, err)
			}
			return fmt.Errorf("put sources %q to %q: %w", part[0].ID, part[len(part)-1].ID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("put sources: %w", err)
	}
	return nil
}

// putSourcesAtOnce is how many sources one statement of PutSources puts:
// fewer statements, less of the driver's work a statement.
const putSourcesAtOnce = 64

// putSourcesSQL is putSourceSQL for n sources.
func putSourcesSQL(n int) string {
	return putSourceHead + "(?, ?, ?, ?, ?, ?, ?, ?, ?)" + strings.Repeat(", (?, ?, ?, ?, ?, ?, ?, ?, ?)", n-1) + putSourceTail
}

type scanner interface{ Scan(dest ...any) error }

func scanSource(r scanner) (evidence.Source, error) {
	var src evidence.Source
	var published, ingested sql.NullInt64
	err := r.Scan(&src.ID, &src.URL, &src.Domain, &src.Title, &published, &src.Reliability, &src.ContentHash, &ingested, &src.Passages)
	src.PublishedAt, src.IngestedAt = fromMicros(published), fromMicros(ingested)
	return src, err
}

// Source implements Store.
func (s *SQLite) Source(ctx context.Context, id string) (evidence.Source, error) {
	src, err := scanSource(s.db.QueryRowContext(ctx, "SELECT "+sourceColumns+" FROM sources WHERE id = $1", id))
	if errors.Is(err, sql.ErrNoRows) {
		return evidence.Source{}, fmt.Errorf("source %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return evidence.Source{}, fmt.Errorf("get source %q: %w", id, err)
	}
	return src, nil
}

// SourceHash implements Store.
func (s *SQLite) SourceHash(ctx context.Context, id string) (string, bool, error) {
	var h string
	err := s.hashStmt.QueryRowContext(ctx, id).Scan(&h)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("get source hash %q: %w", id, err)
	}
	return h, true, nil
}

// maxHashIDs bounds the ids of one SourceHashes query (SQLite allows
// 32,766 parameters).
const maxHashIDs = 500

// SourceHashes returns the content hashes of the sources of ids that are
// stored, by id: what SourceHash gives for each, in one query a few hundred
// ids. Ingest asks it for the sources of a JSONL file in groups.
func (s *SQLite) SourceHashes(ctx context.Context, ids []string) (map[string]string, error) {
	out := make(map[string]string, len(ids))
	for part := range slices.Chunk(ids, maxHashIDs) {
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		q := "SELECT id, content_hash FROM sources WHERE id IN (?" + strings.Repeat(", ?", len(part)-1) + ")"
		rows, err := s.db.QueryContext(ctx, q, args...)
		if err != nil {
			return nil, fmt.Errorf("get source hashes: %w", err)
		}
		for rows.Next() {
			var id, h string
			if err := rows.Scan(&id, &h); err != nil {
				rows.Close()
				return nil, fmt.Errorf("get source hashes: %w", err)
			}
			out[id] = h
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return nil, fmt.Errorf("get source hashes: %w", err)
		}
	}
	return out, nil
}

// likePattern returns a LIKE pattern matching q anywhere, with LIKE's
// wildcards in q escaped by '\'.
func likePattern(q string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(strings.ToLower(q)) + "%"
}

// ListSources implements Store.
func (s *SQLite) ListSources(ctx context.Context, opts ListOptions) ([]evidence.Source, int, error) {
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
		p := arg(likePattern(opts.Query))
		where = append(where, fmt.Sprintf(`(lower(title) LIKE %[1]s ESCAPE '\' OR lower(url) LIKE %[1]s ESCAPE '\' OR lower(domain) LIKE %[1]s ESCAPE '\')`, p))
	}
	if opts.Domain != "" {
		where = append(where, "lower(domain) = "+arg(opts.Domain))
	}
	if !opts.Since.IsZero() {
		where = append(where, "published_at >= "+arg(opts.Since.UnixMicro()))
	}
	cond := ""
	if len(where) > 0 {
		cond = " WHERE " + strings.Join(where, " AND ")
	}
	var total int
	if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM sources"+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count sources: %w", err)
	}
	q := "SELECT " + sourceColumns + " FROM sources" + cond +
		// NULL ingested_at (never set) sorts last in both SQLite and Postgres
		// with this COALESCE.
		" ORDER BY COALESCE(ingested_at, -9223372036854775807) DESC, id LIMIT " + arg(opts.Limit) + " OFFSET " + arg(opts.Offset)
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("list sources: %w", err)
	}
	defer rows.Close()
	out := []evidence.Source{}
	for rows.Next() {
		src, err := scanSource(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("list sources: %w", err)
		}
		out = append(out, src)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("list sources: %w", err)
	}
	return out, total, nil
}

// DeleteSource implements Store.
func (s *SQLite) DeleteSource(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM sources WHERE id = $1", id)
	if err != nil {
		return fmt.Errorf("delete source %q: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("delete source %q: %w", id, err)
	} else if n == 0 {
		return fmt.Errorf("delete source %q: %w", id, ErrNotFound)
	}
	return nil
}

// Stats implements Store.
func (s *SQLite) Stats(ctx context.Context) (Stats, error) {
	var st Stats
	if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*), COALESCE(SUM(passages), 0) FROM sources").Scan(&st.Sources, &st.Passages); err != nil {
		return Stats{}, fmt.Errorf("corpus stats: %w", err)
	}
	return st, nil
}

const jobColumns = "id, state, sources, total, done, ingested, skipped, failed, errors, created_at, updated_at, finished_at, message"

// jobArgs returns the column values of j in jobColumns order.
func jobArgs(j Job) ([]any, error) {
	if j.Sources == nil {
		j.Sources = []string{}
	}
	if j.Errors == nil {
		j.Errors = []JobError{}
	}
	srcs, err := json.Marshal(j.Sources)
	if err != nil {
		return nil, err
	}
	errs, err := json.Marshal(j.Errors)
	if err != nil {
		return nil, err
	}
	return []any{j.ID, string(j.State), string(srcs), j.Total, j.Done, j.Ingested, j.Skipped, j.Failed, string(errs),
		micros(j.CreatedAt), micros(j.UpdatedAt), micros(j.FinishedAt), j.Message}, nil
}

func scanJob(r scanner) (Job, error) {
	var j Job
	var state, srcs, errs string
	var created, updated, finished sql.NullInt64
	if err := r.Scan(&j.ID, &state, &srcs, &j.Total, &j.Done, &j.Ingested, &j.Skipped, &j.Failed, &errs,
		&created, &updated, &finished, &j.Message); err != nil {
		return Job{}, err
	}
	j.State = JobState(state)
	if err := json.Unmarshal([]byte(srcs), &j.Sources); err != nil {
		return Job{}, fmt.Errorf("job %q sources: %w", j.ID, err)
	}
	if err := json.Unmarshal([]byte(errs), &j.Errors); err != nil {
		return Job{}, fmt.Errorf("job %q errors: %w", j.ID, err)
	}
	if len(j.Errors) == 0 {
		j.Errors = nil
	}
	j.CreatedAt, j.UpdatedAt, j.FinishedAt = fromMicros(created), fromMicros(updated), fromMicros(finished)
	return j, nil
}

// CreateJob implements Store.
func (s *SQLite) CreateJob(ctx context.Context, j Job) error {
	if err := validateJob(j); err != nil {
		return err
	}
	args, err := jobArgs(j)
	if err != nil {
		return fmt.Errorf("create job %q: %w", j.ID, err)
	}
	res, err := s.db.ExecContext(ctx, insertJobSQL, args...)
	if err != nil {
		return fmt.Errorf("create job %q: %w", j.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("create job %q: %w", j.ID, err)
	} else if n == 0 {
		return fmt.Errorf("create job %q: %w", j.ID, ErrExists)
	}
	return nil
}

// UpdateJob implements Store.
func (s *SQLite) UpdateJob(ctx context.Context, j Job) error {
	if err := validateJob(j); err != nil {
		return err
	}
	args, err := jobArgs(j)
	if err != nil {
		return fmt.Errorf("update job %q: %w", j.ID, err)
	}
	// created_at (args[9]) is left as it was created.
	res, err := s.db.ExecContext(ctx, updateJobSQL, slices.Delete(args, 9, 10)...)
	if err != nil {
		return fmt.Errorf("update job %q: %w", j.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("update job %q: %w", j.ID, err)
	} else if n == 0 {
		return fmt.Errorf("update job %q: %w", j.ID, ErrNotFound)
	}
	return nil
}

// Job implements Store.
func (s *SQLite) Job(ctx context.Context, id string) (Job, error) {
	j, err := scanJob(s.db.QueryRowContext(ctx, "SELECT "+jobColumns+" FROM jobs WHERE id = $1", id))
	if errors.Is(err, sql.ErrNoRows) {
		return Job{}, fmt.Errorf("job %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return Job{}, fmt.Errorf("get job %q: %w", id, err)
	}
	return j, nil
}

// ListJobs implements Store.
func (s *SQLite) ListJobs(ctx context.Context, limit int) ([]Job, error) {
	limit, err := normalizeJobLimit(limit)
	if err != nil {
		return nil, err
	}
	return s.queryJobs(ctx, "list jobs", "SELECT "+jobColumns+" FROM jobs ORDER BY created_at DESC, id DESC LIMIT $1", limit)
}

const stageColumns = "id, message_id, conversation_id, stage_type, stage_order, model, role, content, parsed_data, response_time_ms, created_at"

// PutStage implements Store.
func (s *SQLite) PutStage(ctx context.Context, st Stage) error {
	if err := validateStage(st); err != nil {
		return err
	}
	if st.CreatedAt.IsZero() {
		st.CreatedAt = s.now()
	}
	var parsed sql.NullString
	if len(st.ParsedData) > 0 {
		parsed = sql.NullString{String: string(st.ParsedData), Valid: true}
	}
	_, err := s.db.ExecContext(ctx, putStageSQL,
		st.ID, st.MessageID, st.ConversationID, st.StageType, st.StageOrder, st.Model, st.Role, st.Content,
		parsed, st.ResponseTimeMS, micros(st.CreatedAt))
	if err != nil {
		return fmt.Errorf("put stage %q: %w", st.ID, err)
	}
	return nil
}

// Stages implements Store.
func (s *SQLite) Stages(ctx context.Context, messageID string) ([]Stage, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+stageColumns+` FROM deliberation_stages
		WHERE message_id = $1 ORDER BY stage_order, created_at, id`, messageID)
	if err != nil {
		return nil, fmt.Errorf("list stages of %q: %w", messageID, err)
	}
	defer rows.Close()
	out := []Stage{}
	for rows.Next() {
		var st Stage
		var parsed sql.NullString
		var created sql.NullInt64
		if err := rows.Scan(&st.ID, &st.MessageID, &st.ConversationID, &st.StageType, &st.StageOrder, &st.Model,
			&st.Role, &st.Content, &parsed, &st.ResponseTimeMS, &created); err != nil {
			return nil, fmt.Errorf("list stages of %q: %w", messageID, err)
		}
		if parsed.Valid {
			st.ParsedData = json.RawMessage(parsed.String)
		}
		st.CreatedAt = fromMicros(created)
		out = append(out, st)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list stages of %q: %w", messageID, err)
	}
	return out, nil
}
