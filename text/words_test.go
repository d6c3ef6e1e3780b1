package text

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWords(t *testing.T) {
	got := Words(`"Quoted" AND (Ünïcode ÉTÉ)* covid-19, 3.5 O'Brien`)
	want := []string{"quoted", "and", "ünïcode", "été", "covid", "19", "3", "5", "o", "brien"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Words (-want +got):\n%s", diff)
	}
}

func TestSearchTerms(t *testing.T) {
	got := SearchTerms("Did the Apollo 11 crew land in 1969? x 7 would crew", 64)
	want := []string{"apollo", "11", "crew", "land", "1969", "7"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SearchTerms (-want +got):\n%s", diff)
	}
	if got := SearchTerms("alpha beta gamma delta", 2); len(got) != 2 {
		t.Errorf("SearchTerms with max 2 gave %v", got)
	}
	long := strings.Repeat("h", MaxTermBytes+1)
	for w, want := range map[string]bool{"crew": true, "7": true, "x": false, "the": false, "upon": false, long: false, long[1:]: true, "": false} {
		if got := SearchTerm(w); got != want {
			t.Errorf("SearchTerm(%.10q) = %v, want %v", w, got, want)
		}
	}
}

func TestCitationTerms(t *testing.T) {
	got := CitationTerms("The global AI tutoring market grew 20% in 2023 to 1,000 firms, according to Smith, who said so.")
	var keys []string
	for w := range got {
		keys = append(keys, w)
	}
	slices.Sort(keys)
	want := []string{"1000", "20", "2023", "ai", "firm", "global", "grew", "market", "smith", "tutor"}
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("CitationTerms (-want +got):\n%s", diff)
	}
}

func TestPairWords(t *testing.T) {
	got := PairWords("The Golden Gate Bridge opened in 1937; the bridge is all steel, naïve x")
	want := []string{"golden", "gate", "bridge", "opened", "1937", "all", "steel", "na", "ve"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PairWords (-want +got):\n%s", diff)
	}
}

type vocab map[string]bool

func (v vocab) Known(w string) bool { return v[w] }

func TestGloVeTokens(t *testing.T) {
	in := "Don't stop: it's the U.S. well-known COVID-19 -LRB-sic-RRB- Café 1,000 10:30 $3.5"
	got := GloVeTokens(nil, in, vocab{"well-known": true})
	want := []string{"do", "n't", "stop", ":", "it", "'s", "the", "u.s.", "well-known", "covid", "-", "19",
		"(", "sic", ")", "cafe", "1000", "10:30", "$", "3.5"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("GloVeTokens (-want +got):\n%s", diff)
	}
	// Without a vocabulary hyphenated words stay whole.
	if got := GloVeTokens([]string{"x"}, "covid-19", nil); !slices.Equal(got, []string{"x", "covid-19"}) {
		t.Errorf("GloVeTokens without a vocabulary = %q, want [x covid-19] (appended)", got)
	}
}

func TestPhraseWords(t *testing.T) {
	got := PhraseWords("It's 3.5% of 1,200 COVID-19 cases—don't panic, said O’Brien.")
	want := []string{"it's", "3.5", "of", "1,200", "covid-19", "cases", "don't", "panic", "said", "o’brien"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PhraseWords (-want +got):\n%s", diff)
	}
}

func TestSpans(t *testing.T) {
	in := "Rose 8.5%,\n1,000 km—naïve \xff"
	got := Spans(in, nil)
	type span struct {
		text        string
		kind        SpanKind
		space, line bool
	}
	var spans []span
	for _, s := range got {
		if in[s.Start:s.End] != s.Text {
			t.Errorf("span %q at [%d,%d) is not the input there, %q", s.Text, s.Start, s.End, in[s.Start:s.End])
		}
		spans = append(spans, span{s.Text, s.Kind, s.Space, s.Line})
	}
	want := []span{
		{"Rose", SpanWord, true, true}, {"8.5", SpanNumber, true, false}, {"%", SpanSymbol, false, false},
		{",", SpanSymbol, false, false}, {"1,000", SpanNumber, true, true}, {"km", SpanWord, true, false},
		{"—", SpanSymbol, false, false}, {"naïve", SpanWord, false, false}, {"\xff", SpanSymbol, true, false},
	}
	if diff := cmp.Diff(want, spans, cmp.AllowUnexported(span{})); diff != "" {
		t.Errorf("Spans (-want +got):\n%s", diff)
	}
}

// TestEachWordIsWords checks that EachWord gives exactly the words of
// Words, on ASCII text (its own splitter) and on text that is not.
func TestEachWordIsWords(t *testing.T) {
	for _, s := range []string{
		"", "   ", "The Eiffel Tower, 330 m tall (1889)!", "co-operate e-mail U.S.A. x86_64 3.14",
		"MiXeD CaSe\tand\nnew lines", "Café Zürich naïve", "Ünïcode at the START", "ends with a word",
		"tabs\x00and\x7fcontrols", "١٢٣ arabic digits and 漢字",
	} {
		var got []string
		buf := EachWord(s, nil, func(w []byte) { got = append(got, string(w)) })
		if len(buf) != 0 {
			t.Errorf("EachWord(%q) returned a buffer of %d bytes, want it emptied", s, len(buf))
		}
		if want := Words(s); !slices.Equal(got, want) {
			t.Errorf("EachWord(%q) = %q, want Words' %q", s, got, want)
		}
	}
}
