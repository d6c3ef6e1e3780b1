package retrieval

import (
	"context"
	"math/rand"
	"testing"
)

// BenchmarkSignScan times the sign stage's scan of 200,000 random
// 384-dimensional rows on one CPU.
func BenchmarkSignScan(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	d := newDenseIndex()
	d.dim, d.words = 384, 6
	const n = 200000
	d.rids = make([]int64, n)
	d.flags = make([]uint8, n)
	d.signs = make([]uint64, n*6)
	for i := range d.signs {
		d.signs[i] = rng.Uint64()
	}
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
	rng := rand.New(rand.NewSource(2))
	const rows = 25000
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
	q := newDenseIndex().query(u)
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
