// Package align is the arithmetic of verity's NLI network: a decomposable
// attention model (Parikh et al., 2016) with knowledge-enriched alignment
// (Chen et al., 2018). Each token of the claim and of the passage is
// projected from its word vector and its channels (number, name, negation
// scope, quantifier, modal, direction...); every claim token attends over
// the passage tokens and every passage token over the claim tokens, the
// attention logits biased by lexical relations of the aligned pair
// (synonym, antonym, hypernym, direction words, numbers that differ);
// each token is compared with what it aligned to, the comparisons are
// pooled, and a small network gives three logits.
//
// The package holds the forward and backward passes that nli/train runs,
// plain Go over float64 slices, and Fast, the forward pass the judge runs
// at inference: the same arithmetic in float32, each layer one matrix
// product over a side's tokens. A Model is read-only during Forward and
// safe for concurrent use.
package align

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/viterin/vek"
)

// Channel and relation counts. Channels are binary per-token flags;
// relations are binary per-(claim token, passage token) flags.
const (
	NumChannels  = 16
	NumRelations = 12 // relation bits of a model whose Config.Rels is 0
	MaxRelations = 16 // the bits of Rel.Bits
	NumGlobal    = 6
	NumLabels    = 3
)

// Token is one token's input: its word vector (nil when unknown), its
// channel bits and its row in the model's table of tuned words (1-based;
// 0 for a word without one, see Config.Words).
type Token struct {
	Vec  []float32
	Chan uint16
	Word int32
}

// Rel is the relation bits of claim token I and passage token J.
type Rel struct {
	I, J int16
	Bits uint16
}

// Input is one (claim, passage) pair.
type Input struct {
	A, B   []Token // claim, passage
	Rels   []Rel   // non-zero relations only
	Global [NumGlobal]float64
}

// Config fixes the network's shape.
type Config struct {
	Emb    int  `json:"emb"`     // word-vector dimension
	D      int  `json:"d"`       // token projection width
	H      int  `json:"h"`       // hidden units of the classifier
	NoAttn bool `json:"no_attn"` // ablation: no cross-attention (aligned vectors are zero)
	// Ctx is the contextual encoder run over each side's projected tokens
	// before alignment: CtxNone, or CtxConv, a width-3 convolution whose
	// ReLU output is added to each token (h_t + ReLU(W [h_t-1; h_t; h_t+1] + b)),
	// shared by claim and passage; or CtxConvSelf, the convolution followed
	// by intra-sentence attention (see selfAttend); or CtxGRU, a
	// bidirectional GRU of D/2 units a direction whose states are added to
	// each token (see gru.go).
	Ctx int `json:"ctx,omitempty"`
	// Compose, when true, runs a second width-3 convolution over each
	// side's comparison outputs before pooling, v_t + ReLU(W [v_t-1; v_t;
	// v_t+1] + b) (its own weights, shared by claim and passage): the
	// composition layer of ESIM (Chen et al., 2017), convolutional, so
	// that a comparison sees its neighbours' ("not" before an aligned
	// word) before the sentence is pooled.
	Compose bool `json:"compose,omitempty"`
	// Words is the number of tuned words: each has D learned weights
	// added to its tokens' projections before the ReLU, a correction of
	// its fixed word vector learned from the training pairs (a token's
	// Word numbers its row; tokens of other words get none). The words
	// themselves are the caller's (nli.Aligner.Vocab).
	Words int `json:"words,omitempty"`
	// Layers is the number of transformer layers of a CtxTransformer
	// network (1 to MaxLayers); 0 for the other encoders.
	Layers int `json:"layers,omitempty"`
	// Rels is the number of relation bits a token pair carries, NumRelations
	// when 0 (every model before the option). A caller that sets more
	// bits than the model reads has them ignored (see denseRels).
	Rels int `json:"rels,omitempty"`
}

// MaxWords bounds Config.Words.
const MaxWords = 1 << 18

// Contextual encoders (Config.Ctx).
const (
	CtxNone     = 0
	CtxConv     = 1
	CtxConvSelf = 2
	CtxGRU      = 3
)

