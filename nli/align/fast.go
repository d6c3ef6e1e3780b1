package align

import "github.com/viterin/vek/vek32"

// Fast is a network prepared for inference: its weights in float32,
// transposed so that each layer runs over all of a side's tokens as one
// matrix product (vek32.MatMul_Into, AVX2 where the CPU has it) instead of
// one dot product per token and unit: for 26 tokens, the comparison layer
// (204 inputs, 64 units) took 44 µs as one product against 110 µs as 1,664
// float32 dot products when this was written. It computes what
// Model.Forward computes, in another
// order and precision: the logits agree to about 1e-5
// (TestFastMatchesForward). Training keeps Model.Forward, in float64,
// whose cache the backward pass reads. Networks with intra-sentence
// attention, transformers (CtxTransformer), and pairs with an empty side,
// are run by Model.Forward.
// Read-only and safe for concurrent use.
type Fast struct {
	m   *Model
	cfg Config

	wpT, bp  []float32 // projection, in() x D
	wr       []float32 // relation biases of the attention logits
	wcT, bc  []float32 // convolution, 3D x D
	wqT, bq  []float32 // composition convolution, 3D x D (Compose)
	gru      *fastGRU  // recurrent encoder (CtxGRU)
	waT, ba  []float32 // claim-side comparison, cmp() x D
	wbT, bb  []float32 // passage-side comparison, cmp() x D
	w1, b1   []float32 // hidden layer, H x feat() (rows, as in Model)
	w2T, b2  []float32 // output layer, H x NumLabels
	we       []float32 // tuned words' corrections, Words x D
	fallback bool      // run m.Forward instead
}

// Cache32 is a Fast forward pass's scratch space; reuse one per goroutine
// to save allocations.
type Cache32 struct {
	x, col         []float32 // one side's inputs (n x in) and convolution windows (n x 3D)
	pa, pb, ha, hb []float32 // projections and token vectors, n x D and m x D
	hbT            []float32 // hb transposed, D x m
	alpha, betaT   []float32 // attention, n x m and its column softmax transposed, m x n
	at, bt         []float32 // aligned vectors
	ra, rb         []float32 // aligned relations, n x K and m x K
	u, va, vb      []float32 // comparison inputs and outputs
	oa, ob         []float32 // composed comparisons (Compose)
	gx, gh, gs     []float32 // the GRU's input terms (n x 6G), a step's recurrent terms (2G) and its z, r ⊙ state, state before and after (4G)
	f, z1          []float32
	relb           []uint16 // n x m dense relation bits
	c64            Cache    // for the pairs Model.Forward runs
}

// NewFast prepares m for inference. m must not change afterwards.
func NewFast(m *Model) *Fast {
	cfg := m.Cfg
	f := &Fast{m: m, cfg: cfg, fallback: cfg.Ctx == CtxConvSelf || cfg.Ctx == CtxTransformer || cfg.NoAttn}
	if f.fallback {
		return f
	}
	v := cfg.views(m.P)
	D := cfg.D
	f.wpT, f.bp = transpose32(v.wp, D, cfg.in()), to32(v.bp)
	f.wr = to32(v.wr)
	f.waT, f.ba = transpose32(v.wa, D, cfg.cmp()), to32(v.ba)
	f.wbT, f.bb = transpose32(v.wb, D, cfg.cmp()), to32(v.bb)
	f.w1, f.b1 = to32(v.w1), to32(v.b1)
	f.w2T, f.b2 = transpose32(v.w2, NumLabels, cfg.H), to32(v.b2)
	if cfg.Ctx == CtxConv {
		f.wcT, f.bc = transpose32(v.wc, D, 3*D), to32(v.bc)
	}
	if cfg.Compose {
		f.wqT, f.bq = transpose32(v.wq, D, 3*D), to32(v.bq)
	}
	if cfg.Ctx == CtxGRU {
		f.gru = newFastGRU(D, v.wg)
	}
	f.we = to32(v.we)
	return f
}

// Probs returns the calibrated class probabilities of in.
func (f *Fast) Probs(in *Input, c *Cache32) [NumLabels]float64 {
	return Calibrate(f.Forward(in, c), f.m.Temperature, f.m.Bias)
}

