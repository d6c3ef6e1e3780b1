package retrieval

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	txt "github.com/verity-fc/verity/text"
)

func TestQueryStems(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"Did the Apollo 11 crew land in 1969?", []string{"apollo", "11", "crew", "land", "1969"}},
		{`"quoted" AND (NEAR stuff)*`, []string{"quot", "near", "stuff"}},
		{"the of and a", nil},
		{"", nil},
		{"x y 7", []string{"7"}},
		{"Ünïcode ÉTÉ", []string{"ünïcode", "été"}},
		{"repeat Repeat REPEAT repeated", []string{"repeat"}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, queryStems(tt.text)); diff != "" {
				t.Errorf("queryStems (-want +got):\n%s", diff)
			}
		})
	}
	long := ""
	for i := range 200 {
		long += " w" + string(rune('a'+i%26)) + string(rune('a'+i/26))
	}
	if n := len(txt.SearchTerms(long, maxQueryTerms)); n != maxQueryTerms {
		t.Errorf("a long query gave %d terms, want %d", n, maxQueryTerms)
	}
}

func TestOverlap(t *testing.T) {
	tests := []struct {
		name           string
		claim, passage string
		want           float64
	}{
		{"all terms, other inflections", "Satellites launched in 2023", "The satellite launches of 2023", 1},
		{"half", "blue whale length", "The whale was blue", 2.0 / 3},
		{"none", "volcano eruption", "A quiet harbour", 0},
		{"claim of stopwords", "it is what it is", "anything", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := txt.SetOverlap(stems(tt.claim, 64), stems(tt.passage, 1000))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("overlap (-want +got):\n%s", diff)
			}
		})
	}
}
