package nli

import "testing"

func TestCessation(t *testing.T) {
	checkPairs(t, "cessation", cessation, []pairCase[int]{
		{"The factory is still in operation.", "The factory closed in 2015 after 80 years.", -1},
		{"The factory is no longer in operation.", "The factory closed in 2015 after 80 years.", 1},
		{"The newspaper is not published anymore.", "The newspaper ceased publication in 1998.", 1},
		{"The band is still together.", "The band broke up in 2010.", -1},
		{"The company still operates in Russia.", "The company withdrew from Russia in 2022.", -1},
		{"The shop has been open since 1990.", "The shop opened in 1990 and closed in 2005.", -1},
		// A claim of the ending itself.
		{"The factory is still closed.", "The factory closed in 2015 after 80 years.", 0},
		{"The factory has been closed since 2015.", "The factory closed in 2015 after 80 years.", 0},
		// The passage tells of a new start, denies the ending, or ends
		// nothing.
		{"The factory is still in operation.", "The factory closed in 2015 and reopened in 2018.", 0},
		{"The factory is still in operation.", "The factory has not closed.", 0},
		{"The factory is still in operation.", "The factory opened in 1935.", 0},
		// The passage lacks the claim's subject.
		{"The mill is still in operation.", "The factory closed in 2015.", 0},
		// The claim tells of no going on.
		{"The factory closed in 2015.", "The factory closed in 2015 after 80 years.", 0},
	})
}
