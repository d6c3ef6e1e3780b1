package nli

import (
	"testing"

	"github.com/verity-fc/verity/evidence"
)

func TestScheduleRule(t *testing.T) {
	const behind = "The project was completed two years behind schedule."
	for _, tt := range []struct {
		claim, passage string
		want           bool // the rule applies
	}{
		{"The project was completed on time.", behind, true},
		{"The project was completed ahead of schedule.", behind, true},
		{"The project was delayed.", "The project was completed on time and under budget.", true},
		{"The project was completed behind schedule.", behind, false},                       // the same way
		{"The project was not completed on time.", behind, false},                           // negated: the networks'
		{"The bridge was completed on time.", behind, false},                                // another subject
		{"The project was completed on time.", "The project was completed in 2020.", false}, // no schedule
	} {
		j := evidence.Judgment{Entail: 0.8, Neutral: 0.1, Contradict: 0.1}
		if got := scheduleRule(analyse(tt.claim), analyse(tt.passage), j) != j; got != tt.want {
			t.Errorf("scheduleRule(%q, %q) applied %t, want %t", tt.claim, tt.passage, got, tt.want)
		}
	}
}
