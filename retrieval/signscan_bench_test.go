package retrieval

import (
	"context"
	"math/rand"
	"slices"
	"testing"
)

// randomSignIndex is a 384-dimensional dense index of n rows whose sign
// codes are random bits drawn from rng (nothing else of a row is set).
func randomSignIndex(rng *rand.Rand, n int) *denseIndex {
	d := newDenseIndex()
	d.dim, d.words = 384, 6
	d.rids = make([]int64, n)
	d.flags = make([]uint8, n)
	d.signs = make([]uint64, n*6)
	for i := range d.signs {
		d.signs[i] = rng.Uint64()
	}
	return d
}

// BenchmarkSignScan times the sign stage's scan of 200,000 random
// 384-dimensional rows on one CPU.
func BenchmarkSignScan(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	const n = 200000
	d := randomSignIndex(rng, n)
	v := make([]float32, 384)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	u, _ := normalize(v)
	q := d.query(u)
	dist := make([]uint16, n)
	hist := make([]int, 3*384+2)
	for b.Loop() {
		clear(hist)
		if err := d.signScan(context.Background(), q, nil, 0, n, dist, hist); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInt8Stage compares the int8 dot product over every component
// with the one over a claim-like query's non-zero third.
func BenchmarkInt8Stage(b *testing.B) {
	const rows = 25000
	codes, q := randomCodes(2, rows)
	b.Run("dense", func(b *testing.B) {
		for b.Loop() {
			for r := range rows {
				dot8(q.codes, codes[r*384:(r+1)*384])
			}
		}
	})
	b.Run("sparse", func(b *testing.B) {
		for b.Loop() {
			for r := range rows {
				q.dot(codes[r*384 : (r+1)*384])
			}
		}
	})
}

// BenchmarkSignStage compares the sign stage by rows and by columns over
// 1,000,000 random rows for a claim-like query (its 100 first components
// and a fifth of the others non-zero), keeping 25,000, on one CPU.
func BenchmarkSignStage(b *testing.B) {
	rng := rand.New(rand.NewSource(3))
	const n = 1000000
	d := randomSignIndex(rng, n)
	d.live = n
	v := make([]float32, 384)
	for i := range v {
		if i < 100 || rng.Intn(5) == 0 {
			v[i] = float32(rng.NormFloat64())
		}
	}
	u, _ := normalize(v)
	q := d.query(u)
	cols := d.buildColumns(nil)
	old := signParallelRows
	defer func() { signParallelRows = old }()
	signParallelRows = 1 << 30
	for _, name := range []string{"rows", "columns"} {
		b.Run(name, func(b *testing.B) {
			d.cols = nil
			if name == "columns" {
				d.cols = cols
			}
			start := cpuTime(b)
			for b.Loop() {
				if _, err := d.signStage(context.Background(), q, 25000, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime(b)-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// BenchmarkInt8Scattered compares the int8 stage's sparse dot product one
// row at a time and four at a time, over 25,000 rows scattered among
// 300,000 (115 MB of codes, more than the caches hold), on one CPU.
func BenchmarkInt8Scattered(b *testing.B) {
	const rows, cand = 300000, 25000
	codes, q := randomCodes(4, rows)
	picked := rand.New(rand.NewSource(5)).Perm(rows)[:cand]
	slices.Sort(picked)
	row := func(r int) []int8 { return codes[r*384 : (r+1)*384] }
	var sink int32
	b.Run("one", func(b *testing.B) {
		start := cpuTime(b)
		for b.Loop() {
			for _, r := range picked {
				sink += q.dot(row(r))
			}
		}
		b.ReportMetric(float64((cpuTime(b)-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	})
	b.Run("four", func(b *testing.B) {
		start := cpuTime(b)
		for b.Loop() {
			for i := 0; i+4 <= len(picked); i += 4 {
				s0, s1, s2, s3 := dotSparse4(q.nzIdx, q.nzVal, row(picked[i]), row(picked[i+1]), row(picked[i+2]), row(picked[i+3]))
				sink += s0 + s1 + s2 + s3
			}
		}
		b.ReportMetric(float64((cpuTime(b)-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	})
	_ = sink
}

// randomCodes returns the random int8 codes of rows 384-dimensional rows and
// a claim-like query: its first 100 components and a fifth of the others
// non-zero.
func randomCodes(seed int64, rows int) ([]int8, denseQuery) {
	rng := rand.New(rand.NewSource(seed))
	codes := make([]int8, rows*384)
	for i := range codes {
		codes[i] = int8(rng.Intn(255) - 127)
	}
	v := make([]float32, 384)
	for i := range v {
		if i < 100 || rng.Intn(5) == 0 {
			v[i] = float32(rng.NormFloat64())
		}
	}
	u, _ := normalize(v)
	return codes, newDenseIndex().query(u)
}
