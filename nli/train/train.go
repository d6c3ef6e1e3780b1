package train

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/verity-fc/verity/nli"
	"github.com/verity-fc/verity/nli/align"
)

// Config sets up training; the zero value of a field means its default.
type Config struct {
	DataDir string
	// Seed makes training deterministic; default 1.
	Seed int64
	// D and H are the network's widths; defaults 64 and 96.
	D, H int
	// Epochs over the training examples; default 4.
	Epochs int
	// LearningRate of Adam; default 0.002, decayed by LRDecay per epoch
	// (default 0.8).
	LearningRate, LRDecay float64
	// BatchSize of a gradient step; default 32.
	BatchSize int
	// Checkpoint is a file to resume from and to write after every epoch;
	// empty for none.
	Checkpoint string
	// Ablate leaves out one part: "wordnet", "quantity" or "attention".
	Ablate string
	// MaxTrain, when positive, trains on that many examples only (drawn
	// with the seed), for a reduced budget.
	MaxTrain int
	// Dropout is the probability of dropping a pooled comparison unit or
	// a hidden unit in training; 0 for none (the default).
	Dropout float64
	// Distill, when positive, trains on a teacher's probabilities as well
	// as on the labels (knowledge distillation, Hinton et al., 2015): the
	// loss of a training pair is (1 - Distill) times its label's
	// cross-entropy plus Distill times the cross-entropy against
	// Encoded.Soft, which SoftTargets fills from Teacher; TeacherKey names
	// the teacher in the checkpoint key and the model's information.
	Distill    float64
	Teacher    []*align.Model
	TeacherKey string
	// DistillTemperature softens the distillation term (Hinton et al.,
	// 2015): the teacher's probabilities raised to 1/T and renormalised
	// are learnt by the network's logits divided by T, and the term is
	// scaled by T² so that its gradients keep their size; 0 or 1 for
	// none.
	DistillTemperature float64
	// TeacherMembers, when positive, is the size of the teacher ensemble
	// TrainTeacher trains from this configuration without distillation,
	// so that one command trains the teacher and then its students.
	// TeacherD and TeacherH, when positive, are the teacher's widths in
	// place of D and H: a teacher of the default widths can teach wider
	// students.
	TeacherMembers     int
	TeacherD, TeacherH int
	// WordDropout is the probability that a training token is read
	// without its word vector, as an unknown word (nli.DropWords); 0 for
	// none (the default).
	WordDropout float64
	// Context is the contextual encoder before alignment: "conv" (a
	// width-3 convolution, the default), "convself" (the convolution
	// followed by intra-sentence attention), "gru" or "none"; or
	// "transformer", a small transformer over claim and passage as one
	// sequence in place of the alignment (align.CtxTransformer) of Layers
	// layers (default 2).
	Context string
	Layers  int
	// Compose adds the composition convolution over the comparisons
	// (align.Config.Compose).
	Compose bool
	// Negate adds the negated claims of Negations to the training split
	// ('verity train nli --negate'); it is recorded in the model's
	// information.
	Negate bool
	// DropAsides reads passages without their bracketed asides that
	// share nothing with the claim (nli.EncoderOptions.DropAsides).
	DropAsides bool
	// Swap adds the swapped contradictions of Swaps to the training
	// split ('verity train nli --swap'); Info records it.
	Swap bool
	// TuneWords, when positive, learns a correction of the word vectors
	// of at most that many of the training split's most frequent words
	// (align.Config.Words); Vocab is the words, which Vocabulary draws
	// and Encode and Train are given.
	TuneWords int
	Vocab     []string
	// WordDecay, when positive, shrinks the tuned words' corrections
	// towards zero by lr*WordDecay of themselves every step (decoupled
	// weight decay, Loshchilov and Hutter, 2019): a word whose batches
	// disagree about its correction keeps little of it.
	WordDecay float64
	// Distractors adds the pairs of DistractorSentences, FEVER's pairs
	// with a sentence about another subject added, to every split
	// ('verity train nli --distractors'); the caller adds them, and Info
	// records it.
	Distractors bool
	// Titles opens the Wikipedia sets' passages with their page's title
	// (LoadWith); the caller loads the data, and Info records it.
	Titles bool
	// TitleShare, when positive, gives that share of the training split's
	// Wikipedia pairs their page's title (TitleSome), the calibration and
	// development splits none; the caller applies it, and Info records it.
	TitleShare float64
	// EMA, when positive, keeps an exponential moving average of the
	// weights with that decay per step (Polyak averaging; 0.999 averages
	// over about the last 1,000 steps) and chooses among the averages
	// instead of the weights themselves: the epoch kept is the one whose
	// average has the lowest calibration loss. The training trajectory
	// is the same as without it.
	EMA float64
	// NegatedAntonyms relates antonyms under one negation as synonyms
	// (nli.EncoderOptions.NegatedAntonyms); the caller encodes with
	// EncoderOptions, and Info records it.
	NegatedAntonyms bool
	// Cousins widens the co-hyponym relation to words that share a
	// hypernym within two steps (nli.EncoderOptions.Cousins); the caller
	// encodes with EncoderOptions.
	Cousins bool
	// CousinRelation gives cousins a relation of their own
	// (nli.EncoderOptions.CousinRelation): the networks read 13
	// relations. Not with Cousins.
	CousinRelation bool
	// Weights replaces the weights of the named sets (BaseWeights,
	// ExtraFiles) in training and calibration ('verity train nli
	// --set-weight'); ApplyWeights applies them and Info records them.
	Weights map[string]float64
	// ExactFigures encodes the training pairs with the judge's exact
	// reading of figures (nli.EncoderOptions.ExactFigures); Info records
	// it.
	ExactFigures bool
	// Members is the number of networks of the ensemble TrainMembers
	// trains (default 1); Train itself trains one, Member.
	Members int
	// SourcePriors trains on logits adjusted by each source's label
	// prior (logit adjustment, Menon et al., 2021, per source): a
	// training or calibration pair's loss reads z + log prior(source),
	// where a source is the data file the pair comes from (FEVER and the
	// pairs built from it are one) and its prior is the weighted share of
	// each label among its training pairs (SourcePriors). The network
	// itself, which the judge runs, has no adjustment: it is left to tell
	// the labels apart within a source, and not to learn how often each
	// source uses each label ('verity train nli --source-priors'). A
	// teacher that TrainTeacher trains does not use it.
	SourcePriors bool
	// CompleteSourcesOnly, with SourcePriors, adjusts only the sources
	// that use every label; the others (FoolMeTwice, VitaminC's
	// synthetic pairs) are trained unadjusted ('verity train nli
	// --source-priors --complete-sources-only').
	CompleteSourcesOnly bool
	// Adversarial, when positive, trains each pair a second time with its
	// token projections (the contextual encoder's inputs) moved in the
	// direction that raises its loss most, by this share of their norm
	// (adversarial training with the fast gradient method, Goodfellow et
	// al., 2015; on embeddings, Miyato et al., 2017); each pass weighs
	// half ('verity train nli --adversarial'). It needs a contextual
	// encoder. A teacher that TrainTeacher trains does not use it.
	Adversarial float64
	// WeightDecay, when positive, shrinks every weight of the network
	// (the tuned words aside, which WordDecay governs) towards zero by
	// learning rate x WeightDecay of itself every step: decoupled weight
	// decay (AdamW, Loshchilov and Hutter, 2019) on matrices, biases and
	// relation weights alike ('verity train nli --weight-decay'). A
	// teacher that TrainTeacher trains does not use it.
	WeightDecay float64
	// LabelSmoothing, when positive, trains each pair's label term against
	// a target that keeps 1 - LabelSmoothing on the pair's label (or set
	// of labels) and spreads LabelSmoothing evenly over the three labels
	// (label smoothing, Szegedy et al., 2016; 'verity train nli
	// --label-smoothing'). The distillation term is left as it is. A
	// teacher that TrainTeacher trains does not use it.
	LabelSmoothing float64
	// Substitute, when positive, is the share of plain words replaced in
	// the copies of the training pairs that Substitute adds for the
	// teacher to label ('verity train nli --substitute'); the run needs a
	// teacher. Train reads it only for the checkpoint's key and the file's
	// information; the caller adds the copies.
	Substitute float64
	// AsJudged trains on each training-split pair's passage as the judge
	// reads it (Readings; 'verity train nli --as-judged'). The
	// calibration and development splits are read as before.
	AsJudged bool
	// Member numbers the networks of an ensemble: member 0 is the network
	// the seed alone gives; member k > 0 starts from other weights and
	// sees the pairs in another order, on the same data and splits.
	Member int
}

