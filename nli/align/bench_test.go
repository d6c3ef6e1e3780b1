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
	benchmarkTrainStep(b, Config{Emb: 100, D: 32, H: 64})
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

func benchmarkForward(b *testing.B, cfg Config) { benchmarkPass(b, cfg, false) }

func benchmarkTrainStep(b *testing.B, cfg Config) { benchmarkPass(b, cfg, true) }

// benchmarkPass runs the float64 forward pass, and the backward pass
// after it when backward is set, on a claim of 8 tokens against 18.
func benchmarkPass(b *testing.B, cfg Config, backward bool) {
	rng := rand.New(rand.NewPCG(5, 6))
	m := New(cfg, rng)
	in := randInput(rng, 100, 8, 18)
	var c Cache
	var ws Scratch
	g := make([]float64, len(m.P))
	for b.Loop() {
		z := m.Forward(in, &c)
		if backward {
			_, dz := Loss(z, 1)
			m.Backward(in, &c, dz, g, &ws)
		}
	}
}

// BenchmarkFastShipped is BenchmarkForwardShipped in float32, as the
// judge runs it.
func BenchmarkFastShipped(b *testing.B) {
	benchmarkFast(b, Config{Emb: 100, D: 64, H: 96, Ctx: CtxConv})
}

func benchmarkFast(b *testing.B, cfg Config) {
	rng := rand.New(rand.NewPCG(5, 6))
	f := NewFast(New(cfg, rng))
	in := randInput(rng, 100, 8, 18)
	var c Cache32
	for b.Loop() {
		f.Forward(in, &c)
	}
}

// BenchmarkTrainStepShipped is one pair's forward and backward pass at the
// shipped shape, as training runs them; BenchmarkTrainStepGRU with the
// recurrent encoder instead of the convolution.
func BenchmarkTrainStepShipped(b *testing.B) {
	benchmarkTrainStep(b, Config{Emb: 100, D: 64, H: 96, Ctx: CtxConv})
}

func BenchmarkTrainStepGRU(b *testing.B) {
	benchmarkTrainStep(b, Config{Emb: 100, D: 64, H: 96, Ctx: CtxGRU})
}

// BenchmarkFastGRU is BenchmarkFastShipped with the recurrent encoder.
func BenchmarkFastGRU(b *testing.B) {
	benchmarkFast(b, Config{Emb: 100, D: 64, H: 96, Ctx: CtxGRU})
}
