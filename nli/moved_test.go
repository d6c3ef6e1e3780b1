package nli

import "testing"

func TestMovedFrom(t *testing.T) {
	const hq = "The company moved its headquarters from Seattle to Austin in 2021."
	for _, tt := range []struct {
		claim, passage string
		want           bool
	}{
		{"The company is headquartered in Seattle.", hq, true},
		{"The company is still based in Seattle.", hq, true},
		{"The company is headquartered in Austin.", hq, false},      // the new place
		{"The company was headquartered in Seattle.", hq, false},    // the past, which the move leaves true
		{"The company is not headquartered in Seattle.", hq, false}, // negated
		{"The company is headquartered in Seattle and Austin.", hq, false},
		{"The company is headquartered in Seattle.", "The company grew from Seattle to Austin and Denver.", false}, // no move
		{"The capital of Brazil is Rio de Janeiro.", "In 1960 the capital was moved from Rio de Janeiro to Brasília.", true},
	} {
		if got := movedFrom(analyse(tt.claim), analyse(tt.passage)); got != tt.want {
			t.Errorf("movedFrom(%q, %q) = %t, want %t", tt.claim, tt.passage, got, tt.want)
		}
	}
}
