package nli

import "testing"

func TestOppositeChange(t *testing.T) {
	tests := []struct {
		claim, passage string
		want           bool
	}{
		{"Sales declined in 2022.", "Sales increased by 12% in 2022, the company said.", true},
		{"The town's population decreased between 2010 and 2020.", "The town's population grew from 12,000 in 2010 to 15,500 in 2020.", true},
		{"The company lost market share.", "The company gained market share in 2022.", true},
		// The same way.
		{"Sales grew in 2022.", "Sales increased by 12% in 2022.", false},
		// The passage tells of changes both ways.
		{"Imports rose in 2022.", "Exports rose in 2022 while imports fell.", false},
		// The passage lacks a word of the claim.
		{"The drug reduced mortality.", "The drug increased survival.", false},
		// A negation on either side is the negation rules'.
		{"Sales did not decline in 2022.", "Sales increased in 2022.", false},
		// Growing up is no change, nor is a fall of a body.
		{"The singer grew up in Ohio.", "The singer lost weight in Ohio.", false},
		{"A man jumped from the bridge.", "A man fell from the bridge.", false},
	}
	for _, tt := range tests {
		if got := oppositeChange(analyse(tt.claim), analyse(tt.passage)); got != tt.want {
			t.Errorf("oppositeChange(%q, %q) = %t, want %t", tt.claim, tt.passage, got, tt.want)
		}
	}
}
