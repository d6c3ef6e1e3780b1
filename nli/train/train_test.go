package train

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/verity-fc/verity/nli"
	"github.com/verity-fc/verity/nli/align"
)

// toyData is a small labelled set: a claim against a passage that says
// the same, the opposite direction, or something else.
func toyData() []Example {
	var out []Example
	for i := range 60 {
		year := 1900 + i
		claim := fmt.Sprintf("Exports rose by %d percent in %d.", i%9+2, year)
		same := fmt.Sprintf("Figures show exports rose %d percent in %d.", i%9+2, year)
		opposite := fmt.Sprintf("Figures show exports fell %d percent in %d.", i%9+2, year)
		other := fmt.Sprintf("The museum opened its doors in %d.", year)
		group := fmt.Sprint("toy:", i)
		for _, e := range []Example{
			{Set: "toy", Claim: claim, Passage: same, Target: tEntail},
			{Set: "toy", Claim: claim, Passage: opposite, Target: tContradict},
			{Set: "toy", Claim: claim, Passage: other, Target: tNotSupported},
		} {
			e.Group, e.Split = group, splitOf(group)
			out = append(out, e)
		}
	}
	return out
}

// trainLog trains cfg on data and returns what it logged.
func trainLog(t *testing.T, cfg Config, data []Encoded) string {
	t.Helper()
	var log strings.Builder
	if _, err := Train(context.Background(), cfg, data, func(f string, a ...any) { fmt.Fprintf(&log, f+"\n", a...) }); err != nil {
		t.Fatal(err)
	}
	return log.String()
}