// FastEnsembleProbs is EnsembleProbs over networks prepared with NewFast:
// the mean of their logits, calibrated by the first one's temperature and
// bias.
func FastEnsembleProbs(fs []*Fast, in *Input, c *Cache32) [NumLabels]float64 {
	z := meanLogits(fs, func(f *Fast) [NumLabels]float64 { return f.Forward(in, c) })
	return Calibrate(z, fs[0].m.Temperature, fs[0].m.Bias)
}

// Forward returns the uncalibrated logits of in. c may be nil.
func (f *Fast) Forward(in *Input, c *Cache32) [NumLabels]float64 {
	if c == nil {
		c = &Cache32{}
	}
	n, m := len(in.A), len(in.B)
	if f.fallback || n == 0 || m == 0 {
		return f.m.Forward(in, &c.c64)
	}
	cfg := f.cfg
	D, K, P := cfg.D, cfg.Relations(), cfg.cmp()
	c.ha = f.encode(in.A, c, &c.pa, c.ha)
	c.hb = f.encode(in.B, c, &c.pb, c.hb)

	// Attention logits e = ha hb' plus the relation biases, softmaxed by
	// row (alpha) and, transposed, by column (betaT).
	c.hbT = grow(c.hbT, D*m)
	for j := range m {
		for k, x := range c.hb[j*D : (j+1)*D] {
			c.hbT[k*m+j] = x
		}
	}
	c.alpha = matMul(c.alpha, c.ha, c.hbT, n, D, m)
	c.relb = denseRels(c.relb, in.Rels, n, m, K)
	for ij, bits := range c.relb {
		if bits != 0 {
			c.alpha[ij] += relBias(f.wr, bits)
		}
	}
	c.betaT = grow(c.betaT, m*n)
	for i := range n {
		for j, e := range c.alpha[i*m : (i+1)*m] {
			c.betaT[j*n+i] = e
		}
	}
	for i := range n {
		softmaxInPlace(c.alpha[i*m:(i+1)*m], 1)
	}
	for j := range m {
		softmaxInPlace(c.betaT[j*n:(j+1)*n], 1)
	}
	c.at = matMul(c.at, c.alpha, c.hb, n, m, D)
	c.bt = matMul(c.bt, c.betaT, c.ha, m, n, D)
	c.ra, c.rb = grow(c.ra, n*K), grow(c.rb, m*K)
	for ij, bits := range c.relb {
		i, j := ij/m, ij%m
		for b := bits; b != 0; b &= b - 1 {
			c.ra[i*K+trailing(b)] += c.alpha[ij]
			c.rb[j*K+trailing(b)] += c.betaT[j*n+i]
		}
	}

	c.va = f.compare(c, c.ha, c.at, c.ra, f.waT, f.ba, n, P, c.va)
	c.vb = f.compare(c, c.hb, c.bt, c.rb, f.wbT, f.bb, m, P, c.vb)
	nf := cfg.feat()
	c.f = grow(c.f, nf)
	pooledA, pooledB := c.va, c.vb
	if cfg.Compose {
		c.oa = f.convolve(c, c.va, f.wqT, f.bq, n, c.oa)
		c.ob = f.convolve(c, c.vb, f.wqT, f.bq, m, c.ob)
		pooledA, pooledB = c.oa, c.ob
	}
	pool32(pooledA, n, D, c.f[0:2*D])
	pool32(pooledB, m, D, c.f[2*D:4*D])
	for k, x := range in.Global {
		c.f[4*D+k] = float32(x)
	}
	c.z1 = matMul(c.z1, f.w1, c.f, cfg.H, nf, 1)
	for k := range c.z1 {
		c.z1[k] = max(c.z1[k]+f.b1[k], 0)
	}
	var z [NumLabels]float64
	for k := range z {
		s := f.b2[k]
		for h, x := range c.z1 {
			s += x * f.w2T[h*NumLabels+k]
		}
		z[k] = float64(s)
	}
	return z
}

