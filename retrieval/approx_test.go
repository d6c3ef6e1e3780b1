package retrieval

import (
	"context"
	"fmt"
	"math/rand"
	"sync"
	"testing"
)

// randomUnit returns n random unit vectors of dim dimensions. With clusters
// > 0 they are drawn around that many random centres, which is closer to
// real embeddings than uniform noise.
func randomUnit(rng *rand.Rand, n, dim, clusters int) [][]float32 {
	var centres [][]float32
	for range clusters {
		c := make([]float32, dim)
		for j := range c {
			c[j] = float32(rng.NormFloat64())
		}
		centres = append(centres, c)
	}
	out := make([][]float32, n)
	for i := range out {
		v := make([]float32, dim)
		for j := range v {
			v[j] = float32(rng.NormFloat64())
			if clusters > 0 {
				v[j] = centres[rng.Intn(clusters)][j] + 0.3*v[j]
			}
		}
		u, err := normalize(v)
		if err != nil {
			panic(err)
		}
		out[i] = u
	}
	return out
}

// recallAt returns the mean share of the exact top k that the approximate
// index returns as its top k, over the queries.
func recallAt(t testing.TB, k int, exact *flatIndex, approx *approxIndex, queries [][]float32) float64 {
	t.Helper()
	var found, total int
	for _, q := range queries {
		want, err := exact.search(context.Background(), q, k, nil)
		if err != nil {
			t.Fatal(err)
		}
		truth := map[string]bool{}
		for _, s := range want {
			truth[s.id] = true
		}
		for _, s := range approx.search(q, k, exact) {
			if truth[s.id] {
				found++
			}
		}
		total += len(want)
	}
	return float64(found) / float64(total)
}

func buildIndexes(vecs [][]float32, cfg HNSWConfig) (*flatIndex, *approxIndex) {
	f := newFlatIndex()
	for i, v := range vecs {
		f.put(fmt.Sprintf("p%06d", i), v, "", noDate)
	}
	return f, newApproxIndex(cfg, f)
}

// TestApproximateRecall measures the recall@20 of the HNSW index against
// the exact scan and asserts the floor it reaches with coder/hnsw v0.6.1.
// The floor is low on purpose: it records how far from exact that library
// is (see approxIndex), which is why Approximate is off by default; a change
// that lowers it further fails here.
func TestApproximateRecall(t *testing.T) {
	const k = 20
	tests := []struct {
		name     string
		n, dim   int
		clusters int
		floor    float64
	}{
		// Measured 0.20 and 0.17; coder/hnsw iterates Go maps, so builds
		// vary from run to run despite the seed.
		{"clustered 3000x32", 3000, 32, 30, 0.10},
		{"uniform 3000x32", 3000, 32, 0, 0.10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(7))
			vecs := randomUnit(rng, tt.n+50, tt.dim, tt.clusters)
			exact, approx := buildIndexes(vecs[:tt.n], HNSWConfig{})
			r := recallAt(t, k, exact, approx, vecs[tt.n:])
			t.Logf("recall@%d = %.3f over %d queries (floor %.2f)", k, r, len(vecs)-tt.n, tt.floor)
			if r < tt.floor {
				t.Errorf("recall@%d = %.3f, below the floor %.2f", k, r, tt.floor)
			}
		})
	}
}

// TestApproximateSelfRecall checks what any index must do: a stored vector
// finds itself, also after replacements and deletions have left stale
// nodes in the graph and after the rebuild they cause.
func TestApproximateSelfRecall(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	vecs := randomUnit(rng, 600, 16, 20)
	exact, approx := buildIndexes(vecs[:400], HNSWConfig{})
	// Replace the first 200 with new vectors and delete the next 100.
	for i := range 200 {
		id := fmt.Sprintf("p%06d", i)
		exact.put(id, vecs[400+i], "", noDate)
		approx.put(id, vecs[400+i])
	}
	for i := 200; i < 300; i++ {
		id := fmt.Sprintf("p%06d", i)
		exact.delete(id)
		approx.delete(id)
	}
	if approx.needsRebuild() {
		t.Fatalf("rebuild wanted with %d stale and %d live nodes", approx.stale, len(approx.keyOf))
	}
	check := func(name string, a *approxIndex) {
		missed := 0
		for i := range 300 {
			id := fmt.Sprintf("p%06d", i)
			if i >= 200 {
				id = fmt.Sprintf("p%06d", i+100)
			}
			v, ok := exact.vector(id)
			if !ok {
				t.Fatalf("%s missing from the exact index", id)
			}
			got := a.search(v, 1, exact)
			if len(got) != 1 || got[0].id != id {
				missed++
			}
		}
		t.Logf("%s: %d of 300 stored vectors did not find themselves first", name, missed)
		// The exact re-scoring puts a proposed vector first, so a miss is
		// the graph not proposing it: measured 24 of 300 (8%).
		if missed > 45 {
			t.Errorf("%s: %d of 300 stored vectors did not find themselves", name, missed)
		}
	}
	check("with stale nodes", approx)
	for i := 300; i < 400; i++ {
		id := fmt.Sprintf("p%06d", i)
		exact.delete(id)
		approx.delete(id)
	}
	if !approx.needsRebuild() {
		t.Errorf("no rebuild wanted with %d stale and %d live nodes", approx.stale, len(approx.keyOf))
	}
	rebuilt := newApproxIndex(HNSWConfig{}, exact)
	if rebuilt.stale != 0 || len(rebuilt.keyOf) != exact.len() {
		t.Errorf("rebuilt index: %d stale, %d live; want 0, %d", rebuilt.stale, len(rebuilt.keyOf), exact.len())
	}
	for _, s := range rebuilt.search(vecs[0], 400, exact) {
		if _, ok := exact.vector(s.id); !ok {
			t.Errorf("rebuilt index returned deleted passage %s", s.id)
		}
	}
}

var bench struct {
	once    sync.Once
	exact   *flatIndex
	approx  *approxIndex
	queries [][]float32
}

// BenchmarkDenseSearch compares the exact scan with the HNSW index over
// 50,000 random 100-d unit vectors, top 20, and reports the index's
// recall@20 against the exact scan. Building the graph takes about 15 s on
// the reference machine and happens once, outside the timings.
//
//	go test -run '^$' -bench DenseSearch -benchtime 200x ./retrieval/
func BenchmarkDenseSearch(b *testing.B) {
	const n, dim, k = 50000, 100, 20
	bench.once.Do(func() {
		rng := rand.New(rand.NewSource(1))
		vecs := randomUnit(rng, n+200, dim, 0)
		bench.exact, bench.approx = buildIndexes(vecs[:n], HNSWConfig{})
		bench.queries = vecs[n:]
	})
	b.Run("exact", func(b *testing.B) {
		ctx := context.Background()
		for i := 0; b.Loop(); i++ {
			if _, err := bench.exact.search(ctx, bench.queries[i%len(bench.queries)], k, nil); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(1, "recall@20")
	})
	b.Run("hnsw", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			bench.approx.search(bench.queries[i%len(bench.queries)], k, bench.exact)
		}
		b.ReportMetric(recallAt(b, k, bench.exact, bench.approx, bench.queries), "recall@20")
	})
}
