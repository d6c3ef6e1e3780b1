package retrieval

import (
	"container/heap"
	"context"
	"errors"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"unsafe"
)

// noDate is the published time of a passage without a date; it fails every
// Since filter.
const noDate = math.MinInt64

// scored is a passage, by its row ID in the passages table, with a
// similarity or rank score, higher better.
type scored struct {
	rid   int64
	score float64
}

// Row flags of denseIndex.
const (
	rowDeleted = 1 << iota
	// rowZero marks a vector that is all zeros: it has no direction and is
	// never a dense result.
	rowZero
)

// denseIndex is the dense index of the embedded store. It keeps, per
// passage, two compressed forms of its unit vector and no text:
//
//   - a sign code of dim bits (bit i set when component i > 0), 48 bytes
//     for 384 dimensions, which the first stage of a search compares with
//     the query's by Hamming distance over every row (XOR and POPCNT);
//   - the vector quantised to int8 with one scale per row, 384 bytes, with
//     which the second stage re-scores the first stage's candidates.
//
// The store re-scores the second stage's best with the exact float32
// vectors read from SQLite (see Embedded.denseSearch). Rows are ordered by
// rid, so that a row is found by binary search without a map; a deleted row
// stays as a tombstone until the next snapshot compacts it.
//
// At 1M passages the arrays take about 460 MB, but the first stage reads
// only the 48-byte codes and flags (about 60 MB); the arrays may live in a
// read-only memory-mapped snapshot (see snapshot.go), so that opening a
// store does not decode its rows and only the pages searches touch are
// resident. The first write copies them to the heap.
//
// It is not safe for concurrent use; Embedded guards it.
type denseIndex struct {
	dim   int // 0 while no row was ever put
	words int // uint64 words of a sign code

	rids      []int64
	published []int64 // Unix microseconds or noDate
	domains   []uint32
	flags     []uint8
	scales    []float32 // component ≈ code * scale
	codes     []int8    // len(rids) * dim
	signs     []uint64  // len(rids) * words

	domainNames []string
	domainIDs   map[string]uint32

	live    int
	deleted int
	// cols is the sign codes as columns (see signColumns), nil until
	// built; rows inserted before its end drop it.
	cols *signColumns
	// rewrites counts the puts that change rows columns may hold (a row
	// replaced, or inserted before the last), so that columns built from
	// the index are not put in place after one. Appended rows and deletes
	// leave them right: the first are scanned by rows, the second flagged.
	rewrites int
	// room is the rows reserve last made room for, kept for an index that
	// learns its dimension at its first row.
	room int
	// mapped is the snapshot the arrays point into; nil once they are
	// owned (on the heap).
	mapped *mapping
}

func newDenseIndex() *denseIndex { return &denseIndex{domainIDs: map[string]uint32{}} }

func (d *denseIndex) len() int { return d.live }

// own copies arrays that point into a mapped snapshot to the heap and
// releases the mapping, so that they can be written.
func (d *denseIndex) own() { d.ownWith(0) }

// ownWith is own leaving room for extra more rows.
func (d *denseIndex) ownWith(extra int) {
	if d.mapped == nil {
		return
	}
	d.rids, d.published, d.domains = withRoom(d.rids, extra), withRoom(d.published, extra), withRoom(d.domains, extra)
	d.flags, d.scales = withRoom(d.flags, extra), withRoom(d.scales, extra)
	d.codes, d.signs = withRoom(d.codes, extra*d.dim), withRoom(d.signs, extra*d.words)
	d.mapped.close()
	d.mapped = nil
}

