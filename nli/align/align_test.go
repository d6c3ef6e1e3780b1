package align

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
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

// jittered is a new model of cfg with every parameter moved by normal
// noise of the given scale, so that no weight sits at its starting value.
func jittered(cfg Config, rng *rand.Rand, scale float64) *Model {
	m := New(cfg, rng)
	for i := range m.P {
		m.P[i] += scale * rng.NormFloat64()
	}
	return m
}

// withWords gives in's tokens tuned-word rows 0 (none) to words+1 (beyond
// the table, also none), drawn from rng; without tuned words in is left
// alone, so the other configurations see the inputs they always did.
func withWords(rng *rand.Rand, in *Input, words int) *Input {
	if words == 0 {
		return in
	}
	for _, s := range [][]Token{in.A, in.B} {
		for i := range s {
			s[i].Word = int32(rng.IntN(words + 2))
		}
	}
	return in
}

// withRels gives about half of in's relations one of the bits a model of
// rels relations reads beyond NumRelations; with no more bits than that,
// in is left alone, as withWords does.
func withRels(rng *rand.Rand, in *Input, rels int) *Input {
	for i := range in.Rels {
		if rels > NumRelations && rng.IntN(2) == 0 {
			in.Rels[i].Bits |= 1 << (NumRelations + rng.IntN(rels-NumRelations))
		}
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
		{Emb: 5, D: 4, H: 5, Ctx: CtxConvSelf},
		{Emb: 5, D: 4, H: 5, Ctx: CtxConvSelf, NoAttn: true},
		{Emb: 5, D: 4, H: 5, Ctx: CtxConv, Compose: true},
		{Emb: 5, D: 4, H: 5, Compose: true, NoAttn: true},
		{Emb: 5, D: 4, H: 5, Ctx: CtxGRU},
		{Emb: 5, D: 6, H: 5, Ctx: CtxGRU, Compose: true},
		{Emb: 5, D: 4, H: 5, Ctx: CtxConv, Words: 3},
		{Emb: 5, D: 4, H: 5, Ctx: CtxTransformer, Layers: 1},
		{Emb: 5, D: 8, H: 5, Ctx: CtxTransformer, Layers: 2, Words: 3},
		{Emb: 5, D: 4, H: 5, Ctx: CtxConv, Rels: 13},
		{Emb: 5, D: 4, H: 5, Ctx: CtxTransformer, Layers: 1, Rels: 14},
	} {
		rng := rand.New(rand.NewPCG(1, 2))
		m := jittered(cfg, rng, 0.1)
		for trial, target := range []uint8{1, 2, 6} {
			in := withRels(rng, withWords(rng, randInput(rng, cfg.Emb, 3+trial, 4), cfg.Words), cfg.Rels)
			loss := func() float64 {
				l, _ := Loss(m.Forward(in, nil), target)
				return l
			}
			var c Cache
			_, dz := Loss(m.Forward(in, &c), target)
			grad := make([]float64, len(m.P))
			m.Backward(in, &c, dz, grad, &Scratch{})
			checkGradient(t, fmt.Sprintf("%+v target=%d", cfg, target), m, loss, grad)
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

// TestForwardMatchesReference checks the forward pass (SIMD dot products,
// one dot per convolution output) against logits written down from the
// plain-loop forward pass it replaced, and against itself with the SIMD
// dot product switched off, at the shipped shapes and others.
func TestForwardMatchesReference(t *testing.T) {
	want := [][NumLabels]float64{
		{-5.012207185497098, -0.304269470342719, -4.298919913719739},
		{-1.064467325446367, 0.20225890972814065, -1.6411054064216735},
		{-4.8590627732683025, -2.1965951039388023, -3.2593810789406894},
		{1.67339241408806, 0.7824824638121629, 2.44474334152691},
		{0.49749830363595005, -1.8003114191508474, 0.5213717923479356},
		{2.9240227715870293, 0.546808218782409, 3.6632086603840657},
		{-1.967655562087005, 0.7190100771573809, 4.076117875010972},
		{-1.2104413806757053, 0.6676047670769494, 0.19402011247836476},
		{-1.832109170059612, 2.2279633505666987, 6.255178183806861},
		{-0.8251752299516362, -0.6513240710029303, -1.22143993851611},
		{-0.9571704386750148, 0.3649296138550616, -1.1514370643336267},
		{-0.8973589326159708, -0.8666824704116386, -1.68234139596499},
	}
	var got [][NumLabels]float64
	for _, cfg := range []Config{
		{Emb: 100, D: 64, H: 96, Ctx: CtxConv},
		{Emb: 100, D: 96, H: 128, Ctx: CtxConv},
		{Emb: 100, D: 48, H: 64},
		{Emb: 100, D: 64, H: 96, Ctx: CtxConv, NoAttn: true},
	} {
		rng := rand.New(rand.NewPCG(7, 8))
		m := jittered(cfg, rng, 0.05)
		for _, nm := range [][2]int{{8, 18}, {1, 1}, {12, 40}} {
			in := randInput(rng, 100, nm[0], nm[1])
			z := m.Forward(in, nil)
			scalar = true
			zs := m.Forward(in, nil)
			scalar = false
			for k := range z {
				if math.Abs(z[k]-zs[k]) > 1e-9 {
					t.Errorf("%+v %v: SIMD logits %v, scalar %v", cfg, nm, z, zs)
					break
				}
			}
			got = append(got, z)
		}
	}
	for i := range want {
		for k := range want[i] {
			if math.Abs(got[i][k]-want[i][k]) > 1e-9 {
				t.Errorf("case %d: logits %v, the reference forward pass gave %v", i, got[i], want[i])
				break
			}
		}
	}
}

// TestGradientDropout checks Backward with dropout against finite
// differences of the loss under the same masks.
func TestGradientDropout(t *testing.T) {
	cfg := Config{Emb: 5, D: 4, H: 5, Ctx: CtxConv}
	rng := rand.New(rand.NewPCG(1, 2))
	m := jittered(cfg, rng, 0.1)
	in := randInput(rng, cfg.Emb, 4, 5)
	cache := func() *Cache { return &Cache{Dropout: 0.3, Rand: rand.New(rand.NewPCG(9, 9))} }
	loss := func() float64 {
		l, _ := Loss(m.Forward(in, cache()), 2)
		return l
	}
	c := cache()
	_, dz := Loss(m.Forward(in, c), 2)
	dropped := 0
	for _, x := range append(append([]float64{}, c.mf...), c.mz...) {
		if x == 0 {
			dropped++
		}
	}
	if dropped == 0 {
		t.Fatal("no unit dropped: the test does not exercise the masks")
	}
	grad := make([]float64, len(m.P))
	m.Backward(in, c, dz, grad, &Scratch{})
	checkGradient(t, "dropout", m, loss, grad)
}

// checkGradient compares grad with central finite differences of loss
// for every parameter of m, reporting the first five that differ.
func checkGradient(t *testing.T, name string, m *Model, loss func() float64, grad []float64) {
	t.Helper()
	checkSliceGradient(t, name+" param", m.P, loss, grad)
}

// checkSliceGradient compares grad with central finite differences of
// loss for every value of x, reporting the first five that differ.
func checkSliceGradient(t *testing.T, name string, x []float64, loss func() float64, grad []float64) {
	t.Helper()
	const h = 1e-6
	bad := 0
	for i := range x {
		old := x[i]
		x[i] = old + h
		lp := loss()
		x[i] = old - h
		lm := loss()
		x[i] = old
		num := (lp - lm) / (2 * h)
		if d := math.Abs(num - grad[i]); d > 1e-5+1e-4*math.Abs(num) {
			if bad < 5 {
				t.Errorf("%s %d: backward %.8g, finite difference %.8g", name, i, grad[i], num)
			}
			bad++
		}
	}
}

// TestEnsembleOfOne checks that an ensemble of one network is that
// network, bit for bit, so a single-network model file judges as before.
func TestEnsembleOfOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	m := New(Config{Emb: 5, D: 4, H: 5, Ctx: CtxConv}, rng)
	m.Temperature, m.Bias = 1.3, [NumLabels]float64{0.2, -0.1, 0}
	for range 5 {
		in := randInput(rng, 5, 4, 7)
		if got, want := EnsembleProbs([]*Model{m}, in, nil), m.Probs(in, nil); got != want {
			t.Errorf("ensemble of one %v, the network %v", got, want)
		}
	}
}

// TestFastMatchesForward: the float32 matrix-product forward pass the
// judge runs gives the float64 logits to float32's precision for every
// encoder (intra-sentence attention and the ablation without attention
// through Model.Forward itself), on sides of one token, many and none,
// and an ensemble of Fast networks gives the float64 ensemble's
// calibrated probabilities.
func TestFastMatchesForward(t *testing.T) {
	for _, cfg := range []Config{
		{Emb: 100, D: 64, H: 96, Ctx: CtxConv},
		{Emb: 100, D: 48, H: 64},
		{Emb: 100, D: 32, H: 48, Ctx: CtxConvSelf},
		{Emb: 100, D: 64, H: 96, Ctx: CtxConv, NoAttn: true},
		{Emb: 100, D: 64, H: 96, Ctx: CtxConv, Compose: true},
		{Emb: 100, D: 48, H: 64, Compose: true},
		{Emb: 100, D: 64, H: 96, Ctx: CtxGRU},
		{Emb: 100, D: 64, H: 96, Ctx: CtxConv, Words: 7},
		{Emb: 100, D: 32, H: 48, Ctx: CtxTransformer, Layers: 2},
		{Emb: 100, D: 96, H: 128, Ctx: CtxConv, Rels: 13},
		{Emb: 100, D: 32, H: 48, Ctx: CtxTransformer, Layers: 1, Rels: 13},
	} {
		rng := rand.New(rand.NewPCG(9, 10))
		m0, m1 := jittered(cfg, rng, 0.05), jittered(cfg, rng, 0.05)
		m0.Temperature, m0.Bias = 1.3, [NumLabels]float64{0.2, -0.1, 0}
		f0, f1 := NewFast(m0), NewFast(m1)
		var c Cache32
		for _, nm := range [][2]int{{8, 18}, {1, 1}, {12, 40}, {0, 5}, {3, 0}, {30, 2}} {
			in := withRels(rng, withWords(rng, randInput(rng, 100, nm[0], nm[1]), cfg.Words), cfg.Rels)
			want := m0.Forward(in, nil)
			got, gotNew := f0.Forward(in, &c), f0.Forward(in, nil)
			for k := range want {
				if math.Abs(got[k]-want[k]) > 1e-4 || got != gotNew {
					t.Errorf("%+v %v: float32 logits %v (new cache %v), float64 %v", cfg, nm, got, gotNew, want)
					break
				}
			}
			pw := EnsembleProbs([]*Model{m0, m1}, in, nil)
			pg := FastEnsembleProbs([]*Fast{f0, f1}, in, &c)
			for k := range pw {
				if math.Abs(pg[k]-pw[k]) > 1e-5 {
					t.Errorf("%+v %v: float32 ensemble %v, float64 %v", cfg, nm, pg, pw)
					break
				}
			}
			if p := f0.Probs(in, &c); math.Abs(p[0]-m0.Probs(in, nil)[0]) > 1e-5 {
				t.Errorf("%+v %v: float32 probabilities %v, float64 %v", cfg, nm, p, m0.Probs(in, nil))
			}
		}
	}
}

// TestSoftLoss: against a one-hot distribution SoftLoss is Loss of that
// label; its gradient matches central finite differences; and it is
// lowest when the model's probabilities are the target's.
func TestSoftLoss(t *testing.T) {
	z := [NumLabels]float64{0.3, -1.2, 2}
	for k := range NumLabels {
		var q [NumLabels]float64
		q[k] = 1
		ls, dzs := SoftLoss(z, q)
		l, dz := Loss(z, uint8(1<<k))
		if math.Abs(ls-l) > 1e-12 || math.Abs(dzs[0]-dz[0])+math.Abs(dzs[1]-dz[1])+math.Abs(dzs[2]-dz[2]) > 1e-12 {
			t.Errorf("one-hot label %d: SoftLoss %g %v, Loss %g %v", k, ls, dzs, l, dz)
		}
	}
	q := [NumLabels]float64{0.5, 0.2, 0.3}
	_, dz := SoftLoss(z, q)
	for k := range NumLabels {
		const h = 1e-6
		up, down := z, z
		up[k] += h
		down[k] -= h
		lu, _ := SoftLoss(up, q)
		ld, _ := SoftLoss(down, q)
		if num := (lu - ld) / (2 * h); math.Abs(num-dz[k]) > 1e-6 {
			t.Errorf("gradient %d: %g, finite differences %g", k, dz[k], num)
		}
	}
	atQ := [NumLabels]float64{math.Log(0.5), math.Log(0.2), math.Log(0.3)}
	best, _ := SoftLoss(atQ, q)
	if other, _ := SoftLoss(z, q); !(best < other) {
		t.Errorf("loss at the target's own probabilities %g is not below %g", best, other)
	}
}

// TestGradientPerturbed checks, for each contextual encoder, Backward's
// parameter gradients with a perturbation of the projections set
// (Cache.AdvA, AdvB), and the gradient EncoderInputGrad gives with respect
// to the perturbation, against central finite differences.
func TestGradientPerturbed(t *testing.T) {
	for _, cfg := range []Config{
		{Emb: 5, D: 4, H: 5, Ctx: CtxConv},
		{Emb: 5, D: 4, H: 5, Ctx: CtxConvSelf},
		{Emb: 5, D: 4, H: 5, Ctx: CtxGRU},
	} {
		rng := rand.New(rand.NewPCG(5, 6))
		m := jittered(cfg, rng, 0.1)
		in := randInput(rng, cfg.Emb, 3, 4)
		advA, advB := make([]float64, 3*cfg.D), make([]float64, 4*cfg.D)
		for _, r := range [][]float64{advA, advB} {
			for i := range r {
				r[i] = 0.3 * rng.NormFloat64()
			}
		}
		const target = 2
		loss := func() float64 {
			l, _ := Loss(m.Forward(in, &Cache{AdvA: advA, AdvB: advB}), target)
			return l
		}
		c := Cache{AdvA: advA, AdvB: advB}
		_, dz := Loss(m.Forward(in, &c), target)
		grad := make([]float64, len(m.P))
		var ws Scratch
		m.Backward(in, &c, dz, grad, &ws)
		name := fmt.Sprintf("%+v perturbed", cfg)
		checkGradient(t, name, m, loss, grad)
		ga, gb := ws.EncoderInputGrad()
		if len(ga) != len(advA) || len(gb) != len(advB) {
			t.Fatalf("%s: input gradients of %d and %d values, want %d and %d", name, len(ga), len(gb), len(advA), len(advB))
		}
		checkSliceGradient(t, name+" claim input", advA, loss, ga)
		checkSliceGradient(t, name+" passage input", advB, loss, gb)
		// The perturbation moves the logits: it is read.
		plain, perturbed := m.Forward(in, nil), m.Forward(in, &Cache{AdvA: advA, AdvB: advB})
		if plain == perturbed {
			t.Errorf("%s: the perturbation left the logits at %v", name, plain)
		}
		// A cache that ran the pair without a perturbation runs it with
		// one as a new cache does, and back.
		var reused Cache
		m.Forward(in, &reused)
		reused.AdvA, reused.AdvB = advA, advB
		if z := m.Forward(in, &reused); z != perturbed {
			t.Errorf("%s: perturbed logits %v on a reused cache, %v on a new one", name, z, perturbed)
		}
		reused.AdvA, reused.AdvB = nil, nil
		if z := m.Forward(in, &reused); z != plain {
			t.Errorf("%s: logits %v on a reused cache without the perturbation, %v on a new one", name, z, plain)
		}
	}
}

// TestValidateTransformer: a transformer's shape is checked as the other
// encoders' are, and a model file cannot give layers to another encoder.
func TestValidateTransformer(t *testing.T) {
	good := Config{Emb: 5, D: 8, H: 5, Ctx: CtxTransformer, Layers: 2}
	if err := New(good, rand.New(rand.NewPCG(1, 1))).Validate(); err != nil {
		t.Fatalf("valid transformer: %v", err)
	}
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Emb: 5, D: 8, H: 5, Ctx: CtxTransformer}, "0 layers"},
		{Config{Emb: 5, D: 8, H: 5, Ctx: CtxTransformer, Layers: MaxLayers + 1}, "want 1 to 8"},
		{Config{Emb: 5, D: 6, H: 5, Ctx: CtxTransformer, Layers: 1}, "multiple of 4"},
		{Config{Emb: 5, D: 8, H: 5, Ctx: CtxTransformer, Layers: 1, Compose: true}, "no comparisons"},
		{Config{Emb: 5, D: 8, H: 5, Ctx: CtxConv, Layers: 1}, "another encoder"},
		{Config{Emb: 5, D: 8, H: 5, Ctx: CtxConv, Rels: MaxRelations + 1}, "17 relation bits"},
		{Config{Emb: 5, D: 8, H: 5, Rels: -1}, "-1 relation bits"},
	} {
		m := &Model{Cfg: c.cfg, P: make([]float64, c.cfg.Size()), Temperature: 1}
		if err := m.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one that says %q", c.cfg, err, c.want)
		}
	}
	m := New(good, rand.New(rand.NewPCG(1, 1)))
	m.P = m.P[:len(m.P)-1]
	if err := m.Validate(); err == nil {
		t.Error("a transformer one parameter short validated")
	}
}

