package align

import "math"

// Backward adds to grad (laid out like Model.P) the gradient of a loss
// whose gradient with respect to the uncalibrated logits of the last
// Forward(in, c) is dz. ws is scratch space reused between calls.
func (mod *Model) Backward(in *Input, c *Cache, dz [NumLabels]float64, grad []float64, ws *Scratch) {
	cfg := mod.Cfg
	v := cfg.views(mod.P)
	gv := cfg.views(grad)
	if cfg.Ctx == CtxTransformer {
		mod.backwardTransformer(in, c, dz, v, gv, ws)
		return
	}
	D, K, P := cfg.D, cfg.Relations(), cfg.cmp()
	n, m := c.n, c.m

	// Classifier and pooling.
	dva, dvb := ws.vec(&ws.dva, n*D), ws.vec(&ws.dvb, m*D)
	pooledA, pooledB := dva, dvb // the gradients of the pooled rows
	if cfg.Compose {
		// The pooled rows were the composed ones.
		pooledA, pooledB = ws.vec(&ws.doa, n*D), ws.vec(&ws.dob, m*D)
	}
	unclassify(cfg, v, gv, c, dz, ws, pooledA, pooledB)
	if cfg.Compose {
		unconvolve(D, v.wq, gv.wq, gv.bq, c.va, c.qa, pooledA, dva, n)
		unconvolve(D, v.wq, gv.wq, gv.bq, c.vb, c.qb, pooledB, dvb, m)
	}

	// Comparison layers.
	dha, dhb := ws.vec(&ws.dha, n*D), ws.vec(&ws.dhb, m*D)
	dat, dbt := ws.vec(&ws.dat, n*D), ws.vec(&ws.dbt, m*D)
	dra, drb := ws.vec(&ws.dra, n*K), ws.vec(&ws.drb, m*K)
	du := ws.vec(&ws.du, P)
	uncompare(D, K, c.ha, c.at, c.ua, c.va, dva, v.wa, gv.wa, gv.ba, dha, dat, dra, du, n)
	uncompare(D, K, c.hb, c.bt, c.ub, c.vb, dvb, v.wb, gv.wb, gv.bb, dhb, dbt, drb, du, m)

	// Attention.
	if !cfg.NoAttn && n > 0 && m > 0 {
		dal, dbe := ws.vec(&ws.dal, n*m), ws.vec(&ws.dbe, n*m)
		for i := range n {
			dati := dat[i*D : (i+1)*D]
			drai := dra[i*K : (i+1)*K]
			for j := range m {
				a := c.alpha[i*m+j]
				dal[i*m+j] = dot(dati, c.hb[j*D:(j+1)*D]) + bitsDot(drai, c.relb[i*m+j])
				axpy(dhb[j*D:(j+1)*D], a, dati)
			}
		}
		for j := range m {
			dbtj := dbt[j*D : (j+1)*D]
			drbj := drb[j*K : (j+1)*K]
			for i := range n {
				b := c.beta[i*m+j]
				dbe[i*m+j] = dot(dbtj, c.ha[i*D:(i+1)*D]) + bitsDot(drbj, c.relb[i*m+j])
				axpy(dha[i*D:(i+1)*D], b, dbtj)
			}
		}
		// Through the softmaxes to the logits e, reusing dal for de.
		de := dal
		for i := range n {
			row, arow := de[i*m:(i+1)*m], c.alpha[i*m:(i+1)*m]
			s := dot(row, arow)
			for j := range row {
				row[j] = arow[j] * (row[j] - s)
			}
		}
		for j := range m {
			s := 0.0
			for i := range n {
				s += dbe[i*m+j] * c.beta[i*m+j]
			}
			for i := range n {
				de[i*m+j] += c.beta[i*m+j] * (dbe[i*m+j] - s)
			}
		}
		for i := range n {
			hi := c.ha[i*D : (i+1)*D]
			dhi := dha[i*D : (i+1)*D]
			for j := range m {
				g := de[i*m+j]
				if g == 0 {
					continue
				}
				axpy(dhi, g, c.hb[j*D:(j+1)*D])
				axpy(dhb[j*D:(j+1)*D], g, hi)
				addBits(gv.wr, g, c.relb[i*m+j])
			}
		}
	}

	// Contextual encoder and projection.
	if cfg.Ctx == CtxConvSelf {
		// The convolution's output gradient is that of the attention's
		// input.
		dga, dgb := ws.vec(&ws.dga, n*D), ws.vec(&ws.dgb, m*D)
		unselfAttend(D, v, gv, c.ga, c.sa, c.ta, dha, dga, n, ws)
		unselfAttend(D, v, gv, c.gb, c.sb, c.tb, dhb, dgb, m, ws)
		dha, dhb = dga, dgb
	}
	if cfg.Ctx >= CtxConv {
		dpa, dpb := ws.vec(&ws.dpa, n*D), ws.vec(&ws.dpb, m*D)
		if cfg.Ctx == CtxGRU {
			ungru(D, v.wg, gv.wg, c.xa, c.ca, dha, dpa, n, ws)
			ungru(D, v.wg, gv.wg, c.xb, c.cb, dhb, dpb, m, ws)
		} else {
			unconvolve(D, v.wc, gv.wc, gv.bc, c.xa, c.ca, dha, dpa, n)
			unconvolve(D, v.wc, gv.wc, gv.bc, c.xb, c.cb, dhb, dpb, m)
		}
		unproject(cfg, gv, in.A, c.pa, dpa)
		unproject(cfg, gv, in.B, c.pb, dpb)
		return
	}
	unproject(cfg, gv, in.A, c.ha, dha)
	unproject(cfg, gv, in.B, c.hb, dhb)
}