// SelfBuckets is the number of relative-position biases of the
// intra-sentence attention: offsets -SelfReach..SelfReach, farther ones
// clamped.
const (
	SelfReach   = 5
	SelfBuckets = 2*SelfReach + 1
)

// Model is the network's parameters, one flat slice, and the calibration
// applied to its logits.
type Model struct {
	Cfg Config    `json:"cfg"`
	P   []float64 `json:"p"`
	// Temperature and Bias calibrate: p = softmax(z/Temperature + Bias).
	Temperature float64            `json:"temperature"`
	Bias        [NumLabels]float64 `json:"bias"`
}

// views are the parameter blocks, slices of P.
type views struct {
	wp, bp, wr, wa, ba, wb, bb, w1, b1, w2, b2 []float64
	wc, bc                                     []float64 // contextual convolution (CtxConv, CtxConvSelf)
	sp, sg                                     []float64 // intra-sentence attention: position biases, gate (Ctx == CtxConvSelf)
	wq, bq                                     []float64 // composition convolution (Compose)
	wg                                         []float64 // recurrent encoder, both directions (Ctx == CtxGRU; gruDir)
	we                                         []float64 // tuned words' projection corrections, Words x D
	seg                                        []float64 // CtxTransformer: the claim's and the passage's side vectors, 2 x D
	tl                                         []tlayer  // CtxTransformer: the layers
}

func (c Config) in() int   { return c.Emb + NumChannels }
func (c Config) cmp() int  { return 3*c.D + c.Relations() }
func (c Config) feat() int { return 4*c.D + NumGlobal }

// Relations is the number of relation bits the model reads.
func (c Config) Relations() int {
	if c.Rels == 0 {
		return NumRelations
	}
	return c.Rels
}

// Size is the number of parameters.
func (c Config) Size() int {
	if c.Ctx == CtxTransformer {
		return c.transformerSize()
	}
	n := c.D*c.in() + c.D + c.Relations() + 2*(c.D*c.cmp()+c.D) + c.H*c.feat() + c.H + NumLabels*c.H + NumLabels
	if c.Ctx == CtxConv || c.Ctx == CtxConvSelf {
		n += 3*c.D*c.D + c.D
	}
	if c.Ctx == CtxGRU {
		n += c.gruSize()
	}
	if c.Ctx == CtxConvSelf {
		n += SelfBuckets + c.D
	}
	if c.Compose {
		n += 3*c.D*c.D + c.D
	}
	return n + c.Words*c.D
}

func (c Config) views(p []float64) views {
	if c.Ctx == CtxTransformer {
		return c.transformerViews(p)
	}
	var v views
	take := func(n int) []float64 { s := p[:n:n]; p = p[n:]; return s }
	v.wp, v.bp, v.wr = take(c.D*c.in()), take(c.D), take(c.Relations())
	v.wa, v.ba = take(c.D*c.cmp()), take(c.D)
	v.wb, v.bb = take(c.D*c.cmp()), take(c.D)
	v.w1, v.b1 = take(c.H*c.feat()), take(c.H)
	v.w2, v.b2 = take(NumLabels*c.H), take(NumLabels)
	if c.Ctx == CtxConv || c.Ctx == CtxConvSelf {
		// Last, so that a model without the encoder keeps its layout.
		v.wc, v.bc = take(3*c.D*c.D), take(c.D)
	}
	if c.Ctx == CtxGRU {
		v.wg = take(c.gruSize())
	}
	if c.Ctx == CtxConvSelf {
		v.sp, v.sg = take(SelfBuckets), take(c.D)
	}
	if c.Compose {
		v.wq, v.bq = take(3*c.D*c.D), take(c.D)
	}
	v.we = take(c.Words * c.D) // zero at the start: the fixed vectors as they are
	return v
}

