package lexicon

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestOverlap(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"Aspirin reduces heart attacks", "Daily aspirin reduced the risk of heart attacks.", 1},
		{"Aspirin reduces heart attacks", "Cats sleep a lot.", 0},
		{"the of and", "anything", 0},
		{"Vaccines prevent measles outbreaks", "Vaccines are cheap.", 0.25},
		{"Studies of running", "A study of runs", 1}, // Porter2 stems
	}
	for _, tt := range tests {
		if got := Overlap(tt.a, tt.b); got != tt.want {
			t.Errorf("Overlap(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestPhrasesAndQuantifiers(t *testing.T) {
	if got := Phrases("The drug may reduce risk and is linked to sleep.", Hedges); !cmp.Equal(got, []string{"may"}) {
		t.Errorf("hedges = %v", got)
	}
	if got := Phrases("Smoking is linked to cancer.", CorrelationPhrases); !cmp.Equal(got, []string{"linked to"}) {
		t.Errorf("correlation = %v", got)
	}
	tests := []struct {
		text string
		want []Quantifier
	}{
		{"Most adults sleep and some do not.", []Quantifier{{"some", 2}, {"most", 4}}},
		{"Some 40 people came.", nil},
		{"All birds fly.", []Quantifier{{"all", 5}}},
		{"Birds fly.", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Quantifiers(tt.text)); diff != "" {
			t.Errorf("Quantifiers(%q) (-want +got):\n%s", tt.text, diff)
		}
	}
}

func TestProperNames(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"The World Health Organization said NASA and the Bank of England agreed in May.", []string{"World Health Organization", "NASA", "Bank of England"}},
		{"Scientists in Paris found it. COVID-19 spread.", []string{"Paris", "COVID-19"}},
		{"New York grew. It grew.", []string{"New York"}},
		{"nothing here", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, ProperNames(tt.text)); diff != "" {
			t.Errorf("ProperNames(%q) (-want +got):\n%s", tt.text, diff)
		}
	}
}

func TestStartsWithPronoun(t *testing.T) {
	for text, want := range map[string]bool{"It rose by 5%.": true, "They said so.": true, "Prices rose.": false, "": false} {
		if got := StartsWithPronoun(text); got != want {
			t.Errorf("StartsWithPronoun(%q) = %v", text, got)
		}
	}
}

func TestHedgeIsNotTheMonth(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"The bridge opened to traffic on May 27, 1937.", false},
		{"It opened on 27 May 1937.", false},
		{"Sales fell in May.", false},
		{"In May 2023 the count passed 9,000.", false},
		{"The drug may help some patients.", true},
		{"May the results hold? They may.", true},
	}
	for _, tt := range tests {
		if got := len(Phrases(tt.text, Hedges)) > 0; got != tt.want {
			t.Errorf("hedged(%q) = %v, want %v (%v)", tt.text, got, tt.want, Phrases(tt.text, Hedges))
		}
	}
}
