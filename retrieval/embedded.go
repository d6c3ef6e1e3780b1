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
	"os"
	"strings"
	"sync"
	"sync/atomic"
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
	// Logger receives load and snapshot events; nil discards them.
	Logger *slog.Logger
}

// Embedded is the passage store of the embedded deployment: one SQLite file
// holding every passage with its unit-length vector in the same row, and
// two indexes built from it: a compact dense index (denseIndex: sign codes
// and int8 vectors, no text) and a BM25 inverted index (lexIndex), each of
// which a snapshot beside the file lets it map at open instead of
// rebuilding. A passage is thus either wholly stored or not at all, and an
// Upsert that returned survives a crash (synchronous=FULL); the snapshots
// are only caches of the database. Search fuses the BM25 and dense lists by
// reciprocal rank fusion. It is safe for concurrent use: searches run while
// a write is in progress.
type Embedded struct {
	db       *sql.DB
	cfg      EmbeddedConfig
	log      *slog.Logger
	snapshot string // path of the dense snapshot
	lexPath  string // path of the full-text snapshot

	// writeMu serialises writers, so that the order of SQLite commits is the
	// order of index updates.
	writeMu sync.Mutex
	// mu guards the indexes and gen.
	mu    sync.RWMutex
	dense *denseIndex
	lex   *lexIndex
	// gen is the database generation the dense index reflects, -1 when
	// another process wrote in between (the index then misses its writes
	// and is not written as a snapshot); dirty is whether it changed since
	// it was read or written as the snapshot.
	gen      int64
	dirty    bool
	lexDirty bool
	// seen is the last generation whose writes the indexes hold, this
	// process's or another's (see catchUp); guarded by mu.
	seen int64
	// closed is set by Close, under mu; closing before it, so that a
	// build of columns stops.
	closed  bool
	closing atomic.Bool
	// colBuilding is set while refreshColumns builds columns; colBuilds
	// waits for it.
	colBuilding atomic.Bool
	colBuilds   sync.WaitGroup
	// checked is when catchUp last read the generation.
	checkMu sync.Mutex
	checked time.Time
}

var _ Store = (*Embedded)(nil)

// OpenEmbedded opens, creating and migrating when needed, the passage store
// at path (e.g. "<data>/passages.db") and its dense index: mapped from the
// snapshot path+".dense" when that is current, else rebuilt from the
// database and written as the snapshot. The schema versions are recorded
// in the table retrieval_schema_migrations, so the file may also be the
// corpus's.
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
	e := &Embedded{db: db, cfg: cfg, log: log, snapshot: path + ".dense", lexPath: path + ".bm25"}
	start := time.Now()
	if err := e.load(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open passage store: %w", err)
	}
	log.Debug("passage store loaded", "path", path, "passages", e.dense.len(), "dim", e.dense.dim,
		"mapped", e.dense.mapped != nil, "bm25 mapped", e.lex.base.mapped != nil, "ms", time.Since(start).Milliseconds())
	return e, nil
}

