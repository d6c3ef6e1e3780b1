package retrieval

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/verity-fc/verity/internal/shareddata"
)

// BenchmarkSparseSearch times the full-text search of an existing passage
// store (such as one `verity bench scale` built; it is migrated and its
// dense snapshot written) for 100 FEVER claims, with the default bound on
// ranked postings, and reports, for that bound and others, how many of the
// top 20 that BM25 over every term gives it keeps (overlap@20-N) and the
// mean time of a search (ms-N, ms-unbounded):
//
//	VERITY_SPARSE_BENCH_DB=/work/bench-data/after-100k/data/passages.db \
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
	f, err := os.Open(filepath.Join(shareddata.Dir(b, "fever"), "paper_dev.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var claims []string
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(claims) < 100 {
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
	const k, n = 20, 60
	bounded := e.cfg.MaxRankedPostings
	var full time.Duration
	wants := make([][]scored, len(claims))
	e.cfg.MaxRankedPostings = -1
	for i, c := range claims {
		start := time.Now()
		if wants[i], err = e.sparseSearch(ctx, c, n, filter{since: noDate}); err != nil {
			b.Fatal(err)
		}
		full += time.Since(start)
	}
	// The overlap of other bounds, for choosing the default; reported after
	// the timed loop, since ResetTimer drops reported metrics.
	type metric struct {
		v    float64
		unit string
	}
	var metrics []metric
	for _, limit := range []int{5000, 10000, bounded} {
		e.cfg.MaxRankedPostings = limit
		var overlap float64
		start := time.Now()
		for i, c := range claims {
			got, err := e.sparseSearch(ctx, c, n, filter{since: noDate})
			if err != nil {
				b.Fatal(err)
			}
			in := map[int64]bool{}
			for _, s := range got[:min(k, len(got))] {
				in[s.rid] = true
			}
			hit := 0
			for _, s := range wants[i][:min(k, len(wants[i]))] {
				if in[s.rid] {
					hit++
				}
			}
			overlap += float64(hit) / float64(max(1, min(k, len(wants[i]))))
		}
		metrics = append(metrics, metric{overlap / float64(len(claims)), fmt.Sprintf("overlap@20-%d", limit)},
			metric{float64(time.Since(start).Milliseconds()) / float64(len(claims)), fmt.Sprintf("ms-%d", limit)})
	}
	e.cfg.MaxRankedPostings = bounded
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := e.sparseSearch(ctx, claims[i%len(claims)], n, filter{since: noDate}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(full.Milliseconds())/float64(len(claims)), "ms-unbounded")
	for _, m := range metrics {
		b.ReportMetric(m.v, m.unit)
	}
}
