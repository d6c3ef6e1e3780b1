package entail

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/verity-fc/verity/agents/internal/rolestest"
	"github.com/verity-fc/verity/eval"
	"github.com/verity-fc/verity/internal/shareddata"
)

var evalLabels = map[string]string{Supported: eval.Supports, Contradicted: eval.Refutes, NotEnoughInfo: eval.NotEnoughInfo}

// TestLabeledData runs the built-in audit over samples of the shared
// labeled sets (the excerpt is the gold evidence, or the SciFact abstract)
// with the built-in NLI judge, logs accuracy and macro-F1 of the final
// verdict, and fails below floors set a few points under the measured
// values, so that a change that breaks the pipeline shows.
func TestLabeledData(t *testing.T) {
	if testing.Short() {
		t.Skip("labeled-data run")
	}
	dir := shareddata.Dir(t)
	judge := rolestest.BuiltinNLI(t)
	p, err := New(Deps{NLI: judge}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	sets := []struct {
		name     string
		rows     []rolestest.Row
		accFloor float64
	}{
		{"fever", rolestest.ReadRows(t, filepath.Join(dir, "fever/paper_dev.jsonl"), 5, 400, false), 0.56},
		{"vitaminc", rolestest.ReadRows(t, filepath.Join(dir, "vitaminc/real_a.jsonl"), 11, 600, false), 0.54},
		{"scifact", rolestest.ReadRows(t, filepath.Join(dir, "scifact/train_claim_doc_pairs.jsonl"), 3, 300, true), 0.42},
	}
	for _, set := range sets {
		t.Run(set.name, func(t *testing.T) {
			gold := make([]string, len(set.rows))
			preds := make([]eval.Prediction, len(set.rows))
			for i, r := range set.rows {
				res, err := p.Run(context.Background(), Request{Claim: r.Claim, SourceExcerpt: r.Text, SourceType: "encyclopedia"})
				if err != nil {
					t.Fatal(err)
				}
				gold[i], preds[i] = r.Label, eval.Prediction{Label: evalLabels[res.Final.FinalVerdict]}
			}
			rep := eval.Score(gold, preds, eval.ThreeWayLabels)
			t.Logf("%s: n=%d accuracy=%.3f macro_f1=%.3f balanced_accuracy=%.3f", set.name, rep.N, rep.Accuracy, rep.MacroF1, rep.BalancedAccuracy)
			if rep.Accuracy < set.accFloor {
				t.Errorf("accuracy %.3f is below the floor %.2f", rep.Accuracy, set.accFloor)
			}
		})
	}
}

// BenchmarkBuiltinAudit times one built-in audit of a short excerpt with
// the built-in NLI judge.
func BenchmarkBuiltinAudit(b *testing.B) {
	judge := rolestest.BuiltinNLI(b)
	p, err := New(Deps{NLI: judge}, Config{})
	if err != nil {
		b.Fatal(err)
	}
	req := Request{
		Claim:         "The Physicians' Health Study found that aspirin cut the risk of a first heart attack by 44%.",
		SourceExcerpt: "In the Physicians' Health Study, aspirin every other day reduced the risk of a first myocardial infarction by 44%. The trial enrolled 22,071 male physicians. It may not apply to women, and the benefit was limited to those aged 50 or more.",
		SourceType:    "peer-reviewed medical journal",
	}
	b.ReportAllocs()
	base := req.Claim
	for i := 0; b.Loop(); i++ {
		// Distinct claims defeat the NLI judge's cache.
		req.Claim = fmt.Sprintf("%s (%d)", base, i)
		if _, err := p.Run(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}
