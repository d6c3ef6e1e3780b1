package retrieval

import (
	"context"
	"database/sql"
	"embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/internal/migrate"
	"github.com/verity-fc/verity/internal/sqlitedb"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Limits of the embedded store.
const (
	// MaxUpsertBatch bounds the passages of one Upsert.
	MaxUpsertBatch = 10000
	// MaxPassageBytes bounds the text of one passage.
	MaxPassageBytes = 1 << 20
	// MaxDim bounds the dimension of dense vectors.
	MaxDim = 8192
	// RRFK is the constant of reciprocal rank fusion: a passage at rank r
	// (1-based) of a list scores 1/(RRFK+r). 60 is the value of Cormack et
	// al. (2009), which Elasticsearch and Qdrant also use; it keeps the top
	// of either list from drowning the other.
	RRFK = 60
	// maxIDBytes bounds passage and source IDs.
	maxIDBytes = 512
)

// EmbeddedConfig tunes the embedded store. The zero value works.
type EmbeddedConfig struct {
	// CandidateFactor is how many candidates each of the BM25 and dense
	// lists contributes to fusion, as a multiple of the query's K; default
	// 3.
	CandidateFactor int
	// Approximate serves unfiltered dense searches from an HNSW graph
	// (github.com/coder/hnsw) instead of the exact scan. Off by default:
	// with v0.6.1 its measured recall@20 against exact search is far too
	// low to trust (see BenchmarkSearch), while the exact scan takes about
	// a millisecond over 50,000 100-d vectors.
	Approximate bool
	// ApproximateAbove turns Approximate on once the store holds more than
	// this many passages; 0, the default, never does, for the reason above.
	ApproximateAbove int
	// HNSW tunes the approximate index.
	HNSW HNSWConfig
	// Logger receives load and rebuild events; nil discards them.
	Logger *slog.Logger
}

// Embedded is the passage store of the embedded deployment: one SQLite file
// holding every passage with its unit-length vector in the same row, an FTS5
// index for BM25 kept by triggers in the same transaction, and in memory an
// exact cosine index loaded at open. A passage is thus either wholly stored
// or not at all, and an Upsert that returned survives a crash
// (synchronous=FULL). Search fuses the BM25 and dense lists by reciprocal
// rank fusion. It is safe for concurrent use: searches run while a write is
// in progress.
type Embedded struct {
	db  *sql.DB
	cfg EmbeddedConfig
	log *slog.Logger

	// writeMu serialises writers, so that the order of SQLite commits is the
	// order of index updates.
	writeMu sync.Mutex
	// mu guards the in-memory indexes.
	mu     sync.RWMutex
	exact  *flatIndex
	approx *approxIndex // nil unless in use
}

var _ Store = (*Embedded)(nil)

// OpenEmbedded opens, creating and migrating when needed, the passage store
// at path (e.g. "<data>/passages.db") and loads its vectors. The schema
// versions are recorded in the table retrieval_schema_migrations, so the
// file may also be the corpus's.
func OpenEmbedded(ctx context.Context, path string, cfg EmbeddedConfig) (*Embedded, error) {
	if cfg.CandidateFactor <= 0 {
		cfg.CandidateFactor = 3
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	ms, err := migrate.Load(migrations, "migrations")
	if err != nil {
		return nil, fmt.Errorf("open passage store: %w", err)
	}
	db, err := sqlitedb.Open(ctx, path, "retrieval_schema_migrations", ms)
	if err != nil {
		return nil, fmt.Errorf("open passage store: %w", err)
	}
	e := &Embedded{db: db, cfg: cfg, log: log, exact: newFlatIndex()}
	start := time.Now()
	if err := e.load(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open passage store: %w", err)
	}
	e.maybeApprox()
	log.Info("passage store loaded", "path", path, "passages", e.exact.len(), "dim", e.exact.dim,
		"approximate", e.approx != nil, "ms", time.Since(start).Milliseconds())
	return e, nil
}

// load reads every vector into the exact index.
func (e *Embedded) load(ctx context.Context) error {
	rows, err := e.db.QueryContext(ctx, "SELECT id, domain_key, published_at, vec FROM passages")
	if err != nil {
		return fmt.Errorf("load vectors: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, domain string
		var published sql.NullInt64
		var blob []byte
		if err := rows.Scan(&id, &domain, &published, &blob); err != nil {
			return fmt.Errorf("load vectors: %w", err)
		}
		vec, err := decodeVector(blob)
		if err != nil {
			return fmt.Errorf("load vector of %q: %w", id, err)
		}
		if e.exact.len() > 0 && len(vec) != e.exact.dim {
			return fmt.Errorf("load vector of %q: %d dimensions, others have %d", id, len(vec), e.exact.dim)
		}
		e.exact.put(id, vec, domain, publishedKey(published))
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("load vectors: %w", err)
	}
	return nil
}

// maybeApprox builds or drops the approximate index as the configuration
// and size require, and rebuilds it when it holds too many stale nodes.
// Callers hold mu for writing, or own e exclusively.
func (e *Embedded) maybeApprox() {
	want := e.cfg.Approximate || (e.cfg.ApproximateAbove > 0 && e.exact.len() > e.cfg.ApproximateAbove)
	switch {
	case !want:
		e.approx = nil
	case e.approx == nil || e.approx.needsRebuild():
		start := time.Now()
		e.approx = newApproxIndex(e.cfg.HNSW, e.exact)
		e.log.Info("approximate index built", "passages", e.exact.len(), "ms", time.Since(start).Milliseconds())
	}
}

// Close closes the database. The store must not be used afterwards.
func (e *Embedded) Close() error { return e.db.Close() }

// Len returns the number of passages stored.
func (e *Embedded) Len() int {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.exact.len()
}

// Dim returns the dimension of the stored vectors, 0 while none is stored.
func (e *Embedded) Dim() int {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.exact.len() == 0 {
		return 0
	}
	return e.exact.dim
}

// domainKey is the form of a domain that filters compare: lower case,
// without a leading "www.".
func domainKey(d string) string {
	return strings.TrimPrefix(strings.ToLower(strings.TrimSpace(d)), "www.")
}

func publishedKey(v sql.NullInt64) int64 {
	if !v.Valid {
		return noDate
	}
	return v.Int64
}

func micros(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UnixMicro(), Valid: true}
}

// errZeroVector reports a vector without direction. Upsert stores such a
// vector (an embedder gives one for a text without content words) as a
// passage that only BM25 finds; a query with one searches BM25 only.
var errZeroVector = errors.New("vector is zero, so it has no direction")

// normalize returns a unit-length copy of v; errZeroVector when v is all
// zeros; or an error naming what else is wrong with it.
func normalize(v []float32) ([]float32, error) {
	if len(v) == 0 || len(v) > MaxDim {
		return nil, fmt.Errorf("vector has %d dimensions; want 1 to %d", len(v), MaxDim)
	}
	var sum float64
	for i, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, fmt.Errorf("vector component %d is %v", i, x)
		}
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return nil, errZeroVector
	}
	inv := 1 / math.Sqrt(sum)
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) * inv)
	}
	return out, nil
}

