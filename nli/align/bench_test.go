package align

import (
	"math/rand/v2"
	"testing"
)

func benchInput() (*Model, *Input) {
	rng := rand.New(rand.NewPCG(5, 6))
	m := New(Config{Emb: 100, D: 32, H: 64}, rng)
	return m, randInput(rng, 100, 8, 18)
}

func BenchmarkForward(b *testing.B) {
	m, in := benchInput()
	var c Cache
	for b.Loop() {
		m.Forward(in, &c)
	}
}

func BenchmarkForwardBackward(b *testing.B) {
	m, in := benchInput()
	var c Cache
	var ws Scratch
	g := make([]float64, len(m.P))
	for b.Loop() {
		z := m.Forward(in, &c)
		_, dz := Loss(z, 1)
		m.Backward(in, &c, dz, g, &ws)
	}
}

// BenchmarkForwardShipped is the forward pass at the shipped shape
// (widths 64 and 96, the convolutional context encoder) on a claim of 8
// tokens against a passage of 18.
func BenchmarkForwardShipped(b *testing.B) {
	benchmarkForward(b, Config{Emb: 100, D: 64, H: 96, Ctx: CtxConv})
}

// BenchmarkForwardWide is BenchmarkForwardShipped at widths 96 and 128.
func BenchmarkForwardWide(b *testing.B) {
	benchmarkForward(b, Config{Emb: 100, D: 96, H: 128, Ctx: CtxConv})
}

// BenchmarkForwardWideSelf adds the intra-sentence attention.
func BenchmarkForwardWideSelf(b *testing.B) {
	benchmarkForward(b, Config{Emb: 100, D: 96, H: 128, Ctx: CtxConvSelf})
}

func benchmarkForward(b *testing.B, cfg Config) {
	rng := rand.New(rand.NewPCG(5, 6))
	m := New(cfg, rng)
	in := randInput(rng, 100, 8, 18)
	var c Cache
	for b.Loop() {
		m.Forward(in, &c)
	}
}

// BenchmarkFastShipped is BenchmarkForwardShipped in float32, as the
// judge runs it.
func BenchmarkFastShipped(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	f := NewFast(New(Config{Emb: 100, D: 64, H: 96, Ctx: CtxConv}, rng))
	in := randInput(rng, 100, 8, 18)
	var c Cache32
	for b.Loop() {
		f.Forward(in, &c)
	}
}
