package retrieval

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/verity-fc/verity/internal/shareddata"
)

// BenchmarkSparseSearch times the full-text search of an existing passage
// store (such as one `verity bench scale` built; it is migrated and its
// snapshots written) for 100 FEVER claims, and reports the mean time of
// a search by the index's top-k pruning (ms-maxscore) and of scoring every
// posting of the same terms (ms-exhaustive), and how many of the exhaustive
// top 20 the pruned search returns (overlap@20, 1 but for ties):
//
//	VERITY_SPARSE_BENCH_DB=/work/bench-data/100k/data/passages.db \
//	  go test -run '^$' -bench SparseSearch -benchtime 100x ./retrieval/
func BenchmarkSparseSearch(b *testing.B) {
	path := os.Getenv("VERITY_SPARSE_BENCH_DB")
	if path == "" {
		b.Skip("VERITY_SPARSE_BENCH_DB names no passage store")
	}
	ctx := context.Background()
	e, err := OpenEmbedded(ctx, path, EmbeddedConfig{})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	claims := feverBenchClaims(b, 100)
	const k, n = 20, 60
	var full, pruned time.Duration
	var overlap float64
	for _, c := range claims {
		start := time.Now()
		want := exhaustiveSearch(e.lex, queryStems(c), n)
		full += time.Since(start)
		start = time.Now()
		got := e.lex.search(queryStems(c), n, nil)
		pruned += time.Since(start)
		in := map[int64]bool{}
		for _, s := range got[:min(k, len(got))] {
			in[s.rid] = true
		}
		hit := 0
		for _, s := range want[:min(k, len(want))] {
			if in[s.rid] {
				hit++
			}
		}
		overlap += float64(hit) / float64(max(1, min(k, len(want))))
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := e.sparseSearch(ctx, claims[i%len(claims)], n, filter{since: noDate}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(full.Microseconds())/1000/float64(len(claims)), "ms-exhaustive")
	b.ReportMetric(float64(pruned.Microseconds())/1000/float64(len(claims)), "ms-maxscore")
	b.ReportMetric(overlap/float64(len(claims)), "overlap@20")
}

// feverBenchClaims returns the first n FEVER paper_dev claims that have
// evidence, the query set of the store benchmarks.
func feverBenchClaims(b *testing.B, n int) []string {
	f, err := os.Open(filepath.Join(shareddata.Dir(b, "fever"), "paper_dev.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var claims []string
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(claims) < n {
		var r struct {
			Claim    string   `json:"claim"`
			Evidence []string `json:"evidence"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			b.Fatal(err)
		}
		if len(r.Evidence) > 0 {
			claims = append(claims, r.Claim)
		}
	}
	return claims
}