// TestRels: a model reads the relation bits its Config.Rels counts and no
// more. A bit beyond them changes nothing (it is masked, not read out of
// range); within them it moves the logits, in float64 and in float32; and
// Rels 0 is the NumRelations of the models written before the field.
func TestRels(t *testing.T) {
	if d := (Config{Emb: 5, D: 4, H: 5, Rels: NumRelations + 1}).Size() - (Config{Emb: 5, D: 4, H: 5}).Size(); d != 1+2*4 {
		t.Errorf("one more relation adds %d parameters, want 9 (its attention weight and a weight per comparison unit of each side)", d)
	}
	if a, b := (Config{Emb: 5, D: 4, H: 5}).Size(), (Config{Emb: 5, D: 4, H: 5, Rels: NumRelations}).Size(); a != b {
		t.Errorf("Rels 0 gives %d parameters, Rels %d %d", a, NumRelations, b)
	}
	for _, cfg := range []Config{
		{Emb: 100, D: 32, H: 48, Ctx: CtxConv},
		{Emb: 100, D: 32, H: 48, Ctx: CtxConv, Rels: 13},
		{Emb: 100, D: 32, H: 48, Ctx: CtxTransformer, Layers: 1, Rels: 13},
	} {
		rng := rand.New(rand.NewPCG(5, 6))
		m := jittered(cfg, rng, 0.05)
		f := NewFast(m)
		in := randInput(rng, 100, 6, 9)
		plain := m.Forward(in, nil)
		bit := *in
		bit.Rels = append([]Rel(nil), in.Rels...)
		for i := range bit.Rels {
			bit.Rels[i].Bits |= 1 << 12
		}
		high := bit
		high.Rels = append([]Rel(nil), in.Rels...)
		for i := range high.Rels {
			high.Rels[i].Bits |= 1 << 15
		}
		if got := m.Forward(&high, nil); got != plain {
			t.Errorf("%+v: bit 15, which the model does not read, moved the logits %v to %v", cfg, plain, got)
		}
		got, got32 := m.Forward(&bit, nil), f.Forward(&bit, nil)
		if reads := cfg.Relations() > 12; (got != plain) != reads {
			t.Errorf("%+v: bit 12 read %t, logits %v against %v", cfg, reads, got, plain)
		}
		if math.Abs(got32[0]-got[0]) > 1e-4 {
			t.Errorf("%+v: float32 logits %v, float64 %v with bit 12", cfg, got32, got)
		}
	}
}
