package main

import (
	"bytes"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/verity-fc/verity/eval"
	"github.com/verity-fc/verity/internal/shareddata"
	"github.com/verity-fc/verity/nli"
)

func TestTrainedShare(t *testing.T) {
	trained := map[string]bool{"the bridge opened in 1937.": true}
	exs := []eval.Example{{Claim: "The  Bridge opened in 1937."}, {Claim: "Water boils at 100 C."}, {Claim: "The sky is green."}, {Claim: "the bridge opened in 1937."}}
	if n, share := trainedShare(exs, trained); n != 2 || math.Abs(share-0.5) > 1e-12 {
		t.Errorf("trainedShare = %d, %v; want 2, 0.5", n, share)
	}
	var w bytes.Buffer
	warnTrainedOn(&w, "set.jsonl", exs, filepath.Join(t.TempDir(), "absent"))
	if w.Len() != 0 {
		t.Errorf("without the training data: %q, want silence", w.String())
	}
}

// TestTrainingSeed reads the seed from a model file's info, 1 when it
// has none, and the shipped model's: the seed of its reproduce command
// (README), so that the overlap warning reads the pairs it trained on.
func TestTrainingSeed(t *testing.T) {
	for _, tt := range []struct {
		info map[string]string
		want int64
	}{
		{map[string]string{"seed": "3"}, 3},
		{map[string]string{"seed": "x"}, 1},
		{nil, 1},
	} {
		if got := trainingSeed(&nli.Aligner{Info: tt.info}); got != tt.want {
			t.Errorf("trainingSeed(info %v) = %d, want %d", tt.info, got, tt.want)
		}
	}
	if got := trainingSeed(nil); got != 1 {
		t.Errorf("trainingSeed(nil) = %d, want 1", got)
	}
	b, err := defaultJudge()
	if err != nil {
		t.Fatal(err)
	}
	if got := trainingSeed(b.Aligner()); got != 4 {
		t.Errorf("the shipped model's seed = %d, want 4", got)
	}
}

// TestEvalWarnsOnTrainingOverlap: FEVER paper_dev is mostly in the shipped
// model's training split (its group-hash split keeps 70% for training), and
// eval says so with the share.
func TestEvalWarnsOnTrainingOverlap(t *testing.T) {
	data := shareddata.Dir(t)
	set := filepath.Join(data, "fever", "paper_dev.jsonl")
	_, stderr, code := verity(t, "eval", "--data", filepath.Join(t.TempDir(), "d"), "--set", set, "--limit", "100", "--train-data", data)
	if code != 0 || !strings.Contains(stderr, "of "+set+" (") || !strings.Contains(stderr, "in the shipped NLI model's training split") {
		t.Errorf("exit %d, stderr %q; want the overlap warning", code, stderr)
	}
}
