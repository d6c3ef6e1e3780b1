package nli

import "testing"

func TestDebunked(t *testing.T) {
	checkPairs(t, "debunked", debunked, []pairCase[int]{
		{"Bulls are enraged by the colour red.", "It is a myth that bulls are enraged by the colour red; they are colour-blind to red.", -1},
		{"Einstein failed mathematics at school.", "The claim that Einstein failed mathematics at school is false.", -1},
		{"Napoleon was short.", "The idea that Napoleon was short is a misconception.", -1},
		{"Vikings wore horned helmets.", "There is no evidence that Vikings wore horned helmets in battle.", -1},
		{"Vikings wore horned helmets.", "Reports that Vikings wore horned helmets are a 19th-century invention.", -1},
		{"It is not true that the vaccine alters DNA.", "It is not true that the vaccine alters DNA.", 0},
		// The claim denies what the passage calls false.
		{"Napoleon was not short.", "The idea that Napoleon was short is a misconception.", 1},
		// A claim the quote does not hold, a quote of something much
		// larger, a frame that calls nothing false.
		{"Napoleon was tall.", "The idea that Napoleon was short is a misconception.", 0},
		{"Napoleon was short.", "The idea that Napoleon was short, vain, cruel, jealous, greedy and born in Paris to poor farmers is a misconception.", 0},
		{"Napoleon was short.", "The idea that Napoleon was short is a popular one.", 0},
		{"Napoleon was short.", "Napoleon was short.", 0},
	})
}
