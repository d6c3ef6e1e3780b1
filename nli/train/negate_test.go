package train

import "testing"

func TestNegateClaim(t *testing.T) {
	cases := []struct{ in, want string }{
		{"The film was released in 2009.", "The film was not released in 2009."},
		{"Two dogs are running through a field.", "Two dogs are not running through a field."},
		{"Knopfler has won four Grammy Awards.", "Knopfler has not won four Grammy Awards."},
		{"She has been to Paris.", "She has not been to Paris."},
		{"The pair has seven children.", ""},
		{"The theory can explain the data.", "The theory can not explain the data."},
		// Declined: a perfect auxiliary without a participle, an
		// auxiliary first, no auxiliary, already negative.
		{"Johanna Braddy has a sister.", ""},
		{"Is the film a comedy?", ""},
		{"Exports rose by 8 percent.", ""},
		{"The mill is not open.", ""},
		{"The film isn't a comedy.", ""},
		{"Nobody was hurt.", ""},
		{"", ""},
	}
	for _, c := range cases {
		got, ok := negateClaim(c.in)
		if !ok {
			got = ""
		}
		if got != c.want {
			t.Errorf("negateClaim(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestNegations(t *testing.T) {
	exs := []Example{
		{Set: SetSNLI, Claim: "A man is sleeping.", Passage: "p", Target: tEntail, Group: "g1", Split: SplitTrain},
		{Set: SetSNLI, Claim: "A man is tired.", Passage: "p", Target: tNeutral, Group: "g1", Split: SplitTrain},
		{Set: SetSNLI, Claim: "A man is awake.", Passage: "p", Target: tContradict, Group: "g1", Split: SplitTrain},
		{Set: SetSNLI, Claim: "A man is sleeping.", Passage: "p", Target: tEntail, Group: "g2", Split: SplitCalib},
		{Set: "breaking_nli", Claim: "A man is sleeping.", Passage: "p", Target: tEntail, Group: "g3", Split: SplitTrain},
	}
	got := Negations(exs)
	if len(got) != 2 {
		t.Fatalf("%d negations, want 2 (training split, entailment and neutral, trained sets): %+v", len(got), got)
	}
	if got[0].Claim != "A man is not sleeping." || got[0].Target != tContradict || got[0].Group != "g1" || got[0].Split != SplitTrain || got[0].Set != SetNegated {
		t.Errorf("entailment negated: %+v", got[0])
	}
	if got[1].Target != tNeutral {
		t.Errorf("neutral negated: %+v, want neutral", got[1])
	}
}
