package nli

import "testing"

func TestTimesVerdict(t *testing.T) {
	const wins = "The team won the league in 1998, 2004 and 2011."
	checkPairs(t, "timesVerdict", timesVerdict, []pairCase[int]{
		{"The team has won the league three times.", wins, 1},
		{"The team has won the league 3 times.", wins, 1},
		{"The team has won the league four times.", wins, -1},
		{"The team has won the league twice.", wins, -1},
		{"The team has won the league twice.", "The team won the league in 1998 and 2004.", 1},
		{"She won the award three times.", "She won the award in 2001, in 2005 and in 2009.", 1},
		// A hedged count, a partial list, a single year, another verb, a
		// word of the claim the passage lacks, a negation.
		{"The team has won the league at least twice.", wins, 0},
		{"The team has won the league twice.", "The team won several trophies, including the league in 1998 and 2004 and 2011.", 0},
		{"The team has won the league once.", "The team won the league in 1998.", 0},
		{"The team has won the league twice.", "The team lost the league final in 1998 and 2004.", 0},
		{"The team has won the cup twice.", wins, 0},
		{"The team has not won the league twice.", wins, 0},
	})
}
