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
