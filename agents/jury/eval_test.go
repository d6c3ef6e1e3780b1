package jury

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/verity-fc/verity/agents/internal/rolestest"
	"github.com/verity-fc/verity/internal/shareddata"
)

// TestLabeledData runs the built-in jury over VitaminC pairs, the claim
// against its gold evidence as the truth: SUPPORTS should be Faithful,
// REFUTES and NOT ENOUGH INFO should not. It logs accuracy (Ambiguous
// counted wrong) and the share of Ambiguous cards, and fails below floors
// set a few points under the measured values.
func TestLabeledData(t *testing.T) {
	if testing.Short() {
		t.Skip("labeled-data run")
	}
	dir := shareddata.Dir(t)
	judge := rolestest.BuiltinNLI(t)
	j, err := New(Deps{NLI: judge, Logger: quiet}, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, set := range []struct {
		file  string
		floor float64
	}{{"vitaminc/real_a.jsonl", 0.60}, {"vitaminc/synthetic.jsonl", 0.50}} {
		t.Run(set.file, func(t *testing.T) {
			rows := rolestest.ReadRows(t, filepath.Join(dir, set.file), 13, 400, false)
			pairs := make([]Pair, len(rows))
			for i, r := range rows {
				pairs[i] = Pair{ID: i, Claim: r.Claim, Truth: r.Text}
			}
			correct, ambiguous, debated := 0, 0, 0
			for i, o := range j.RunBatch(context.Background(), pairs) {
				if o.Err != nil {
					t.Fatalf("pair %d: %v", i, o.Err)
				}
				want := Mutated
				if rows[i].Label == "SUPPORTS" {
					want = Faithful
				}
				if o.Card.Verdict == want {
					correct++
				}
				if o.Card.Verdict == Ambiguous {
					ambiguous++
				}
				if o.Card.Debate.Held {
					debated++
				}
			}
			acc := float64(correct) / float64(len(rows))
			t.Logf("%s: n=%d accuracy=%.3f ambiguous=%d debated=%d", set.file, len(rows), acc, ambiguous, debated)
			if acc < set.floor {
				t.Errorf("accuracy %.3f is below the floor %.2f", acc, set.floor)
			}
		})
	}
}

// BenchmarkBuiltinJury times one pair through the whole built-in protocol
// with the built-in NLI judge; the pair splits the jury, so it is debated.
func BenchmarkBuiltinJury(b *testing.B) {
	judge := rolestest.BuiltinNLI(b)
	j, err := New(Deps{NLI: judge, Logger: quiet}, DefaultConfig())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p := Pair{Claim: fmt.Sprintf("Coffee lowers liver cancer risk by 20%% in adults (%d).", i), Truth: "Coffee may lower liver cancer risk by 20% in some adults, a 2019 review found."}
		if _, err := j.Run(context.Background(), p); err != nil {
			b.Fatal(err)
		}
	}
}
