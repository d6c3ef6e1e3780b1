package retrieval

import (
	"container/heap"
	"context"
	"math"

	"github.com/viterin/vek/vek32"
)

// noDate is the published time of a passage without a date; it fails every
// Since filter.
const noDate = math.MinInt64

// scored is a passage ID with a similarity or rank score, higher better.
type scored struct {
	id    string
	score float64
}

// flatIndex is the exact dense index: every vector, unit length, in one
// row-major slab, searched by a full scan of dot products (cosine
// similarity, since rows are normalised). DESIGN.md measures such a scan as
// sound up to a few hundred thousand passages; vek32.Dot uses AVX2 where the
// CPU has it. It is not safe for concurrent use; Embedded guards it.
type flatIndex struct {
	dim  int
	ids  []string
	rows map[string]int
	vecs []float32
	// domains and published are the filterable fields of each row: the
	// normalised domain (see domainKey) and the publication time in Unix
	// microseconds, or noDate.
	domains   []string
	published []int64
	// zero marks rows whose vector is all zeros: they have no direction and
	// are never a dense result.
	zero []bool
}

func newFlatIndex() *flatIndex { return &flatIndex{rows: map[string]int{}} }

func (f *flatIndex) len() int { return len(f.ids) }

// put inserts or replaces the row of id. vec must be unit length or all
// zeros and, unless the index is empty, of the index's dimension.
func (f *flatIndex) put(id string, vec []float32, domain string, published int64) {
	if f.len() == 0 {
		f.dim = len(vec)
	}
	if r, ok := f.rows[id]; ok {
		copy(f.vecs[r*f.dim:(r+1)*f.dim], vec)
		f.domains[r], f.published[r], f.zero[r] = domain, published, isZero(vec)
		return
	}
	f.rows[id] = len(f.ids)
	f.ids = append(f.ids, id)
	f.vecs = append(f.vecs, vec...)
	f.domains = append(f.domains, domain)
	f.published = append(f.published, published)
	f.zero = append(f.zero, isZero(vec))
}

// delete removes the row of id, moving the last row into its place.
func (f *flatIndex) delete(id string) {
	r, ok := f.rows[id]
	if !ok {
		return
	}
	last := len(f.ids) - 1
	if r != last {
		f.ids[r], f.domains[r], f.published[r], f.zero[r] = f.ids[last], f.domains[last], f.published[last], f.zero[last]
		copy(f.vecs[r*f.dim:(r+1)*f.dim], f.vecs[last*f.dim:])
		f.rows[f.ids[r]] = r
	}
	delete(f.rows, id)
	f.ids, f.domains, f.published, f.zero = f.ids[:last], f.domains[:last], f.published[:last], f.zero[:last]
	f.vecs = f.vecs[:last*f.dim]
}

// vector returns the stored vector of id; the slice aliases the slab.
func (f *flatIndex) vector(id string) ([]float32, bool) {
	r, ok := f.rows[id]
	if !ok {
		return nil, false
	}
	return f.vecs[r*f.dim : (r+1)*f.dim], true
}

// search returns the n rows most similar to the unit vector q among those
// that keep accepts (nil keeps all) and have a non-zero vector, best first,
// ties by ID. It checks ctx every few thousand rows.
func (f *flatIndex) search(ctx context.Context, q []float32, n int, keep func(row int) bool) ([]scored, error) {
	if n <= 0 || f.len() == 0 {
		return nil, nil
	}
	top := make(minHeap, 0, n)
	for r := range f.ids {
		if r%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if f.zero[r] || (keep != nil && !keep(r)) {
			continue
		}
		s := scored{id: f.ids[r], score: float64(vek32.Dot(q, f.vecs[r*f.dim:(r+1)*f.dim]))}
		if len(top) < n {
			heap.Push(&top, s)
		} else if worse(top[0], s) {
			top[0] = s
			heap.Fix(&top, 0)
		}
	}
	return top.sorted(), nil
}

// worse reports whether a ranks below b: a lower score, or an equal score and
// a later ID, so that results are deterministic.
func worse(a, b scored) bool {
	if a.score != b.score {
		return a.score < b.score
	}
	return a.id > b.id
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

// sorted empties the heap into a slice, best first.
func (h *minHeap) sorted() []scored {
	out := make([]scored, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(h).(scored)
	}
	return out
}