// unclassify adds to gv the classifier's gradients given dz, the
// gradient of the logits of the last classify, and to dA and dB (n x D,
// m x D) the gradients of the rows it pooled.
func unclassify(cfg Config, v, gv views, c *Cache, dz [NumLabels]float64, ws *Scratch, dA, dB []float64) {
	D, H, F := cfg.D, cfg.H, cfg.feat()
	dz1 := ws.vec(&ws.dz1, H)
	for k := range NumLabels {
		gv.b2[k] += dz[k]
		axpy(gv.w2[k*H:(k+1)*H], dz[k], c.z1)
		axpy(dz1, dz[k], v.w2[k*H:(k+1)*H])
	}
	drop := c.Dropout > 0 && c.Rand != nil
	df := ws.vec(&ws.df, F)
	for k := range H {
		if c.z1[k] <= 0 {
			continue
		}
		g := dz1[k]
		if drop {
			g *= c.mz[k]
		}
		gv.b1[k] += g
		axpy(gv.w1[k*F:(k+1)*F], g, c.f)
		axpy(df, g, v.w1[k*F:(k+1)*F])
	}
	if drop {
		for k, x := range c.mf {
			df[k] *= x
		}
	}
	unpool(df[0:2*D], dA, c.n, D, c.amax[:D])
	unpool(df[2*D:4*D], dB, c.m, D, c.amax[D:])
}

// unconvolve sets dh to the gradient through out = h + ReLU(conv(h))
// given dout (convolve's filters w), and adds the filters' gradients to gw
// and gb.
func unconvolve(D int, w, gw, gb, h, c, dout, dh []float64, n int) {
	copy(dh, dout[:n*D])
	for t := range n {
		for k := range D {
			g := dout[t*D+k]
			if c[t*D+k] <= 0 || g == 0 {
				continue
			}
			gb[k] += g
			row, grow := w[k*3*D:(k+1)*3*D], gw[k*3*D:(k+1)*3*D]
			axpy(grow[D:2*D], g, h[t*D:(t+1)*D])
			axpy(dh[t*D:(t+1)*D], g, row[D:2*D])
			if t > 0 {
				axpy(grow[:D], g, h[(t-1)*D:t*D])
				axpy(dh[(t-1)*D:t*D], g, row[:D])
			}
			if t+1 < n {
				axpy(grow[2*D:], g, h[(t+1)*D:(t+2)*D])
				axpy(dh[(t+1)*D:(t+2)*D], g, row[2*D:])
			}
		}
	}
}

// Scratch is reusable memory for Backward.
type Scratch struct {
	dz1, df, dva, dvb, dha, dhb, dat, dbt, dra, drb, du, dal, dbe []float64
	dpa, dpb, doa, dob                                            []float64
	dga, dgb, dsel, dt                                            []float64
	gcarry, gda, grs, grsv, gnext                                 []float64 // ungru
	dtx                                                           []float64 // the transformer's output rows
	t                                                             tscratch  // the transformer's layers
}

// EncoderInputGrad returns the gradient of the last Backward with respect
// to the claim's and the passage's token projections, the contextual
// encoder's inputs (n x D and m x D), for an adversarial perturbation
// (Cache.AdvA, AdvB); nil without a contextual encoder. The slices are
// reused by the next Backward.
func (ws *Scratch) EncoderInputGrad() (a, b []float64) { return ws.dpa, ws.dpb }

// Projections returns the claim's and the passage's token projections
// (post-ReLU, before any perturbation) of the last Forward with a
// contextual encoder; the slices are reused by the next Forward.
func (c *Cache) Projections() (a, b []float64) { return c.pa, c.pb }