// isZero reports whether every component of v is zero.
func isZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func decodeVector(b []byte) ([]float32, error) {
	if len(b) == 0 || len(b)%4 != 0 {
		return nil, fmt.Errorf("vector blob of %d bytes", len(b))
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}

// validatePassage checks one passage of an Upsert.
func validatePassage(p evidence.Passage) error {
	switch {
	case p.ID == "" || len(p.ID) > maxIDBytes:
		return fmt.Errorf("passage id %.40q: must be 1 to %d bytes", p.ID, maxIDBytes)
	case p.SourceID == "" || len(p.SourceID) > maxIDBytes:
		return fmt.Errorf("passage %q: source id must be 1 to %d bytes", p.ID, maxIDBytes)
	case strings.TrimSpace(p.Text) == "":
		return fmt.Errorf("passage %q: empty text", p.ID)
	case len(p.Text) > MaxPassageBytes:
		return fmt.Errorf("passage %q: text is %d bytes; the limit is %d", p.ID, len(p.Text), MaxPassageBytes)
	case math.IsNaN(p.Reliability) || p.Reliability < 0 || p.Reliability > 1:
		return fmt.Errorf("passage %q: reliability %v is not in [0,1]", p.ID, p.Reliability)
	}
	return nil
}

// validateBatch checks the passages and vectors of an Upsert, as every
// store requires them, and returns the vectors normalised to unit length,
// all of one dimension. An all-zero vector, which an embedder gives for a
// text without content words, stays all zeros.
func validateBatch(passages []evidence.Passage, vecs [][]float32) ([][]float32, error) {
	if len(passages) != len(vecs) {
		return nil, fmt.Errorf("upsert: %d passages but %d vectors", len(passages), len(vecs))
	}
	if len(passages) > MaxUpsertBatch {
		return nil, fmt.Errorf("upsert: %d passages; the limit is %d a batch", len(passages), MaxUpsertBatch)
	}
	units := make([][]float32, len(vecs))
	seen := make(map[string]bool, len(passages))
	for i, p := range passages {
		if err := validatePassage(p); err != nil {
			return nil, fmt.Errorf("upsert: %w", err)
		}
		if seen[p.ID] {
			return nil, fmt.Errorf("upsert: passage %q appears twice in the batch", p.ID)
		}
		seen[p.ID] = true
		u, err := normalize(vecs[i])
		if errors.Is(err, errZeroVector) {
			u, err = make([]float32, len(vecs[i])), nil
		}
		if err != nil {
			return nil, fmt.Errorf("upsert: passage %q: %w", p.ID, err)
		}
		if i > 0 && len(u) != len(units[0]) {
			return nil, fmt.Errorf("upsert: passage %q: vector has %d dimensions, the batch's first has %d", p.ID, len(u), len(units[0]))
		}
		units[i] = u
	}
	return units, nil
}

// Upsert implements Store. Every passage needs an ID, a source ID, text and
// a finite vector whose dimension matches the store's (any dimension when
// the store is empty). An all-zero vector, which an embedder gives for a
// text without content words, is kept: that passage is found by BM25 only.
// The batch is one transaction: all of it is stored or none.
func (e *Embedded) Upsert(ctx context.Context, passages []evidence.Passage, vecs [][]float32) error {
	units, err := validateBatch(passages, vecs)
	if err != nil || len(units) == 0 {
		return err
	}

	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	e.mu.RLock()
	n, dim := e.exact.len(), e.exact.dim
	e.mu.RUnlock()
	if n > 0 && len(units[0]) != dim {
		// Passages being replaced could leave the store empty of other
		// dimensions, but mixing embedders in one store is a mistake.
		return fmt.Errorf("upsert: vectors have %d dimensions; this store holds %d-dimensional vectors (re-index to change embedders)", len(units[0]), dim)
	}
	if err := e.write(ctx, passages, units); err != nil {
		return fmt.Errorf("upsert: %w", err)
	}

	e.mu.Lock()
	defer e.mu.Unlock()
	for i, p := range passages {
		e.exact.put(p.ID, units[i], domainKey(p.Domain), publishedKey(micros(p.PublishedAt)))
		if e.approx != nil {
			e.approx.put(p.ID, units[i]) // drops a zero vector
		}
	}
	e.maybeApprox()
	return nil
}

// write stores the passages and their vectors in one transaction.
func (e *Embedded) write(ctx context.Context, passages []evidence.Passage, units [][]float32) error {
	tx, err := e.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO passages
		(id, source_id, ordinal, text, url, domain, domain_key, title, published_at, reliability, vec)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
		ON CONFLICT (id) DO UPDATE SET source_id = excluded.source_id, ordinal = excluded.ordinal,
			text = excluded.text, url = excluded.url, domain = excluded.domain, domain_key = excluded.domain_key,
			title = excluded.title, published_at = excluded.published_at, reliability = excluded.reliability,
			vec = excluded.vec`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for i, p := range passages {
		if _, err := stmt.ExecContext(ctx, p.ID, p.SourceID, p.Ordinal, p.Text, p.URL, p.Domain, domainKey(p.Domain),
			p.Title, micros(p.PublishedAt), p.Reliability, encodeVector(units[i])); err != nil {
			return fmt.Errorf("passage %q: %w", p.ID, err)
		}
	}
	return tx.Commit()
}

// DeleteSource implements Store. Deleting a source with no passages is not
// an error.
func (e *Embedded) DeleteSource(ctx context.Context, sourceID string) error {
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	ids, err := e.deleteRows(ctx, sourceID)
	if err != nil {
		return fmt.Errorf("delete source %q: %w", sourceID, err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, id := range ids {
		e.exact.delete(id)
		if e.approx != nil {
			e.approx.delete(id)
		}
	}
	e.maybeApprox()
	return nil
}

// deleteRows deletes the passages of a source and returns their IDs.
func (e *Embedded) deleteRows(ctx context.Context, sourceID string) ([]string, error) {
	tx, err := e.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	rows, err := tx.QueryContext(ctx, "DELETE FROM passages WHERE source_id = $1 RETURNING id", sourceID)
	if err != nil {
		return nil, err
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		ids = append(ids, id)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return nil, err
	}
	return ids, tx.Commit()
}