// New returns a model with random weights (Glorot uniform) drawn from rng.
func New(cfg Config, rng *rand.Rand) *Model {
	m := &Model{Cfg: cfg, P: make([]float64, cfg.Size()), Temperature: 1}
	v := cfg.views(m.P)
	init := func(w []float64, fanIn, fanOut int) {
		a := math.Sqrt(6 / float64(fanIn+fanOut))
		for i := range w {
			w[i] = (2*rng.Float64() - 1) * a
		}
	}
	init(v.wp, cfg.in(), cfg.D)
	init(v.wa, cfg.cmp(), cfg.D)
	init(v.wb, cfg.cmp(), cfg.D)
	init(v.w1, cfg.feat(), cfg.H)
	init(v.w2, cfg.H, NumLabels)
	if cfg.Ctx == CtxConv || cfg.Ctx == CtxConvSelf {
		// Small, so that the network starts close to the one without the
		// encoder and learns how much context to add.
		init(v.wc, 3*cfg.D, cfg.D)
		for i := range v.wc {
			v.wc[i] *= 0.1
		}
	}
	if cfg.Ctx == CtxGRU {
		// The input weights small, as the convolution's; the recurrent
		// ones Glorot; the biases zero.
		G := cfg.gruUnits()
		for d := range 2 {
			w, u, _ := gruDir(cfg.D, v.wg, d)
			init(w, cfg.D, 3*G)
			for i := range w {
				w[i] *= 0.1
			}
			init(u, G, 3*G)
		}
	}
	if cfg.Compose {
		// Small as well: the network starts as the one without it.
		init(v.wq, 3*cfg.D, cfg.D)
		for i := range v.wq {
			v.wq[i] *= 0.1
		}
	}
	for i := range v.wr {
		v.wr[i] = 1
	}
	if cfg.Ctx == CtxTransformer {
		initTransformer(cfg, v, init)
	}
	for i := range v.sg {
		// The gate starts small: the attended context is added gently.
		v.sg[i] = 0.1
	}
	for i := range v.bp {
		v.bp[i] = 0.01
	}
	return m
}

// Check checks the shape alone.
func (c Config) Check() error {
	if c.Emb <= 0 || c.D <= 0 || c.H <= 0 || c.Emb > 4096 || c.D > 4096 || c.H > 4096 {
		return fmt.Errorf("bad shape %+v", c)
	}
	if c.Ctx != CtxNone && c.Ctx != CtxConv && c.Ctx != CtxConvSelf && c.Ctx != CtxGRU && c.Ctx != CtxTransformer {
		return fmt.Errorf("unknown contextual encoder %d", c.Ctx)
	}
	if c.Ctx == CtxTransformer {
		if c.Layers < 1 || c.Layers > MaxLayers {
			return fmt.Errorf("a transformer of %d layers, want 1 to %d", c.Layers, MaxLayers)
		}
		if c.D%TransformerHeads != 0 {
			return fmt.Errorf("a transformer needs a width that is a multiple of %d, not %d", TransformerHeads, c.D)
		}
		if c.NoAttn || c.Compose {
			return errors.New("a transformer has no alignment to leave out and no comparisons to compose")
		}
	} else if c.Layers != 0 {
		return fmt.Errorf("%d transformer layers for another encoder", c.Layers)
	}
	if c.Rels < 0 || c.Rels > MaxRelations {
		return fmt.Errorf("%d relation bits, want 0 to %d", c.Rels, MaxRelations)
	}
	if c.Words < 0 || c.Words > MaxWords {
		return fmt.Errorf("%d tuned words, want 0 to %d", c.Words, MaxWords)
	}
	if c.Ctx == CtxGRU && c.D%2 != 0 {
		return fmt.Errorf("the recurrent encoder needs an even width, not %d", c.D)
	}
	return nil
}

// Validate checks a loaded model.
func (m *Model) Validate() error {
	c := m.Cfg
	if err := c.Check(); err != nil {
		return err
	}
	if len(m.P) != c.Size() {
		return fmt.Errorf("%d parameters, the shape needs %d", len(m.P), c.Size())
	}
	if !(m.Temperature > 0) {
		return errors.New("temperature must be > 0")
	}
	for _, x := range m.P {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return errors.New("a parameter is not a finite number")
		}
	}
	return nil
}