// reserve makes room for n more rows, owning the arrays: a writer that
// knows how many rows are coming grows them once, not in steps that each
// copy every array (and hold both copies until the next collection).
func (d *denseIndex) reserve(n int) {
	if n <= 0 {
		return
	}
	d.room = n
	if d.mapped != nil {
		d.ownWith(n)
		return
	}
	d.rids = slices.Grow(d.rids, n)
	d.published = slices.Grow(d.published, n)
	d.domains = slices.Grow(d.domains, n)
	d.flags = slices.Grow(d.flags, n)
	d.scales = slices.Grow(d.scales, n)
	d.codes = slices.Grow(d.codes, n*d.dim)
	d.signs = slices.Grow(d.signs, n*d.words)
}

// withRoom returns a copy of s on the heap with room for extra more
// elements.
func withRoom[T any](s []T, extra int) []T { return append(make([]T, 0, len(s)+extra), s...) }

// close releases a mapped snapshot; the index must not be used afterwards.
func (d *denseIndex) close() {
	if d.mapped != nil {
		d.mapped.close()
		d.mapped = nil
	}
}

// find returns the row of rid, or the row where it would be inserted and
// false.
func (d *denseIndex) find(rid int64) (int, bool) {
	return slices.BinarySearch(d.rids, rid)
}

func (d *denseIndex) domainID(domain string) uint32 {
	if id, ok := d.domainIDs[domain]; ok {
		return id
	}
	id := uint32(len(d.domainNames))
	d.domainNames = append(d.domainNames, domain)
	d.domainIDs[domain] = id
	return id
}

// put inserts or replaces the row of rid. vec must be unit length or all
// zeros and, unless no row was ever put, of the index's dimension.
func (d *denseIndex) put(rid int64, vec []float32, domain string, published int64) {
	d.own()
	if d.live == 0 && len(vec) != d.dim {
		// Empty but for tombstones of another dimension: start afresh,
		// with the room reserved.
		w, room := d.rewrites, d.room
		*d = *newDenseIndex()
		d.rewrites = w + 1
		d.dim, d.words = len(vec), (len(vec)+63)/64
		d.reserve(room)
	}
	r, found := d.find(rid)
	if !found {
		// SQLite gives a new row the largest rid plus one, so this is an
		// append but for rids reused after deleting the last rows.
		d.rids = slices.Insert(d.rids, r, rid)
		d.published = slices.Insert(d.published, r, 0)
		d.domains = slices.Insert(d.domains, r, 0)
		d.flags = slices.Insert(d.flags, r, rowDeleted)
		d.scales = slices.Insert(d.scales, r, 0)
		d.codes = slices.Insert(d.codes, r*d.dim, make([]int8, d.dim)...)
		d.signs = slices.Insert(d.signs, r*d.words, make([]uint64, d.words)...)
		d.deleted++
	}
	if found || r < len(d.rids)-1 {
		d.rewrites++
	}
	if d.flags[r]&rowDeleted != 0 {
		d.deleted--
		d.live++
	}
	if d.cols != nil && r < d.cols.rows && !found {
		d.cols = nil // the rows after r moved
	}
	d.published[r], d.domains[r] = published, d.domainID(domain)
	d.flags[r] = 0
	if isZero(vec) {
		d.flags[r] = rowZero
	}
	d.scales[r] = quantize(vec, d.codes[r*d.dim:(r+1)*d.dim], d.signs[r*d.words:(r+1)*d.words])
	if d.cols != nil && r < d.cols.rows {
		d.cols.setRow(r, d.signs[r*d.words:(r+1)*d.words])
	}
}

// delete marks the row of rid deleted.
func (d *denseIndex) delete(rid int64) {
	r, ok := d.find(rid)
	if !ok || d.flags[r]&rowDeleted != 0 {
		return
	}
	d.own()
	d.flags[r] = rowDeleted
	d.live--
	d.deleted++
}

