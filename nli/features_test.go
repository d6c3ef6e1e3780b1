package nli

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTokenize(t *testing.T) {
	var got []string
	for _, tk := range tokenize("In 1999, Smith's firm didn't earn $9,210.50 -LRB-est.-RRB- and U.S. sales") {
		got = append(got, tk.Lower)
	}
	want := []string{"in", "1999", "smith", "s", "firm", "did", "not", "earn", "9210.50", "est", "and", "u", "s", "sales"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tokenize mismatch (-want +got):\n%s", diff)
	}
}

func feature(t *testing.T, claim, passage, name string) float64 {
	t.Helper()
	m := &Model{MaxIDF: 5}
	f, _ := features(analyse(claim), analyse(passage), m.idf, m.MaxIDF)
	for i, n := range featureNames {
		if n == name {
			return f[i]
		}
	}
	t.Fatalf("no feature %q", name)
	return 0
}

func TestFeatures(t *testing.T) {
	tests := []struct {
		name, claim, passage, feature string
		want                          float64
	}{
		{"all words found", "Paris is the capital of France.", "France's capital is Paris.", "cov", 1},
		{"half the words found", "Paris is the capital of Spain.", "Paris is a city.", "cov", 1.0 / 3},
		{"stems align", "The bridges were opened.", "They open the bridge.", "cov", 1},
		{"negated claim only", "Paris is not in France.", "Paris is in France.", "neg_claim_only", 1},
		{"negated passage only", "Paris is in France.", "Paris is never in France.", "neg_passage_only", 1},
		{"negation on both sides", "He did n't win.", "He did not win.", "neg_both", 1},
		{"all against many", "All birds can fly.", "Many birds can fly.", "quant_claim_stronger", 1},
		{"most against some", "Most voters agreed.", "Some voters agreed.", "quant_claim_stronger", 1},
		{"many against all", "Many birds can fly.", "All birds can fly.", "quant_claim_stronger", 0},
		{"many against all passage stronger", "Many birds can fly.", "All birds can fly.", "quant_passage_stronger", 1},
		{"hedged passage", "Coffee causes cancer.", "Coffee may cause cancer.", "hedge_passage_only", 1},
		{"hedged claim", "Coffee might cause cancer.", "Coffee causes cancer.", "hedge_claim_only", 1},
		{"only in claim", "He only wrote novels.", "He wrote novels.", "excl_claim_only", 1},
		{"antonym", "The team won the final.", "The team lost the final.", "antonym_unmatched", 1},
		{"same year", "It opened in 1932.", "It was opened in 1932.", "num_ok", 1},
		{"other year", "It opened in 1935.", "It was opened in 1932.", "year_fail", 1},
		{"figure within 2%", "It has 1,000 staff.", "It has 1,015 staff.", "num_ok", 1},
		{"figure off by 5%", "It has 1,000 staff.", "It has 1,050 staff.", "num_fail", 1},
		{"more than, satisfied", "It has more than 500 staff.", "It has 720 staff.", "num_ok", 1},
		{"more than, violated", "It has more than 900 staff.", "It has 720 staff.", "num_fail", 1},
		{"two conflicts", "It had 900 staff and 40 offices in 1990.", "It had 720 staff and 12 offices in 1990.", "num_conflicts_log", math.Log(3)},
		{"years do not compare with counts", "It opened in 1932.", "It has 40 rooms.", "num_applicable", 0},
		{"no figure in passage", "It has 40 rooms.", "It is a hotel.", "num_not_compared", 1},
		{"exact substring", "the cat sat", "Yesterday the cat sat on a mat.", "substring", 1},
		{"missing name", "Obama met Merkel in Berlin.", "Obama met Sarkozy in Berlin.", "cap_unmatched_frac", 0.5},
		{"similar word via vectors", "A man is sitting.", "A man is standing.", "vec_unmatched_similar_log", math.Log(2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := feature(t, tt.claim, tt.passage, tt.feature); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("%s = %g, want %g", tt.feature, got, tt.want)
			}
		})
	}
}

func TestFeaturesBounded(t *testing.T) {
	long := make([]byte, 3*MaxTextBytes)
	for i := range long {
		long[i] = "abc "[i%4]
	}
	f, _ := features(analyse("abc is abc"), analyse(string(long)), (&Model{MaxIDF: 5}).idf, 5)
	if len(f) != numFeatures {
		t.Fatalf("len = %d, want %d", len(f), numFeatures)
	}
	for i, v := range f {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("feature %d is %g", i, v)
		}
	}
	if n := len(analyse(string(long)).toks); n > maxTokens {
		t.Errorf("tokens = %d, want at most %d", n, maxTokens)
	}
}

func TestNegationScope(t *testing.T) {
	tests := []struct {
		name, claim, passage string
		want                 float64
	}{
		{"negated on the claim side", "He is not a French actor.", "He is a French actor.", 1},
		{"negated on both sides", "He is not a French actor.", "He was not a French actor.", 0},
		{"negation elsewhere in the passage", "He is a French actor.", "He is a French actor who did not act in 2001.", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := feature(t, tt.claim, tt.passage, "neg_scope_mismatch"); got != tt.want {
				t.Errorf("neg_scope_mismatch = %g, want %g", got, tt.want)
			}
		})
	}
}