// EncoderOptions are the encoding choices of cfg, for Encode and the
// model file.
func (c Config) EncoderOptions() nli.EncoderOptions {
	return nli.EncoderOptions{Vocab: c.Vocab, NegatedAntonyms: c.NegatedAntonyms, Cousins: c.Cousins, CousinRelation: c.CousinRelation, DropAsides: c.DropAsides, ExactFigures: c.ExactFigures}
}

// netSeed seeds the network's initial weights, the order of the pairs and
// the dropout masks: the seed for member 0, so that a single network is
// the one it always was, and another stream for each other member.
func (c Config) netSeed() uint64 { return uint64(c.Seed) + uint64(c.Member)<<32 }

// ContextCode maps Config.Context to align.Config.Ctx.
func ContextCode(s string) (int, error) {
	switch s {
	case "", "conv":
		return align.CtxConv, nil
	case "none":
		return align.CtxNone, nil
	case "convself":
		return align.CtxConvSelf, nil
	case "gru":
		return align.CtxGRU, nil
	case "transformer":
		return align.CtxTransformer, nil
	}
	return 0, fmt.Errorf("unknown contextual encoder %q: want conv, convself, gru, none or transformer", s)
}

// Shards is the number of fixed parts each batch is split into; the parts
// are computed in parallel and their gradients summed in order, so the
// result does not depend on how many cores run them.
const Shards = 2

// sharded runs f on Shards contiguous parts of [0, n) in parallel and
// returns when all are done.
func sharded(n int, f func(shard, lo, hi int)) {
	var wg sync.WaitGroup
	for s := 1; s < Shards; s++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(s, s*n/Shards, (s+1)*n/Shards)
		}()
	}
	f(0, 0, n/Shards)
	wg.Wait()
}

func (c Config) withDefaults() Config {
	if c.Seed == 0 {
		c.Seed = 1
	}
	if c.D <= 0 {
		c.D = 64
	}
	if c.H <= 0 {
		c.H = 96
	}
	if c.Epochs <= 0 {
		c.Epochs = 4
	}
	if c.LearningRate <= 0 {
		c.LearningRate = 0.002
	}
	if c.LRDecay <= 0 {
		c.LRDecay = 0.8
	}
	if c.BatchSize <= 0 {
		c.BatchSize = 32
	}
	if c.Context == "" {
		c.Context = "conv"
	}
	if c.Context == "transformer" && c.Layers == 0 {
		c.Layers = 2
	}
	return c
}

// Encoded is an example with its network input.
type Encoded struct {
	Example
	In     *align.Input
	Weight float64
	// Soft is a teacher's probabilities for the pair (SoftTargets), nil
	// when it has none.
	Soft *[align.NumLabels]float64
}

