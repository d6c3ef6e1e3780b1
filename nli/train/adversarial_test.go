package train

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/verity-fc/verity/nli/align"
)

// TestAdversarialRaisesLoss checks the perturbation of a pair: its norm is
// eps times the projections', and it raises the pair's loss.
func TestAdversarialRaisesLoss(t *testing.T) {
	cfg := Config{D: 8, H: 8}
	data, err := Encode(context.Background(), toyData()[:6], "", cfg.EncoderOptions(), t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	acfg, err := cfg.withDefaults().net()
	if err != nil {
		t.Fatal(err)
	}
	m := align.New(acfg, rand.New(rand.NewPCG(1, 2)))
	const eps = 0.05
	for i, e := range data {
		var c align.Cache
		var ws align.Scratch
		var buf [2][]float64
		l0, dz := align.Loss(m.Forward(e.In, &c), e.Target)
		m.Backward(e.In, &c, dz, make([]float64, len(m.P)), &ws)
		if !adversarial(&c, &ws, &buf, eps) {
			t.Fatalf("pair %d: no perturbation", i)
		}
		pa, pb := c.Projections()
		var rn, pn float64
		for _, x := range append(append([]float64{}, c.AdvA...), c.AdvB...) {
			rn += x * x
		}
		for _, x := range append(append([]float64{}, pa...), pb...) {
			pn += x * x
		}
		if math.Abs(math.Sqrt(rn)-eps*math.Sqrt(pn)) > 1e-9*math.Sqrt(pn) {
			t.Errorf("pair %d: perturbation norm %g, want %g x %g", i, math.Sqrt(rn), eps, math.Sqrt(pn))
		}
		l1, _ := align.Loss(m.Forward(e.In, &c), e.Target)
		if !(l1 > l0) {
			t.Errorf("pair %d: loss %g with the perturbation, %g without: it should raise it", i, l1, l0)
		}
	}
	// Without a contextual encoder there is nothing to perturb.
	none := cfg
	none.Context = "none"
	acfg, _ = none.withDefaults().net()
	m = align.New(acfg, rand.New(rand.NewPCG(1, 2)))
	var c align.Cache
	var ws align.Scratch
	_, dz := align.Loss(m.Forward(data[0].In, &c), data[0].Target)
	m.Backward(data[0].In, &c, dz, make([]float64, len(m.P)), &ws)
	if adversarial(&c, &ws, &[2][]float64{}, eps) || c.AdvA != nil {
		t.Error("a network without a contextual encoder was perturbed")
	}
}
