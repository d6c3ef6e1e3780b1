package retrieval_test

import (
	"context"
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/retrieval"
)

// BenchmarkEmbeddedSearch times one hybrid search (BM25 + exact dense,
// fused, passages read back) with K=20 over 20,000 passages of 60 words
// drawn from a Zipf-distributed vocabulary of 5,000, with random 100-d
// vectors. Building the store is not timed.
//
//	go test -run '^$' -bench EmbeddedSearch ./retrieval/
func BenchmarkEmbeddedSearch(b *testing.B) {
	const n, dim, words = 20000, 100, 60
	ctx := context.Background()
	rng := rand.New(rand.NewSource(1))
	zipf := rand.NewZipf(rng, 1.1, 1, 4999)
	text := func(w int) string {
		ws := make([]string, w)
		for i := range ws {
			ws[i] = fmt.Sprintf("w%d", zipf.Uint64())
		}
		return strings.Join(ws, " ")
	}
	vec := func() []float32 {
		v := make([]float32, dim)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		return v
	}
	s, err := retrieval.OpenEmbedded(ctx, filepath.Join(b.TempDir(), "p.db"), retrieval.EmbeddedConfig{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for start := 0; start < n; start += 5000 {
		var ps []evidence.Passage
		var vs [][]float32
		for i := start; i < start+5000; i++ {
			id := fmt.Sprint(i)
			ps = append(ps, evidence.Passage{ID: id, SourceID: id, Text: text(words), Domain: fmt.Sprintf("d%d.example", i%50)})
			vs = append(vs, vec())
		}
		if err := s.Upsert(ctx, ps, vs); err != nil {
			b.Fatal(err)
		}
	}
	queries := make([]retrieval.Query, 100)
	for i := range queries {
		queries[i] = retrieval.Query{Text: text(12), Vector: vec(), K: 20}
	}
	for i := 0; b.Loop(); i++ {
		hits, err := s.Search(ctx, queries[i%len(queries)])
		if err != nil || len(hits) != 20 {
			b.Fatalf("%d hits, %v", len(hits), err)
		}
	}
}