func trainToy(t *testing.T, cfg Config) ([]Encoded, *align.Model) {
	t.Helper()
	data, err := Encode(context.Background(), toyData(), cfg.Ablate, cfg.EncoderOptions(), t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Teacher != nil {
		if err := SoftTargets(context.Background(), cfg.Teacher, data); err != nil {
			t.Fatal(err)
		}
	}
	m, err := Train(context.Background(), cfg, data, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	Calibrate([]*align.Model{m}, data)
	return data, m
}

// trainBothWays trains the toy network with cfg, and with off applied to
// a copy of cfg.
func trainBothWays(t *testing.T, cfg Config, off func(*Config)) (with, without *align.Model) {
	t.Helper()
	_, with = trainToy(t, cfg)
	plain := cfg
	off(&plain)
	_, without = trainToy(t, plain)
	return with, without
}

// trainedBytes is the saved file of the toy network cfg trains.
func trainedBytes(t *testing.T, cfg Config) []byte {
	t.Helper()
	_, m := trainToy(t, cfg)
	return saved(t, m)
}

func saved(t *testing.T, m *align.Model) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := nli.NewAligner([]*align.Model{m}, nli.EncoderOptions{}, false, nil).Save(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestTrainDeterministicAndResumable trains twice from scratch and once
// in two sittings through a checkpoint: all three files must be the same
// bytes, and the network must learn the toy task.
// With dropout, the same holds: its masks come from the seed and the step.
func TestTrainDeterministicAndResumable(t *testing.T) {
	for _, dropout := range []float64{0, 0.2} {
		t.Run(fmt.Sprintf("dropout=%g", dropout), func(t *testing.T) {
			testDeterministicAndResumable(t, Config{D: 8, H: 8, Epochs: 6, BatchSize: 8, LearningRate: 0.01, Dropout: dropout})
		})
	}
	t.Run("compose", func(t *testing.T) {
		cfg := Config{D: 8, H: 8, Epochs: 6, BatchSize: 8, LearningRate: 0.01, Compose: true}
		testDeterministicAndResumable(t, cfg)
		_, m := trainToy(t, cfg)
		if !m.Cfg.Compose || len(m.P) != m.Cfg.Size() {
			t.Errorf("--compose trained a network without the composition layer: %+v", m.Cfg)
		}
		// A checkpoint without the layer is not resumed with it.
		plain := cfg
		plain.Compose = false
		notResumed(t, plain, cfg, "a network with the composition layer resumed one without")
	})
	t.Run("transformer", func(t *testing.T) {
		cfg := Config{D: 8, H: 8, Epochs: 6, BatchSize: 8, LearningRate: 0.01, Context: "transformer"}
		testDeterministicAndResumable(t, cfg)
		_, m := trainToy(t, cfg)
		if m.Cfg.Ctx != align.CtxTransformer || m.Cfg.Layers != 2 || len(m.P) != m.Cfg.Size() {
			t.Errorf("--context transformer trained %+v, want a transformer of 2 layers", m.Cfg)
		}
		// A checkpoint of one layer is not resumed with two.
		one := cfg
		one.Layers = 1
		notResumed(t, one, cfg, "a transformer of two layers resumed one of one")
	})
	t.Run("cousin-relation", func(t *testing.T) {
		cfg := Config{D: 8, H: 8, Epochs: 6, BatchSize: 8, LearningRate: 0.01, CousinRelation: true}
		testDeterministicAndResumable(t, cfg)
		_, m := trainToy(t, cfg)
		if m.Cfg.Relations() != align.NumRelations+1 || len(m.P) != m.Cfg.Size() {
			t.Errorf("--cousin-relation trained %+v, want a network of %d relations", m.Cfg, align.NumRelations+1)
		}
		plain := cfg
		plain.CousinRelation = false
		notResumed(t, plain, cfg, "a network of 13 relations resumed one of 12")
		both := cfg
		both.Cousins = true
		if err := both.CheckShape(); err == nil || !strings.Contains(err.Error(), "choose one") {
			t.Errorf("--cousins with --cousin-relation: error %v, want one that says to choose one", err)
		}
	})
	t.Run("source-priors", func(t *testing.T) {
		cfg := Config{D: 8, H: 8, Epochs: 6, BatchSize: 8, LearningRate: 0.01, SourcePriors: true}
		testDeterministicAndResumable(t, cfg)
		with, without := trainBothWays(t, cfg, func(c *Config) { c.SourcePriors = false })
		if slices.Equal(with.P, without.P) {
			t.Error("--source-priors trained the same network as without it")
		}
		// A checkpoint without the priors is not resumed with them.
		plain := cfg
		plain.SourcePriors = false
		log := notResumed(t, plain, cfg, "a run with --source-priors resumed one without")
		if !strings.Contains(log, "label prior of toy") {
			t.Errorf("the run did not report its sources' priors; log:\n%s", log)
		}
	})
	t.Run("adversarial", func(t *testing.T) {
		cfg := Config{D: 8, H: 8, Epochs: 6, BatchSize: 8, LearningRate: 0.01, Adversarial: 0.05}
		testDeterministicAndResumable(t, cfg)
		with, without := trainBothWays(t, cfg, func(c *Config) { c.Adversarial = 0 })
		if slices.Equal(with.P, without.P) {
			t.Error("--adversarial trained the same network as without it")
		}
	})
	t.Run("weight-decay", func(t *testing.T) {
		cfg := Config{D: 8, H: 8, Epochs: 6, BatchSize: 8, LearningRate: 0.01, WeightDecay: 1}
		testDeterministicAndResumable(t, cfg)
		with, without := trainBothWays(t, cfg, func(c *Config) { c.WeightDecay = 0 })
		// Decay pulls the weights towards zero: the decayed network's
		// weights are smaller in all.
		if norm(with.P) >= norm(without.P) {
			t.Errorf("--weight-decay 1 left weights of norm %.4f, without it %.4f", norm(with.P), norm(without.P))
		}
		// A checkpoint without decay is not resumed with it.
		plain := cfg
		plain.WeightDecay = 0
		notResumed(t, plain, cfg, "a run with --weight-decay resumed one without")
	})
	t.Run("label-smoothing", func(t *testing.T) {
		cfg := Config{D: 8, H: 8, Epochs: 6, BatchSize: 8, LearningRate: 0.01, LabelSmoothing: 0.3}
		testDeterministicAndResumable(t, cfg)
		with, without := trainBothWays(t, cfg, func(c *Config) { c.LabelSmoothing = 0 })
		// Smoothing keeps the network from certainty: on the training
		// pairs the largest probability of its logits (before the fitted
		// temperature, which would undo it) stays below the unsmoothed
		// network's.
		data, err := Encode(context.Background(), toyData(), "", cfg.EncoderOptions(), t.Logf)
		if err != nil {
			t.Fatal(err)
		}
		var c align.Cache
		top := func(m *align.Model) float64 {
			s := 0.0
			for _, e := range data {
				p := align.Calibrate(m.Forward(e.In, &c), 1, [align.NumLabels]float64{})
				s += max(p[0], p[1], p[2])
			}
			return s / float64(len(data))
		}
		if a, b := top(with), top(without); a >= b {
			t.Errorf("--label-smoothing 0.3: mean top probability %.3f on the training pairs, without it %.3f", a, b)
		}
		plain := cfg
		plain.LabelSmoothing = 0
		notResumed(t, plain, cfg, "a run with --label-smoothing resumed one without")
	})
	t.Run("words", func(t *testing.T) {
		cfg := Config{D: 8, H: 8, Epochs: 6, BatchSize: 8, LearningRate: 0.01, Vocab: Vocabulary(toyData(), 4)}
		testDeterministicAndResumable(t, cfg)
		data, m := trainToy(t, cfg)
		if m.Cfg.Words != len(cfg.Vocab) || len(m.P) != m.Cfg.Size() {
			t.Fatalf("a network tuning %d words has shape %+v", len(cfg.Vocab), m.Cfg)
		}
		// Every tuned word's row has learned something: the words are the
		// toy's frequent ones, read in every pair.
		D, rows := m.Cfg.D, m.P[len(m.P)-m.Cfg.Words*m.Cfg.D:]
		for i, w := range cfg.Vocab {
			if slices.Equal(rows[i*D:(i+1)*D], make([]float64, D)) {
				t.Errorf("tuned word %q kept a zero correction", w)
			}
		}
		// Decay keeps the corrections smaller.
		decayed := cfg
		decayed.WordDecay = 20
		_, md := trainToy(t, decayed)
		norm := func(m *align.Model) (s float64) {
			for _, x := range m.P[len(m.P)-m.Cfg.Words*m.Cfg.D:] {
				s += x * x
			}
			return s
		}
		if nd, n := norm(md), norm(m); !(nd < 0.8*n) {
			t.Errorf("with --word-decay the corrections' squared norm is %.3g, without %.3g", nd, n)
		}
		// Tokens read their rows: "exports" is in every claim.
		row := int32(slices.Index(cfg.Vocab, "exports") + 1)
		if row == 0 || data[0].In.A[0].Word != row {
			t.Errorf("vocabulary %q: the first claim token reads row %d, want %d", cfg.Vocab, data[0].In.A[0].Word, row)
		}
	})
	t.Run("word-dropout", func(t *testing.T) {
		cfg := Config{D: 8, H: 8, Epochs: 6, BatchSize: 8, LearningRate: 0.01, WordDropout: 0.2}
		testDeterministicAndResumable(t, cfg)
		plain := cfg
		plain.WordDropout = 0
		if bytes.Equal(trainedBytes(t, plain), trainedBytes(t, cfg)) {
			t.Error("word dropout trained the same network as training without it")
		}
	})
	t.Run("distill", func(t *testing.T) {
		// A teacher trained briefly, whose probabilities are far from the
		// labels.
		_, teacher := trainToy(t, Config{D: 8, H: 8, Epochs: 1, BatchSize: 8, LearningRate: 0.002, Seed: 7})
		cfg := Config{D: 8, H: 8, Epochs: 6, BatchSize: 8, LearningRate: 0.01, Distill: 0.5, Teacher: []*align.Model{teacher}, TeacherKey: "toy"}
		testDeterministicAndResumable(t, cfg)
		plain := cfg
		plain.Distill, plain.Teacher = 0, nil
		// Learning the teacher's probabilities alone brings the network
		// closer to them than learning the labels does.
		only := cfg
		only.Distill = 1
		_, mp := trainToy(t, plain)
		data, md := trainToy(t, only)
		kl := func(m *align.Model) (s float64) {
			for _, e := range data {
				q, p := teacher.Probs(e.In, nil), m.Probs(e.In, nil)
				for k := range q {
					s += q[k] * math.Log(q[k]/p[k])
				}
			}
			return s / float64(len(data))
		}
		if kd, kp := kl(md), kl(mp); !(kd < kp) {
			t.Errorf("divergence from the teacher: %.4g distilled, %.4g trained on labels", kd, kp)
		}
		// Only training pairs get soft targets.
		for _, e := range data {
			if (e.Soft != nil) != (e.Split == SplitTrain) {
				t.Fatalf("%s pair %q: soft target %v", SplitName(e.Split), e.Claim, e.Soft)
			}
		}
	})
	t.Run("ema", func(t *testing.T) {
		cfg := Config{D: 8, H: 8, Epochs: 6, BatchSize: 8, LearningRate: 0.01, EMA: 0.9}
		testDeterministicAndResumable(t, cfg)
		plain := cfg
		plain.EMA = 0
		mp := trainedBytes(t, plain)
		if bytes.Equal(mp, trainedBytes(t, cfg)) {
			t.Error("the weights' moving average chose the same network as the weights themselves")
		}
		// An average that forgets at once is the weights themselves: the
		// trajectory is unchanged and the same epoch is kept.
		instant := cfg
		instant.EMA = 1e-300
		if !bytes.Equal(mp, trainedBytes(t, instant)) {
			t.Error("with decay ~0 the moving average kept another network than training without it")
		}
	})
	t.Run("gru", func(t *testing.T) {
		cfg := Config{D: 8, H: 8, Epochs: 6, BatchSize: 8, LearningRate: 0.01, Context: "gru"}
		testDeterministicAndResumable(t, cfg)
		if _, m := trainToy(t, cfg); m.Cfg.Ctx != align.CtxGRU || len(m.P) != m.Cfg.Size() {
			t.Errorf("--context gru trained a network without the recurrent encoder: %+v", m.Cfg)
		}
	})
}

// TestVocabulary: the tuned words are the training split's most frequent
// words the model reads, at least MinWordCount times each, most frequent
// first; words of the other splits do not count.
func TestVocabulary(t *testing.T) {
	exs := toyData()
	got := Vocabulary(exs, 3)
	if len(got) != 3 || got[0] != "exports" {
		t.Fatalf("Vocabulary(toy, 3) = %q, want 3 words led by \"exports\" (in every pair)", got)
	}
	all := Vocabulary(exs, 1000)
	if !slices.Equal(all[:3], got) || slices.Contains(all, "in") || slices.Contains(all, "the") {
		t.Errorf("Vocabulary(toy, 1000) = %q: not a longer list of the same order, or it holds function words", all)
	}
	for i := range exs {
		if exs[i].Split != SplitTrain {
			exs[i].Claim = "Zeppelins zeppelins zeppelins zeppelins zeppelins zeppelins zeppelins zeppelins zeppelins zeppelins zeppelins."
		}
	}
	if w := Vocabulary(exs, 1000); slices.Contains(w, "zeppelins") {
		t.Errorf("a word of the calibration and development claims only was tuned: %q", w)
	}
	if w := Vocabulary(exs, 0); w != nil {
		t.Errorf("Vocabulary(k=0) = %q, want none", w)
	}
}

// notResumed trains plain for two epochs to a new checkpoint and checks
// that other, given that checkpoint, starts anew instead of resuming it
// (failing with complaint otherwise); it returns other's training log.
func notResumed(t *testing.T, plain, other Config, complaint string) string {
	t.Helper()
	plain.Checkpoint, plain.Epochs = filepath.Join(t.TempDir(), "ckpt"), 2
	data, _ := trainToy(t, plain)
	other.Checkpoint = plain.Checkpoint
	log := trainLog(t, other, data)
	if !strings.Contains(log, "another configuration") {
		t.Errorf("%s; log:\n%s", complaint, log)
	}
	return log
}

func testDeterministicAndResumable(t *testing.T, cfg Config) {
	data, m1 := trainToy(t, cfg)
	_, m2 := trainToy(t, cfg)
	if !bytes.Equal(saved(t, m1), saved(t, m2)) {
		t.Error("two trainings with the same seed wrote different models")
	}
	ck := cfg
	ck.Checkpoint = filepath.Join(t.TempDir(), "ckpt")
	ck.Epochs = 3
	trainToy(t, ck)
	ck.Epochs = 6
	_, m3 := trainToy(t, ck)
	if !bytes.Equal(saved(t, m1), saved(t, m3)) {
		t.Error("a training resumed from its checkpoint wrote another model than one run through")
	}
	// The shards are computed in parallel; one core must give the same bytes.
	procs := runtime.GOMAXPROCS(1)
	_, m4 := trainToy(t, cfg)
	runtime.GOMAXPROCS(procs)
	if !bytes.Equal(saved(t, m1), saved(t, m4)) {
		t.Error("a training on one core wrote another model than one on several")
	}
	right := 0
	for _, e := range data {
		p := m1.Probs(e.In, nil)
		best := 0
		for k := range p {
			if p[k] > p[best] {
				best = k
			}
		}
		if e.Target&(1<<best) != 0 {
			right++
		}
	}
	if acc := float64(right) / float64(len(data)); acc < 0.8 {
		t.Errorf("accuracy on the toy training data %.2f, want >= 0.8: the network does not learn", acc)
	}
}

// TestEnsembleMembers trains two members of an ensemble on the same data:
// the second starts elsewhere, so its weights differ, and it resumes from
// a checkpoint of its own, not member 0's. Calibrating the pair fits one
// temperature and bias on the mean logits, carried by the first network.
func TestEnsembleMembers(t *testing.T) {
	cfg := Config{D: 8, H: 8, Epochs: 3, BatchSize: 8, LearningRate: 0.01}
	data, m0 := trainToy(t, cfg)
	c1 := cfg
	c1.Member = 1
	_, m1 := trainToy(t, c1)
	if bytes.Equal(saved(t, m0), saved(t, m1)) {
		t.Fatal("member 1 wrote the same network as member 0")
	}
	ck := filepath.Join(t.TempDir(), "ckpt")
	c0 := cfg
	c0.Checkpoint = ck
	trainToy(t, c0)
	c1.Checkpoint = ck
	var log bytes.Buffer
	if _, err := Train(context.Background(), c1, data, func(f string, a ...any) { fmt.Fprintf(&log, f+"\n", a...) }); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(log.Bytes(), []byte("another configuration")) {
		t.Errorf("member 1 did not refuse member 0's checkpoint; log:\n%s", log.String())
	}
	// TrainMembers gives member 1 a checkpoint of its own and trains the
	// same two networks.
	cm := cfg
	cm.Members, cm.Checkpoint = 2, filepath.Join(t.TempDir(), "ens")
	both, err := TrainMembers(context.Background(), cm, data, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cm.Checkpoint + ".m1"); err != nil {
		t.Errorf("member 1's checkpoint: %v", err)
	}
	if len(both) != 2 || !slices.Equal(both[0].P, m0.P) || !slices.Equal(both[1].P, m1.P) {
		t.Error("TrainMembers trained other networks than Train with Member 0 and 1")
	}
	nets := []*align.Model{m0, m1}
	Calibrate(nets, data)
	if m1.Temperature != 1 || m1.Bias != [align.NumLabels]float64{} {
		t.Errorf("the second member keeps temperature %g and bias %v, want 1 and zero", m1.Temperature, m1.Bias)
	}
	var c align.Cache
	for _, e := range data[:5] {
		z0, z1 := m0.Forward(e.In, &c), m1.Forward(e.In, &c)
		var mean [align.NumLabels]float64
		for k := range mean {
			mean[k] = z0[k]/2 + z1[k]/2
		}
		want := align.Calibrate(mean, m0.Temperature, m0.Bias)
		got := align.EnsembleProbs(nets, e.In, &c)
		for k := range got {
			if d := got[k] - want[k]; d > 1e-12 || d < -1e-12 {
				t.Fatalf("ensemble probabilities %v, want %v", got, want)
			}
		}
	}
}

// TestBySetNeverTrainedIsDevelopment: a set of weight 0 counts whole in the
// development split and not at all in the calibration split, whatever its
// pairs' hashed splits.
// TestTrainTeacher: a teacher trained in the run is the ensemble the same
// settings train without distillation, calibrated together, with
// checkpoints of its own beside the students'; its key names its weights.
func TestTrainTeacher(t *testing.T) {
	data, err := Encode(context.Background(), toyData(), "", nli.EncoderOptions{}, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	ck := filepath.Join(t.TempDir(), "ckpt")
	cfg := Config{D: 8, H: 8, Epochs: 2, BatchSize: 8, LearningRate: 0.01, Distill: 0.5, TeacherMembers: 2, Checkpoint: ck}
	nets, key, err := TrainTeacher(context.Background(), cfg, data, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	if len(nets) != 2 {
		t.Fatalf("%d teacher networks, want 2", len(nets))
	}
	for _, f := range []string{ck + ".teacher", ck + ".teacher.m1"} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("teacher checkpoint: %v", err)
		}
	}
	if _, err := os.Stat(ck); err == nil {
		t.Error("the teacher wrote the students' checkpoint")
	}
	plain := Config{D: 8, H: 8, Epochs: 2, BatchSize: 8, LearningRate: 0.01, Members: 2}
	want, err := TrainMembers(context.Background(), plain, data, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	Calibrate(want, data)
	if NetsKey(want) != key {
		t.Error("the teacher differs from the ensemble the same settings train without distillation")
	}
	if NetsKey(want[:1]) == key {
		t.Error("one network has the key of two")
	}
}

// TestTrainTeacherWidths: --teacher-d and --teacher-hidden give the teacher
// its own widths, and it is the ensemble those widths train alone; the
// students keep theirs.
func TestTrainTeacherWidths(t *testing.T) {
	data, err := Encode(context.Background(), toyData(), "", nli.EncoderOptions{}, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{D: 8, H: 8, TeacherD: 6, TeacherH: 10, Epochs: 1, BatchSize: 8, LearningRate: 0.01, Distill: 0.5, TeacherMembers: 1}
	nets, key, err := TrainTeacher(context.Background(), cfg, data, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	if c := nets[0].Cfg; c.D != 6 || c.H != 10 {
		t.Errorf("teacher widths %d/%d, want 6/10", c.D, c.H)
	}
	want, err := TrainMembers(context.Background(), Config{D: 6, H: 10, Epochs: 1, BatchSize: 8, LearningRate: 0.01, Members: 1}, data, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	Calibrate(want, data)
	if NetsKey(want) != key {
		t.Error("the teacher differs from the network its widths train without distillation")
	}
	cfg.Teacher, cfg.TeacherKey = nets, key
	if err := SoftTargets(context.Background(), nets, data); err != nil {
		t.Fatal(err)
	}
	students, err := TrainMembers(context.Background(), cfg, data, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	if c := students[0].Cfg; c.D != 8 || c.H != 8 {
		t.Errorf("student widths %d/%d, want 8/8", c.D, c.H)
	}
}

func TestBySetNeverTrainedIsDevelopment(t *testing.T) {
	data := []Encoded{
		{Example: Example{Set: "a", Split: SplitCalib}, Weight: 1},
		{Example: Example{Set: "a", Split: SplitDev}, Weight: 1},
		{Example: Example{Set: "b", Split: SplitCalib}},
		{Example: Example{Set: "b", Split: SplitDev}},
		{Example: Example{Set: "b", Split: SplitTrain}},
	}
	calib, dev := BySet(data, SplitCalib), BySet(data, SplitDev)
	if len(calib["a"]) != 1 || len(dev["a"]) != 1 {
		t.Errorf("a trained set: calibration %d, development %d pairs, want 1 and 1", len(calib["a"]), len(dev["a"]))
	}
	if len(calib["b"]) != 0 || len(dev["b"]) != 3 {
		t.Errorf("a set never trained on: calibration %d, development %d pairs, want 0 and 3", len(calib["b"]), len(dev["b"]))
	}
}

// TestApplyWeights checks that --set-weight replaces a trained set's
// weight, leaves the others and a never-trained set as they were, and
// refuses an unknown set or a weight out of range, before encoding too
// (CheckWeights).
func TestApplyWeights(t *testing.T) {
	data := func() []Encoded {
		return []Encoded{
			{Example: Example{Set: SetVitaminC}, Weight: 1},
			{Example: Example{Set: SetFEVER}, Weight: 2},
			{Example: Example{Set: "breaking_nli"}, Weight: 0},
		}
	}
	d := data()
	if err := (Config{Weights: map[string]float64{SetVitaminC: 2.5}}).ApplyWeights(d); err != nil {
		t.Fatal(err)
	}
	if d[0].Weight != 2.5 || d[1].Weight != 2 || d[2].Weight != 0 {
		t.Errorf("weights %v, %v, %v; want 2.5, 2, 0", d[0].Weight, d[1].Weight, d[2].Weight)
	}
	for _, w := range []map[string]float64{{"nosuchset": 1}, {"breaking_nli": 1}, {SetFEVER: 0}, {SetFEVER: 11}} {
		if err := (Config{Weights: w}).ApplyWeights(data()); err == nil {
			t.Errorf("ApplyWeights(%v): no error", w)
		}
	}
	exs := []Example{{Set: SetVitaminC}, {Set: SetFEVER}, {Set: "breaking_nli"}}
	if err := (Config{Weights: map[string]float64{SetVitaminC: 2}}).CheckWeights(exs); err != nil {
		t.Errorf("CheckWeights before encoding: %v", err)
	}
	for _, w := range []map[string]float64{{"nosuchset": 1}, {"breaking_nli": 1}, {SetFEVER: 11}} {
		if err := (Config{Weights: w}).CheckWeights(exs); err == nil {
			t.Errorf("CheckWeights(%v): no error", w)
		}
	}
	if got := Info(Config{Weights: map[string]float64{SetVitaminC: 2, SetFEVER: 3}}, 10)["set_weights"]; got != "fever=3,vitaminc_real_a=2" {
		t.Errorf("Info set_weights = %q", got)
	}
}

// norm is the Euclidean norm of p.
func norm(p []float64) float64 {
	n := 0.0
	for _, x := range p {
		n += x * x
	}
	return math.Sqrt(n)
}

// TestAdamStepDecay checks decoupled weight decay: with a zero gradient
// Adam moves nothing, so each parameter is only shrunk, by lr times the
// network's rate before flush and the tuned words' rate from it on.
func TestAdamStepDecay(t *testing.T) {
	p := []float64{1, -2, 4, 8}
	g, m, v := make([]float64, 4), make([]float64, 4), make([]float64, 4)
	adamStep(p, g, m, v, 1, 0.1, 1, 2, 0.5, 2)
	want := []float64{0.95, -1.9, 3.2, 6.4}
	for i := range p {
		if math.Abs(p[i]-want[i]) > 1e-12 {
			t.Errorf("parameter %d: %g after one decayed step, want %g", i, p[i], want[i])
		}
	}
	// Without decay a zero gradient changes nothing.
	q := []float64{1, -2, 4, 8}
	adamStep(q, g, m, v, 2, 0.1, 1, 2, 0, 0)
	if !slices.Equal(q, []float64{1, -2, 4, 8}) {
		t.Errorf("a zero gradient without decay moved the parameters to %v", q)
	}
}

// TestReadings checks that a training pair with a long passage is read as
// the judge reads it, as two inputs of half its weight each (its bearing
// sentences and its focus window), that a pair of one sentence keeps its
// input, and that the other splits and the order of data are kept.
func TestReadings(t *testing.T) {
	long := "The harbour was dredged in 1880. Figures show exports rose 4 percent in 1903. The museum opened its doors in 1910. A new pier was built."
	exs := []Example{
		{Set: "toy", Claim: "Exports rose by 4 percent in 1903 across the region.", Passage: long, Target: tEntail, Split: SplitTrain},
		{Set: "toy", Claim: "Exports rose by 4 percent in 1903 across the region.", Passage: "Figures show exports fell 4 percent in 1903.", Target: tContradict, Split: SplitTrain},
		{Set: "toy", Claim: "Exports rose by 4 percent in 1903 across the region.", Passage: long, Target: tEntail, Split: SplitCalib},
	}
	data, err := Encode(context.Background(), exs, "", nli.EncoderOptions{}, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	read, err := Readings(context.Background(), data, "", nli.EncoderOptions{}, func(f string, a ...any) { fmt.Fprintf(&log, f+"\n", a...) })
	if err != nil {
		t.Fatal(err)
	}
	if len(read) != 4 {
		t.Fatalf("%d pairs after reading, want 4 (the long training pair twice)", len(read))
	}
	if read[0].Passage != long || read[1].Passage != long || read[0].Weight != 0.5 || read[1].Weight != 0.5 {
		t.Errorf("the long training pair's readings: %q weight %g, %q weight %g; want it twice at half weight", read[0].Passage, read[0].Weight, read[1].Passage, read[1].Weight)
	}
	// The first reading is the whole passage (every sentence bears on
	// the claim), the second its focus: the one sentence with the claim's
	// words, far fewer tokens.
	if len(read[0].In.B) != len(data[0].In.B) || len(read[1].In.B) >= len(read[0].In.B) {
		t.Errorf("readings of %d and %d passage tokens, the whole passage %d; want the whole, then a shorter focus", len(read[0].In.B), len(read[1].In.B), len(data[0].In.B))
	}
	one := nli.NewEncoder(nli.EncoderOptions{}).Encode("Exports rose by 4 percent in 1903 across the region.", "Figures show exports rose 4 percent in 1903.")
	if len(read[1].In.B) != len(one.B) {
		t.Errorf("the focus reads %d tokens, the sentence alone %d", len(read[1].In.B), len(one.B))
	}
	if read[2].Weight != 1 || !reflect.DeepEqual(read[2].In, data[1].In) {
		t.Errorf("the one-sentence pair changed: weight %g", read[2].Weight)
	}
	if read[3].Split != SplitCalib || read[3].Weight != 1 || read[3].In != data[2].In {
		t.Errorf("the calibration pair was read again: %+v", read[3].Example)
	}
	if !strings.Contains(log.String(), "1 training pairs read as two passages") {
		t.Errorf("log does not count the pairs read twice:\n%s", log.String())
	}
}

// TestNetsKeyStable: the key of a model file's networks is what it was
// when the file was written, so that a rerun of the shipped command names
// its teacher as the shipped file does and resumes its checkpoints. The
// shipped networks' key was computed at 41b6596, before align.Config had
// Rels; a network of 13 relations gets another.
func TestNetsKeyStable(t *testing.T) {
	f, err := os.Open("../model/aligner.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a, err := nli.ReadAligner(f)
	if err != nil {
		t.Fatal(err)
	}
	nets := a.Networks()
	if got := NetsKey(nets); got != "ba07813f6069" {
		t.Errorf("the shipped networks' key is %s, was ba07813f6069", got)
	}
	wide := *nets[0]
	wide.Cfg.Rels = align.NumRelations + 1
	if NetsKey([]*align.Model{&wide}) == NetsKey(nets[:1]) {
		t.Error("a network of 13 relations has the key of one of 12")
	}
}
