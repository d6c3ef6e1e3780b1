package align

import "math"

// CtxTransformer (Config.Ctx) replaces alignment by a small transformer
// encoder trained from scratch (Vaswani et al., 2017), read over the claim
// and the passage as one sequence: each token is projected as in the
// other networks and given a learned vector for its side, then
// Config.Layers layers each run multi-head self-attention over all the
// tokens and a feed-forward layer of 2D ReLU units, each added to its
// input through a learned per-unit gate that starts at 0.1 (in place of
// layer normalisation: ReZero, Bachlechner et al., 2021). An attention
// logit between two tokens of one side is biased by their offset (as
// selfAttend's); between a claim token and a passage token, by a learned
// constant plus the pair's lexical relations (synonym, antonym, direction
// words...), one weight per relation and head, so that WordNet reaches
// this network as it reaches the aligner. The claim's and the passage's
// final rows are pooled and classified as the aligner's comparisons are
// (classify).
//
// Written by hand, as the rest of the package, because the training loop
// is plain Go over float64 slices with gradients checked by finite
// differences (TestGradient); no Go library offers a transformer whose
// attention reads per-pair relation bits.
const CtxTransformer = 4

// TransformerHeads is the number of attention heads of CtxTransformer;
// Config.D must be a multiple of it.
const TransformerHeads = 4

// MaxLayers bounds Config.Layers.
const MaxLayers = 8

// tlayer is one transformer layer's parameter blocks.
type tlayer struct {
	wq, bq, wk, bk, wv, bv, wo, bo []float64 // attention projections, D x D each, and biases
	f1, c1, f2, c2                 []float64 // feed-forward, 2D x D and D x 2D, and biases
	g1, g2                         []float64 // gates of the attention's and the feed-forward's outputs, D each
	sp                             []float64 // offset biases within a side, heads x SelfBuckets
	cr                             []float64 // a bias between the sides, per head
	rel                            []float64 // relation weights between the sides, heads x Config.Relations()
}

func tlayerSize(D, K int) int {
	return 4*(D*D+D) + 2*D*D + 2*D + 2*D*D + D + 2*D + TransformerHeads*(SelfBuckets+1+K)
}

// transformerSize is the number of parameters of a CtxTransformer network.
func (c Config) transformerSize() int {
	return c.D*c.in() + c.D + c.H*c.feat() + c.H + NumLabels*c.H + NumLabels + 2*c.D + c.Layers*tlayerSize(c.D, c.Relations()) + c.Words*c.D
}

// transformerViews lays out P for CtxTransformer: projection, classifier,
// side vectors, the layers, tuned words.
func (c Config) transformerViews(p []float64) views {
	var v views
	take := func(n int) []float64 { s := p[:n:n]; p = p[n:]; return s }
	D := c.D
	v.wp, v.bp = take(D*c.in()), take(D)
	v.w1, v.b1 = take(c.H*c.feat()), take(c.H)
	v.w2, v.b2 = take(NumLabels*c.H), take(NumLabels)
	v.seg = take(2 * D)
	v.tl = make([]tlayer, c.Layers)
	for l := range v.tl {
		t := &v.tl[l]
		t.wq, t.bq, t.wk, t.bk = take(D*D), take(D), take(D*D), take(D)
		t.wv, t.bv, t.wo, t.bo = take(D*D), take(D), take(D*D), take(D)
		t.f1, t.c1, t.f2, t.c2 = take(2*D*D), take(2*D), take(2*D*D), take(D)
		t.g1, t.g2 = take(D), take(D)
		t.sp, t.cr, t.rel = take(TransformerHeads*SelfBuckets), take(TransformerHeads), take(TransformerHeads*c.Relations())
	}
	v.we = take(c.Words * D)
	return v
}

// initTransformer sets the layers' starting weights: Glorot for the
// matrices, gates 0.1, relation weights 1 (as the aligner's), the rest 0.
func initTransformer(cfg Config, v views, init func(w []float64, fanIn, fanOut int)) {
	D := cfg.D
	for _, t := range v.tl {
		for _, w := range [][]float64{t.wq, t.wk, t.wv, t.wo} {
			init(w, D, D)
		}
		init(t.f1, D, 2*D)
		init(t.f2, 2*D, D)
		for _, g := range [][]float64{t.g1, t.g2} {
			for i := range g {
				g[i] = 0.1
			}
		}
		for i := range t.rel {
			t.rel[i] = 1
		}
	}
}

// tcache is one layer's forward pass, for the backward pass.
type tcache struct {
	x              []float64 // the layer's input, N x D (not owned)
	q, k, v, ctx   []float64 // N x D
	a              []float64 // attention weights, heads x N x N
	o, x1, ff, out []float64 // N x D
	hf             []float64 // feed-forward hidden units (post-ReLU), N x 2D
}

