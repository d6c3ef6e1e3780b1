package train

import (
	"math"
	"testing"

	"github.com/verity-fc/verity/nli/align"
)

// TestSoftLossTemperature: at temperature 1 softLoss is align.SoftLoss;
// at another its gradient matches central finite differences of its
// loss, vanishes at the teacher's own log-probabilities (whose softmax
// at T is the softened target) and pushes softer logits towards them.
func TestSoftLossTemperature(t *testing.T) {
	z := [align.NumLabels]float64{0.3, -1.2, 2}
	q := [align.NumLabels]float64{0.7, 0.1, 0.2}
	for _, temp := range []float64{0, 1} {
		l, dz := softLoss(z, q, temp)
		wl, wdz := align.SoftLoss(z, q)
		if l != wl || dz != wdz {
			t.Errorf("temperature %g: %g %v, want align.SoftLoss's %g %v", temp, l, dz, wl, wdz)
		}
	}
	for _, temp := range []float64{2, 4} {
		_, dz := softLoss(z, q, temp)
		for k := range align.NumLabels {
			const h = 1e-6
			up, down := z, z
			up[k] += h
			down[k] -= h
			lu, _ := softLoss(up, q, temp)
			ld, _ := softLoss(down, q, temp)
			if num := (lu - ld) / (2 * h); math.Abs(num-dz[k]) > 1e-6 {
				t.Errorf("temperature %g, gradient %d: %g, finite differences %g", temp, k, dz[k], num)
			}
		}
		var soft [align.NumLabels]float64
		for k := range q {
			soft[k] = math.Log(q[k]) // softmax(z/T) = q^(1/T) renormalised
		}
		if _, g := softLoss(soft, q, temp); math.Abs(g[0])+math.Abs(g[1])+math.Abs(g[2]) > 1e-9 {
			t.Errorf("temperature %g: gradient %v at the softened target, want none", temp, g)
		}
		var sharp [align.NumLabels]float64
		for k := range q {
			sharp[k] = math.Log(q[k]) / temp
		}
		if _, g := softLoss(sharp, q, temp); !(g[0] < -1e-3) {
			t.Errorf("temperature %g: gradient %v at logits softer than the teacher's, want the teacher's top class pushed up", temp, g)
		}
	}
}
