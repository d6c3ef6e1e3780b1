package align

import (
	"math"

	"github.com/chewxy/math32"
)

// The recurrent encoder (Config.Ctx == CtxGRU): a bidirectional GRU (Cho
// et al., 2014) over each side's projected tokens, as ESIM (Chen et al.,
// 2017) reads its inputs with a BiLSTM, so that a token sees the whole
// sentence before alignment and not only its neighbours. Each direction
// has G = D/2 units; token t's vector is its projection plus the two
// directions' states, h_t = p_t + [f_t; b_t], so that the network starts
// close to the one without the encoder (the input weights start small).
// One direction's step, with x the token's projection and s the state
// before it:
//
//	z = σ(Wz x + Uz s + bz)              update gate
//	r = σ(Wr x + Ur s + br)              reset gate
//	c = tanh(Wc x + Uc (r ⊙ s) + bc)     candidate
//	s' = (1 − z) ⊙ c + z ⊙ s
//
// The weights are shared by claim and passage. Written by hand, like the
// rest of this package, because the forward and backward passes must be
// plain Go over the model's one parameter slice.

// gruUnits is G, the units of one direction.
func (c Config) gruUnits() int { return c.D / 2 }

// gruSize is the number of the encoder's parameters, both directions.
func (c Config) gruSize() int { return 2 * gruDirSize(c.D) }

// gruDirSize is the number of one direction's parameters at width D: W
// (3G x D), U (3G x G) and b (3G).
func gruDirSize(D int) int {
	G := D / 2
	return 3*G*D + 3*G*G + 3*G
}

// gruDir returns direction d's W, U and b from the encoder's parameters
// (laid out W, U, b for direction 0, then for direction 1).
func gruDir(D int, p []float64, d int) (w, u, b []float64) {
	G := D / 2
	per := gruDirSize(D)
	p = p[d*per : (d+1)*per]
	return p[:3*G*D], p[3*G*D : 3*G*D+3*G*G], p[3*G*D+3*G*G:]
}

// gruStep is the step of one direction of the recurrence: the order of
// the token it reads at its step-th step.
func gruStep(d, step, n int) int {
	if d == 0 {
		return step
	}
	return n - 1 - step
}

// gru writes out = p + [f; b] for the n rows of p, keeping each step's
// gates, candidate and state in trace (n x 2 directions x 4G: z, r, c, s)
// for the backward pass; rs is scratch of G values.
func gru(D int, wg []float64, p, trace, out []float64, n int, rs *[]float64) []float64 {
	G := D / 2
	*rs = grow(*rs, G)
	copy(out, p[:n*D])
	for d := range 2 {
		w, u, b := gruDir(D, wg, d)
		var prev []float64 // nil: the zero state
		for step := range n {
			t := gruStep(d, step, n)
			x := p[t*D : (t+1)*D]
			tr := trace[(t*2+d)*4*G : (t*2+d+1)*4*G]
			z, r, cand, s := tr[:G], tr[G:2*G], tr[2*G:3*G], tr[3*G:]
			for k := range 2 * G {
				a := b[k] + dot(w[k*D:(k+1)*D], x)
				if prev != nil {
					a += dot(u[k*G:(k+1)*G], prev)
				}
				tr[k] = sigmoid(a) // z, then r
			}
			if prev != nil {
				for k := range G {
					(*rs)[k] = r[k] * prev[k]
				}
			}
			for k := range G {
				a := b[2*G+k] + dot(w[(2*G+k)*D:(2*G+k+1)*D], x)
				if prev != nil {
					a += dot(u[(2*G+k)*G:(2*G+k+1)*G], *rs)
				}
				cand[k] = math.Tanh(a)
			}
			for k := range G {
				s[k] = (1 - z[k]) * cand[k]
				if prev != nil {
					s[k] += z[k] * prev[k]
				}
				out[t*D+d*G+k] += s[k]
			}
			prev = s
		}
	}
	return out
}

