package nli

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/verity-fc/verity/evidence"
)

func TestApplyRules(t *testing.T) {
	in := evidence.Judgment{Entail: 0.8, Contradict: 0.1, Neutral: 0.1}
	tests := []struct {
		name, claim, passage string
		want                 evidence.Judgment
	}{
		{"no rule", "Birds can fly.", "Birds can fly.", in},
		{"claim quantifies more strongly", "All birds can fly.", "Many birds can fly.",
			evidence.Judgment{Entail: 0.8 * quantKeep, Contradict: 0.1, Neutral: 0.1 + 0.8*(1-quantKeep)}},
		{"most against many", "Most birds can fly.", "Many birds can fly.",
			evidence.Judgment{Entail: 0.8 * quantKeep, Contradict: 0.1, Neutral: 0.1 + 0.8*(1-quantKeep)}},
		{"passage quantifies more strongly", "Many birds can fly.", "All birds can fly.", in},
		{"some against nothing is fine", "Some birds can fly.", "Birds can fly.", in},
		{"hedged passage", "Coffee causes cancer.", "Studies suggest that coffee causes cancer.",
			evidence.Judgment{Entail: 0.8 * modalKeep, Contradict: 0.1 * modalKeep, Neutral: 0.1 + 0.9*(1-modalKeep)}},
		{"hedge far from the claim's words", "Coffee causes cancer.", "Coffee causes cancer, a study of 4,000 adults in six countries over ten years found; other drinks may too.", in},
		{"hedged claim, definitive passage", "Coffee may cause cancer.", "Coffee causes cancer.", in},
		{"both hedged", "Coffee may cause cancer.", "Coffee might cause cancer.", in},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := applyRules(analyse(tt.claim), analyse(tt.passage), in)
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
				t.Errorf("applyRules mismatch (-want +got):\n%s", diff)
			}
			if s := got.Entail + got.Contradict + got.Neutral; s < 1-1e-12 || s > 1+1e-12 {
				t.Errorf("probabilities sum to %g", s)
			}
		})
	}
}

func TestNegationFlip(t *testing.T) {
	tests := []struct {
		claim, passage string
		want           bool
	}{
		{"Revenue grew 20% in 2023.", "Revenue did not grow 20% in 2023.", true},
		{"Revenue did not grow in 2023.", "Revenue grew in 2023.", true},
		{"Revenue grew in 2023.", "Revenue grew in 2023.", false},
		{"Revenue did not grow in 2023.", "Revenue did not grow in 2023.", false},
		// Too little of the claim is covered for the negation to bear on it.
		{"The company's revenue grew strongly in Europe and Asia.", "Profits did not grow.", false},
	}
	for _, tt := range tests {
		if got := negationFlip(analyse(tt.claim), analyse(tt.passage)); got != tt.want {
			t.Errorf("negationFlip(%q, %q) = %v, want %v", tt.claim, tt.passage, got, tt.want)
		}
	}
}
