package train

import (
	"math"
	"testing"

	"github.com/verity-fc/verity/nli/align"
)

func TestSourcePriors(t *testing.T) {
	var data []Encoded
	add := func(set string, target uint8, n int, w float64) {
		for range n {
			data = append(data, Encoded{Example: Example{Set: set, Target: target}, Weight: w})
		}
	}
	// FEVER's claims and its built neutrals are one source.
	add(SetFEVER, tEntail, 300, 2)
	add(SetFEVER, tContradict, 100, 2)
	add(SetRandom, tNeutral, 400, 0.5)
	// A two-way set: NOT_SUPPORTED counts half for each of its labels.
	add("rte", tEntail, 200, 1)
	add("rte", tNotSupported, 200, 1)
	// Copies without a label (Substitute) count for nothing.
	add("rte", 0, 50, 1)
	lp := SourcePriors(data, false)
	if lp[SetFEVER] != lp[SetRandom] {
		t.Fatalf("FEVER %v and its random neutrals %v have other priors; they are one source", lp[SetFEVER], lp[SetRandom])
	}
	pooled := [3]float64{600 + 200, 200 + 100, 200 + 100} // weighted: entail, contradict, neutral
	total := 1400.0
	want := func(c [3]float64, n float64) [3]float64 {
		var out [3]float64
		for k := range out {
			out[k] = math.Log((c[k] + priorCount*pooled[k]/total) / (n + priorCount))
		}
		return out
	}
	for set, w := range map[string][3]float64{
		SetFEVER: want([3]float64{600, 200, 200}, 1000),
		"rte":    want([3]float64{200, 100, 100}, 400),
	} {
		for k := range w {
			if math.Abs(lp[set][k]-w[k]) > 1e-12 {
				t.Errorf("%s: log prior %v, want %v", set, lp[set], w)
				break
			}
		}
	}
	// The shares of a source sum to one.
	for set, l := range lp {
		var s float64
		for _, x := range l {
			s += math.Exp(x)
		}
		if math.Abs(s-1) > 1e-12 {
			t.Errorf("%s: shares sum to %g", set, s)
		}
	}
	z := [align.NumLabels]float64{1, 2, 3}
	if got := adjust(z, lp, "rte"); got[0] != 1+lp["rte"][0] || got[2] != 3+lp["rte"][2] {
		t.Errorf("adjust(rte) = %v", got)
	}
	if got := adjust(z, lp, "unknown"); got != z {
		t.Errorf("adjust of a set with no prior = %v, want %v unchanged", got, z)
	}
	if got := adjust(z, nil, "rte"); got != z {
		t.Errorf("adjust without priors = %v, want %v unchanged", got, z)
	}
}

// With complete set, a source that lacks a label gets no prior, and so is
// trained unadjusted; the others keep theirs.
func TestSourcePriorsComplete(t *testing.T) {
	var data []Encoded
	add := func(set string, target uint8, n int) {
		for range n {
			data = append(data, Encoded{Example: Example{Set: set, Target: target}, Weight: 1})
		}
	}
	add("fm2_dev", tEntail, 500)
	add("fm2_dev", tContradict, 500)
	add("fm2_dev", tNeutral, 9) // under 1%: the source is said to lack neutral
	add("rte", tEntail, 200)
	add("rte", tNotSupported, 200)
	add("snli", tEntail, 100)
	add("snli", tContradict, 100)
	add("snli", tNeutral, 100)
	all := SourcePriors(data, false)
	some := SourcePriors(data, true)
	if _, ok := all["fm2_dev"]; !ok {
		t.Fatal("without complete, FoolMeTwice has no prior")
	}
	if lp, ok := some["fm2_dev"]; ok {
		t.Errorf("with complete, FoolMeTwice (0.9%% neutral) has prior %v; want none", lp)
	}
	for _, set := range []string{"rte", "snli"} {
		if some[set] != all[set] {
			t.Errorf("%s: prior %v with complete, %v without; a source with every label keeps its prior", set, some[set], all[set])
		}
	}
	add("fm2_dev", tNeutral, 2) // 11 of 1,011: at least 1%
	if _, ok := SourcePriors(data, true)["fm2_dev"]; !ok {
		t.Error("with 1.1% neutral, FoolMeTwice has no prior; want one")
	}
}

func TestSource(t *testing.T) {
	for set, want := range map[string]string{
		SetFEVER: SetFEVER, SetRandom: SetFEVER, SetSamePage: SetFEVER, SetOtherSubject: SetFEVER, SetDistractor: SetFEVER,
		"mnli_dev_unverified": "mnli_dev", "mnli_dev": "mnli_dev", "fm2_dev": "fm2_dev", SetVitaminC: SetVitaminC,
	} {
		if got := Source(set); got != want {
			t.Errorf("Source(%q) = %q, want %q", set, got, want)
		}
	}
}
