package nli

import (
	"testing"

	"github.com/verity-fc/verity/wordvec"
)

func TestSwapped(t *testing.T) {
	checkPairs(t, "swapped", swapped, []pairCase[bool]{
		{"The minister admitted the allegations.", "The minister rejected the accusations as false.", true}, // "accusations": a hypernym
		{"The minister denied the allegations.", "The minister admitted the allegations in a statement.", true},
		{"The company accepted the offer.", "The company rejected the offer on Tuesday.", true},
		{"The exam was easy.", "Students found the exam difficult.", true},
		{"The drug is safe for children.", "Regulators warned that the drug is unsafe for children.", true}, // an antonym's synonym
		// The claim said whole, a negation beside the antonym (the
		// negation rule's), two words turned, a claim word the passage
		// lacks otherwise, a scene described at length, and a birth
		// against a death are not read.
		{"The company accepted the offer.", "The company accepted the offer and rejected the counter-offer.", false},
		{"The company accepted the offer.", "The company did not reject the offer.", false},
		{"The shop opened late.", "The shop closed early.", false},
		{"The company accepted the offer from Google.", "The company rejected the offer.", false},
		{"A man is outside.", "A young man in front of a grill laughs while pointing at something to his left near a crowded stall.", false},
		{"The poet was born in Rome.", "The poet died in Rome.", false},
	})
}

func TestStanceSwapped(t *testing.T) {
	checkPairs(t, "stanceSwapped", stanceSwapped, []pairCase[bool]{
		{"The senator voted for the bill.", "The senator voted against the bill.", true},
		{"The senator voted against the bill.", "The senator voted for the bill in 2019.", true},
		{"She argued for lower taxes.", "She argued against lower taxes in her speech.", true},
		// The same side, both sides, the claim's word of side elsewhere,
		// a negation and another bill are not read.
		{"The senator voted for the bill.", "The senator voted for the bill.", false},
		{"The senator voted for the bill.", "The senator voted against the amendment and for the bill.", false},
		{"The senator voted for the bill.", "The senator voted against the bill for the second time.", false},
		{"The senator voted for the bill.", "The senator never voted against the bill.", false},
		{"The senator voted for the bill.", "The senator voted against the budget.", false},
	})
}

// TestSwapRuleJudged: the shipped judge contradicts a claim said again
// with one word turned into its antonym, or the other side taken, where
// the networks alone called it entailment.
func TestSwapRuleJudged(t *testing.T) {
	b := loadAligner(t)
	for _, tt := range [][2]string{
		{"The minister admitted the allegations.", "The minister rejected the accusations as false."},
		{"The minister denied the allegations.", "The minister admitted the allegations in a statement."},
		{"The senator voted for the bill.", "The senator voted against the bill."},
	} {
		if j := b.Predict(tt[0], tt[1]); j.Contradict <= j.Entail || j.Contradict <= j.Neutral {
			t.Errorf("%q | %q: %+v, want contradiction", tt[0], tt[1], j)
		}
	}
}

func TestPrefixOpposed(t *testing.T) {
	wn := wordvec.DefaultWordNet()
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"safe", "unsafe", true}, // WordNet opposes "safe" to "dangerous", and "unsafe" shares its synset
		{"illegal", "legal", true},
		{"dishonest", "honest", true},
		{"union", "ion", false}, // a prefix, but no antonym
		{"discover", "cover", false},
		{"safe", "dangerous", false}, // antonyms, but no prefix: RelateInfo's
	} {
		if got := prefixOpposed(wn, tt.a, tt.b, wn.Info(tt.a), wn.Info(tt.b)); got != tt.want {
			t.Errorf("prefixOpposed(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
