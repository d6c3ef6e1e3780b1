package jury

import (
	"testing"

	"github.com/verity-fc/verity/agents/internal/rolestest"
)

func TestAggregate(t *testing.T) {
	tests := []struct {
		yes, axes int
		strong    bool
		want      string
	}{
		{5, 5, false, Faithful},
		{5, 5, true, Faithful},
		{4, 5, true, Ambiguous},
		{3, 5, true, Ambiguous},
		{4, 5, false, Mutated},
		{3, 5, false, Mutated},
		{2, 5, true, Mutated},
		{0, 5, true, Mutated},
		{0, 5, false, Mutated},
		// A rubric of N axes reads "3-4 of 5" as N-2 to N-1.
		{3, 3, false, Faithful},
		{1, 3, true, Ambiguous},
		{0, 3, true, Mutated},
		{6, 8, true, Ambiguous},
		{5, 8, true, Mutated},
	}
	for _, tt := range tests {
		if got := Aggregate(tt.yes, tt.axes, tt.strong); got != tt.want {
			t.Errorf("Aggregate(%d of %d, strong dissent %v) = %s, want %s", tt.yes, tt.axes, tt.strong, got, tt.want)
		}
	}
}

func TestStrongDissent(t *testing.T) {
	tests := []struct {
		faithful, mutated, threshold int
		want                         bool
	}{
		{4, 0, 2, false},
		{3, 1, 2, false},
		{2, 2, 2, true},
		{1, 3, 2, false},
		{3, 2, 2, true},
		{3, 1, 1, true},
		{0, 0, 1, false},
	}
	for _, tt := range tests {
		if got := StrongDissent(tt.faithful, tt.mutated, tt.threshold); got != tt.want {
			t.Errorf("StrongDissent(%d, %d, %d) = %v", tt.faithful, tt.mutated, tt.threshold, got)
		}
	}
}

func revotes(vs ...any) []JurorRevote {
	var out []JurorRevote
	for i := 0; i < len(vs); i += 3 {
		out = append(out, JurorRevote{Juror: vs[i].(string), Revote: Revote{Verdict: vs[i+1].(string), Confidence: vs[i+2].(float64), Reasoning: "r"}})
	}
	return out
}

func TestConfidence(t *testing.T) {
	tests := []struct {
		name    string
		verdict string
		votes   []JurorRevote
		want    float64
	}{
		{"unanimous faithful", Faithful, revotes("a", Faithful, 0.9, "b", Faithful, 0.7), 0.8},
		{"mutated against a faithful vote", Mutated, revotes("a", Mutated, 0.9, "b", Faithful, 0.7), 0.6},
		{"rubric against every juror", Mutated, revotes("a", Faithful, 0.9, "b", Faithful, 0.9), 0.1},
		{"even split is most ambiguous", Ambiguous, revotes("a", Faithful, 0.8, "b", Mutated, 0.8), 1},
		{"lopsided ambiguity", Ambiguous, revotes("a", Faithful, 1.0, "b", Faithful, 1.0, "c", Mutated, 1.0, "d", Mutated, 0.5), 0.75},
		{"no votes", Faithful, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Confidence(tt.verdict, tt.votes); got != tt.want {
				t.Errorf("Confidence = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestDissentNote(t *testing.T) {
	tests := []struct {
		name    string
		verdict string
		votes   []JurorRevote
		want    string
	}{
		{"unanimous", Faithful, revotes("a", Faithful, 0.9, "b", Faithful, 0.9), ""},
		{"one against", Mutated, revotes("a", Mutated, 0.9, "b", Faithful, 0.9, "c", Mutated, 0.9), "b voted Faithful (1 of 3), not a strong dissent (threshold 2)."},
		{"two against", Faithful, revotes("a", Mutated, 0.9, "b", Faithful, 0.9, "c", Mutated, 0.9, "d", Faithful, 0.9, "e", Faithful, 0.9), "a, c voted Mutated (2 of 5), a strong dissent (threshold 2)."},
		{"ambiguous split", Ambiguous, revotes("a", Mutated, 0.9, "b", Faithful, 0.9, "c", Mutated, 0.9, "d", Faithful, 0.9), "The jury split 2 Faithful (b, d) to 2 Mutated (a, c), a strong dissent (threshold 2)."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DissentNote(tt.verdict, tt.votes, 2); got != tt.want {
				t.Errorf("DissentNote =\n%q, want\n%q", got, tt.want)
			}
		})
	}
}

func TestCheckRuling(t *testing.T) {
	rubric := []RubricAxis{{"a", "q"}, {"b", "q"}, {"c", "q"}}
	ans := func(a, b, c string) []AxisAnswer {
		return []AxisAnswer{{"a", a, "r"}, {"b", b, "r"}, {"c", c, "r"}}
	}
	tests := []struct {
		name    string
		r       Ruling
		wantErr string
	}{
		{"all yes", Ruling{ans("Yes", "Yes", "Yes"), "why", ""}, ""},
		{"a no with an edit", Ruling{ans("Yes", "No", "Yes"), "why", "edited claim"}, ""},
		{"a no without an edit", Ruling{ans("Yes", "No", "Yes"), "why", ""}, "minimal_edit"},
		{"an edit without a no", Ruling{ans("Yes", "Yes", "Yes"), "why", "edit"}, "minimal_edit"},
		{"missing axis", Ruling{ans("Yes", "Yes", "Yes")[:2], "why", ""}, "answers"},
		{"wrong order", Ruling{[]AxisAnswer{{"b", "Yes", "r"}, {"a", "Yes", "r"}, {"c", "Yes", "r"}}, "why", ""}, "answers[0].axis"},
		{"maybe", Ruling{ans("Yes", "Maybe", "Yes"), "why", "e"}, "answers[1].answer"},
		{"no reason", Ruling{[]AxisAnswer{{"a", "Yes", ""}, {"b", "Yes", "r"}, {"c", "Yes", "r"}}, "why", ""}, "answers[0].reason"},
		{"no reasoning", Ruling{ans("Yes", "Yes", "Yes"), " ", ""}, "reasoning"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rolestest.AssertErr(t, checkRuling(rubric)(&tt.r), tt.wantErr)
		})
	}
}
