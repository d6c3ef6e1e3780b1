package nli

import "testing"

func TestOrderVerdict(t *testing.T) {
	const novel = "The novel was published in 1925, two years after the author died."
	tests := []struct {
		claim, passage string
		want           int
	}{
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
	}
	for _, tt := range tests {
		if got := orderVerdict(analyse(tt.claim), analyse(tt.passage)); got != tt.want {
			t.Errorf("orderVerdict(%q, %q) = %d, want %d", tt.claim, tt.passage, got, tt.want)
		}
	}
}
