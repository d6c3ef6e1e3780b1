package align

import (
	"math"
	"math/rand/v2"
	"testing"
)

func randInput(rng *rand.Rand, emb, n, m int) *Input {
	tok := func() Token {
		t := Token{Chan: uint16(rng.IntN(1 << NumChannels))}
		if rng.IntN(4) > 0 {
			t.Vec = make([]float32, emb)
			for i := range t.Vec {
				t.Vec[i] = float32(rng.NormFloat64())
			}
		}
		return t
	}
	in := &Input{}
	for range n {
		in.A = append(in.A, tok())
	}
	for range m {
		in.B = append(in.B, tok())
	}
	for range n * m / 3 {
		in.Rels = append(in.Rels, Rel{I: int16(rng.IntN(n)), J: int16(rng.IntN(m)), Bits: uint16(rng.IntN(1 << NumRelations))})
	}
	for k := range in.Global {
		in.Global[k] = rng.NormFloat64()
	}
	return in
}

// TestGradient checks Backward against central finite differences of Loss
// for every parameter, with attention and without, for a single label and
// for a set of labels.
func TestGradient(t *testing.T) {
	for _, cfg := range []Config{
		{Emb: 5, D: 4, H: 5},
		{Emb: 5, D: 4, H: 5, NoAttn: true},
		{Emb: 5, D: 4, H: 5, Ctx: CtxConv},
		{Emb: 5, D: 4, H: 5, Ctx: CtxConv, NoAttn: true},
	} {
		rng := rand.New(rand.NewPCG(1, 2))
		m := New(cfg, rng)
		for i := range m.P {
			m.P[i] += 0.1 * rng.NormFloat64()
		}
		for trial, target := range []uint8{1, 2, 6} {
			in := randInput(rng, cfg.Emb, 3+trial, 4)
			loss := func() float64 {
				l, _ := Loss(m.Forward(in, nil), target)
				return l
			}
			var c Cache
			_, dz := Loss(m.Forward(in, &c), target)
			grad := make([]float64, len(m.P))
			m.Backward(in, &c, dz, grad, &Scratch{})
			const h = 1e-6
			bad := 0
			for i := range m.P {
				old := m.P[i]
				m.P[i] = old + h
				lp := loss()
				m.P[i] = old - h
				lm := loss()
				m.P[i] = old
				num := (lp - lm) / (2 * h)
				if d := math.Abs(num - grad[i]); d > 1e-5+1e-4*math.Abs(num) {
					if bad < 5 {
						t.Errorf("%+v target=%d param %d: backward %.8g, finite difference %.8g", cfg, target, i, grad[i], num)
					}
					bad++
				}
			}
		}
	}
}

func TestEmptySides(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	m := New(Config{Emb: 5, D: 4, H: 5}, rng)
	for _, in := range []*Input{randInput(rng, 5, 0, 3), randInput(rng, 5, 3, 0), {}} {
		p := m.Probs(in, nil)
		s := p[0] + p[1] + p[2]
		if math.IsNaN(s) || math.Abs(s-1) > 1e-9 {
			t.Errorf("probabilities %v do not sum to 1", p)
		}
	}
}

func TestLossSet(t *testing.T) {
	z := [NumLabels]float64{1, 2, 3}
	l1, _ := Loss(z, 2)
	l12, dz := Loss(z, 6)
	if !(l12 < l1) {
		t.Errorf("loss of a two-label set %g should be below the single label's %g", l12, l1)
	}
	if !(dz[0] > 0) || !(dz[1] < 0) || !(dz[2] < 0) {
		t.Errorf("gradient %v should push label 0 down and 1, 2 up", dz)
	}
}
