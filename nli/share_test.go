package nli

import "testing"

func TestShareVerdict(t *testing.T) {
	checkPairs(t, "shareVerdict", shareVerdict, []pairCase[int]{
		{"Most residents voted for the plan.", "Only 30% of residents voted for the plan.", -1},
		{"Most residents voted for the plan.", "About 62 percent of the residents voted for the plan.", 1},
		{"A majority of voters support the law.", "A poll found 42% of voters support the law.", -1},
		{"A majority of voters support the law.", "A poll found 58 per cent of voters support the law.", 1},
		{"All members attended the meeting.", "About 90% of members attended the meeting.", -1},
		{"All members attended the meeting.", "100% of members attended the meeting.", 1},
		{"A minority of voters support the law.", "A poll found 42% of voters support the law.", 1},
		// "Majority" is the claim's word, and words after the claim's end
		// are no polar words of it.
		{"A majority of voters supported the plan.", "48% of voters supported the plan in the referendum.", -1},
		{"A majority of voters supported the plan.", "52% of voters supported the plan in the referendum.", 1},
		// Exactly half is no majority.
		{"Most residents voted for the plan.", "50% of residents voted for the plan.", -1},
		// The share of something else, or said the other way round.
		{"Most residents voted for the plan.", "Only 30% of visitors voted for the plan.", 0},
		{"Most residents voted for the plan.", "Only 30% of residents voted against the plan.", 0},
		// A word of the claim the passage lacks.
		{"Most residents voted for the new plan.", "Only 30% of residents voted for the plan.", 0},
		// A superlative, a quantifier the rule does not bound, a negation.
		{"Paris is the most visited city.", "About 30% of tourists visited Paris.", 0},
		{"Some residents voted for the plan.", "Only 30% of residents voted for the plan.", 0},
		{"Most residents did not vote for the plan.", "Only 30% of residents voted for the plan.", 0},
		// A count out of a total, said the claim's way or the opposite
		// way ("died" for "survived").
		{"Most of the members voted for the plan.", "Thirty of the 40 members voted for the plan.", 1},
		{"Most of the members voted for the plan.", "Twelve of the 40 members voted for the plan.", -1},
		{"Most of the passengers survived.", "Two of the 150 passengers died in the crash.", 1},
		{"All of the passengers survived.", "Two of the 150 passengers died in the crash.", -1},
		{"Most of the passengers died.", "Two of the 150 passengers died in the crash.", -1},
		{"Most of the passengers survived.", "Two of the 150 passengers were rescued.", 0},
		{"Most of the passengers survived.", "Two of the 150 crew died in the crash.", 0},
	})
}
