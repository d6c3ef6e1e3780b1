package retrieval

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/verity-fc/verity/evidence"
)

// Search implements Store. It ranks by BM25 the passages that hold the
// content terms of q.Text (stopwords dropped; text that is only stopwords
// or punctuation ranks nothing), ranks by cosine similarity to q.Vector
// (when given) every passage, takes the first CandidateFactor*K of each list
// and fuses them by reciprocal rank fusion: Hit.Score is the sum over the
// lists of 1/(RRFK+rank). K must be positive; above MaxK it is MaxK. An
// all-zero q.Vector has no direction and leaves the ranking to BM25.
func (e *Embedded) Search(ctx context.Context, q Query) ([]Hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	if q.K < 1 {
		return nil, evidence.Invalid("k", "must be at least 1, got %d", q.K)
	}
	k := min(q.K, MaxK)
	n := k * e.cfg.CandidateFactor
	f := normalizeFilter(q.Filter)

	var dense []scored
	if len(q.Vector) > 0 {
		u, err := normalize(q.Vector)
		switch {
		case errors.Is(err, errZeroVector):
			// No direction: nothing is near it; BM25 alone ranks.
			u = nil
		case err != nil:
			return nil, fmt.Errorf("search: query %w", err)
		}
		if dense, err = e.denseSearch(ctx, u, len(q.Vector), n, f); err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
	}
	sparse, err := e.sparseSearch(ctx, q.Text, n, f)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	fused := fuse(k, sparse, dense)
	hits, err := e.passages(ctx, fused)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return hits, nil
}

// filter is a Filter in the form the indexes compare.
type filter struct {
	domains map[string]bool // nil matches every domain
	since   int64           // Unix microseconds; noDate matches every date
}

func normalizeFilter(f Filter) filter {
	out := filter{since: noDate}
	if len(f.Domains) > 0 {
		out.domains = map[string]bool{}
		for _, d := range f.Domains {
			out.domains[domainKey(d)] = true
		}
	}
	if !f.Since.IsZero() {
		out.since = f.Since.UnixMicro()
	}
	return out
}

func (f filter) empty() bool { return f.domains == nil && f.since == noDate }

// denseSearch returns the n passages most similar to the unit vector u, of
// dim dimensions; u nil (a zero query vector) finds nothing.
func (e *Embedded) denseSearch(ctx context.Context, u []float32, dim, n int, f filter) ([]scored, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.exact.len() == 0 {
		return nil, nil
	}
	if dim != e.exact.dim {
		return nil, fmt.Errorf("query vector has %d dimensions; this store holds %d-dimensional vectors", dim, e.exact.dim)
	}
	if u == nil {
		return nil, nil
	}
	// The graph knows nothing of filters; a filtered search scans, which
	// is also exact.
	if e.approx != nil && f.empty() {
		return e.approx.search(u, n, e.exact), nil
	}
	var keep func(int) bool
	if !f.empty() {
		keep = func(r int) bool {
			return (f.domains == nil || f.domains[e.exact.domains[r]]) &&
				(f.since == noDate || (e.exact.published[r] != noDate && e.exact.published[r] >= f.since))
		}
	}
	return e.exact.search(ctx, u, n, keep)
}

// sparseSearch returns up to n passages ranked by BM25 for the content terms
// of text. FTS5's bm25() is lower-better; the text column weighs twice the
// title, which repeats on every passage of a source.
func (e *Embedded) sparseSearch(ctx context.Context, text string, n int, f filter) ([]scored, error) {
	match := matchQuery(text)
	if match == "" {
		return nil, nil
	}
	args := []any{match}
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	var q string
	if f.empty() {
		// Rank inside the FTS table and join only the top n: joining every
		// match to its passage row first costs as much again as ranking.
		q = `SELECT p.id, f.r FROM (SELECT rowid AS rid, bm25(passages_fts, 1.0, 0.5) AS r FROM passages_fts
			WHERE passages_fts MATCH $1 ORDER BY r, rowid LIMIT ` + arg(n) + `) f
			JOIN passages p ON p.rid = f.rid ORDER BY f.r, f.rid`
	} else {
		q = `SELECT p.id, bm25(passages_fts, 1.0, 0.5) AS r FROM passages_fts
			JOIN passages p ON p.rid = passages_fts.rowid WHERE passages_fts MATCH $1`
		if f.domains != nil {
			var ps []string
			for _, d := range slices.Sorted(maps.Keys(f.domains)) {
				ps = append(ps, arg(d))
			}
			q += " AND p.domain_key IN (" + strings.Join(ps, ", ") + ")"
		}
		if f.since != noDate {
			q += " AND p.published_at >= " + arg(f.since)
		}
		q += " ORDER BY r, p.rid LIMIT " + arg(n)
	}
	rows, err := e.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("full-text search: %w", err)
	}
	defer rows.Close()
	var out []scored
	for rows.Next() {
		var s scored
		if err := rows.Scan(&s.id, &s.score); err != nil {
			return nil, fmt.Errorf("full-text search: %w", err)
		}
		s.score = -s.score
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("full-text search: %w", err)
	}
	return out, nil
}

// fuse merges ranked lists by reciprocal rank fusion and returns the first
// k, best first, ties by ID.
func fuse(k int, lists ...[]scored) []scored {
	sum := map[string]float64{}
	for _, l := range lists {
		for r, s := range l {
			sum[s.id] += 1 / float64(RRFK+r+1)
		}
	}
	out := make([]scored, 0, len(sum))
	for id, s := range sum {
		out = append(out, scored{id: id, score: s})
	}
	slices.SortFunc(out, func(a, b scored) int {
		switch {
		case worse(b, a):
			return -1
		case worse(a, b):
			return 1
		}
		return 0
	})
	if len(out) > k {
		out = out[:k]
	}
	return out
}

const passageColumns = "id, source_id, ordinal, text, url, domain, title, published_at, reliability"

// passages reads the passages of ranked and returns them as hits in the same
// order. A passage deleted since it was ranked is left out.
func (e *Embedded) passages(ctx context.Context, ranked []scored) ([]Hit, error) {
	if len(ranked) == 0 {
		return []Hit{}, nil
	}
	args := make([]any, len(ranked))
	ps := make([]string, len(ranked))
	for i, s := range ranked {
		args[i], ps[i] = s.id, fmt.Sprintf("$%d", i+1)
	}
	rows, err := e.db.QueryContext(ctx, "SELECT "+passageColumns+" FROM passages WHERE id IN ("+strings.Join(ps, ", ")+")", args...)
	if err != nil {
		return nil, fmt.Errorf("read passages: %w", err)
	}
	defer rows.Close()
	byID := make(map[string]evidence.Passage, len(ranked))
	for rows.Next() {
		var p evidence.Passage
		var published sql.NullInt64
		if err := rows.Scan(&p.ID, &p.SourceID, &p.Ordinal, &p.Text, &p.URL, &p.Domain, &p.Title, &published, &p.Reliability); err != nil {
			return nil, fmt.Errorf("read passages: %w", err)
		}
		if published.Valid {
			p.PublishedAt = time.UnixMicro(published.Int64).UTC()
		}
		byID[p.ID] = p
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read passages: %w", err)
	}
	hits := make([]Hit, 0, len(ranked))
	for _, s := range ranked {
		if p, ok := byID[s.id]; ok {
			hits = append(hits, Hit{Passage: p, Score: s.score})
		}
	}
	return hits, nil
}