// SoftTargets gives every training-split pair of data its teacher's
// calibrated probabilities (align.EnsembleProbs over teacher, whose first
// network carries the calibration), read from the pair's own input, for
// Config.Distill. Pairs of the other splits get none.
func SoftTargets(ctx context.Context, teacher []*align.Model, data []Encoded) error {
	var idx []int
	for i, e := range data {
		if e.Split == SplitTrain && e.Weight > 0 {
			idx = append(idx, i)
		}
	}
	soft := make([][align.NumLabels]float64, len(idx))
	sharded(len(idx), func(_, lo, hi int) {
		var c align.Cache
		for n := lo; n < hi; n++ {
			if n%1024 == 0 && ctx.Err() != nil {
				return
			}
			soft[n] = align.EnsembleProbs(teacher, data[idx[n]].In, &c)
		}
	})
	if err := ctx.Err(); err != nil {
		return err
	}
	for n, i := range idx {
		data[i].Soft = &soft[n]
	}
	return nil
}

// Encode computes the inputs of examples, applying the ablation.
func Encode(ctx context.Context, exs []Example, ablate string, opts nli.EncoderOptions, logf func(string, ...any)) ([]Encoded, error) {
	weights := setWeights()
	out := make([]Encoded, len(exs))
	start := time.Now()
	var done atomic.Int64
	sharded(len(exs), func(shard, lo, hi int) {
		enc := nli.NewEncoder(opts)
		for i := lo; i < hi; i++ {
			if (i-lo)%5000 == 0 && ctx.Err() != nil {
				return
			}
			e := exs[i]
			in := enc.Encode(e.Claim, e.Passage)
			nli.Ablate(in, ablate)
			w, ok := weights[e.Set]
			if !ok {
				w = 1
			}
			out[i] = Encoded{Example: e, In: in, Weight: w}
			if d := done.Add(1); d%20000 == 0 {
				logf("encoded %d/%d pairs (%.0f/s)", d, len(exs), float64(d)/time.Since(start).Seconds())
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// Readings replaces each training-split pair of data by the inputs the
// judge reads its passage as (nli.Encoder.EncodeReadings), applying the
// ablation: the sentences that bear on the claim, and for a passage of
// more than two sentences also its focus window, each then weighing half
// the pair's weight, or the focus alone. The network otherwise learns
// from a long passage's first words only (it reads at most 128 tokens)
// while the judge also reads the window that bears on the claim, often
// farther in (FNC-1's articles, SciFact's and HealthVer's abstracts). The
// other splits are kept as they are. The order of data is kept, a pair's
// readings in its place, so that training stays deterministic.
func Readings(ctx context.Context, data []Encoded, ablate string, opts nli.EncoderOptions, logf func(string, ...any)) ([]Encoded, error) {
	read := make([][]*align.Input, len(data))
	sharded(len(data), func(_, lo, hi int) {
		enc := nli.NewEncoder(opts)
		for i := lo; i < hi; i++ {
			if (i-lo)%5000 == 0 && ctx.Err() != nil {
				return
			}
			if e := data[i]; e.Split == SplitTrain && e.Weight > 0 {
				read[i] = enc.EncodeReadings(e.Claim, e.Passage)
				for _, in := range read[i] {
					nli.Ablate(in, ablate)
				}
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]Encoded, 0, len(data))
	two := 0
	for i, e := range data {
		ins := read[i]
		if len(ins) == 0 {
			out = append(out, e)
			continue
		}
		if len(ins) > 1 {
			two++
		}
		e.Weight /= float64(len(ins))
		for _, in := range ins {
			e.In = in
			out = append(out, e)
		}
	}
	logf("as judged: %d training pairs read as two passages (their bearing sentences and their focus window), each at half weight", two)
	return out, nil
}

// checkpoint is the state written after each epoch.
type checkpoint struct {
	Key       string
	Epoch     int // epochs done
	Step      int
	P, M, V   []float64
	Best      []float64
	BestLoss  float64
	BestEpoch int
	EMA       []float64 // the moving average of P (Config.EMA)
}

// Train trains a network on the training split of data and picks the epoch
// with the lowest calibration-split loss. It returns the uncalibrated
// network.
func Train(ctx context.Context, cfg Config, data []Encoded, logf func(string, ...any)) (*align.Model, error) {
	cfg = cfg.withDefaults()
	var train, calib []Encoded
	for _, e := range data {
		switch {
		case e.Weight == 0:
		case e.Split == SplitTrain:
			if e.Target == 0 && e.Soft == nil {
				return nil, fmt.Errorf("a training pair of %s (claim %q) has neither a label nor a teacher's probabilities (SoftTargets)", e.Set, e.Claim)
			}
			train = append(train, e)
		case e.Split == SplitCalib:
			calib = append(calib, e)
		}
	}
	if len(train) == 0 || len(calib) == 0 {
		return nil, errors.New("no training or calibration examples")
	}
	if cfg.MaxTrain > 0 && cfg.MaxTrain < len(train) {
		rng := rand.New(rand.NewPCG(uint64(cfg.Seed), 0x5a11))
		rng.Shuffle(len(train), func(i, j int) { train[i], train[j] = train[j], train[i] })
		train = train[:cfg.MaxTrain]
	}
	logf("training on %d pairs, %d calibration pairs, %d epochs", len(train), len(calib), cfg.Epochs)
	var adj map[string][align.NumLabels]float64
	if cfg.SourcePriors {
		adj = SourcePriors(train, cfg.CompleteSourcesOnly)
		for _, set := range SortedSets(adj) {
			lp := adj[set]
			logf("label prior of %s (source %s): entailment %.3f, contradiction %.3f, neutral %.3f", set, Source(set),
				math.Exp(lp[nli.Entail]), math.Exp(lp[nli.Contradict]), math.Exp(lp[nli.Neutral]))
		}
		sets := map[string]bool{}
		for _, e := range train {
			sets[e.Set] = true
		}
		for _, set := range SortedSets(sets) {
			if _, ok := adj[set]; !ok {
				logf("%s (source %s) lacks a label: trained unadjusted", set, Source(set))
			}
		}
	}
	acfg, err := cfg.net()
	if err != nil {
		return nil, err
	}
	model := align.New(acfg, rand.New(rand.NewPCG(cfg.netSeed(), 0x1417)))
	key := fmt.Sprintf("seed=%d d=%d h=%d ctx=%s lr=%g decay=%g batch=%d shards=%d ablate=%q max=%d train=%d calib=%d%s",
		cfg.Seed, cfg.D, cfg.H, cfg.Context, cfg.LearningRate, cfg.LRDecay, cfg.BatchSize, Shards, cfg.Ablate, cfg.MaxTrain, len(train), len(calib), dropoutKey(cfg.Dropout)+valueKey(" word-dropout", cfg.WordDropout)+distillKey(cfg.Distill, cfg.TeacherKey, cfg.DistillTemperature)+memberKey(cfg.Member)+composeKey(cfg.Compose)+wordsKey(cfg.Vocab, cfg.WordDecay)+valueKey(" ema", cfg.EMA)+flagKey(cfg.NegatedAntonyms, " negated-antonyms")+flagKey(cfg.Cousins, " cousins")+flagKey(cfg.CousinRelation, " cousin-relation")+flagKey(cfg.DropAsides, " drop-asides")+flagKey(cfg.ExactFigures, " exact-figures")+weightsKey(cfg.Weights)+flagKey(cfg.SourcePriors, " source-priors")+flagKey(cfg.SourcePriors && cfg.CompleteSourcesOnly, " complete-sources-only")+valueKey(" adversarial", cfg.Adversarial)+valueKey(" weight-decay", cfg.WeightDecay)+flagKey(cfg.AsJudged, " as-judged")+valueKey(" layers", float64(cfg.Layers))+valueKey(" label-smoothing", cfg.LabelSmoothing)+valueKey(" substitute", cfg.Substitute))
	ck := checkpoint{Key: key, P: model.P, M: make([]float64, len(model.P)), V: make([]float64, len(model.P)), BestLoss: math.Inf(1)}
	if cfg.Checkpoint != "" {
		if f, err := os.Open(cfg.Checkpoint); err == nil {
			var old checkpoint
			err := gob.NewDecoder(f).Decode(&old)
			f.Close()
			if err == nil && old.Key == ck.Key && len(old.P) == len(ck.P) {
				ck = old
				copy(model.P, ck.P)
				ck.P = model.P
				logf("resuming from %s after epoch %d", cfg.Checkpoint, ck.Epoch)
			} else {
				logf("ignoring checkpoint %s: it belongs to another configuration", cfg.Checkpoint)
			}
		}
	}
	if cfg.EMA > 0 && len(ck.EMA) != len(model.P) {
		ck.EMA = slices.Clone(model.P)
	}
	grad := make([]float64, len(model.P))
	// One gradient, cache and scratch per shard.
	type shardState struct {
		grad         []float64
		cache        align.Cache
		ws           align.Scratch
		dropped      align.Input
		adv          [2][]float64 // the adversarial perturbations' buffers
		loss, weight float64
	}
	shards := make([]shardState, Shards)
	for s := range shards {
		shards[s].grad = make([]float64, len(model.P))
	}
	for ep := ck.Epoch; ep < cfg.Epochs; ep++ {
		order := make([]int, len(train))
		for i := range order {
			order[i] = i
		}
		rng := rand.New(rand.NewPCG(cfg.netSeed(), uint64(ep)+100))
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		lr := cfg.LearningRate * math.Pow(cfg.LRDecay, float64(ep))
		start := time.Now()
		var lossSum, wSum float64
		for b := 0; b < len(order); b += cfg.BatchSize {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			batch := order[b:min(b+cfg.BatchSize, len(order))]
			sharded(len(batch), func(s, lo, hi int) {
				st := &shards[s]
				// Dropout masks drawn from the seed, the step and the
				// shard, so they do not depend on the cores either.
				if cfg.Dropout > 0 {
					st.cache.Dropout = cfg.Dropout
					st.cache.Rand = rand.New(rand.NewPCG(cfg.netSeed()^0xd509, uint64(ck.Step)*Shards+uint64(s)))
				}
				// Word dropout likewise.
				var words *rand.Rand
				if cfg.WordDropout > 0 {
					words = rand.New(rand.NewPCG(cfg.netSeed()^0x3f0d, uint64(ck.Step)*Shards+uint64(s)))
				}
				clear(st.grad)
				st.loss, st.weight = 0, 0
				for _, idx := range batch[lo:hi] {
					e := &train[idx]
					in := e.In
					if words != nil {
						nli.DropWords(&st.dropped, e.In, cfg.WordDropout, words)
						in = &st.dropped
					}
					// The pair's loss and its gradient with respect to
					// the logits, weighted (by half each with the
					// adversarial pass).
					scale := e.Weight
					if cfg.Adversarial > 0 {
						scale /= 2
					}
					pairLoss := func() float64 {
						z := adjust(model.Forward(in, &st.cache), adj, e.Set)
						var l float64
						var dz [align.NumLabels]float64
						if e.Target == 0 {
							// A pair without a label (Substitute's
							// copies) learns its teacher's
							// probabilities alone.
							l, dz = softLoss(z, *e.Soft, cfg.DistillTemperature)
						} else {
							l, dz = labelLoss(z, e.Target, cfg.LabelSmoothing)
							if cfg.Distill > 0 && e.Soft != nil {
								ls, dzs := softLoss(z, *e.Soft, cfg.DistillTemperature)
								l = (1-cfg.Distill)*l + cfg.Distill*ls
								for k := range dz {
									dz[k] = (1-cfg.Distill)*dz[k] + cfg.Distill*dzs[k]
								}
							}
						}
						for k := range dz {
							dz[k] *= scale
						}
						model.Backward(in, &st.cache, dz, st.grad, &st.ws)
						return l
					}
					l := pairLoss()
					if cfg.Adversarial > 0 {
						// A pair that cannot be perturbed (a zero
						// gradient) is trained twice as it is, so that
						// it keeps its whole weight.
						adversarial(&st.cache, &st.ws, &st.adv, cfg.Adversarial)
						l = (l + pairLoss()) / 2
						st.cache.AdvA, st.cache.AdvB = nil, nil
					}
					st.loss += l * e.Weight
					st.weight += e.Weight
				}
			})
			copy(grad, shards[0].grad)
			bw := shards[0].weight
			lossSum += shards[0].loss
			for s := 1; s < Shards; s++ {
				axpy(grad, shards[s].grad)
				bw += shards[s].weight
				lossSum += shards[s].loss
			}
			wSum += bw
			if bw > 0 {
				ck.Step++
				adamStep(model.P, grad, ck.M, ck.V, ck.Step, lr, 1/bw, len(model.P)-acfg.Words*acfg.D, cfg.WeightDecay, cfg.WordDecay)
				if cfg.EMA > 0 {
					average(ck.EMA, model.P, cfg.EMA)
				}
			}
			if n := b / cfg.BatchSize; n > 0 && n%500 == 0 {
				done := float64(b) / float64(len(order))
				el := time.Since(start)
				logf("epoch %d/%d: %.0f%%, train loss %.4f, %.0f pairs/s, epoch ETA %s", ep+1, cfg.Epochs, 100*done, lossSum/wSum,
					float64(b)/el.Seconds(), (time.Duration(float64(el)/done) - el).Round(time.Second))
			}
		}
		cl := calibLoss(model, calib, adj)
		logf("epoch %d/%d done in %s: train loss %.4f, calibration loss %.4f", ep+1, cfg.Epochs, time.Since(start).Round(time.Second), lossSum/wSum, cl)
		cand := model.P
		if cfg.EMA > 0 {
			avg := &align.Model{Cfg: model.Cfg, P: ck.EMA}
			cl = calibLoss(avg, calib, adj)
			cand = ck.EMA
			logf("epoch %d/%d: calibration loss of the weights' moving average %.4f", ep+1, cfg.Epochs, cl)
		}
		ck.Epoch = ep + 1
		if cl < ck.BestLoss {
			ck.BestLoss, ck.BestEpoch = cl, ep+1
			ck.Best = append(ck.Best[:0], cand...)
		}
		if cfg.Checkpoint != "" {
			if err := writeCheckpoint(cfg.Checkpoint, &ck); err != nil {
				return nil, err
			}
		}
	}
	logf("best epoch %d (calibration loss %.4f)", ck.BestEpoch, ck.BestLoss)
	copy(model.P, ck.Best)
	return model, nil
}

// TrainTeacher trains the cfg.TeacherMembers networks of a teacher
// ensemble with cfg's settings but without distillation, and with the
// widths cfg.TeacherD and cfg.TeacherH where set (the teacher's member k is
// the network 'verity train nli' without --distill, at those widths, would
// train as member k), checkpointing to cfg.Checkpoint + ".teacher" (and
// ".teacher.mK"), calibrates them together and returns them with their
// key (NetsKey), for Config.Teacher and Config.TeacherKey.
func TrainTeacher(ctx context.Context, cfg Config, data []Encoded, logf func(string, ...any)) ([]*align.Model, string, error) {
	t := cfg
	t.Members, t.TeacherMembers, t.TeacherD, t.TeacherH = cfg.TeacherMembers, 0, 0, 0
	if cfg.TeacherD > 0 {
		t.D = cfg.TeacherD
	}
	if cfg.TeacherH > 0 {
		t.H = cfg.TeacherH
	}
	t.Distill, t.Teacher, t.TeacherKey, t.SourcePriors, t.CompleteSourcesOnly, t.Adversarial, t.WeightDecay, t.LabelSmoothing, t.Substitute = 0, nil, "", false, false, 0, 0, 0, 0
	if cfg.Checkpoint != "" {
		t.Checkpoint = cfg.Checkpoint + ".teacher"
	}
	logf("teacher: %d networks", t.Members)
	nets, err := TrainMembers(ctx, t, data, logf)
	if err != nil {
		return nil, "", err
	}
	Calibrate(nets, data)
	return nets, NetsKey(nets), nil
}

// NetsKey names an ensemble by a hash of its networks' shapes, weights
// and calibration, for the checkpoint key of the networks it teaches.
func NetsKey(nets []*align.Model) string {
	h := sha256.New()
	for _, n := range nets {
		// A network of the default relations is named as it was before
		// align.Config had Rels, so that the keys of earlier teachers (the
		// shipped file's "teacher") stay as they were.
		shape := strings.Replace(fmt.Sprintf("%+v", n.Cfg), " Rels:0}", "}", 1)
		fmt.Fprintf(h, "%s %v %v;", shape, n.Temperature, n.Bias)
		var b [8]byte
		for _, x := range n.P {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
			h.Write(b[:])
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:6])
}

// TrainMembers trains the cfg.Members networks of an ensemble (at least
// one) one after the other, member k with its own checkpoint (cfg.Checkpoint
// for member 0, cfg.Checkpoint + ".mK" for the others), so an interrupted
// run resumes where it stopped.
func TrainMembers(ctx context.Context, cfg Config, data []Encoded, logf func(string, ...any)) ([]*align.Model, error) {
	nets := make([]*align.Model, max(cfg.Members, 1))
	for k := range nets {
		mc := cfg
		mc.Member = k
		if k > 0 && cfg.Checkpoint != "" {
			mc.Checkpoint = fmt.Sprintf("%s.m%d", cfg.Checkpoint, k)
		}
		if len(nets) > 1 {
			logf("ensemble member %d of %d", k+1, len(nets))
		}
		net, err := Train(ctx, mc, data, logf)
		if err != nil {
			return nil, err
		}
		nets[k] = net
	}
	return nets, nil
}

// dropoutKey is the checkpoint key's part for dropout: empty without it,
// so that checkpoints written before the option still resume.
func dropoutKey(p float64) string { return valueKey(" dropout", p) }

// valueKey is the checkpoint key's part for an option with a value:
// empty when the value is 0 (off), so that earlier checkpoints still
// resume.
func valueKey(name string, v float64) string {
	if v == 0 {
		return ""
	}
	return fmt.Sprintf("%s=%g", name, v)
}

// labelLoss is the label term of a pair with logits z and label set
// target, smoothed by eps (Config.LabelSmoothing): (1 - eps) times the
// label's cross-entropy plus eps times the cross-entropy against the
// uniform distribution over the labels. It returns the loss and its
// gradient with respect to z.
func labelLoss(z [align.NumLabels]float64, target uint8, eps float64) (float64, [align.NumLabels]float64) {
	l, dz := align.Loss(z, target)
	if eps <= 0 {
		return l, dz
	}
	var uniform [align.NumLabels]float64
	for k := range uniform {
		uniform[k] = 1.0 / align.NumLabels
	}
	lu, dzu := align.SoftLoss(z, uniform)
	for k := range dz {
		dz[k] = (1-eps)*dz[k] + eps*dzu[k]
	}
	return (1-eps)*l + eps*lu, dz
}

// distillKey is the checkpoint key's part for distillation: empty
// without it, and without a temperature part at temperature 1, so that
// earlier checkpoints still resume.
func distillKey(w float64, teacher string, t float64) string {
	if w == 0 {
		return ""
	}
	key := valueKey(" distill", w) + " teacher=" + teacher
	if softened(t) {
		key += valueKey(" distill-temperature", t)
	}
	return key
}

// softened reports whether distillation temperature t softens anything
// (see Config.DistillTemperature; 0 and 1 are none).
func softened(t float64) bool { return t > 0 && t != 1 }

// softLoss is the distillation term of a pair with logits z and teacher
// probabilities q at temperature t (see Config.DistillTemperature):
// t² times the cross-entropy of softmax(z/t) against q^(1/t)
// renormalised, and its gradient with respect to z, t times the
// difference of the two.
func softLoss(z, q [align.NumLabels]float64, t float64) (float64, [align.NumLabels]float64) {
	if !softened(t) {
		return align.SoftLoss(z, q)
	}
	sum := 0.0
	for k := range q {
		q[k] = math.Pow(q[k], 1/t)
		sum += q[k]
	}
	for k := range q {
		q[k] /= sum
		z[k] /= t
	}
	l, dz := align.SoftLoss(z, q)
	for k := range dz {
		dz[k] *= t
	}
	return t * t * l, dz
}

// composeKey is the checkpoint key's part for the composition layer:
// empty without it, so that earlier checkpoints still resume.
func composeKey(on bool) string { return flagKey(on, " compose") }

// weightsKey is the checkpoint key's part for replaced set weights, in
// the sets' order: empty without them.
func weightsKey(w map[string]float64) string {
	if len(w) == 0 {
		return ""
	}
	parts := make([]string, 0, len(w))
	for _, name := range SortedSets(w) {
		parts = append(parts, fmt.Sprintf("%s=%g", name, w[name]))
	}
	return " weights=" + strings.Join(parts, ",")
}

// ApplyWeights gives the pairs of each set of cfg.Weights that set's
// weight. A set never trained on (weight 0, Breaking NLI) cannot be
// given one, and every name must be a set of data.
func (c Config) ApplyWeights(data []Encoded) error {
	if len(c.Weights) == 0 {
		return nil
	}
	known := map[string]bool{}
	for _, e := range data {
		if e.Weight > 0 {
			known[e.Set] = true
		}
	}
	if err := c.checkWeights(known); err != nil {
		return err
	}
	for i := range data {
		if w, ok := c.Weights[data[i].Set]; ok && data[i].Weight > 0 {
			data[i].Weight = w
		}
	}
	return nil
}

// CheckWeights reports, before the examples are encoded, the error
// ApplyWeights would give for cfg.Weights: a set of exs never trained on
// or missing, or a weight out of range.
func (c Config) CheckWeights(exs []Example) error {
	if len(c.Weights) == 0 {
		return nil
	}
	weights, known := setWeights(), map[string]bool{}
	for _, e := range exs {
		if w, ok := weights[e.Set]; !ok || w > 0 {
			known[e.Set] = true // Encode weighs an unlisted set 1
		}
	}
	return c.checkWeights(known)
}

// checkWeights checks cfg.Weights against the sets trained on.
func (c Config) checkWeights(known map[string]bool) error {
	for name, w := range c.Weights {
		if !known[name] {
			return fmt.Errorf("set weight %s=%g: no set %q is trained on (sets: %s)", name, w, name, strings.Join(SortedSets(known), ", "))
		}
		if w <= 0 || w > 10 {
			return fmt.Errorf("set weight %s=%g: want a weight above 0 and at most 10", name, w)
		}
	}
	return nil
}

// flagKey is the checkpoint key's part for an option that is on or off:
// empty when off, so that earlier checkpoints still resume.
func flagKey(on bool, part string) string {
	if !on {
		return ""
	}
	return part
}

// wordsKey is the checkpoint key's part for the tuned words: empty
// without them, so that earlier checkpoints still resume.
func wordsKey(vocab []string, decay float64) string {
	if len(vocab) == 0 {
		return ""
	}
	if decay > 0 {
		return wordsKey(vocab, 0) + fmt.Sprintf(" word-decay=%g", decay)
	}
	h := fnv.New64a()
	for _, w := range vocab {
		h.Write([]byte(w))
		h.Write([]byte{0})
	}
	return fmt.Sprintf(" words=%d/%x", len(vocab), h.Sum64())
}

// average moves the running average avg towards p: avg = d*avg + (1-d)*p.
func average(avg, p []float64, d float64) {
	p = p[:len(avg)]
	for i := range avg {
		avg[i] = d*avg[i] + (1-d)*p[i]
	}
}

// memberKey is the checkpoint key's part for the ensemble member: empty
// for member 0, so that its checkpoints are a single network's.
func memberKey(k int) string {
	if k == 0 {
		return ""
	}
	return fmt.Sprintf(" member=%d", k)
}

func writeCheckpoint(path string, ck *checkpoint) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := gob.NewEncoder(f).Encode(ck); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// adamStep applies one Adam update with the gradient scaled by scale and
// its global norm clipped to 5. From index flush on (the tuned words'
// rows) moments that have decayed below 1e-30 become zero: a row that no
// batch touches for thousands of steps would otherwise decay into
// subnormal numbers, which the CPU handles many times slower (epochs
// took twice as long); its next update is then zero, as it nearly was.
// Decoupled weight decay shrinks each parameter by lr times netDecay of
// itself before index flush and by lr times decay from it on.
func adamStep(p, g, m, v []float64, step int, lr, scale float64, flush int, netDecay, decay float64) {
	const b1, b2, eps, clip = 0.9, 0.999, 1e-8, 5.0
	norm := 0.0
	for _, x := range g {
		norm += x * x * scale * scale
	}
	norm = math.Sqrt(norm)
	if norm > clip {
		scale *= clip / norm
	}
	c1 := 1 - math.Pow(b1, float64(step))
	c2 := 1 - math.Pow(b2, float64(step))
	for i := range p {
		gi := g[i] * scale
		m[i] = b1*m[i] + (1-b1)*gi
		v[i] = b2*v[i] + (1-b2)*gi*gi
		if i >= flush && math.Abs(m[i]) < 1e-30 {
			m[i] = 0
			if v[i] < 1e-30 {
				v[i] = 0
			}
		}
		d := netDecay
		if i >= flush {
			d = decay
		}
		if d > 0 {
			p[i] -= lr * d * p[i]
		}
		p[i] -= lr * (m[i] / c1) / (math.Sqrt(v[i]/c2) + eps)
	}
}

// axpy adds x to dst.
func axpy(dst, x []float64) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] += x[i]
	}
}

// calibLoss is the weighted mean loss of model on calib, its logits
// adjusted by adj (SourcePriors; nil for none).
func calibLoss(model *align.Model, calib []Encoded, adj map[string][align.NumLabels]float64) float64 {
	var s, w [Shards]float64
	sharded(len(calib), func(sh, lo, hi int) {
		var cache align.Cache
		for i := lo; i < hi; i++ {
			l, _ := align.Loss(adjust(model.Forward(calib[i].In, &cache), adj, calib[i].Set), calib[i].Target)
			s[sh] += l * calib[i].Weight
			w[sh] += calib[i].Weight
		}
	})
	var st, wt float64
	for i := range s {
		st += s[i]
		wt += w[i]
	}
	return st / wt
}

// net is the network's shape.
func (c Config) net() (align.Config, error) {
	ctx, err := ContextCode(c.Context)
	if err != nil {
		return align.Config{}, err
	}
	if err := c.EncoderOptions().Check(); err != nil {
		return align.Config{}, err
	}
	a := align.Config{Emb: 100, D: c.D, H: c.H, NoAttn: c.Ablate == "attention", Ctx: ctx, Compose: c.Compose, Words: len(c.Vocab), Layers: c.Layers}
	if c.CousinRelation {
		a.Rels = align.NumRelations + 1
	}
	if err := a.Check(); err != nil {
		return align.Config{}, err
	}
	return a, nil
}

// CheckShape reports whether the network c describes can be built (a
// transformer's width a multiple of its heads, layers only for a
// transformer, and so on).
func (c Config) CheckShape() error {
	_, err := c.withDefaults().net()
	return err
}

// Calibrate fits the temperature and per-class bias of an ensemble (one
// network or more) on the calibration split by minimising the loss of the
// mean logits (full-batch gradient descent, deterministic). They are set
// on the first network (align.EnsembleProbs); the others get 1 and 0.
func Calibrate(nets []*align.Model, data []Encoded) {
	type row struct {
		In *align.Input
		z  [align.NumLabels]float64
		t  uint8
		w  float64
	}
	var rows []row
	for _, e := range data {
		if e.Split == SplitCalib && e.Weight > 0 {
			rows = append(rows, row{In: e.In, t: e.Target, w: e.Weight})
		}
	}
	sharded(len(rows), func(_, lo, hi int) {
		var cache align.Cache
		for i := lo; i < hi; i++ {
			rows[i].z = align.MeanLogits(nets, rows[i].In, &cache)
		}
	})
	// Parameterise the temperature by its inverse.
	inv, bias := 1.0, [align.NumLabels]float64{}
	for it := 0; it < 2000; it++ {
		var gInv float64
		var gB [align.NumLabels]float64
		var wSum float64
		for _, r := range rows {
			var s [align.NumLabels]float64
			for k := range s {
				s[k] = r.z[k]*inv + bias[k]
			}
			_, ds := align.Loss(s, r.t)
			for k := range ds {
				gInv += ds[k] * r.z[k] * r.w
				gB[k] += ds[k] * r.w
			}
			wSum += r.w
		}
		inv -= 0.5 * gInv / wSum
		for k := range bias {
			bias[k] -= 0.5 * gB[k] / wSum
		}
	}
	for _, n := range nets[1:] {
		n.Temperature, n.Bias = 1, [align.NumLabels]float64{}
	}
	nets[0].Temperature = 1 / inv
	nets[0].Bias = bias
}

// Metrics of a model on one development set.
type Metrics struct {
	Set              string
	N                int
	TwoWay           bool
	Accuracy, BalAcc float64
	ECE              float64
}

// SplitName names the splits in reports.
func SplitName(s Split) string {
	return [...]string{"train", "calibration", "development"}[s]
}

// BySet groups examples of one split. A set never trained on (weight 0,
// Breaking NLI) is development as a whole: all of it is in SplitDev's
// groups and none of it in the other splits', so that no choice made on
// the calibration split reads pairs that a development figure counts.
func BySet(data []Encoded, split Split) map[string][]Encoded {
	out := map[string][]Encoded{}
	for _, e := range data {
		if e.Weight == 0 && split != SplitDev {
			continue
		}
		if e.Split == split || e.Weight == 0 {
			out[e.Set] = append(out[e.Set], e)
		}
	}
	return out
}

// SortedSets returns the set names in order.
func SortedSets[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// Info describes a trained model for its file.
func Info(cfg Config, nTrain int) map[string]string {
	cfg = cfg.withDefaults()
	info := map[string]string{
		"data":    "../shared/data (FEVER paper_dev, VitaminC, SNLI dev, SciFact train) and ../shared/data/train (see README)",
		"seed":    strconv.FormatInt(cfg.Seed, 10),
		"epochs":  strconv.Itoa(cfg.Epochs),
		"d":       strconv.Itoa(cfg.D),
		"h":       strconv.Itoa(cfg.H),
		"context": cfg.Context,
		"n":       strconv.Itoa(nTrain),
		"members": strconv.Itoa(max(cfg.Members, 1)),
	}
	// Only when set, so that the shipped file's bytes stay as they were.
	if cfg.NegatedAntonyms {
		info["negated_antonyms"] = "true"
	}
	if cfg.Cousins {
		info["cousins"] = "true"
	}
	if cfg.CousinRelation {
		info["cousin_relation"] = "true"
	}
	if cfg.EMA > 0 {
		info["ema"] = strconv.FormatFloat(cfg.EMA, 'g', -1, 64)
	}
	if cfg.Compose {
		info["compose"] = "true"
	}
	if cfg.Layers > 0 {
		info["layers"] = strconv.Itoa(cfg.Layers)
	}
	if cfg.Distill > 0 {
		info["distill"] = strconv.FormatFloat(cfg.Distill, 'g', -1, 64)
		info["teacher"] = cfg.TeacherKey
		if t := cfg.DistillTemperature; softened(t) {
			info["distill_temperature"] = strconv.FormatFloat(t, 'g', -1, 64)
		}
		if cfg.TeacherMembers > 0 {
			info["teacher_members"] = strconv.Itoa(cfg.TeacherMembers)
			if cfg.TeacherD > 0 {
				info["teacher_d"] = strconv.Itoa(cfg.TeacherD)
			}
			if cfg.TeacherH > 0 {
				info["teacher_h"] = strconv.Itoa(cfg.TeacherH)
			}
		}
	}
	if cfg.SourcePriors {
		info["source_priors"] = "true"
		if cfg.CompleteSourcesOnly {
			info["complete_sources_only"] = "true"
		}
	}
	if cfg.Adversarial > 0 {
		info["adversarial"] = strconv.FormatFloat(cfg.Adversarial, 'g', -1, 64)
	}
	if cfg.WeightDecay > 0 {
		info["weight_decay"] = strconv.FormatFloat(cfg.WeightDecay, 'g', -1, 64)
	}
	if cfg.AsJudged {
		info["as_judged"] = "true"
	}
	if cfg.Substitute > 0 {
		info["substitute"] = strconv.FormatFloat(cfg.Substitute, 'g', -1, 64)
	}
	if cfg.LabelSmoothing > 0 {
		info["label_smoothing"] = strconv.FormatFloat(cfg.LabelSmoothing, 'g', -1, 64)
	}
	if cfg.WordDropout > 0 {
		info["word_dropout"] = strconv.FormatFloat(cfg.WordDropout, 'g', -1, 64)
	}
	if cfg.Negate {
		info["negated"] = "true"
	}
	if cfg.DropAsides {
		info["drop_asides"] = "true"
	}
	if cfg.ExactFigures {
		info["exact_figures"] = "true"
	}
	if len(cfg.Weights) > 0 {
		info["set_weights"] = strings.TrimPrefix(weightsKey(cfg.Weights), " weights=")
	}
	if cfg.Swap {
		info["swapped"] = "true"
	}
	if cfg.Titles {
		info["titles"] = "true"
	}
	if cfg.Distractors {
		info["distractors"] = "true"
	}
	if cfg.TitleShare > 0 {
		info["title_share"] = strconv.FormatFloat(cfg.TitleShare, 'g', -1, 64)
	}
	if len(cfg.Vocab) > 0 {
		info["tuned_words"] = strconv.Itoa(len(cfg.Vocab))
		if cfg.WordDecay > 0 {
			info["word_decay"] = strconv.FormatFloat(cfg.WordDecay, 'g', -1, 64)
		}
	}
	return info
}

// LoadCheckpoint returns the network of the last epoch a checkpoint holds
// (uncalibrated), for a look at a run that is still going.
func LoadCheckpoint(path string, cfg Config) (*align.Model, int, error) {
	cfg = cfg.withDefaults()
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	var ck checkpoint
	if err := gob.NewDecoder(f).Decode(&ck); err != nil {
		return nil, 0, fmt.Errorf("read checkpoint: %w", err)
	}
	acfg, err := cfg.net()
	if err != nil {
		return nil, 0, err
	}
	m := &align.Model{Cfg: acfg, P: ck.P, Temperature: 1}
	if err := m.Validate(); err != nil {
		return nil, 0, fmt.Errorf("read checkpoint: %w", err)
	}
	return m, ck.Epoch, nil
}
