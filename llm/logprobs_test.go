package llm_test

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/verity-fc/verity/llm"
)

func TestMatchLabels(t *testing.T) {
	nli := []string{"entailment", "contradiction", "neutral"}
	tests := []struct {
		name   string
		alts   []llm.TokenLogprob
		labels []string
		want   map[string]float64
	}{
		{
			name:   "word pieces and case",
			alts:   []llm.TokenLogprob{{"Ent", -0.2}, {" contr", -2}, {"Neutral", -3}},
			labels: nli,
			want:   map[string]float64{"entailment": -0.2, "contradiction": -2, "neutral": -3},
		},
		{
			name:   "spellings of one label add up",
			alts:   []llm.TokenLogprob{{"ent", math.Log(0.5)}, {" Ent", math.Log(0.25)}, {"▁entail", math.Log(0.125)}},
			labels: nli,
			want:   map[string]float64{"entailment": math.Log(0.875)},
		},
		{
			name:   "duplicate tokens count once",
			alts:   []llm.TokenLogprob{{"neutral", -1}, {"neutral", -1}},
			labels: nli,
			want:   map[string]float64{"neutral": -1},
		},
		{
			name:   "punctuation and longer words",
			alts:   []llm.TokenLogprob{{"\"neutral.", -1}, {"**", -2}, {"The", -3}, {" ", -4}},
			labels: nli,
			want:   map[string]float64{"neutral": -1},
		},
		{
			name:   "ambiguous tokens count for neither",
			alts:   []llm.TokenLogprob{{"con", -1}, {"contra", -2}},
			labels: []string{"contradiction", "contrary"},
			want:   map[string]float64{},
		},
		{
			name:   "letters",
			alts:   []llm.TokenLogprob{{"A", -0.1}, {"B", -3}, {"Because", -5}},
			labels: []string{"A", "B", "C"},
			want:   map[string]float64{"A": -0.1, "B": -3},
		},
		{
			name:   "nothing",
			alts:   nil,
			labels: nli,
			want:   map[string]float64{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := llm.MatchLabels(tt.alts, tt.labels)
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
				t.Errorf("MatchLabels (-want +got):\n%s", diff)
			}
		})
	}
}
