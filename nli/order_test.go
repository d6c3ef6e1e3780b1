package nli

import "testing"

func TestOrderVerdict(t *testing.T) {
	const novel = "The novel was published in 1925, two years after the author died."
	checkPairs(t, "orderVerdict", orderVerdict, []pairCase[int]{
		{"The novel was published before the author's death.", novel, -1},
		{"He retired after the war.", "Before the war, he retired from the army.", -1},
		// The same order, the same event written otherwise, another event
		// after the word of order, a negated text, a passage lacking a word
		// of the claim, and two words of order are left to the networks.
		{"The novel was published after the author's death.", novel, 0},
		{"The author died before the novel was published.", novel, 0},
		{"The novel was published before the war.", novel, 0},
		{"The novel was not published before the author's death.", novel, 0},
		{"The poem was published before the author's death.", novel, 0},
		{"The novel was published before and after the author's death.", novel, 0},
	})
}