// unselfAttend adds to dg the gradient through selfAttend given dout, and
// to gv the gradients of the position biases and the gate.
func unselfAttend(D int, v, gv views, g, s, t, dout, dg []float64, n int, ws *Scratch) {
	copy(dg, dout[:n*D])
	scale := 1 / math.Sqrt(float64(D))
	dt := ws.vec(&ws.dt, D)
	ds := ws.vec(&ws.dsel, n)
	for i := range n {
		ungate(dt, dout[i*D:(i+1)*D], v.sg, gv.sg, t[i*D:(i+1)*D])
		row := s[i*n : (i+1)*n]
		for j, a := range row {
			ds[j] = dot(dt, g[j*D:(j+1)*D])
			axpy(dg[j*D:(j+1)*D], a, dt)
		}
		sum := dot(ds, row)
		gi := g[i*D : (i+1)*D]
		for j, a := range row {
			de := a * (ds[j] - sum)
			if de == 0 {
				continue
			}
			gv.sp[offsetBucket(i, j)] += de
			axpy(dg[i*D:(i+1)*D], de*scale, g[j*D:(j+1)*D])
			axpy(dg[j*D:(j+1)*D], de*scale, gi)
		}
	}
}

// ungate is gate's backward pass: given dout, the gradient of out = x +
// g ⊙ y, it adds to gg the gates' gradients and writes to dy, which it
// returns, the gradient of y (that of x is dout itself).
func ungate(dy, dout, g, gg, y []float64) []float64 {
	D := len(g)
	for i := range dy {
		gg[i%D] += dout[i] * y[i]
		dy[i] = g[i%D] * dout[i]
	}
	return dy
}

func (ws *Scratch) vec(p *[]float64, n int) []float64 {
	*p = grow(*p, n)
	return *p
}

func unpool(d []float64, dx []float64, n, D int, amax []int) {
	if n == 0 {
		return
	}
	for i := range n {
		axpy(dx[i*D:(i+1)*D], 1/float64(n), d[:D])
	}
	for k := range D {
		if amax[k] >= 0 {
			dx[amax[k]*D+k] += d[D+k]
		}
	}
}

func uncompare(D, K int, h, al, u, out, dout, w, gw, gb, dh, dal, drel, du []float64, n int) {
	P := 3*D + K
	for i := range n {
		clear(du)
		oi, doi := out[i*D:(i+1)*D], dout[i*D:(i+1)*D]
		ui := u[i*P : (i+1)*P]
		for k := range D {
			if oi[k] <= 0 || doi[k] == 0 {
				continue
			}
			g := doi[k]
			gb[k] += g
			axpy(gw[k*P:(k+1)*P], g, ui)
			axpy(du, g, w[k*P:(k+1)*P])
		}
		hi, ai := h[i*D:(i+1)*D], al[i*D:(i+1)*D]
		dhi, dai := dh[i*D:(i+1)*D], dal[i*D:(i+1)*D]
		for k := range D {
			dhi[k] += du[k] + du[2*D+k]*ai[k]
			dai[k] += du[D+k] + du[2*D+k]*hi[k]
		}
		axpy(drel[i*K:(i+1)*K], 1, du[3*D:])
	}
}

func unproject(cfg Config, gv views, toks []Token, h, dh []float64) {
	D, I := cfg.D, cfg.in()
	for t, tk := range toks {
		for k := range D {
			if h[t*D+k] <= 0 {
				continue
			}
			g := dh[t*D+k]
			if g == 0 {
				continue
			}
			gv.bp[k] += g
			row := gv.wp[k*I : (k+1)*I]
			if tk.Vec != nil {
				r := row[:cfg.Emb]
				for e, x := range tk.Vec[:len(r)] {
					r[e] += g * float64(x)
				}
			}
			for b := tk.Chan; b != 0; b &= b - 1 {
				row[cfg.Emb+trailing(b)] += g
			}
			if w := cfg.word(tk); w >= 0 {
				gv.we[w*D+k] += g
			}
		}
	}
}

func bitsDot(x []float64, bits uint16) float64 {
	s := 0.0
	for b := bits; b != 0; b &= b - 1 {
		s += x[trailing(b)]
	}
	return s
}

// Loss is the cross-entropy of logits z against a target set of labels
// (a bit per label): -log of the probability the model gives to the set.
// A single label is the usual cross-entropy; a set of two ("not entailed":
// contradiction or neutral) trains on what the label says and no more.
// It returns the loss and its gradient with respect to z.
func Loss(z [NumLabels]float64, target uint8) (float64, [NumLabels]float64) {
	p := z
	softmaxInPlace(p[:], 1)
	in := 0.0
	for k := range NumLabels {
		if target&(1<<k) != 0 {
			in += p[k]
		}
	}
	var dz [NumLabels]float64
	for k := range NumLabels {
		dz[k] = p[k]
		if target&(1<<k) != 0 {
			dz[k] -= p[k] / in
		}
	}
	return -math.Log(max(in, 1e-300)), dz
}

// SoftLoss is the cross-entropy of logits z against a distribution q over
// the labels (a teacher's probabilities, for distillation): -sum q log p.
// It returns the loss and its gradient with respect to z, p - q.
func SoftLoss(z, q [NumLabels]float64) (float64, [NumLabels]float64) {
	p := z
	softmaxInPlace(p[:], 1)
	l := 0.0
	var dz [NumLabels]float64
	for k := range NumLabels {
		l -= q[k] * math.Log(max(p[k], 1e-300))
		dz[k] = p[k] - q[k]
	}
	return l, dz
}
