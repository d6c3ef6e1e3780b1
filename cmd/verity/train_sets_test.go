package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/verity-fc/verity/eval"
	"github.com/verity-fc/verity/nli"
	"github.com/verity-fc/verity/nli/train"
)

// TestWriteSets: each split's set is written as DIR/NAME+suffix.jsonl,
// which 'verity eval' reads back with the claim, the passage as its one
// evidence and the label, NOT_SUPPORTED included.
func TestWriteSets(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "calib")
	sets := map[string][]train.Encoded{
		"fever": {
			{Example: train.Example{Set: "fever", Claim: "The bridge opened in 1937.", Passage: "The bridge opened in 1937.", Target: 1 << nli.Entail}},
			{Example: train.Example{Set: "fever", Claim: "The bridge opened in 1932.", Passage: "The bridge opened in 1937.", Target: 1 << nli.Contradict}},
		},
		"rte": {
			{Example: train.Example{Set: "rte", Claim: "The bridge is red.", Passage: "The bridge opened in 1937.", Target: 1<<nli.Contradict | 1<<nli.Neutral}},
		},
	}
	if err := writeSets(dir, "_calib", sets); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]string{"fever": {"SUPPORTS", "REFUTES"}, "rte": {"NOT_SUPPORTED"}} {
		f, err := os.Open(filepath.Join(dir, name+"_calib.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		got, err := eval.ReadSet(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d examples, want %d", name, len(got), len(want))
		}
		for i, ex := range got {
			src := sets[name][i]
			if ex.Label != want[i] || ex.Claim != src.Claim || len(ex.Evidence) != 1 || ex.Evidence[0] != src.Passage {
				t.Errorf("%s[%d] = %+v, want claim %q, evidence [%q], label %s", name, i, ex, src.Claim, src.Passage, want[i])
			}
		}
	}
}
