package train

import (
	"fmt"
	"testing"
)

func TestDistractorSentences(t *testing.T) {
	const (
		claim    = "Marie Curie won two Nobel Prizes."
		passage  = "Marie Curie won the Nobel Prize in Physics and in Chemistry."
		samePage = "Marie Curie was born in Warsaw."
		other    = "Pierre Curie shared a Nobel Prize in 1903. He died in 1906."
		random   = "The Danube flows into the Black Sea. It is long."
	)
	exs := []Example{
		{Set: SetFEVER, Claim: claim, Passage: passage, Target: tEntail, Group: "wiki:1", Split: SplitDev},
		{Set: SetSamePage, Claim: claim, Passage: samePage, Target: tNeutral, Group: "wiki:1", Split: SplitDev},
		{Set: SetOtherSubject, Claim: claim, Passage: other, Target: tNeutral, Group: "wiki:1", Split: SplitDev},
		{Set: SetRandom, Claim: claim, Passage: random, Target: tNeutral, Group: "wiki:1", Split: SplitDev},
		// Another set gets none.
		{Set: SetSNLI, Claim: claim, Passage: passage, Target: tEntail, Group: "snli:1", Split: SplitDev},
		// No other-subject pair in its split: no distractor.
		{Set: SetFEVER, Claim: "Paris is in France.", Passage: "Paris is the capital of France.", Target: tEntail, Group: "wiki:2", Split: SplitTrain},
		{Set: SetOtherSubject, Claim: "Paris is in France.", Passage: "Lyon is a French city.", Target: tNeutral, Group: "wiki:2", Split: SplitDev},
	}
	join := func(p, d string) string {
		if before(claim) {
			return d + " " + p
		}
		return p + " " + d
	}
	want := []Example{
		{Set: SetDistractor, Claim: claim, Passage: join(passage, "Pierre Curie shared a Nobel Prize in 1903."), Target: tEntail, Group: "wiki:1", Split: SplitDev},
		{Set: SetDistractor, Claim: claim, Passage: join(samePage, "Pierre Curie shared a Nobel Prize in 1903."), Target: tNeutral, Group: "wiki:1", Split: SplitDev},
		{Set: SetDistractor, Claim: claim, Passage: join(other, "The Danube flows into the Black Sea."), Target: tNeutral, Group: "wiki:1", Split: SplitDev},
	}
	// Each gets the first sentence only of the passage it draws on.
	got := DistractorSentences(exs)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got\n%v\nwant\n%v", got, want)
	}
	// Both places occur.
	n := 0
	for i := range 100 {
		if before(fmt.Sprint("claim ", i)) {
			n++
		}
	}
	if n < 30 || n > 70 {
		t.Errorf("%d of 100 claims get their distractor first, want about half", n)
	}
}
