package retrieval

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/viterin/vek/vek32"

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
	if err := e.catchUp(ctx); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	k := min(q.K, MaxK)
	n := k * e.cfg.CandidateFactor
	f := normalizeFilter(q.Filter)

	var u []float32
	if len(q.Vector) > 0 {
		var err error
		u, err = normalize(q.Vector)
		switch {
		case errors.Is(err, errZeroVector):
			// No direction: nothing is near it; BM25 alone ranks.
			u = nil
		case err != nil:
			return nil, fmt.Errorf("search: query %w", err)
		}
	}
	// BM25 runs beside the dense search, on another CPU when one is free.
	var sparse []scored
	var sparseErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		sparse, sparseErr = e.sparseSearch(ctx, q.Text, n, f)
	}()
	var dense []scored
	var err error
	if len(q.Vector) > 0 {
		dense, err = e.denseSearch(ctx, u, len(q.Vector), n, f)
	}
	<-done
	if err == nil {
		err = sparseErr
	}
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
// dim dimensions; u nil (a zero query vector) finds nothing. The dense
// index proposes candidates from its compressed vectors (see denseIndex);
// they are re-scored here with their exact vectors.
func (e *Embedded) denseSearch(ctx context.Context, u []float32, dim, n int, f filter) ([]scored, error) {
	cand, err := e.denseCandidates(ctx, u, dim, n, f)
	if err != nil || len(cand) == 0 {
		return nil, err
	}
	return e.rescore(ctx, u, cand, n)
}

// denseCandidates runs the dense index's stages under the read lock.
func (e *Embedded) denseCandidates(ctx context.Context, u []float32, dim, n int, f filter) ([]scored, error) {
	e.refreshColumns()
	e.mu.RLock()
	defer e.mu.RUnlock()
	d := e.dense
	if d.len() == 0 {
		return nil, nil
	}
	if dim != d.dim {
		return nil, fmt.Errorf("query vector has %d dimensions; this store holds %d-dimensional vectors", dim, d.dim)
	}
	if u == nil {
		return nil, nil
	}
	return d.search(ctx, d.query(u), n, d.rowFilter(f))
}

// rowFilter returns whether a row of the dense index passes f, nil when f
// passes every row.
func (d *denseIndex) rowFilter(f filter) func(row int) bool {
	if f.empty() {
		return nil
	}
	var domains map[uint32]bool
	if f.domains != nil {
		domains = map[uint32]bool{}
		for name := range f.domains {
			if id, ok := d.domainIDs[name]; ok {
				domains[id] = true
			}
		}
	}
	return func(r int) bool {
		return d.flags[r]&rowDeleted == 0 && (domains == nil || domains[d.domains[r]]) &&
			(f.since == noDate || (d.published[r] != noDate && d.published[r] >= f.since))
	}
}

// rescore scores the candidates by their exact vectors, read from the
// database, and returns the best n. A candidate deleted since is left out.
func (e *Embedded) rescore(ctx context.Context, u []float32, cand []scored, n int) ([]scored, error) {
	args := make([]any, len(cand))
	ps := make([]string, len(cand))
	for i, c := range cand {
		args[i], ps[i] = c.rid, fmt.Sprintf("$%d", i+1)
	}
	rows, err := e.db.QueryContext(ctx, "SELECT rid, vec FROM passages WHERE rid IN ("+strings.Join(ps, ", ")+")", args...)
	if err != nil {
		return nil, fmt.Errorf("read vectors: %w", err)
	}
	defer rows.Close()
	out := make([]scored, 0, len(cand))
	for rows.Next() {
		var s scored
		var blob []byte
		if err := rows.Scan(&s.rid, &blob); err != nil {
			return nil, fmt.Errorf("read vectors: %w", err)
		}
		v, err := decodeVector(blob)
		if err != nil || len(v) != len(u) {
			return nil, fmt.Errorf("read vector of row %d: %d dimensions, %v", s.rid, len(v), err)
		}
		s.score = float64(vek32.Dot(u, v))
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read vectors: %w", err)
	}
	sortScored(out)
	if len(out) > n {
		out = out[:n]
	}
	return out, nil
}

// sparseSearch returns up to n passages ranked by BM25 for the content terms
// of text (see lexIndex).
func (e *Embedded) sparseSearch(ctx context.Context, text string, n int, f filter) ([]scored, error) {
	stems := queryStems(text)
	if len(stems) == 0 {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("full-text search: %w", err)
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	var keep func(int64) bool
	if row := e.dense.rowFilter(f); row != nil {
		keep = func(rid int64) bool {
			r, ok := e.dense.find(rid)
			return ok && row(r)
		}
	}
	return e.lex.search(stems, n, keep), nil
}

// fuse merges ranked lists by reciprocal rank fusion and returns the first
// k, best first, ties by row ID (the order of insertion).
func fuse(k int, lists ...[]scored) []scored {
	sum := map[int64]float64{}
	for _, l := range lists {
		for r, s := range l {
			sum[s.rid] += 1 / float64(RRFK+r+1)
		}
	}
	out := make([]scored, 0, len(sum))
	for rid, s := range sum {
		out = append(out, scored{rid: rid, score: s})
	}
	sortScored(out)
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
		args[i], ps[i] = s.rid, fmt.Sprintf("$%d", i+1)
	}
	rows, err := e.db.QueryContext(ctx, "SELECT rid, "+passageColumns+" FROM passages WHERE rid IN ("+strings.Join(ps, ", ")+")", args...)
	if err != nil {
		return nil, fmt.Errorf("read passages: %w", err)
	}
	defer rows.Close()
	byRID := make(map[int64]evidence.Passage, len(ranked))
	for rows.Next() {
		var p evidence.Passage
		var rid int64
		var published sql.NullInt64
		if err := rows.Scan(&rid, &p.ID, &p.SourceID, &p.Ordinal, &p.Text, &p.URL, &p.Domain, &p.Title, &published, &p.Reliability); err != nil {
			return nil, fmt.Errorf("read passages: %w", err)
		}
		if published.Valid {
			p.PublishedAt = time.UnixMicro(published.Int64).UTC()
		}
		byRID[rid] = p
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read passages: %w", err)
	}
	hits := make([]Hit, 0, len(ranked))
	for _, s := range ranked {
		if p, ok := byRID[s.rid]; ok {
			hits = append(hits, Hit{Passage: p, Score: s.score})
		}
	}
	return hits, nil
}
