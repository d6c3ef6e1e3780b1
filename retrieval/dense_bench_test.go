package retrieval

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/viterin/vek/vek32"

	"github.com/verity-fc/verity/embedding"
)

// BenchmarkDenseSearch times the dense index's search (sign codes, int8
// re-scoring; the exact re-scoring from SQLite is not included; the sign
// stage by columns, as a store opened uses it, and by rows in ms-rowscan) over the
// vectors of an existing passage store, such as one `verity bench scale`
// built, and reports its recall@20 against an exact float32 scan for 100
// FEVER claims embedded with the built-in embedder, with the first stage's
// default cap (maxSignCandidates) and others (recall@20-capN):
//
//	VERITY_DENSE_BENCH_DB=/work/bench-data/1m/data/passages.db \
//	  go test -run '^$' -bench DenseSearch -benchtime 100x ./retrieval/
func BenchmarkDenseSearch(b *testing.B) {
	path := os.Getenv("VERITY_DENSE_BENCH_DB")
	if path == "" {
		b.Skip("VERITY_DENSE_BENCH_DB names no passage store")
	}
	ctx := context.Background()
	db, err := sql.Open("sqlite", path+"?mode=ro")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, "SELECT rid, vec FROM passages ORDER BY rid")
	if err != nil {
		b.Fatal(err)
	}
	d := newDenseIndex()
	var rids []int64
	var vecs [][]float32
	for rows.Next() {
		var rid int64
		var blob []byte
		if err := rows.Scan(&rid, &blob); err != nil {
			b.Fatal(err)
		}
		v, err := decodeVector(blob)
		if err != nil {
			b.Fatal(err)
		}
		d.put(rid, v, "", noDate)
		rids, vecs = append(rids, rid), append(vecs, v)
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if d.columnsStale() {
		d.cols = d.buildColumns(nil)
	}
	build := time.Since(start)

	claims := feverBenchClaims(b, 100)
	qs, err := embedding.NewBuiltin(nil).Embed(ctx, claims)
	if err != nil {
		b.Fatal(err)
	}
	const k, n = 20, 60 // n: the candidates a K=20 search asks of each list
	byRID := make(map[int64]int, len(rids))
	for i, rid := range rids {
		byRID[rid] = i
	}
	var queries []denseQuery
	var exacts []minHeap
	for _, q := range qs {
		u, err := normalize(q)
		if err != nil {
			continue
		}
		exact := make(minHeap, 0, k)
		for i, v := range vecs {
			exact.offer(scored{rid: rids[i], score: float64(vek32.Dot(u, v))}, k)
		}
		queries = append(queries, d.query(u))
		exacts = append(exacts, exact)
	}
	// recall is the recall@20 of the search with the first stage keeping at
	// most maxCand rows.
	recall := func(maxCand int) float64 {
		old := maxSignCandidates
		defer func() { maxSignCandidates = old }()
		maxSignCandidates = maxCand
		var sum float64
		for i, dq := range queries {
			got, err := d.search(ctx, dq, n, nil)
			if err != nil {
				b.Fatal(err)
			}
			// The store re-scores the candidates exactly; so does this.
			top := make(minHeap, 0, k)
			for _, c := range got {
				top.offer(scored{rid: c.rid, score: float64(vek32.Dot(dq.vec, vecs[byRID[c.rid]]))}, k)
			}
			want := map[int64]bool{}
			for _, s := range exacts[i] {
				want[s.rid] = true
			}
			hit := 0
			for _, s := range top {
				if want[s.rid] {
					hit++
				}
			}
			sum += float64(hit) / float64(len(exacts[i]))
		}
		return sum / float64(len(queries))
	}
	caps := []int{10000, 50000}
	others := make([]float64, len(caps))
	for i, c := range caps {
		others[i] = recall(c)
	}
	r := recall(maxSignCandidates)
	// The same searches by the row scan, for comparison.
	cols := d.cols
	d.cols = nil
	start = time.Now()
	cpu := cpuTime(b)
	for _, dq := range queries {
		if _, err := d.search(ctx, dq, n, nil); err != nil {
			b.Fatal(err)
		}
	}
	byRows, byRowsCPU := time.Since(start), cpuTime(b)-cpu
	d.cols = cols
	b.ResetTimer()
	cpu = cpuTime(b)
	for i := 0; b.Loop(); i++ {
		if _, err := d.search(ctx, queries[i%len(queries)], n, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime(b)-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(byRowsCPU.Microseconds())/1000/float64(len(queries)), "cpu-ms-rowscan")
	b.ReportMetric(r, "recall@20")
	for i, c := range caps {
		b.ReportMetric(others[i], fmt.Sprintf("recall@20-cap%d", c))
	}
	b.ReportMetric(float64(len(rids)), "passages")
	b.ReportMetric(float64(byRows.Microseconds())/1000/float64(len(queries)), "ms-rowscan")
	b.ReportMetric(float64(build.Milliseconds()), "ms-columns-build")
}
