package train

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/verity-fc/verity/nli"
	"github.com/verity-fc/verity/nli/align"
)

// TestNearest checks the neighbour search: the pool's words by cosine,
// nearest first, without the word itself or another copy of its vector.
func TestNearest(t *testing.T) {
	unit := [][]float32{
		{1, 0},         // 0
		{1, 0},         // 1: the same vector as 0, read by another encoder
		{0.6, 0.8},     // 2
		{0.8, 0.6},     // 3
		{0, 1},         // 4
		{-1, 0},        // 5
		{0.28, 0.96},   // 6
		{0.96, -0.28},  // 7
		{-0.96, -0.28}, // 8
		{0.96, 0.28},   // 9
		{-0.6, 0.8},    // 10
	}
	got := nearest(unit, 0, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	want := []int{9, 7, 3, 2, 6, 4, 10, 8} // 9 and 7 tie; the pool's order decides
	if !slices.Equal(got, want) {
		t.Errorf("nearest to word 0: %v, want %v", got, want)
	}
	if got := nearest(unit, 0, []int{5, 4, 0}); !slices.Equal(got, []int{4, 5}) {
		t.Errorf("nearest to word 0 in a pool of three: %v, want [4 5]", got)
	}
}

// TestSubstitute checks the copies Substitute makes: one for each
// training example, none for the calibration split; lower-case plain words
// replaced by other plain words of the training split, and names, figures,
// stop words and channel words (never, rose, fallen, all, may) kept; no label;
// the same copies on a second call; none at share 0.
func TestSubstitute(t *testing.T) {
	exs := []Example{
		{Set: "toy", Claim: "The old harbour in Bristol was dredged in 1880.", Passage: "Records show the old harbour in Bristol was dredged in 1880.", Target: tEntail, Split: SplitTrain},
		{Set: "toy", Claim: "Exports never rose in the quiet museum.", Passage: "All exports may have fallen while the museum opened its doors to readers.", Target: tContradict, Split: SplitTrain},
		{Set: "toy", Claim: "The library opened its doors to readers.", Passage: "The gallery closed its doors to visitors.", Target: tNeutral, Split: SplitCalib},
	}
	copies, err := Substitute(context.Background(), exs, 1, 7, nli.EncoderOptions{}, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	if len(copies) != 2 {
		t.Fatalf("%d copies, want 2 (one of each training example)", len(copies))
	}
	plainWords := map[string]bool{}
	for _, e := range exs[:2] {
		for _, s := range []string{e.Claim, e.Passage} {
			for _, w := range strings.Fields(s) {
				plainWords[strings.Trim(w, ".")] = true
			}
		}
	}
	kept := []string{"The", "Bristol", "1880", "Records", "the", "in", "was", "Exports", "never", "rose", "All", "may", "have", "its", "to", "while", "fallen"}
	replaceable := []string{"old", "harbour", "dredged", "show", "quiet", "museum", "exports", "opened", "doors", "readers"}
	for k, cp := range copies {
		orig := exs[k]
		if cp.Target != 0 || cp.Split != SplitTrain || cp.Set != orig.Set || cp.Group != orig.Group {
			t.Errorf("copy %d: target %b, split %d, set %q; want no label and the original's split and set", k, cp.Target, cp.Split, cp.Set)
		}
		for _, pair := range [][2]string{{orig.Claim, cp.Claim}, {orig.Passage, cp.Passage}} {
			was, now := strings.Fields(pair[0]), strings.Fields(pair[1])
			if len(was) != len(now) {
				t.Fatalf("copy %d: %q from %q, another number of words", k, pair[1], pair[0])
			}
			for i, w := range was {
				w, got := strings.Trim(w, "."), strings.Trim(now[i], ".")
				switch {
				case slices.Contains(kept, w) && got != w:
					t.Errorf("copy %d: %q replaced by %q in %q", k, w, got, pair[1])
				case slices.Contains(replaceable, w) && (got == w || !plainWords[got] || slices.Contains(kept, got)):
					t.Errorf("copy %d: %q became %q at share 1, want another plain word of the training split", k, w, got)
				}
			}
		}
	}
	again, err := Substitute(context.Background(), exs, 1, 7, nli.EncoderOptions{}, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, copies) {
		t.Error("a second call with the same seed made other copies")
	}
	none, err := Substitute(context.Background(), exs, 0, 7, nli.EncoderOptions{}, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	if len(none) != 0 {
		t.Errorf("share 0 made %d copies, want none", len(none))
	}
}

// TestTrainUnlabelled checks that a pair without a label learns its soft
// target alone: toy pairs stripped of their labels, each with a teacher
// that says neutral, train a network that calls most of them neutral,
// whatever their label was; one with no soft target either is an error,
// not a panic.
func TestTrainUnlabelled(t *testing.T) {
	data, err := Encode(context.Background(), toyData(), "", nli.EncoderOptions{}, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	neutral := [align.NumLabels]float64{}
	neutral[nli.Entail], neutral[nli.Contradict], neutral[nli.Neutral] = 0.1, 0.1, 0.8
	var train []int
	for i := range data {
		if data[i].Split == SplitTrain {
			data[i].Target, data[i].Soft = 0, &neutral
			train = append(train, i)
		}
	}
	cfg := Config{D: 8, H: 8, Epochs: 6, BatchSize: 8, LearningRate: 0.01, Distill: 0.5, Substitute: 1}
	m, err := Train(context.Background(), cfg, data, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	// Without the teacher's probabilities such a pair cannot be trained.
	data[train[0]].Soft = nil
	if _, err := Train(context.Background(), cfg, data, func(string, ...any) {}); err == nil || !strings.Contains(err.Error(), "neither a label nor a teacher's probabilities") {
		t.Errorf("a pair without label or soft target: error %v", err)
	}
	var c align.Cache
	called := 0
	for _, i := range train {
		z := m.Forward(data[i].In, &c)
		if z[nli.Neutral] > z[nli.Entail] && z[nli.Neutral] > z[nli.Contradict] {
			called++
		}
	}
	if called < len(train)*9/10 {
		t.Errorf("%d of %d unlabelled pairs called neutral, want nearly all: their teacher's answer", called, len(train))
	}
}
