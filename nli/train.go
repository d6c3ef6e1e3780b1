package nli

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"sync"

	"golang.org/x/sync/errgroup"
)

// TrainConfig sets up training. The zero value of every field but DataDir
// means the default given.
type TrainConfig struct {
	// DataDir holds the labeled data (the layout of ../shared/data).
	DataDir string
	// Seed makes training deterministic; default 1.
	Seed int64
	// Hidden is the hidden layer's width; default 64.
	Hidden int
	// RelHidden is the width of the relation layer; default 32.
	RelHidden int
	// Members is the number of networks in the ensemble, each trained from
	// its own random start; default 5.
	Members int
	// Epochs over the training pairs; default 25.
	Epochs int
	// LearningRate of Adam; default 0.003.
	LearningRate float64
	// BatchSize of a gradient step; default 64.
	BatchSize int
	// L2 is the weight decay; default 1e-3.
	L2 float64
	// SetWeights weighs each set's pairs in the loss (see the Set*
	// constants); a set not listed weighs 1.
	SetWeights map[string]float64
}

// DefaultSetWeights balance the training sets: FEVER and SciFact are small
// and closest to the claims verity checks, so they weigh more; VitaminC
// synthetic and the random neutrals are many and easy.
var DefaultSetWeights = map[string]float64{SetFEVER: 2, SetSciFact: 3, SetVitaminSyn: 0.5, SetRandom: 0.5}

func (c TrainConfig) withDefaults() TrainConfig {
	if c.Seed == 0 {
		c.Seed = 1
	}
	if c.Hidden <= 0 {
		c.Hidden = 64
	}
	if c.RelHidden <= 0 {
		c.RelHidden = 32
	}
	if c.Members <= 0 {
		c.Members = 5
	}
	if c.Epochs <= 0 {
		c.Epochs = 25
	}
	if c.LearningRate <= 0 {
		c.LearningRate = 0.003
	}
	if c.BatchSize <= 0 {
		c.BatchSize = 64
	}
	if c.L2 <= 0 {
		c.L2 = 1e-3
	}
	if c.SetWeights == nil {
		c.SetWeights = DefaultSetWeights
	}
	return c
}

// Metrics report a trained model on the development splits, by set name.
type Metrics struct {
	Sets map[string]SetMetrics
	// Dev holds the development pairs measured, by set name, so that
	// callers can score them further or write them out.
	Dev map[string][]Pair
}

// SetMetrics are the pair-level accuracy and log-loss (nats) of one set.
type SetMetrics struct {
	N        int
	Accuracy float64
	LogLoss  float64
}

// Train reads the labeled data in cfg.DataDir (see [LoadSets]), trains a
// model on the train splits, fits its temperature on the calibration
// splits and measures it on the development splits, which it never trains
// on. logf, when not nil, receives progress lines.
func Train(ctx context.Context, cfg TrainConfig, logf func(format string, args ...any)) (*Model, Metrics, error) {
	cfg = cfg.withDefaults()
	if logf == nil {
		logf = func(string, ...any) {}
	}
	sets, err := LoadSets(cfg.DataDir, cfg.Seed)
	if err != nil {
		return nil, Metrics{}, fmt.Errorf("train: %w", err)
	}
	var train, calib []Weighted
	for _, name := range sets.Names() {
		s := sets[name]
		logf("set %s: %d train, %d calibration, %d development pairs", name, len(s[SplitTrain]), len(s[SplitCalib]), len(s[SplitDev]))
		w := 1.0
		if v, ok := cfg.SetWeights[name]; ok {
			w = v
		}
		for _, p := range s[SplitTrain] {
			train = append(train, Weighted{p, w})
		}
		// Each set's calibration pairs weigh the same in total, so the
		// temperature suits every source, not just the largest.
		for _, p := range s[SplitCalib] {
			calib = append(calib, Weighted{p, 1000 / float64(len(s[SplitCalib]))})
		}
	}
	m, err := TrainPairs(ctx, cfg, train, calib, logf)
	if err != nil {
		return nil, Metrics{}, err
	}
	met := Metrics{Sets: map[string]SetMetrics{}, Dev: map[string][]Pair{}}
	for _, name := range sets.Names() {
		dev := sets[name][SplitDev]
		sm, err := m.Evaluate(ctx, dev)
		if err != nil {
			return nil, Metrics{}, err
		}
		met.Sets[name] = sm
		met.Dev[name] = dev
		logf("dev %s: n=%d accuracy=%.3f log-loss=%.3f", name, sm.N, sm.Accuracy, sm.LogLoss)
	}
	m.Info = map[string]string{
		"data":   "FEVER paper_dev, VitaminC real_a + synthetic, SNLI dev, SciFact train pairs (train splits only)",
		"seed":   strconv.FormatInt(cfg.Seed, 10),
		"hidden": strconv.Itoa(cfg.Hidden), "rel_hidden": strconv.Itoa(cfg.RelHidden), "members": strconv.Itoa(cfg.Members),
		"epochs": strconv.Itoa(cfg.Epochs),
	}
	return m, met, nil
}

