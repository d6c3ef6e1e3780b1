package wordvec

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTokenize(t *testing.T) {
	tab := Default()
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"   \t\n", nil},
		{"The Vaccine reduced hospital admissions.", []string{"the", "vaccine", "reduced", "hospital", "admissions", "."}},
		{"Hello, world!", []string{"hello", ",", "world", "!"}},
		{"It cost $1,000,000 (about 3.5%) in 2020.", []string{"it", "cost", "$", "1000000", "(", "about", "3.5", "%", ")", "in", "2020", "."}},
		{"At 10:30 on 1/2", []string{"at", "10:30", "on", "1", "/", "2"}},
		{"1,2,3 and 1,0000", []string{"1", ",", "2", ",", "3", "and", "1", ",", "0000"}},
		{"3.5km in the 1990s", []string{"3.5", "km", "in", "the", "1990s"}},
		{"I don't think it's John's", []string{"i", "do", "n't", "think", "it", "'s", "john", "'s"}},
		{"They can't and won't; we're sure they'd", []string{"they", "can", "n't", "and", "will", "n't", ";", "we", "'re", "sure", "they", "'d"}},
		{"It isn\u2019t O\u2019Brien\u2019s", []string{"it", "is", "n't", "o", "'", "brien", "'s"}},
		{"the parents' 'quote'", []string{"the", "parents", "'", "'", "quote", "'"}},
		{"A well-known COVID-19 e-mail", []string{"a", "well-known", "covid", "-", "19", "e-mail"}},
		{"trailing- -leading --", []string{"trailing", "-", "-", "leading", "-", "-"}},
		{"The U.S. and e.g. plan B. Then", []string{"the", "u.s.", "and", "e.g.", "plan", "b", ".", "then"}},
		{"Café Zürich naïve", []string{"cafe", "zurich", "naive"}},
		{"H1N1 and CO2", []string{"h1n1", "and", "co2"}},
		{"“Quoted” text…", []string{"“", "quoted", "”", "text", "…"}},
		{"bad \xff byte", []string{"bad", "byte"}},
		{"Soul Food -LRB-film-RRB- -LSB- 1 -RSB- -lrb", []string{"soul", "food", "(", "film", ")", "[", "1", "]", "-", "lrb"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if d := cmp.Diff(tt.want, tab.Tokenize(tt.in)); d != "" {
				t.Errorf("Tokenize(%q) (-want +got):\n%s", tt.in, d)
			}
		})
	}
}

func TestTokensHitTheVocabulary(t *testing.T) {
	tab := Default()
	for _, tok := range tab.Tokenize("Hospital admissions fell after the vaccination campaign, doctors said; it's well-known.") {
		switch tok {
		case "'s":
			continue
		}
		if _, ok := tab.Lookup(tok); !ok {
			t.Errorf("token %q is not in the table", tok)
		}
	}
}

func BenchmarkTokenize(b *testing.B) {
	tab := Default()
	const s = "The vaccine reduced hospital admissions by 35% in 2021, officials said; it wasn't the U.S. figure."
	b.SetBytes(int64(len(s)))
	var dst []string
	for b.Loop() {
		dst = tab.AppendTokens(dst[:0], s)
	}
}