// encode returns one side's token vectors: the projection of each token's
// word vector and channels (ReLU), plus, with the convolutional encoder,
// ReLU of the convolution over each token and its neighbours.
func (f *Fast) encode(toks []Token, c *Cache32, proj *[]float32, out []float32) []float32 {
	cfg := f.cfg
	D, I, n := cfg.D, cfg.in(), len(toks)
	c.x = grow(c.x, n*I)
	for t, tk := range toks {
		row := c.x[t*I : (t+1)*I]
		if tk.Vec != nil {
			copy(row, tk.Vec[:cfg.Emb])
		}
		for b := tk.Chan; b != 0; b &= b - 1 {
			row[cfg.Emb+trailing(b)] = 1
		}
	}
	p := matMul(*proj, c.x, f.wpT, n, I, D)
	if cfg.Words > 0 {
		for t, tk := range toks {
			if w := cfg.word(tk); w >= 0 {
				vek32.Add_Inplace(p[t*D:(t+1)*D], f.we[w*D:(w+1)*D])
			}
		}
	}
	addBiasReLU(p, f.bp)
	*proj = p
	switch cfg.Ctx {
	case CtxConv:
		return f.convolve(c, p, f.wcT, f.bc, n, out)
	case CtxGRU:
		return f.gru.run(c, p, n, out)
	}
	return append(out[:0], p...)
}

// convolve returns h + ReLU(conv(h)) for the n rows of h: each row's
// window of three rows (zero beyond the ends) times wT (3D x D), plus b.
func (f *Fast) convolve(c *Cache32, h, wT, b []float32, n int, out []float32) []float32 {
	D := f.cfg.D
	c.col = grow(c.col, n*3*D)
	for t := range n {
		row := c.col[t*3*D : (t+1)*3*D]
		if t > 0 {
			copy(row[:D], h[(t-1)*D:t*D])
		}
		copy(row[D:2*D], h[t*D:(t+1)*D])
		if t+1 < n {
			copy(row[2*D:], h[(t+1)*D:(t+2)*D])
		}
	}
	out = matMul(out, c.col, wT, n, 3*D, D)
	addBiasReLU(out, b)
	for i, x := range h[:n*D] {
		out[i] += x
	}
	return out
}

// compare returns ReLU(u w + b) for the rows u_i = [h_i; a_i; h_i*a_i;
// rel_i] of one side.
func (f *Fast) compare(c *Cache32, h, a, rel, wT, b []float32, n, P int, out []float32) []float32 {
	D, K := f.cfg.D, f.cfg.Relations()
	c.u = grow(c.u, n*P)
	for i := range n {
		compareInput(c.u[i*P:(i+1)*P], h[i*D:(i+1)*D], a[i*D:(i+1)*D], rel[i*K:(i+1)*K])
	}
	out = matMul(out, c.u, wT, n, P, D)
	addBiasReLU(out, b)
	return out
}

// matMul returns x (rows x inner) times y (inner x cols) in dst's storage.
// It hands vek32 blocks of rows small enough that vek32 multiplies them
// on the calling goroutine: from 100,000 multiplications on, vek32 splits
// a product over goroutines, one per CPU, which for products this small
// costs more than it saves and would spread one judgment over every core
// of a busy server.
func matMul(dst, x, y []float32, rows, inner, cols int) []float32 {
	dst = grow(dst, rows*cols)
	block := max(1, (serialMuls-1)/(inner*cols))
	for r := 0; r < rows; r += block {
		e := min(rows, r+block)
		vek32.MatMul_Into(dst[r*cols:e*cols], x[r*inner:e*inner], y[:inner*cols], inner)
	}
	return dst
}

// serialMuls is the size of product from which vek32 goes parallel.
const serialMuls = 100_000

// addBiasReLU sets each row r of x to ReLU(r + b).
func addBiasReLU(x, b []float32) {
	for i := range x {
		x[i] = max(x[i]+b[i%len(b)], 0)
	}
}

// pool32 writes the mean (first D) and max (next D) of the n > 0 rows of x.
func pool32(x []float32, n, D int, dst []float32) {
	copy(dst[D:2*D], x[:D])
	for i := range n {
		for k, v := range x[i*D : (i+1)*D] {
			dst[k] += v
			dst[D+k] = max(dst[D+k], v)
		}
	}
	for k := range D {
		dst[k] /= float32(n)
	}
}

func to32(x []float64) []float32 {
	out := make([]float32, len(x))
	for i, v := range x {
		out[i] = float32(v)
	}
	return out
}

// transpose32 returns the rows x cols matrix w transposed (cols x rows),
// in float32.
func transpose32(w []float64, rows, cols int) []float32 {
	out := make([]float32, rows*cols)
	for r := range rows {
		for c, v := range w[r*cols : (r+1)*cols] {
			out[c*rows+r] = float32(v)
		}
	}
	return out
}