func (mod *Model) forwardTransformer(in *Input, c *Cache, v views) [NumLabels]float64 {
	cfg := mod.Cfg
	D := cfg.D
	n, m := len(in.A), len(in.B)
	c.n, c.m = n, m
	N := n + m
	c.pa = project(cfg, v, in.A, grow(c.pa, n*D), c)
	c.pb = project(cfg, v, in.B, grow(c.pb, m*D), c)
	c.relb = denseRels(c.relb, in.Rels, n, m, cfg.Relations())
	if len(c.tl) < cfg.Layers {
		c.tl = append(c.tl, make([]tcache, cfg.Layers-len(c.tl))...)
	}
	c.tx = grow(c.tx, N*D)
	x := c.tx
	copy(x, c.pa)
	copy(x[n*D:], c.pb)
	for i := range N {
		axpy(x[i*D:(i+1)*D], 1, side(v.seg, D, i, n))
	}
	for l := range cfg.Layers {
		x = transformerLayer(D, v.tl[l], &c.tl[l], x, n, m, c.relb)
	}
	return classify(cfg, v, in, c, x[:n*D], x[n*D:])
}

// side is the learned vector of token i's side: the claim's for i < n.
func side(seg []float64, D, i, n int) []float64 {
	if i < n {
		return seg[:D]
	}
	return seg[D:]
}

// attnBias is the bias of the attention logit of token i over token j in
// head h, the claim's n tokens first, then the passage's m.
func attnBias(t tlayer, h, i, j, n, m int, relb []uint16) float64 {
	if (i < n) == (j < n) {
		return t.sp[h*SelfBuckets+offsetBucket(i, j)]
	}
	K := len(t.rel) / TransformerHeads
	return t.cr[h] + relBias(t.rel[h*K:(h+1)*K], crossBits(i, j, n, m, relb))
}

// crossBits is the relation bits of tokens i and j of different sides.
func crossBits(i, j, n, m int, relb []uint16) uint16 {
	if i < n {
		return relb[i*m+j-n]
	}
	return relb[j*m+i-n]
}

// linear writes out[r] = b + w x[r] for rows r of x (in wide), w holding
// len(b) rows of in weights.
func linear(w, b, x, out []float64, rows, in int) []float64 {
	o := len(b)
	for r := range rows {
		xr := x[r*in : (r+1)*in]
		for k := range o {
			out[r*o+k] = b[k] + dot(w[k*in:(k+1)*in], xr)
		}
	}
	return out
}

// unlinear adds to gw and gb the gradients of linear given dout, and to
// dx the gradient of its input.
func unlinear(w, gw, gb, x, dout, dx []float64, rows, in int) {
	o := len(gb)
	for r := range rows {
		xr, dxr := x[r*in:(r+1)*in], dx[r*in:(r+1)*in]
		for k := range o {
			g := dout[r*o+k]
			if g == 0 {
				continue
			}
			gb[k] += g
			axpy(gw[k*in:(k+1)*in], g, xr)
			axpy(dxr, g, w[k*in:(k+1)*in])
		}
	}
}

func transformerLayer(D int, t tlayer, c *tcache, x []float64, n, m int, relb []uint16) []float64 {
	N := n + m
	H, dh := TransformerHeads, D/TransformerHeads
	scale := 1 / math.Sqrt(float64(dh))
	c.x = x
	c.q = linear(t.wq, t.bq, x, grow(c.q, N*D), N, D)
	c.k = linear(t.wk, t.bk, x, grow(c.k, N*D), N, D)
	c.v = linear(t.wv, t.bv, x, grow(c.v, N*D), N, D)
	c.a, c.ctx = grow(c.a, H*N*N), grow(c.ctx, N*D)
	for h := range H {
		lo := h * dh
		for i := range N {
			row := c.a[(h*N+i)*N : (h*N+i+1)*N]
			qi := c.q[i*D+lo : i*D+lo+dh]
			for j := range N {
				row[j] = dot(qi, c.k[j*D+lo:j*D+lo+dh])*scale + attnBias(t, h, i, j, n, m, relb)
			}
			softmaxInPlace(row, 1)
			ci := c.ctx[i*D+lo : i*D+lo+dh]
			for j, a := range row {
				axpy(ci, a, c.v[j*D+lo:j*D+lo+dh])
			}
		}
	}
	c.o = linear(t.wo, t.bo, c.ctx, grow(c.o, N*D), N, D)
	c.x1 = gate(grow(c.x1, N*D), x, t.g1, c.o)
	c.hf = linear(t.f1, t.c1, c.x1, grow(c.hf, N*2*D), N, D)
	for i, s := range c.hf {
		c.hf[i] = relu(s)
	}
	c.ff = linear(t.f2, t.c2, c.hf, grow(c.ff, N*D), N, 2*D)
	c.out = gate(grow(c.out, N*D), c.x1, t.g2, c.ff)
	return c.out
}

