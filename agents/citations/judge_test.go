package citations

import (
	"testing"

	txt "github.com/verity-fc/verity/text"
)

func TestNegates(t *testing.T) {
	claim := txt.CitationTerms("The global AI tutoring market grew 20% in 2023")
	tests := []struct {
		sentence string
		want     bool
	}{
		{"The global AI tutoring market did not grow 20% in 2023.", true},
		{"It is not true that the global market grew.", true},
		{"The market never grew 20%.", true},
		{"The market didn't grow 20% last year.", true},
		{"The market grew 20% in 2023, although it did not reach its 2021 peak.", false},
		{"The global AI tutoring market grew 20% in 2023.", false},
		{"Not only did the market grow 20%, it doubled its users.", false},
	}
	for _, tt := range tests {
		if got := negates(tt.sentence, claim); got != tt.want {
			t.Errorf("negates(%q) = %v, want %v", tt.sentence, got, tt.want)
		}
	}
}
