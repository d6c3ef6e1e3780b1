package train

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"runtime"
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

func trainToy(t *testing.T, cfg Config) ([]Encoded, *align.Model) {
	t.Helper()
	data, err := Encode(context.Background(), toyData(), cfg.Ablate, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Train(context.Background(), cfg, data, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	Calibrate(m, data)
	return data, m
}

func saved(t *testing.T, m *align.Model) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := nli.NewAligner(m, false, nil).Save(&buf); err != nil {
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