// Cache keeps a forward pass for the backward pass; reuse one per
// goroutine to save allocations.
type Cache struct {
	n, m   int
	pa, pb []float64 // projections n x D, m x D (post-ReLU), with a contextual encoder
	ca, cb []float64 // the encoder's outputs n x D, m x D (post-ReLU); with the GRU its trace, n x 8G, m x 8G
	ga, gb []float64 // the convolution's outputs n x D, m x D, with intra-sentence attention
	sa, sb []float64 // intra-sentence attention weights n x n, m x m
	ta, tb []float64 // intra-sentence attended vectors n x D, m x D
	ha, hb []float64 // token vectors aligned and compared: n x D, m x D
	alpha  []float64 // n x m, softmax over j
	beta   []float64 // n x m, softmax over i
	at, bt []float64 // aligned: n x D, m x D
	ra, rb []float64 // aligned relations: n x K, m x K
	ua, ub []float64 // comparison inputs: n x cmp, m x cmp
	va, vb []float64 // comparison outputs (post-ReLU): n x D, m x D
	qa, qb []float64 // the composition convolution's ReLU outputs, n x D, m x D (Compose)
	oa, ob []float64 // composed comparisons, pooled: n x D, m x D (Compose)
	amax   []int     // 2D: argmax rows for a's and b's max pool
	f      []float64 // feat
	z1     []float64 // hidden (post-ReLU)
	relb   []uint16  // n x m dense relation bits
	logits [NumLabels]float64
	vec    []float64 // one token's word vector in float64 (project)
	mf, mz []float64 // dropout masks of f and z1 (training)

	// AdvA and AdvB, when set, are added to the claim's and the passage's
	// token projections (n x D and m x D, post-ReLU) before the contextual
	// encoder: an adversarial perturbation in training (Goodfellow et
	// al., 2015; Miyato et al., 2017), see Scratch.EncoderInputGrad.
	// Only for a network with a contextual encoder; nil for none.
	AdvA, AdvB []float64
	xa, xb     []float64 // the encoder's inputs: pa, pb, or pa + AdvA, pb + AdvB in ya, yb
	ya, yb     []float64

	// Dropout, when positive and Rand is set, drops each pooled
	// comparison unit and hidden unit with this probability and scales
	// the kept ones by 1/(1-Dropout) (training only; Forward is then
	// random, drawn from Rand).
	Dropout float64
	Rand    *rand.Rand
	pad     []float64 // one side's projections with a zero row at each end (convolve)
	tx      []float64 // CtxTransformer: the first layer's input, (n+m) x D
	tl      []tcache  // CtxTransformer: the layers' passes
}