// tscratch is the transformer's backward scratch space.
type tscratch struct {
	dx, dx1, dff, dhf, do, dctx, dq, dk, dv, da []float64
}

func (mod *Model) backwardTransformer(in *Input, c *Cache, dz [NumLabels]float64, v, gv views, ws *Scratch) {
	cfg := mod.Cfg
	D, n, m := cfg.D, c.n, c.m
	N := n + m
	dx := ws.vec(&ws.dtx, N*D)
	unclassify(cfg, v, gv, c, dz, ws, dx[:n*D], dx[n*D:])
	for l := cfg.Layers - 1; l >= 0; l-- {
		dx = untransformerLayer(D, v.tl[l], gv.tl[l], &c.tl[l], dx, n, m, c.relb, ws)
	}
	for i := range N {
		axpy(side(gv.seg, D, i, n), 1, dx[i*D:(i+1)*D])
	}
	unproject(cfg, gv, in.A, c.pa, dx[:n*D])
	unproject(cfg, gv, in.B, c.pb, dx[n*D:])
}

// untransformerLayer adds to gt the gradients of one layer given dout,
// the gradient of its output, and returns that of its input (in ws.t,
// which the next call reuses: dout is read before it is overwritten).
func untransformerLayer(D int, t, gt tlayer, c *tcache, dout []float64, n, m int, relb []uint16, ws *Scratch) []float64 {
	N := n + m
	H, dh := TransformerHeads, D/TransformerHeads
	scale := 1 / math.Sqrt(float64(dh))
	s, vec := &ws.t, ws.vec

	// out = x1 + g2 ⊙ ff, ff = f2 ReLU(f1 x1 + c1) + c2.
	dx1 := vec(&s.dx1, N*D)
	copy(dx1, dout[:N*D])
	dff := ungate(vec(&s.dff, N*D), dout, t.g2, gt.g2, c.ff)
	dhf := vec(&s.dhf, N*2*D)
	unlinear(t.f2, gt.f2, gt.c2, c.hf, dff, dhf, N, 2*D)
	for i, h := range c.hf {
		if h <= 0 {
			dhf[i] = 0
		}
	}
	unlinear(t.f1, gt.f1, gt.c1, c.x1, dhf, dx1, N, D)

	// x1 = x + g1 ⊙ o, o = wo ctx + bo.
	dx := vec(&s.dx, N*D) // dout is not read after this
	copy(dx, dx1)
	do := ungate(vec(&s.do, N*D), dx1, t.g1, gt.g1, c.o)
	dctx := vec(&s.dctx, N*D)
	unlinear(t.wo, gt.wo, gt.bo, c.ctx, do, dctx, N, D)

	// Attention.
	dq, dk, dv := vec(&s.dq, N*D), vec(&s.dk, N*D), vec(&s.dv, N*D)
	da := vec(&s.da, N)
	K := len(t.rel) / H
	for h := range H {
		lo := h * dh
		for i := range N {
			row := c.a[(h*N+i)*N : (h*N+i+1)*N]
			dci := dctx[i*D+lo : i*D+lo+dh]
			for j, a := range row {
				da[j] = dot(dci, c.v[j*D+lo:j*D+lo+dh])
				axpy(dv[j*D+lo:j*D+lo+dh], a, dci)
			}
			sum := dot(da, row)
			qi, dqi := c.q[i*D+lo:i*D+lo+dh], dq[i*D+lo:i*D+lo+dh]
			for j, a := range row {
				de := a * (da[j] - sum)
				if de == 0 {
					continue
				}
				if (i < n) == (j < n) {
					gt.sp[h*SelfBuckets+offsetBucket(i, j)] += de
				} else {
					gt.cr[h] += de
					addBits(gt.rel[h*K:(h+1)*K], de, crossBits(i, j, n, m, relb))
				}
				axpy(dqi, de*scale, c.k[j*D+lo:j*D+lo+dh])
				axpy(dk[j*D+lo:j*D+lo+dh], de*scale, qi)
			}
		}
	}
	unlinear(t.wq, gt.wq, gt.bq, c.x, dq, dx, N, D)
	unlinear(t.wk, gt.wk, gt.bk, c.x, dk, dx, N, D)
	unlinear(t.wv, gt.wv, gt.bv, c.x, dv, dx, N, D)
	return dx
}