// generation reads the database's write generation.
func generation(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (int64, error) {
	var gen int64
	err := q.QueryRowContext(ctx, "SELECT gen FROM passages_generation WHERE id = 1").Scan(&gen)
	return gen, err
}

// load maps the current snapshots, or rebuilds the indexes from the
// database and writes them as the snapshots.
func (e *Embedded) load(ctx context.Context) error {
	gen, err := generation(ctx, e.db)
	if err != nil {
		return fmt.Errorf("read generation: %w", err)
	}
	// Both rebuilds read the database at gen: the store is not yet shared,
	// and another process's write in between would only make the next
	// open rebuild again.
	d, sgen, err := readSnapshot(e.snapshot)
	switch {
	case err == nil && sgen == gen:
		e.dense = d
	case err == nil:
		d.close()
		e.log.Info("dense snapshot is stale; rebuilding", "snapshot", e.snapshot, "generation", sgen, "want", gen)
	case !errors.Is(err, os.ErrNotExist):
		e.log.Warn("dense snapshot unreadable; rebuilding", "snapshot", e.snapshot, "err", err)
	}
	if e.dense == nil {
		if e.dense, err = e.rebuild(ctx); err != nil {
			return err
		}
		e.dirty = true
	}
	x, lgen, err := readLexSnapshot(e.lexPath)
	switch {
	case err == nil && lgen == gen:
		e.lex = x
	case err == nil:
		x.close()
		e.log.Info("full-text snapshot is stale; rebuilding", "snapshot", e.lexPath, "generation", lgen, "want", gen)
	case !errors.Is(err, os.ErrNotExist):
		e.log.Warn("full-text snapshot unreadable; rebuilding", "snapshot", e.lexPath, "err", err)
	}
	if e.lex == nil {
		if e.lex, err = e.rebuildLex(ctx); err != nil {
			return err
		}
		e.lexDirty = true
	}
	e.gen, e.seen = gen, gen
	if e.dense.len() > 0 {
		e.saveSnapshot(false)
	}
	return nil
}

// refreshColumns starts building the dense index's sign columns (see
// signColumns) in the background when they are missing or many rows were
// added since they were built: about 0.1-0.25 s at 1M passages, which no
// search waits for; searches scan rows until the columns are in place.
// Searches call it, so that a process that only writes (verity ingest)
// never builds them, and Close stops a build. It reads the index under the read lock and puts
// the columns in place under the write lock, unless a row they hold was
// rewritten in between (rows appended are scanned by rows until the next
// build).
func (e *Embedded) refreshColumns() {
	e.mu.RLock()
	start := !e.closed && e.dense.columnsStale() && e.colBuilding.CompareAndSwap(false, true)
	if start {
		// Under mu, so that Close, which sets closed under mu, waits for
		// every build it did not stop.
		e.colBuilds.Add(1)
	}
	e.mu.RUnlock()
	if !start {
		return
	}
	go func() {
		defer e.colBuilds.Done()
		defer e.colBuilding.Store(false)
		e.mu.RLock()
		d := e.dense
		if e.closed || !d.columnsStale() {
			e.mu.RUnlock()
			return
		}
		rewrites := d.rewrites
		cols := d.buildColumns(e.closing.Load)
		e.mu.RUnlock()
		if cols == nil {
			return
		}
		e.mu.Lock()
		if !e.closed && e.dense == d && d.rewrites == rewrites {
			d.cols = cols
		}
		e.mu.Unlock()
	}()
}

// rebuild reads every vector into a new dense index.
func (e *Embedded) rebuild(ctx context.Context) (*denseIndex, error) {
	d := newDenseIndex()
	rows, err := e.db.QueryContext(ctx, "SELECT rid, domain_key, published_at, vec FROM passages ORDER BY rid")
	if err != nil {
		return nil, fmt.Errorf("load vectors: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var rid int64
		var domain string
		var published sql.NullInt64
		var blob []byte
		if err := rows.Scan(&rid, &domain, &published, &blob); err != nil {
			return nil, fmt.Errorf("load vectors: %w", err)
		}
		vec, err := decodeVector(blob)
		if err != nil {
			return nil, fmt.Errorf("load vector of row %d: %w", rid, err)
		}
		if d.len() > 0 && len(vec) != d.dim {
			return nil, fmt.Errorf("load vector of row %d: %d dimensions, others have %d", rid, len(vec), d.dim)
		}
		d.put(rid, vec, domain, publishedKey(published))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load vectors: %w", err)
	}
	return d, nil
}

// saveSnapshot writes the indexes that changed as their snapshots when
// they reflect the database, the two at once (the dense one is mostly
// writing, the full-text one mostly merging). A failure is logged: the
// next open rebuilds. Unless the store is closing, the full-text index then
// maps its snapshot, leaving the heap. Callers hold mu, or own e
// exclusively.
func (e *Embedded) saveSnapshot(closing bool) {
	if e.gen < 0 || !littleEndian {
		return
	}
	var wg sync.WaitGroup
	if e.dirty {
		wg.Go(func() {
			start := time.Now()
			if err := writeSnapshot(e.snapshot, e.dense, e.gen); err != nil {
				e.log.Warn("dense snapshot not written", "snapshot", e.snapshot, "err", err)
				return
			}
			e.dirty = false
			e.log.Info("dense snapshot written", "snapshot", e.snapshot, "passages", e.dense.len(), "ms", time.Since(start).Milliseconds())
		})
	}
	defer wg.Wait()
	if !e.lexDirty {
		return
	}
	start := time.Now()
	if err := writeLexSnapshot(e.lexPath, e.lex, e.gen); err != nil {
		e.log.Warn("full-text snapshot not written", "snapshot", e.lexPath, "err", err)
		return
	}
	e.lexDirty = false
	if !closing {
		if x, _, err := readLexSnapshot(e.lexPath); err == nil {
			e.lex.close()
			e.lex = x
		}
	}
	e.log.Info("full-text snapshot written", "snapshot", e.lexPath, "passages", e.lex.live, "ms", time.Since(start).Milliseconds())
}

// Close writes the snapshots that changed and closes the database. The
// store must not be used afterwards.
func (e *Embedded) Close() error {
	e.closing.Store(true)
	e.mu.Lock()
	e.closed = true
	e.mu.Unlock()
	e.colBuilds.Wait()
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	e.saveSnapshot(true)
	e.dense.close()
	e.lex.close()
	return e.db.Close()
}

// Reserve makes room in the dense index for n more passages, which a
// writer that knows how many are coming (ingest) calls before its first
// write: the index then grows once instead of in steps that each copy it
// (at a million passages, half a gigabyte a copy).
func (e *Embedded) Reserve(n int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.dense.reserve(n)
}

// Len returns the number of passages stored.
func (e *Embedded) Len() int {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.dense.len()
}

// Dim returns the dimension of the stored vectors, 0 while none is stored.
func (e *Embedded) Dim() int {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.dense.len() == 0 {
		return 0
	}
	return e.dense.dim
}

// advance records that the database moved to gen by a write of this
// store, under mu.
func (e *Embedded) advance(gen int64) {
	if gen == e.seen+1 {
		e.seen = gen
	}
	if e.gen >= 0 && gen == e.gen+1 {
		e.gen = gen
	} else {
		e.gen = -1
	}
	e.dirty, e.lexDirty = true, true
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

// appendVector appends the blob of v, float32s little-endian, to b.
func appendVector(b []byte, v []float32) []byte {
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
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
	if err := e.replace(ctx, nil, passages, vecs); err != nil {
		return fmt.Errorf("upsert: %w", err)
	}
	return nil
}

// ReplaceSources deletes every passage of the sources and stores passages
// in one transaction (one fsync), as DeleteSource of each source followed
// by Upsert would; ingest uses it to write many small sources at once.
// passages need not belong to the sources. Upsert's rules apply.
func (e *Embedded) ReplaceSources(ctx context.Context, sourceIDs []string, passages []evidence.Passage, vecs [][]float32) error {
	if err := e.replace(ctx, sourceIDs, passages, vecs); err != nil {
		return fmt.Errorf("replace sources: %w", err)
	}
	return nil
}

func (e *Embedded) replace(ctx context.Context, sourceIDs []string, passages []evidence.Passage, vecs [][]float32) error {
	units, err := validateBatch(passages, vecs)
	if err != nil {
		return err
	}
	if len(units) == 0 && len(sourceIDs) == 0 {
		return nil
	}
	docs := analyzeAll(passages)
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	e.mu.RLock()
	n, dim := e.dense.len(), e.dense.dim
	e.mu.RUnlock()
	if n > 0 && len(units) > 0 && len(units[0]) != dim {
		// Passages being replaced could leave the store empty of other
		// dimensions, but mixing embedders in one store is a mistake.
		return fmt.Errorf("vectors have %d dimensions; this store holds %d-dimensional vectors (re-index to change embedders)", len(units[0]), dim)
	}
	deleted, rids, gen, err := e.write(ctx, sourceIDs, passages, units)
	if err != nil {
		return err
	}
	if gen == 0 {
		return nil // nothing changed
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, rid := range deleted {
		e.dense.delete(rid)
		e.lex.delete(rid)
	}
	for i, p := range passages {
		e.dense.put(rids[i], units[i], domainKey(p.Domain), publishedKey(micros(p.PublishedAt)))
		e.lex.put(rids[i], docs[i])
	}
	e.advance(gen)
	return nil
}

// write deletes the passages of the sources and stores the passages and
// their vectors in one transaction. It returns the row IDs deleted and
// stored and the new generation, 0 when nothing changed.
func (e *Embedded) write(ctx context.Context, sourceIDs []string, passages []evidence.Passage, units [][]float32) (deleted, rids []int64, gen int64, err error) {
	tx, err := e.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, nil, 0, err
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	for start := 0; start < len(sourceIDs); start += maxDeleteSources {
		ids := sourceIDs[start:min(start+maxDeleteSources, len(sourceIDs))]
		ds, err := deleteSourceRows(ctx, tx, ids)
		if err != nil {
			if len(ids) == 1 {
				return nil, nil, 0, fmt.Errorf("delete source %q: %w", ids[0], err)
			}
			return nil, nil, 0, fmt.Errorf("delete sources: %w", err)
		}
		deleted = append(deleted, ds...)
	}
	if len(passages) > 0 {
		if rids, err = insertRows(ctx, tx, passages, units); err != nil {
			return nil, nil, 0, err
		}
	}
	if len(deleted) == 0 && len(rids) == 0 {
		return nil, nil, 0, nil
	}
	if gen, err = bumpGeneration(ctx, tx); err != nil {
		return nil, nil, 0, err
	}
	return deleted, rids, gen, tx.Commit()
}

// insertRowsAtOnce is how many rows one INSERT statement of insertRows
// writes: fewer statements, less of the driver's work a statement (SQLite
// allows 32,766 parameters, 11 a row).
const insertRowsAtOnce = 64

// insertRows inserts or replaces passages with their unit vectors in tx
// and returns their row IDs. The vectors of a statement are encoded into
// one buffer, reused: the driver copies what it binds.
func insertRows(ctx context.Context, tx *sql.Tx, passages []evidence.Passage, units [][]float32) ([]int64, error) {
	var blobs []byte
	rids := make([]int64, len(passages))
	index := make(map[string]int, len(passages))
	for i, p := range passages {
		index[p.ID] = i
	}
	var stmt *sql.Stmt
	stmtRows := 0
	defer func() {
		if stmt != nil {
			stmt.Close()
		}
	}()
	args := make([]any, 0, 11*insertRowsAtOnce)
	for start := 0; start < len(passages); start += insertRowsAtOnce {
		part := passages[start:min(start+insertRowsAtOnce, len(passages))]
		if len(part) != stmtRows {
			if stmt != nil {
				stmt.Close()
			}
			var err error
			if stmt, err = tx.PrepareContext(ctx, insertSQL(len(part))); err != nil {
				return nil, err
			}
			stmtRows = len(part)
		}
		args = args[:0]
		blobs = blobs[:0]
		for i := range part {
			blobs = appendVector(blobs, units[start+i])
		}
		off := 0
		for i, p := range part {
			n := 4 * len(units[start+i])
			args = append(args, p.ID, p.SourceID, p.Ordinal, p.Text, p.URL, p.Domain, domainKey(p.Domain),
				p.Title, micros(p.PublishedAt), p.Reliability, blobs[off:off+n:off+n])
			off += n
		}
		if err := scanRIDs(ctx, stmt, args, index, rids); err != nil {
			if len(part) == 1 {
				return nil, fmt.Errorf("passage %q: %w", part[0].ID, err)
			}
			return nil, fmt.Errorf("passages %q to %q: %w", part[0].ID, part[len(part)-1].ID, err)
		}
	}
	return rids, nil
}

// insertSQL is the statement that inserts or replaces n passages and
// returns their row IDs with their IDs (the order of RETURNING rows is not
// defined).
func insertSQL(n int) string {
	var b strings.Builder
	b.WriteString(`INSERT INTO passages
		(id, source_id, ordinal, text, url, domain, domain_key, title, published_at, reliability, vec) VALUES `)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
	}
	b.WriteString(`
		ON CONFLICT (id) DO UPDATE SET source_id = excluded.source_id, ordinal = excluded.ordinal,
			text = excluded.text, url = excluded.url, domain = excluded.domain, domain_key = excluded.domain_key,
			title = excluded.title, published_at = excluded.published_at, reliability = excluded.reliability,
			vec = excluded.vec
		RETURNING rid, id`)
	return b.String()
}

// scanRIDs runs an insertSQL statement and stores the row ID of each
// passage it returns at the passage's place in rids.
func scanRIDs(ctx context.Context, stmt *sql.Stmt, args []any, index map[string]int, rids []int64) error {
	rows, err := stmt.QueryContext(ctx, args...)
	if err != nil {
		return err
	}
	for rows.Next() {
		var rid int64
		var id string
		if err := rows.Scan(&rid, &id); err != nil {
			rows.Close()
			return err
		}
		i, ok := index[id]
		if !ok {
			rows.Close()
			return fmt.Errorf("insert returned passage %q, which it was not given", id)
		}
		rids[i] = rid
	}
	return errors.Join(rows.Err(), rows.Close())
}

// bumpGeneration adds one to the write generation in tx and returns it.
func bumpGeneration(ctx context.Context, tx *sql.Tx) (int64, error) {
	var gen int64
	if err := tx.QueryRowContext(ctx, "UPDATE passages_generation SET gen = gen + 1 WHERE id = 1 RETURNING gen").Scan(&gen); err != nil {
		return 0, fmt.Errorf("bump generation: %w", err)
	}
	return gen, nil
}

// DeleteSource implements Store. Deleting a source with no passages is not
// an error.
func (e *Embedded) DeleteSource(ctx context.Context, sourceID string) error {
	if err := e.replace(ctx, []string{sourceID}, nil, nil); err != nil {
		return fmt.Errorf("delete source %q: %w", sourceID, err)
	}
	return nil
}

// maxDeleteSources bounds the sources of one DELETE statement (SQLite
// allows 32,766 parameters); ingest replaces up to 2,000 sources a batch,
// and one statement for them all costs a fraction of one each.
const maxDeleteSources = 500

// deleteSourceRows deletes the passages of sources in tx and returns their
// row IDs.
func deleteSourceRows(ctx context.Context, tx *sql.Tx, sourceIDs []string) ([]int64, error) {
	args := make([]any, len(sourceIDs))
	ps := make([]string, len(sourceIDs))
	for i, id := range sourceIDs {
		args[i], ps[i] = id, fmt.Sprintf("$%d", i+1)
	}
	rows, err := tx.QueryContext(ctx, "DELETE FROM passages WHERE source_id IN ("+strings.Join(ps, ", ")+") RETURNING rid", args...)
	if err != nil {
		return nil, err
	}
	var rids []int64
	for rows.Next() {
		var rid int64
		if err := rows.Scan(&rid); err != nil {
			rows.Close()
			return nil, err
		}
		rids = append(rids, rid)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return nil, err
	}
	return rids, nil
}