// grow returns s with length n, zeroed, reallocated only when too small.
func grow[F float32 | float64](s []F, n int) []F {
	if cap(s) < n {
		return make([]F, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// Forward returns the uncalibrated logits of in. c may be nil.
func (mod *Model) Forward(in *Input, c *Cache) [NumLabels]float64 {
	if c == nil {
		c = &Cache{}
	}
	cfg := mod.Cfg
	v := cfg.views(mod.P)
	if cfg.Ctx == CtxTransformer {
		return mod.forwardTransformer(in, c, v)
	}
	D, K := cfg.D, cfg.Relations()
	n, m := len(in.A), len(in.B)
	c.n, c.m = n, m
	if cfg.Ctx >= CtxConv {
		c.pa = project(cfg, v, in.A, grow(c.pa, n*D), c)
		c.pb = project(cfg, v, in.B, grow(c.pb, m*D), c)
		c.xa = perturb(c.pa, c.AdvA, &c.ya)
		c.xb = perturb(c.pb, c.AdvB, &c.yb)
		cw := D // per token: the convolution's ReLU outputs, or the GRU's trace (8G)
		if cfg.Ctx == CtxGRU {
			cw = 4 * D
		}
		c.ca, c.cb = grow(c.ca, n*cw), grow(c.cb, m*cw)
		if cfg.Ctx == CtxGRU {
			c.ha = gru(D, v.wg, c.xa, c.ca, grow(c.ha, n*D), n, &c.pad)
			c.hb = gru(D, v.wg, c.xb, c.cb, grow(c.hb, m*D), m, &c.pad)
		} else if cfg.Ctx == CtxConvSelf {
			c.ga = convolve(D, v.wc, v.bc, c.xa, c.ca, grow(c.ga, n*D), n, &c.pad)
			c.gb = convolve(D, v.wc, v.bc, c.xb, c.cb, grow(c.gb, m*D), m, &c.pad)
			c.sa, c.sb = grow(c.sa, n*n), grow(c.sb, m*m)
			c.ta, c.tb = grow(c.ta, n*D), grow(c.tb, m*D)
			c.ha = selfAttend(D, v, c.ga, c.sa, c.ta, grow(c.ha, n*D), n)
			c.hb = selfAttend(D, v, c.gb, c.sb, c.tb, grow(c.hb, m*D), m)
		} else {
			c.ha = convolve(D, v.wc, v.bc, c.xa, c.ca, grow(c.ha, n*D), n, &c.pad)
			c.hb = convolve(D, v.wc, v.bc, c.xb, c.cb, grow(c.hb, m*D), m, &c.pad)
		}
	} else {
		c.ha = project(cfg, v, in.A, grow(c.ha, n*D), c)
		c.hb = project(cfg, v, in.B, grow(c.hb, m*D), c)
	}
	c.alpha, c.beta = grow(c.alpha, n*m), grow(c.beta, n*m)
	c.at, c.bt = grow(c.at, n*D), grow(c.bt, m*D)
	c.ra, c.rb = grow(c.ra, n*K), grow(c.rb, m*K)
	c.relb = denseRels(c.relb, in.Rels, n, m, K)
	if !cfg.NoAttn && n > 0 && m > 0 {
		// Attention logits e_ij = h_i . g_j + sum of wr over the pair's relations.
		e := c.alpha
		for i := range n {
			hi := c.ha[i*D : (i+1)*D]
			for j := range m {
				e[i*m+j] = dot(hi, c.hb[j*D:(j+1)*D]) + relBias(v.wr, c.relb[i*m+j])
			}
		}
		copy(c.beta, e)
		for i := range n {
			softmaxInPlace(c.alpha[i*m:(i+1)*m], 1)
		}
		softmaxCols(c.beta, n, m)
		for i := range n {
			ai := c.alpha[i*m : (i+1)*m]
			ati := c.at[i*D : (i+1)*D]
			for j, a := range ai {
				axpy(ati, a, c.hb[j*D:(j+1)*D])
				addBits(c.ra[i*K:(i+1)*K], a, c.relb[i*m+j])
			}
		}
		for i := range n {
			hi := c.ha[i*D : (i+1)*D]
			for j := range m {
				b := c.beta[i*m+j]
				axpy(c.bt[j*D:(j+1)*D], b, hi)
				addBits(c.rb[j*K:(j+1)*K], b, c.relb[i*m+j])
			}
		}
	}
	P := cfg.cmp()
	c.ua, c.va = grow(c.ua, n*P), grow(c.va, n*D)
	c.ub, c.vb = grow(c.ub, m*P), grow(c.vb, m*D)
	compare(D, K, c.ha, c.at, c.ra, c.ua, c.va, v.wa, v.ba, n)
	compare(D, K, c.hb, c.bt, c.rb, c.ub, c.vb, v.wb, v.bb, m)
	pooledA, pooledB := c.va, c.vb
	if cfg.Compose {
		c.qa, c.qb = grow(c.qa, n*D), grow(c.qb, m*D)
		c.oa = convolve(D, v.wq, v.bq, c.va, c.qa, grow(c.oa, n*D), n, &c.pad)
		c.ob = convolve(D, v.wq, v.bq, c.vb, c.qb, grow(c.ob, m*D), m, &c.pad)
		pooledA, pooledB = c.oa, c.ob
	}
	return classify(cfg, v, in, c, pooledA, pooledB)
}

// classify pools the claim's n rows of pooledA and the passage's m rows of
// pooledB (mean and max each), adds the global features and runs the
// classifier: the logits, with what Backward needs kept in c.
func classify(cfg Config, v views, in *Input, c *Cache, pooledA, pooledB []float64) [NumLabels]float64 {
	D, F, n, m := cfg.D, cfg.feat(), c.n, c.m
	c.f = grow(c.f, F)
	if cap(c.amax) < 2*D {
		c.amax = make([]int, 2*D)
	}
	c.amax = c.amax[:2*D]
	pool(pooledA, n, D, c.f[0:2*D], c.amax[:D])
	pool(pooledB, m, D, c.f[2*D:4*D], c.amax[D:])
	copy(c.f[4*D:], in.Global[:])
	drop := c.Dropout > 0 && c.Rand != nil
	if drop {
		c.mf, c.mz = dropMask(c.mf, 4*D, c.Dropout, c.Rand), dropMask(c.mz, cfg.H, c.Dropout, c.Rand)
		for k, x := range c.mf {
			c.f[k] *= x
		}
	}
	c.z1 = grow(c.z1, cfg.H)
	for k := range cfg.H {
		s := v.b1[k] + dot(v.w1[k*F:(k+1)*F], c.f)
		c.z1[k] = relu(s)
		if drop {
			c.z1[k] *= c.mz[k]
		}
	}
	var z [NumLabels]float64
	for k := range NumLabels {
		z[k] = v.b2[k] + dot(v.w2[k*cfg.H:(k+1)*cfg.H], c.z1)
	}
	c.logits = z
	return z
}

// perturb returns p with adv added, in *buf (never p's array), or p itself
// when adv is nil.
func perturb(p, adv []float64, buf *[]float64) []float64 {
	if adv == nil {
		return p
	}
	*buf = grow(*buf, len(p))
	for i, x := range p {
		(*buf)[i] = x + adv[i]
	}
	return *buf
}

// Probs returns the calibrated class probabilities of in.
func (mod *Model) Probs(in *Input, c *Cache) [NumLabels]float64 {
	return Calibrate(mod.Forward(in, c), mod.Temperature, mod.Bias)
}

// MeanLogits is the mean of the logits of nets on in: the logits of an
// ensemble, which the first network's temperature and bias calibrate
// (EnsembleProbs).
func MeanLogits(nets []*Model, in *Input, c *Cache) [NumLabels]float64 {
	return meanLogits(nets, func(n *Model) [NumLabels]float64 { return n.Forward(in, c) })
}

// meanLogits is the mean of forward's logits over nets.
func meanLogits[N any](nets []N, forward func(N) [NumLabels]float64) [NumLabels]float64 {
	var z [NumLabels]float64
	for _, n := range nets {
		zn := forward(n)
		for k := range z {
			z[k] += zn[k] / float64(len(nets))
		}
	}
	return z
}

// EnsembleProbs returns the calibrated class probabilities of an ensemble
// of networks: the mean of their logits, calibrated by the first network's
// temperature and bias (the others' are not used). One network alone
// gives its own Probs.
func EnsembleProbs(nets []*Model, in *Input, c *Cache) [NumLabels]float64 {
	return Calibrate(MeanLogits(nets, in, c), nets[0].Temperature, nets[0].Bias)
}

// Calibrate applies temperature and bias to logits and the softmax.
func Calibrate(z [NumLabels]float64, t float64, bias [NumLabels]float64) [NumLabels]float64 {
	var p [NumLabels]float64
	for k := range p {
		p[k] = z[k]/t + bias[k]
	}
	softmaxInPlace(p[:], 1)
	return p
}

func project(cfg Config, v views, toks []Token, h []float64, c *Cache) []float64 {
	D, I := cfg.D, cfg.in()
	c.vec = grow(c.vec, cfg.Emb)
	for t, tk := range toks {
		ht := h[t*D : (t+1)*D]
		if tk.Vec != nil {
			for e, x := range tk.Vec[:cfg.Emb] {
				c.vec[e] = float64(x)
			}
		}
		for k := range D {
			row := v.wp[k*I : (k+1)*I]
			s := v.bp[k]
			if tk.Vec != nil {
				s += dot(row[:cfg.Emb], c.vec)
			}
			for b := tk.Chan; b != 0; b &= b - 1 {
				s += row[cfg.Emb+trailing(b)]
			}
			if w := cfg.word(tk); w >= 0 {
				s += v.we[w*D+k]
			}
			ht[k] = relu(s)
		}
	}
	return h
}

// word is the 0-based row of tk's tuned word, or -1 for none (including
// a row beyond the table, from a vocabulary larger than the network's).
func (c Config) word(tk Token) int {
	if tk.Word <= 0 || int(tk.Word) > c.Words {
		return -1
	}
	return int(tk.Word) - 1
}

// convolve writes out = h + ReLU(conv(h)) for the n rows of h (zero
// padding at both ends), keeping the ReLU outputs in c; w holds D filter
// rows of 3D weights and b their biases. Each output is one dot product
// of a filter row with three consecutive rows of the padded copy of h,
// kept in *pad.
func convolve(D int, w, b, h, c, out []float64, n int, pad *[]float64) []float64 {
	*pad = grow(*pad, (n+2)*D)
	copy((*pad)[D:], h[:n*D])
	for t := range n {
		ct := c[t*D : (t+1)*D]
		win := (*pad)[t*D : (t+3)*D]
		for k := range D {
			ct[k] = relu(b[k] + dot(w[k*3*D:(k+1)*3*D], win))
		}
		ot, ht := out[t*D:(t+1)*D], h[t*D:(t+1)*D]
		for k := range D {
			ot[k] = ht[k] + ct[k]
		}
	}
	return out
}

// selfAttend writes out_i = g_i + sg * sum_j s_ij g_j for the n rows of g,
// where s_i is the softmax over j of g_i . g_j / sqrt(D) plus the bias of
// the offset j - i (intra-sentence attention, Parikh et al., 2016); s and
// the attended vectors t are kept for the backward pass.
func selfAttend(D int, v views, g, s, t, out []float64, n int) []float64 {
	scale := 1 / math.Sqrt(float64(D))
	for i := range n {
		gi := g[i*D : (i+1)*D]
		row := s[i*n : (i+1)*n]
		for j := range n {
			row[j] = dot(gi, g[j*D:(j+1)*D])*scale + v.sp[offsetBucket(i, j)]
		}
		softmaxInPlace(row, 1)
		ti := t[i*D : (i+1)*D]
		for j, a := range row {
			axpy(ti, a, g[j*D:(j+1)*D])
		}
		gate(out[i*D:(i+1)*D], gi, v.sg, ti)
	}
	return out
}

// gate writes out = x + g ⊙ y row by row, g holding one gate per unit of
// a row (len(g) wide): a residual connection whose added part each unit
// scales by a learned gate (selfAttend's sg, the transformer's g1, g2).
func gate(out, x, g, y []float64) []float64 {
	D := len(g)
	for i := range out {
		out[i] = x[i] + g[i%D]*y[i]
	}
	return out
}

// offsetBucket is the position bias index of tokens i and j.
func offsetBucket(i, j int) int {
	return min(max(j-i, -SelfReach), SelfReach) + SelfReach
}

func compare(D, K int, h, al, rel, u, out, w, b []float64, n int) {
	P := 3*D + K
	for i := range n {
		ui := u[i*P : (i+1)*P]
		compareInput(ui, h[i*D:(i+1)*D], al[i*D:(i+1)*D], rel[i*K:(i+1)*K])
		oi := out[i*D : (i+1)*D]
		for k := range D {
			oi[k] = relu(b[k] + dot(w[k*P:(k+1)*P], ui))
		}
	}
}

// compareInput writes a comparison's input [h; a; h*a; rel] into u, for
// a token vector h, what it aligned to (a) and the aligned relations.
func compareInput[F float32 | float64](u, h, a, rel []F) {
	D := len(h)
	copy(u[:D], h)
	copy(u[D:2*D], a)
	for k := range D {
		u[2*D+k] = h[k] * a[k]
	}
	copy(u[3*D:], rel)
}

// pool writes the mean (first D) and max (next D) of the n rows of x.
func pool(x []float64, n, D int, dst []float64, amax []int) {
	for k := range D {
		amax[k] = -1
	}
	if n == 0 {
		return
	}
	for i := range n {
		row := x[i*D : (i+1)*D]
		for k, val := range row {
			dst[k] += val / float64(n)
			if amax[k] < 0 || val > dst[D+k] {
				dst[D+k], amax[k] = val, i
			}
		}
	}
}

// denseRels returns the relation bits of rels as an n x m matrix in
// relb's storage, the bits of a pair listed twice joined.
func denseRels(relb []uint16, rels []Rel, n, m, K int) []uint16 {
	if cap(relb) < n*m {
		relb = make([]uint16, n*m)
	}
	relb = relb[:n*m]
	clear(relb)
	mask := uint16(1)<<K - 1 // K is at most MaxRelations: 1<<16 - 1 in uint16 arithmetic is all ones
	for _, r := range rels {
		if int(r.I) < n && int(r.J) < m {
			relb[int(r.I)*m+int(r.J)] |= r.Bits & mask
		}
	}
	return relb
}

func relBias[F float32 | float64](wr []F, bits uint16) F {
	var s F
	for b := bits; b != 0; b &= b - 1 {
		s += wr[trailing(b)]
	}
	return s
}

func addBits(dst []float64, a float64, bits uint16) {
	for b := bits; b != 0; b &= b - 1 {
		dst[trailing(b)] += a
	}
}

func trailing(b uint16) int {
	n := 0
	for b&1 == 0 {
		b >>= 1
		n++
	}
	return n
}

// scalar turns off the SIMD dot product (for the test that checks both
// give the same outputs).
var scalar = false

// dot is the dot product of a and b[:len(a)], with AVX2 where the CPU has
// it (vek); the sum is taken in another order than the plain loop, so the
// two differ in the last bits only.
func dot(a, b []float64) float64 {
	b = b[:len(a)]
	if len(a) == 0 {
		return 0
	}
	if !scalar {
		return vek.Dot(a, b)
	}
	s := 0.0
	for i, x := range a {
		s += x * b[i]
	}
	return s
}

// dropMask returns n factors, each 0 with probability p and 1/(1-p)
// otherwise.
func dropMask(m []float64, n int, p float64, rng *rand.Rand) []float64 {
	m = grow(m, n)
	for i := range m {
		if rng.Float64() >= p {
			m[i] = 1 / (1 - p)
		}
	}
	return m
}

// relu is max(x, 0), without math.Max's care for NaN and signed zeros.
func relu(x float64) float64 {
	if x > 0 {
		return x
	}
	return 0
}

func axpy(dst []float64, a float64, x []float64) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] += a * x[i]
	}
}

func softmaxInPlace[F float32 | float64](x []F, t F) {
	mx := math.Inf(-1)
	for _, v := range x {
		mx = math.Max(mx, float64(v/t))
	}
	var sum F
	for i, v := range x {
		x[i] = F(math.Exp(float64(v/t) - mx))
		sum += x[i]
	}
	for i := range x {
		x[i] /= sum
	}
}

// softmaxCols normalises each column of the n x m matrix x.
func softmaxCols(x []float64, n, m int) {
	for j := range m {
		mx := math.Inf(-1)
		for i := range n {
			mx = math.Max(mx, x[i*m+j])
		}
		sum := 0.0
		for i := range n {
			x[i*m+j] = math.Exp(x[i*m+j] - mx)
			sum += x[i*m+j]
		}
		for i := range n {
			x[i*m+j] /= sum
		}
	}
}
