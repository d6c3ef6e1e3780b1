package train

import (
	"fmt"
	"math"
	"testing"

	"github.com/verity-fc/verity/nli"
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
		checkLogitGradient(t, fmt.Sprintf("temperature %g", temp), z, func(z [align.NumLabels]float64) (float64, [align.NumLabels]float64) {
			return softLoss(z, q, temp)
		})
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

// TestLabelLoss: unsmoothed, labelLoss is align.Loss; smoothed, its
// gradient matches central finite differences, vanishes where the
// network's probabilities are the smoothed target (1 - eps + eps/3 on a
// single label, eps/3 on each other), and pulls a certain prediction
// back by about eps times 2/3 on its logit.
func TestLabelLoss(t *testing.T) {
	z := [align.NumLabels]float64{0.3, -1.2, 2}
	for _, target := range []uint8{tEntail, tNotSupported} {
		l, dz := labelLoss(z, target, 0)
		wl, wdz := align.Loss(z, target)
		if l != wl || dz != wdz {
			t.Errorf("target %b unsmoothed: %g %v, want align.Loss's %g %v", target, l, dz, wl, wdz)
		}
		const eps = 0.1
		checkLogitGradient(t, fmt.Sprintf("target %b", target), z, func(z [align.NumLabels]float64) (float64, [align.NumLabels]float64) {
			return labelLoss(z, target, eps)
		})
	}
	const eps = 0.3
	var smoothed [align.NumLabels]float64
	for k := range smoothed {
		p := eps / 3
		if k == int(nli.Entail) {
			p += 1 - eps
		}
		smoothed[k] = math.Log(p)
	}
	if _, g := labelLoss(smoothed, tEntail, eps); math.Abs(g[0])+math.Abs(g[1])+math.Abs(g[2]) > 1e-9 {
		t.Errorf("gradient %v at the smoothed target, want none", g)
	}
	var sure [align.NumLabels]float64
	sure[nli.Entail] = 20
	if _, g := labelLoss(sure, tEntail, eps); !(g[nli.Entail] > 0.19) {
		t.Errorf("gradient %v for a certain entailment under smoothing %g, want it to lower the entailment logit", g, eps)
	}
}

// checkLogitGradient checks that the gradient loss gives at z matches
// central finite differences of its loss.
func checkLogitGradient(t *testing.T, name string, z [align.NumLabels]float64, loss func([align.NumLabels]float64) (float64, [align.NumLabels]float64)) {
	t.Helper()
	_, dz := loss(z)
	for k := range align.NumLabels {
		const h = 1e-6
		up, down := z, z
		up[k] += h
		down[k] -= h
		lu, _ := loss(up)
		ld, _ := loss(down)
		if num := (lu - ld) / (2 * h); math.Abs(num-dz[k]) > 1e-6 {
			t.Errorf("%s, gradient %d: %g, finite differences %g", name, k, dz[k], num)
		}
	}
}