// Weighted is a training pair and its weight in the loss.
type Weighted struct {
	Pair
	Weight float64
}

// Evaluate measures the model on pairs.
func (m *Model) Evaluate(ctx context.Context, pairs []Pair) (SetMetrics, error) {
	xs, err := m.featurize(ctx, pairs)
	if err != nil {
		return SetMetrics{}, err
	}
	sm := SetMetrics{N: len(pairs)}
	for i, x := range xs {
		p := m.probs(m.logits(x))
		if argmax(p) == pairs[i].Label {
			sm.Accuracy++
		}
		sm.LogLoss -= math.Log(math.Max(p[pairs[i].Label], 1e-12))
	}
	if len(pairs) > 0 {
		sm.Accuracy /= float64(len(pairs))
		sm.LogLoss /= float64(len(pairs))
	}
	return sm, nil
}

func argmax(p [numLabels]float64) Label {
	best := Entail
	for k := range numLabels {
		if p[k] > p[best] {
			best = k
		}
	}
	return best
}

// featurize computes the network inputs of pairs on two goroutines.
func (m *Model) featurize(ctx context.Context, pairs []Pair) ([]input, error) {
	xs := make([]input, len(pairs))
	g, ctx := errgroup.WithContext(ctx)
	const workers = 2
	for w := range workers {
		g.Go(func() error {
			for i := w; i < len(pairs); i += workers {
				if i%512 == 0 && ctx.Err() != nil {
					return ctx.Err()
				}
				// Training passages are evidence sentences and are read
				// whole; only judging focuses long passages.
				xs[i] = m.input(analyse(pairs[i].Claim), analyse(pairs[i].Passage))
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, fmt.Errorf("featurize: %w", err)
	}
	return xs, nil
}

// TrainPairs trains a model on train and fits its temperature on calib.
// cfg.DataDir is not used.
func TrainPairs(ctx context.Context, cfg TrainConfig, train, calib []Weighted, logf func(format string, args ...any)) (*Model, error) {
	cfg = cfg.withDefaults()
	if logf == nil {
		logf = func(string, ...any) {}
	}
	if len(train) == 0 {
		return nil, fmt.Errorf("train: no training pairs")
	}
	nf := numFeatures
	m := &Model{Format: modelFormat, Features: featureSchema(), Temperature: 1,
		Mean: make([]float64, nf), Std: make([]float64, nf)}
	for i := range m.Std {
		m.Std[i] = 1
	}
	m.IDF, m.MaxIDF = computeIDF(train)

	// Raw features first (identity standardisation), then the statistics.
	raw, err := m.featurize(ctx, plain(train))
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	for j := range nf {
		var s, ss float64
		for _, in := range raw {
			s += in.x[j]
			ss += in.x[j] * in.x[j]
		}
		n := float64(len(raw))
		m.Mean[j] = s / n
		m.Std[j] = math.Sqrt(math.Max(ss/n-m.Mean[j]*m.Mean[j], 0))
		if m.Std[j] < 1e-6 {
			m.Std[j] = 1
		}
	}
	for _, in := range raw {
		for j := range in.x {
			in.x[j] = (in.x[j] - m.Mean[j]) / m.Std[j]
		}
	}

	var calibX []input
	if len(calib) > 0 {
		if calibX, err = m.featurize(ctx, plain(calib)); err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
	}
	// Members train on two goroutines; each has its own random stream, so
	// the result does not depend on scheduling.
	m.Nets = make([]*Net, cfg.Members)
	var logMu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(2)
	for k := range m.Nets {
		g.Go(func() error {
			rng := rand.New(rand.NewPCG(uint64(cfg.Seed), 0x0a11+uint64(k)))
			net, err := trainNet(gctx, cfg, rng, raw, train, calibX, calib, func(format string, args ...any) {
				logMu.Lock()
				defer logMu.Unlock()
				logf("network %d: "+format, append([]any{k + 1}, args...)...)
			})
			m.Nets[k] = net
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	if len(calibX) > 0 {
		m.Temperature = fitTemperature(m, calibX, calib)
		var acc, ll float64
		for i, x := range calibX {
			p := m.probs(m.logits(x))
			if argmax(p) == calib[i].Label {
				acc += calib[i].Weight
			}
			ll -= calib[i].Weight * math.Log(math.Max(p[calib[i].Label], 1e-12))
		}
		var wsum float64
		for _, w := range calib {
			wsum += w.Weight
		}
		logf("temperature %.3f: calibration accuracy %.4f loss %.4f", m.Temperature, acc/wsum, ll/wsum)
	}
	return m, nil
}

// trainNet trains one member with Adam on mini-batches, keeping the
// parameters of the epoch with the lowest calibration loss (early
// stopping).
func trainNet(ctx context.Context, cfg TrainConfig, rng *rand.Rand, raw []input, train []Weighted, calibX []input, calib []Weighted, logf func(format string, args ...any)) (*Net, error) {
	net := newNet(rng, cfg.Hidden, cfg.RelHidden)
	params := net.params()
	opt := newAdam(params, cfg.LearningRate)
	grads := make(gradients, len(params))
	for i, p := range params {
		grads[i] = make([]float64, len(p))
	}
	order := make([]int, len(train))
	for i := range order {
		order[i] = i
	}
	act := &activations{}
	bestLoss := math.Inf(1)
	var best [][]float64
	for epoch := 1; epoch <= cfg.Epochs; epoch++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var loss, wsum float64
		for start := 0; start < len(order); start += cfg.BatchSize {
			end := min(start+cfg.BatchSize, len(order))
			for _, g := range grads {
				clear(g)
			}
			var bw float64
			for _, idx := range order[start:end] {
				loss += train[idx].Weight * net.backward(raw[idx], train[idx].Label, train[idx].Weight, act, grads)
				bw += train[idx].Weight
			}
			wsum += bw
			if bw == 0 {
				continue
			}
			for i, g := range grads {
				for j := range g {
					g[j] /= bw
				}
				if i%2 == 0 { // decay weights (WR, W1, W2), not biases
					for j := range g {
						g[j] += cfg.L2 * params[i][j]
					}
				}
			}
			opt.step(params, grads)
		}
		msg := fmt.Sprintf("epoch %d: train loss %.4f", epoch, loss/wsum)
		if len(calibX) > 0 {
			acc, ll := score(calibX, calib, 1, net.forward)
			msg += fmt.Sprintf(", calibration accuracy %.4f loss %.4f", acc, ll)
			if ll < bestLoss {
				bestLoss = ll
				best = best[:0]
				for _, p := range params {
					best = append(best, slices.Clone(p))
				}
			}
		}
		logf("%s", msg)
	}
	for i, p := range best {
		copy(params[i], p)
	}
	return net, nil
}

func plain(ws []Weighted) []Pair {
	out := make([]Pair, len(ws))
	for i, w := range ws {
		out[i] = w.Pair
	}
	return out
}

// score returns the weighted accuracy and log-loss of the logits f gives
// at temperature t.
func score(xs []input, ws []Weighted, t float64, f func(input, *activations) [numLabels]float64) (acc, loss float64) {
	var wsum float64
	act := &activations{}
	for i, x := range xs {
		p := softmax(f(x, act), t)
		w := ws[i].Weight
		if argmax(p) == ws[i].Label {
			acc += w
		}
		loss -= w * math.Log(math.Max(p[ws[i].Label], 1e-12))
		wsum += w
	}
	return acc / wsum, loss / wsum
}

// fitTemperature minimises the calibration log-loss over the temperature
// by golden-section search on log t in [log 0.25, log 8].
func fitTemperature(m *Model, xs []input, ws []Weighted) float64 {
	logits := make([][numLabels]float64, len(xs))
	for i, x := range xs {
		logits[i] = m.logits(x)
	}
	nll := func(lt float64) float64 {
		t := math.Exp(lt)
		var l, wsum float64
		for i, z := range logits {
			p := softmax(z, t)
			l -= ws[i].Weight * math.Log(math.Max(p[ws[i].Label], 1e-12))
			wsum += ws[i].Weight
		}
		return l / wsum
	}
	a, b := math.Log(0.25), math.Log(8)
	phi := (math.Sqrt(5) - 1) / 2
	c, d := b-phi*(b-a), a+phi*(b-a)
	fc, fd := nll(c), nll(d)
	for range 60 {
		if fc < fd {
			b, d, fd = d, c, fc
			c = b - phi*(b-a)
			fc = nll(c)
		} else {
			a, c, fc = c, d, fd
			d = a + phi*(b-a)
			fd = nll(d)
		}
	}
	return math.Exp((a + b) / 2)
}

// computeIDF returns log(N/df) over the distinct training passages for
// stems found in at least two of them, and log(N) for the rest.
func computeIDF(train []Weighted) (map[string]float64, float64) {
	seen := map[string]bool{}
	df := map[string]int{}
	n := 0
	for _, w := range train {
		if seen[w.Passage] {
			continue
		}
		seen[w.Passage] = true
		n++
		for s := range analyse(w.Passage).stems {
			df[s]++
		}
	}
	maxIDF := math.Log(float64(n + 1))
	idf := map[string]float64{}
	keys := make([]string, 0, len(df))
	for k := range df {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if df[k] >= 2 {
			// Rounded to 3 decimals: the file stays small and the
			// features do not need more.
			idf[k] = math.Round(1000*math.Log(float64(n+1)/float64(df[k]))) / 1000
		}
	}
	return idf, maxIDF
}

// adam is the Adam optimiser (Kingma and Ba, 2015) over a list of
// parameter slices.
type adam struct {
	lr, b1, b2, eps float64
	t               int
	m, v            [][]float64
}

func newAdam(params [][]float64, lr float64) *adam {
	a := &adam{lr: lr, b1: 0.9, b2: 0.999, eps: 1e-8}
	for _, p := range params {
		a.m = append(a.m, make([]float64, len(p)))
		a.v = append(a.v, make([]float64, len(p)))
	}
	return a
}

func (a *adam) step(params, grads [][]float64) {
	a.t++
	c1 := 1 - math.Pow(a.b1, float64(a.t))
	c2 := 1 - math.Pow(a.b2, float64(a.t))
	for i, p := range params {
		m, v, g := a.m[i], a.v[i], grads[i]
		for j := range p {
			m[j] = a.b1*m[j] + (1-a.b1)*g[j]
			v[j] = a.b2*v[j] + (1-a.b2)*g[j]*g[j]
			p[j] -= a.lr * (m[j] / c1) / (math.Sqrt(v[j]/c2) + a.eps)
		}
	}
}
