package train

import (
	"math"

	"github.com/verity-fc/verity/nli/align"
)

// adversarial sets the perturbation of the pair whose forward and backward
// passes c and ws hold (Config.Adversarial): the gradient of its loss with
// respect to the token projections, scaled to eps times the projections'
// norm, in the buffers of buf. It reports false, setting nothing, when the
// gradient is zero or the network has no contextual encoder.
func adversarial(c *align.Cache, ws *align.Scratch, buf *[2][]float64, eps float64) bool {
	ga, gb := ws.EncoderInputGrad()
	pa, pb := c.Projections()
	if len(ga) != len(pa) || len(gb) != len(pb) {
		return false
	}
	var gn, pn float64
	for _, g := range [][]float64{ga, gb} {
		for _, x := range g {
			gn += x * x
		}
	}
	for _, p := range [][]float64{pa, pb} {
		for _, x := range p {
			pn += x * x
		}
	}
	if gn == 0 || pn == 0 {
		return false
	}
	k := eps * math.Sqrt(pn/gn)
	for side, g := range [][]float64{ga, gb} {
		r := append(buf[side][:0], g...)
		for i := range r {
			r[i] *= k
		}
		buf[side] = r
	}
	c.AdvA, c.AdvB = buf[0], buf[1]
	return true
}