// ungru sets dp to the gradient through gru given dout, and adds the
// encoder's gradients to gw (laid out as wg). ws holds scratch.
func ungru(D int, wg, gw, p, trace, dout, dp []float64, n int, ws *Scratch) {
	G := D / 2
	copy(dp, dout[:n*D])
	carry := ws.vec(&ws.gcarry, G) // gradient of the state, from the steps after
	da := ws.vec(&ws.gda, 3*G)     // gradients of the gates' and candidate's inputs
	drs := ws.vec(&ws.grs, G)
	rs := ws.vec(&ws.grsv, G)
	for d := range 2 {
		w, u, _ := gruDir(D, wg, d)
		gwd, gud, gbd := gruDir(D, gw, d)
		clear(carry)
		for step := n - 1; step >= 0; step-- {
			t := gruStep(d, step, n)
			x := p[t*D : (t+1)*D]
			tr := trace[(t*2+d)*4*G : (t*2+d+1)*4*G]
			z, r, cand := tr[:G], tr[G:2*G], tr[2*G:3*G]
			var prev []float64
			if step > 0 {
				tp := gruStep(d, step-1, n)
				prev = trace[(tp*2+d)*4*G+3*G : (tp*2+d+1)*4*G]
			}
			// ds: the state's gradient, from the output and the next step.
			ds := carry
			for k := range G {
				ds[k] += dout[t*D+d*G+k]
			}
			for k := range G {
				zp := 0.0
				if prev != nil {
					zp = prev[k]
				}
				da[2*G+k] = ds[k] * (1 - z[k]) * (1 - cand[k]*cand[k]) // candidate
				da[k] = ds[k] * (zp - cand[k]) * z[k] * (1 - z[k])     // update gate
			}
			clear(drs)
			if prev != nil {
				for k := range G {
					rs[k] = r[k] * prev[k]
				}
				for k := range G {
					g := da[2*G+k]
					axpy(gud[(2*G+k)*G:(2*G+k+1)*G], g, rs)
					axpy(drs, g, u[(2*G+k)*G:(2*G+k+1)*G])
				}
				for k := range G {
					da[G+k] = drs[k] * prev[k] * r[k] * (1 - r[k]) // reset gate
				}
			} else {
				clear(da[G : 2*G])
			}
			// The state before this step gets z ⊙ ds, r ⊙ drs and the
			// gates' recurrent terms; it becomes the carry.
			next := ws.vec(&ws.gnext, G)
			if prev != nil {
				for k := range G {
					next[k] = z[k]*ds[k] + r[k]*drs[k]
				}
			}
			dx := dp[t*D : (t+1)*D]
			for k := range 3 * G {
				g := da[k]
				if g == 0 {
					continue
				}
				gbd[k] += g
				axpy(gwd[k*D:(k+1)*D], g, x)
				axpy(dx, g, w[k*D:(k+1)*D])
				if k < 2*G && prev != nil {
					axpy(gud[k*G:(k+1)*G], g, prev)
					axpy(next, g, u[k*G:(k+1)*G])
				}
			}
			copy(carry, next)
		}
	}
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// fastGRU is the recurrent encoder prepared for Fast: both directions'
// input weights as one matrix, so that the input terms of every token are
// one product, and each direction's recurrent weights transposed, so that
// a step's recurrent terms are a product of the state and a matrix.
type fastGRU struct {
	D, G int
	wT   []float32    // D x 6G: direction 0's z, r, c rows, then direction 1's, transposed
	b    []float32    // 6G
	uzrT [2][]float32 // G x 2G per direction
	ucT  [2][]float32 // G x G per direction
}

func newFastGRU(D int, wg []float64) *fastGRU {
	G := D / 2
	g := &fastGRU{D: D, G: G}
	var w, b []float64
	for d := range 2 {
		wd, ud, bd := gruDir(D, wg, d)
		w, b = append(w, wd...), append(b, bd...)
		g.uzrT[d] = transpose32(ud[:2*G*G], 2*G, G)
		g.ucT[d] = transpose32(ud[2*G*G:], G, G)
	}
	g.wT, g.b = transpose32(w, 6*G, D), to32(b)
	return g
}

// run returns p + [f; b] for the n rows of p, as gru does.
func (g *fastGRU) run(c *Cache32, p []float32, n int, out []float32) []float32 {
	D, G := g.D, g.G
	c.gx = matMul(c.gx, p, g.wT, n, D, 6*G)
	for t := range n {
		row := c.gx[t*6*G : (t+1)*6*G]
		for k, b := range g.b {
			row[k] += b
		}
	}
	out = append(out[:0], p[:n*D]...)
	c.gs = grow(c.gs, 4*G)
	z, rs, prev, s := c.gs[:G], c.gs[G:2*G], c.gs[2*G:3*G], c.gs[3*G:]
	for d := range 2 {
		for step := range n {
			t := gruStep(d, step, n)
			x := c.gx[t*6*G+d*3*G : t*6*G+(d+1)*3*G]
			if step == 0 {
				// The state before is zero: no recurrent terms.
				for k := range G {
					s[k] = (1 - sigmoid32(x[k])) * tanh32(x[2*G+k])
				}
			} else {
				c.gh = matMul(c.gh, prev, g.uzrT[d], 1, G, 2*G)
				for k := range G {
					z[k] = sigmoid32(x[k] + c.gh[k])
					rs[k] = sigmoid32(x[G+k]+c.gh[G+k]) * prev[k]
				}
				c.gh = matMul(c.gh, rs, g.ucT[d], 1, G, G)
				for k := range G {
					s[k] = (1-z[k])*tanh32(x[2*G+k]+c.gh[k]) + z[k]*prev[k]
				}
			}
			o := out[t*D+d*G : t*D+(d+1)*G]
			for k, v := range s {
				o[k] += v
			}
			prev, s = s, prev
		}
	}
	return out
}

func sigmoid32(x float32) float32 { return 1 / (1 + math32.Exp(-x)) }

func tanh32(x float32) float32 { return math32.Tanh(x) }