// quantize writes the int8 codes and the sign bits of v and returns the
// scale of the codes: v[i] ≈ codes[i] * scale.
func quantize(v []float32, codes []int8, signs []uint64) float32 {
	var m float32
	for _, x := range v {
		m = max(m, abs32(x))
	}
	clear(signs)
	if m == 0 {
		clear(codes)
		return 0
	}
	scale := m / 127
	for i, x := range v {
		codes[i] = int8(math.Round(float64(x / scale)))
		if x > 0 {
			signs[i/64] |= 1 << (i % 64)
		}
	}
	return scale
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// dot8 is the dot product of two int8 codes of the same length. Eight
// components a step through fixed-size subslices let the compiler drop the
// bounds checks: about 3 times faster than an index loop here.
func dot8(a, b []int8) int32 {
	var s0, s1, s2, s3 int32
	for len(a) >= 8 && len(b) >= 8 {
		x, y := a[:8:8], b[:8:8]
		s0 += int32(x[0])*int32(y[0]) + int32(x[4])*int32(y[4])
		s1 += int32(x[1])*int32(y[1]) + int32(x[5])*int32(y[5])
		s2 += int32(x[2])*int32(y[2]) + int32(x[6])*int32(y[6])
		s3 += int32(x[3])*int32(y[3]) + int32(x[7])*int32(y[7])
		a, b = a[8:], b[8:]
	}
	for i := range min(len(a), len(b)) {
		s0 += int32(a[i]) * int32(b[i])
	}
	return s0 + s1 + s2 + s3
}

// dot is the dot product of the query's int8 codes with a row's: over the
// query's non-zero components alone when they are few, the same integer.
func (q *denseQuery) dot(row []int8) int32 {
	if q.nzIdx == nil {
		return dot8(q.codes, row)
	}
	return dotSparse(q.nzIdx, q.nzVal, row)
}

// dotSparse is the dot product of a sparse vector (indices and values) with
// a dense int8 one; every index must be within row.
func dotSparse(idx, val []int32, row []int8) int32 {
	var s0, s1, s2, s3 int32
	n := min(len(idx), len(val))
	idx, val = idx[:n], val[:n]
	for len(idx) >= 4 && len(val) >= 4 {
		i, v := idx[:4:4], val[:4:4]
		s0 += v[0] * int32(row[i[0]])
		s1 += v[1] * int32(row[i[1]])
		s2 += v[2] * int32(row[i[2]])
		s3 += v[3] * int32(row[i[3]])
		idx, val = idx[4:], val[4:]
	}
	for j := range idx {
		s0 += val[j] * int32(row[idx[j]])
	}
	return s0 + s1 + s2 + s3
}

// dotSparse4 is dotSparse of one sparse vector with four rows at once;
// idx must be ascending. The int8 stage's rows lie scattered over the
// index, each a few cache lines that are not cached; one row at a time,
// the loop waits on each row's misses in turn, four at a time their misses
// overlap. The rows are read without bounds checks (a quarter less CPU)
// once the last index is known to lie within each row.
func dotSparse4(idx, val []int32, r0, r1, r2, r3 []int8) (s0, s1, s2, s3 int32) {
	n := min(len(idx), len(val))
	if n == 0 {
		return 0, 0, 0, 0
	}
	idx, val = idx[:n], val[:n]
	last := int(idx[n-1])
	if idx[0] < 0 || last >= min(len(r0), len(r1), len(r2), len(r3)) {
		return dotSparse(idx, val, r0), dotSparse(idx, val, r1), dotSparse(idx, val, r2), dotSparse(idx, val, r3)
	}
	p0, p1 := unsafe.Pointer(unsafe.SliceData(r0)), unsafe.Pointer(unsafe.SliceData(r1))
	p2, p3 := unsafe.Pointer(unsafe.SliceData(r2)), unsafe.Pointer(unsafe.SliceData(r3))
	for j, i := range idx {
		// 0 <= i <= last < every row's length: idx ascends.
		v := val[j]
		s0 += v * int32(*(*int8)(unsafe.Add(p0, i)))
		s1 += v * int32(*(*int8)(unsafe.Add(p1, i)))
		s2 += v * int32(*(*int8)(unsafe.Add(p2, i)))
		s3 += v * int32(*(*int8)(unsafe.Add(p3, i)))
	}
	return s0, s1, s2, s3
}

// denseQuery is a unit query vector in the index's forms. The first stage
// compares sign codes only where the query has weight, and more where it
// has more: planes[j] holds the components whose magnitude is at least the
// (j+1)th quartile of the non-zero ones, from the lowest, so a component
// in the top quarter counts three times. Measured on the 100,000 passages
// of the benchmark corpus with the built-in embedder (whose lexical block
// leaves most of a short claim's components zero), for 100 FEVER claims and
// the first stage keeping 5% of the rows: plain Hamming distance over all
// 384 bits kept 0.47 of the exact top 20 (before int8 and exact
// re-scoring), masked to the components above the median 0.95 (after
// re-scoring 0.97), in three planes 0.98.
type denseQuery struct {
	vec    []float32
	codes  []int8
	signs  []uint64
	planes [3][]uint64
	// ones and twos are the bits of each component's weight (how many
	// planes hold it, 0 to 3): the weighted distance of a row whose sign
	// bits differ from the query's in x is popcount(x&ones) +
	// 2·popcount(x&twos), two population counts a word instead of three.
	ones, twos []uint64
	scale      float32
	// nzIdx and nzVal are the query's non-zero int8 components, when they
	// are few enough that a dot product over them alone is cheaper (see
	// dotSparse); nil otherwise.
	nzIdx []int32
	nzVal []int32
}

func (d *denseIndex) query(u []float32) denseQuery {
	w := (len(u) + 63) / 64
	q := denseQuery{vec: u, codes: make([]int8, len(u)), signs: make([]uint64, w)}
	q.scale = quantize(u, q.codes, q.signs)
	var mags []float32
	for _, x := range u {
		if x != 0 {
			mags = append(mags, abs32(x))
		}
	}
	slices.Sort(mags)
	for j := range q.planes {
		q.planes[j] = make([]uint64, w)
		if len(mags) == 0 {
			continue
		}
		t := mags[len(mags)*(j+1)/4]
		for i, x := range u {
			if x != 0 && abs32(x) >= t {
				q.planes[j][i/64] |= 1 << (i % 64)
			}
		}
	}
	nz := 0
	for _, c := range q.codes {
		if c != 0 {
			nz++
		}
	}
	// The built-in embedder's claims have about a third of their
	// components non-zero (its hashed block is sparse).
	if nz*2 < len(q.codes) {
		for i, c := range q.codes {
			if c != 0 {
				q.nzIdx, q.nzVal = append(q.nzIdx, int32(i)), append(q.nzVal, int32(c))
			}
		}
	}
	q.ones, q.twos = make([]uint64, w), make([]uint64, w)
	for i := range w {
		a, b, c := q.planes[0][i], q.planes[1][i], q.planes[2][i]
		// Planes nest (c within b within a): weight 1 is a&^b, 2 is
		// b&^c, 3 is c.
		q.ones[i] = (a &^ b) | c
		q.twos[i] = b
	}
	return q
}

// Candidates of the stages of a dense search, for n results wanted from
// rows rows: the first stage keeps a twentieth of the rows, at least 2,000
// and at most maxSignCandidates (the int8 stage's cost: about 0.4 ms a
// thousand); the second keeps twice n for exact re-scoring. See
// BenchmarkDenseSearch for the recall.
func signCandidates(n, rows int) int { return max(2000, 25*n, min(rows/20, maxSignCandidates)) }

var maxSignCandidates = 25000

func codeCandidates(n int) int { return 2 * n }

// search returns the candidates most similar to q among the rows that keep
// accepts (nil keeps all), best first by their int8 similarity: the
// signCandidates rows nearest by masked Hamming distance of sign codes (see
// denseQuery), re-scored by int8 dot product, of which the best
// codeCandidates(n) are returned. When the index holds no more than
// signCandidates eligible rows, every one is
// scored by int8 dot product, so that small stores are searched exactly (up
// to quantisation). It checks ctx every few thousand rows.
func (d *denseIndex) search(ctx context.Context, q denseQuery, n int, keep func(row int) bool) ([]scored, error) {
	if n <= 0 || d.live == 0 {
		return nil, nil
	}
	cand, err := d.signStage(ctx, q, signCandidates(n, d.live), keep)
	if err != nil {
		return nil, err
	}
	m := codeCandidates(n)
	parts := 1
	if len(cand) >= codeParallelRows {
		parts = min(runtime.GOMAXPROCS(0), 4)
	}
	tops := make([]minHeap, parts)
	var wg sync.WaitGroup
	for p := range parts {
		rows := cand[len(cand)*p/parts : len(cand)*(p+1)/parts]
		tops[p] = make(minHeap, 0, m)
		score := func() {
			offer := func(r int, dot int32) {
				tops[p].offer(scored{rid: d.rids[r], score: float64(dot) * float64(q.scale) * float64(d.scales[r])}, m)
			}
			row := func(r int) []int8 { return d.codes[r*d.dim : (r+1)*d.dim] }
			if q.nzIdx != nil {
				// Four rows at a time: their cache misses overlap.
				for len(rows) >= 4 {
					r := rows[:4:4]
					s0, s1, s2, s3 := dotSparse4(q.nzIdx, q.nzVal, row(r[0]), row(r[1]), row(r[2]), row(r[3]))
					offer(r[0], s0)
					offer(r[1], s1)
					offer(r[2], s2)
					offer(r[3], s3)
					rows = rows[4:]
				}
			}
			for _, r := range rows {
				offer(r, q.dot(row(r)))
			}
		}
		if p == parts-1 {
			score()
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			score()
		}()
	}
	wg.Wait()
	top := tops[0]
	for _, t := range tops[1:] {
		for _, s := range t {
			top.offer(s, m)
		}
	}
	return top.sorted(), nil
}

// codeParallelRows is the candidates from which the int8 stage is split
// among the CPUs (about 0.4 ms a thousand on one).
var codeParallelRows = 10000

// signStage returns up to c eligible rows, those whose sign codes are
// nearest the query's, in row order. Above signParallelRows rows the scan
// is split among the CPUs. An index with columns of its codes (see
// signColumns) is scanned by them, for the same rows.
func (d *denseIndex) signStage(ctx context.Context, q denseQuery, c int, keep func(row int) bool) ([]int, error) {
	if cols := d.cols; cols != nil && len(d.rids) >= colMinRows {
		return d.colSignStage(ctx, q, c, keep, cols)
	}
	// Distances are at most 3*dim: count rows by distance, then keep
	// those below the distance at which c rows are reached.
	dist := make([]uint16, len(d.rids))
	nh := len(q.planes)*d.dim + 2
	parts := 1
	if len(d.rids) >= signParallelRows {
		parts = min(runtime.GOMAXPROCS(0), 4)
	}
	hists := make([][]int, parts)
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := len(d.rids)*p/parts, len(d.rids)*(p+1)/parts
		hists[p] = make([]int, nh)
		if p == parts-1 {
			errs[p] = d.signScan(ctx, q, keep, lo, hi, dist, hists[p])
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[p] = d.signScan(ctx, q, keep, lo, hi, dist, hists[p])
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	hist := hists[0]
	for _, h := range hists[1:] {
		for i, k := range h {
			hist[i] += k
		}
	}
	eligible := 0
	for _, k := range hist {
		eligible += k
	}
	out := make([]int, 0, min(c, eligible))
	// Rows nearer than cut all go in; rows at cut fill what is left, in
	// rid order, so that the result is deterministic.
	cut, room := histCut(hist, c)
	for r, h := range dist {
		switch {
		case int(h) < cut:
			out = append(out, r)
		case int(h) == cut && room > 0:
			out = append(out, r)
			room--
		}
	}
	return out, nil
}

// histCut returns the distance at which a histogram of distances reaches c
// rows (its last when it never does) and how many rows at that distance
// make up c with the nearer ones.
func histCut(hist []int, c int) (cut, room int) {
	cut, sum := len(hist)-1, 0
	for h, k := range hist {
		if sum+k > c {
			cut = h
			break
		}
		sum += k
	}
	return cut, c - sum
}

// signParallelRows is the index size from which the sign stage's scan is
// split among the CPUs: at 1M rows it takes some 13 ms on one.
var signParallelRows = 200000

// signScan computes the masked distances of rows [lo, hi) into dist and
// counts them in hist; ineligible rows get math.MaxUint16.
func (d *denseIndex) signScan(ctx context.Context, q denseQuery, keep func(row int) bool, lo, hi int, dist []uint16, hist []int) error {
	w := d.words
	if w == 6 && keep == nil {
		return d.signScan6(ctx, q, lo, hi, dist, hist)
	}
	ones, twos := q.ones, q.twos
	for r := lo; r < hi; r++ {
		if (r-lo)%8192 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if d.flags[r] != 0 || (keep != nil && !keep(r)) {
			dist[r] = math.MaxUint16
			continue
		}
		row := d.signs[r*w : (r+1)*w]
		h := 0
		for i, x := range q.signs[:len(row)] {
			diff := x ^ row[i]
			h += bits.OnesCount64(diff&ones[i]) + 2*bits.OnesCount64(diff&twos[i])
		}
		dist[r] = uint16(h)
		hist[h]++
	}
	return nil
}

// signScan6 is signScan for 384 dimensions (the built-in embedder's) and no
// filter, with the query's words in locals: about twice as fast.
func (d *denseIndex) signScan6(ctx context.Context, q denseQuery, lo, hi int, dist []uint16, hist []int) error {
	var s, ones, twos [6]uint64
	copy(s[:], q.signs)
	copy(ones[:], q.ones)
	copy(twos[:], q.twos)
	signs, flags := d.signs, d.flags
	for start := lo; start < hi; start += 8192 {
		if err := ctx.Err(); err != nil {
			return err
		}
		for r := start; r < min(start+8192, hi); r++ {
			if flags[r] != 0 {
				dist[r] = math.MaxUint16
				continue
			}
			row := (*[6]uint64)(signs[r*6 : r*6+6])
			h := 0
			for i := range 6 {
				x := s[i] ^ row[i]
				h += bits.OnesCount64(x&ones[i]) + 2*bits.OnesCount64(x&twos[i])
			}
			dist[r] = uint16(h)
			hist[h]++
		}
	}
	return nil
}

// worse reports whether a ranks below b: a lower score, or an equal score and
// a later rid, so that results are deterministic.
func worse(a, b scored) bool {
	if a.score != b.score {
		return a.score < b.score
	}
	return a.rid > b.rid
}

// minHeap keeps the best n scores seen, the worst of them at the root.
type minHeap []scored

func (h minHeap) Len() int           { return len(h) }
func (h minHeap) Less(i, j int) bool { return worse(h[i], h[j]) }
func (h minHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)        { *h = append(*h, x.(scored)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// offer adds s when the heap holds fewer than n or s beats its worst.
func (h *minHeap) offer(s scored, n int) {
	if h.Len() < n {
		heap.Push(h, s)
	} else if worse((*h)[0], s) {
		(*h)[0] = s
		heap.Fix(h, 0)
	}
}

// sorted empties the heap into a slice, best first.
func (h *minHeap) sorted() []scored {
	out := make([]scored, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(h).(scored)
	}
	return out
}

// sortScored sorts best first, ties by rid.
func sortScored(s []scored) {
	slices.SortFunc(s, func(a, b scored) int {
		switch {
		case worse(b, a):
			return -1
		case worse(a, b):
			return 1
		}
		return 0
	})
}
