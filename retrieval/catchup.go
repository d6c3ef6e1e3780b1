package retrieval

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/verity-fc/verity/evidence"
)

// catchUpEvery is how often a search reads the database's generation to
// learn of another process's writes.
const catchUpEvery = time.Second

// catchUp brings the indexes up to writes another process (a `verity
// ingest` beside `verity serve`) made to the database since this one last
// looked, at most once every catchUpEvery: the rows added since (SQLite
// gives a new row a larger rid than any it holds) are indexed, and when
// the number of rows then differs from the indexes', the rids are compared
// and the rows deleted leave the indexes. A row another process replaced
// in place (an Upsert of an existing passage ID) keeps its old text in the
// indexes until the next open; the hit itself is read from the database.
// The indexes then reflect no single generation, so they are not written
// as snapshots, and the next open rebuilds them.
func (e *Embedded) catchUp(ctx context.Context) error {
	e.checkMu.Lock()
	if time.Since(e.checked) < catchUpEvery {
		e.checkMu.Unlock()
		return nil
	}
	e.checked = time.Now()
	e.checkMu.Unlock()
	gen, err := generation(ctx, e.db)
	if err != nil {
		return fmt.Errorf("read generation: %w", err)
	}
	e.mu.RLock()
	seen := e.seen
	e.mu.RUnlock()
	if gen == seen {
		return nil
	}
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	tx, err := e.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("catch up: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only
	if gen, err = generation(ctx, tx); err != nil {
		return fmt.Errorf("read generation: %w", err)
	}
	e.mu.RLock()
	seen = e.seen
	var maxRID int64
	for r := len(e.dense.rids) - 1; r >= 0; r-- {
		if e.dense.flags[r]&rowDeleted == 0 {
			maxRID = e.dense.rids[r]
			break
		}
	}
	live, dim := e.dense.len(), e.dense.dim
	e.mu.RUnlock()
	if gen == seen {
		return nil
	}
	added, err := e.readRows(ctx, tx, "WHERE rid > $1", maxRID)
	if err != nil {
		return err
	}
	var count int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM passages").Scan(&count); err != nil {
		return fmt.Errorf("catch up: %w", err)
	}
	var all []int64
	if count != live+len(added) {
		if all, err = allRIDs(ctx, tx); err != nil {
			return err
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, a := range added {
		if live > 0 && len(a.vec) != dim {
			return fmt.Errorf("catch up: row %d has %d dimensions; this store holds %d", a.rid, len(a.vec), dim)
		}
		e.dense.put(a.rid, a.vec, a.domain, a.published)
		e.lex.put(a.rid, a.doc)
	}
	if all != nil {
		// Rows gone from the database leave the indexes; rows the indexes
		// lack (a rid reused below maxRID) are read and added.
		var gone []int64
		for r, rid := range e.dense.rids {
			if e.dense.flags[r]&rowDeleted == 0 {
				if _, ok := slices.BinarySearch(all, rid); !ok {
					gone = append(gone, rid)
				}
			}
		}
		for _, rid := range gone {
			e.dense.delete(rid)
			e.lex.delete(rid)
		}
		for _, rid := range all {
			if r, ok := e.dense.find(rid); !ok || e.dense.flags[r]&rowDeleted != 0 {
				rows, err := e.readRows(ctx, tx, "WHERE rid = $1", rid)
				if err != nil {
					return err
				}
				for _, a := range rows {
					e.dense.put(a.rid, a.vec, a.domain, a.published)
					e.lex.put(a.rid, a.doc)
				}
			}
		}
	}
	e.seen = gen
	e.gen = -1
	e.dirty, e.lexDirty = true, true
	e.log.Info("caught up with another process's writes", "generation", gen, "added", len(added), "compared", all != nil)
	return nil
}

// caughtRow is a row read for catchUp, analysed for both indexes.
type caughtRow struct {
	rid       int64
	vec       []float32
	domain    string
	published int64
	doc       lexDoc
}

// readRows reads the rows of passages that where selects, with one
// argument, in rid order.
func (e *Embedded) readRows(ctx context.Context, tx *sql.Tx, where string, arg any) ([]caughtRow, error) {
	rows, err := tx.QueryContext(ctx, "SELECT rid, text, title, domain_key, published_at, vec FROM passages "+where+" ORDER BY rid", arg)
	if err != nil {
		return nil, fmt.Errorf("catch up: %w", err)
	}
	defer rows.Close()
	var out []caughtRow
	var ps []evidence.Passage
	for rows.Next() {
		var c caughtRow
		var p evidence.Passage
		var published sql.NullInt64
		var blob []byte
		if err := rows.Scan(&c.rid, &p.Text, &p.Title, &c.domain, &published, &blob); err != nil {
			return nil, fmt.Errorf("catch up: %w", err)
		}
		if c.vec, err = decodeVector(blob); err != nil {
			return nil, fmt.Errorf("catch up: row %d: %w", c.rid, err)
		}
		c.published = publishedKey(published)
		out, ps = append(out, c), append(ps, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("catch up: %w", err)
	}
	for i, d := range analyzeAll(ps) {
		out[i].doc = d
	}
	return out, nil
}

// allRIDs reads every rid of passages, ascending.
func allRIDs(ctx context.Context, tx *sql.Tx) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, "SELECT rid FROM passages ORDER BY rid")
	if err != nil {
		return nil, fmt.Errorf("catch up: %w", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var rid int64
		if err := rows.Scan(&rid); err != nil {
			return nil, fmt.Errorf("catch up: %w", err)
		}
		out = append(out, rid)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("catch up: %w", err)
	}
	return out, nil
}
