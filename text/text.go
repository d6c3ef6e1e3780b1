// Package text is verity's text analysis: its tokenisers, stemmers,
// stop-word lists and word overlap, and sentence windows, each named for
// what its consumer needs:
//
//   - Tokenize: the NLI judge's tokens (words and numbers, with stems,
//     capitals and thousands separators);
//   - Words, SearchTerm, SearchTerms: full-text search's words and terms
//     (package retrieval), Words also the citation checker's names;
//   - GloVeTokens: the tokens of GloVe's corpus, which the word vectors
//     and the built-in embedder look up (package wordvec, embedding);
//   - Spans: words, numbers and symbols with their offsets (package
//     quantity);
//   - PhraseWords: words keeping inner apostrophes, hyphens and decimal
//     points (the built-in agent roles);
//   - CitationTerms, PairWords: the words the citation checker and the NLI
//     training data match by;
//   - Porter2 (Snowball English), Stem (Porter2 after mapping irregular
//     forms together) and FoldPlural (plural endings only): the stemmers;
//   - the stop-word lists, all in stop.go;
//   - Overlap, SetOverlap: the share of a claim's terms a passage holds;
//   - BestWindow: the run of sentences of a passage that best covers a
//     claim.
//
// A consumer that needs other behaviour (keep numbers, keep case, another
// stop list) gets a named analyzer or list here, not a copy of its own;
// internal/deptest checks that no other package defines a stop-word list
// or imports a Snowball stemmer.
package text

import (
	"strings"
	"unicode"
)

// Token is one word of a text: its lower-case form, its Porter2 stem and
// whether it was written with a capital not at the start of a sentence.
type Token struct {
	Lower string
	Stem  string
	Cap   bool
	Num   bool
	// sep is true for a number written with a thousands separator, which
	// is then no year ("1,999" people, not 1999).
	Sep bool
}

// Penn Treebank escapes found in FEVER and VitaminC text.
var ptbEscapes = strings.NewReplacer("-LRB-", "(", "-RRB-", ")", "-LSB-", "[", "-RSB-", "]", "-LCB-", "{", "-RCB-", "}", "``", `"`, "''", `"`, "n't", " not", "N'T", " NOT", "cannot", "can not")

// Tokenize splits text into words and numbers, at most max of them. Numbers keep their decimal
// point and lose thousands separators ("9,210" -> "9210"); everything else
// that is not a letter or digit separates words.
func Tokenize(text string, max int) []Token {
	text = ptbEscapes.Replace(text)
	var out []Token
	sentenceStart := true
	rs := []rune(text)
	for i := 0; i < len(rs) && len(out) < max; {
		r := rs[i]
		switch {
		case unicode.IsDigit(r):
			j := i
			sep := false
			var b strings.Builder
			for j < len(rs) {
				c := rs[j]
				if unicode.IsDigit(c) {
					b.WriteRune(c)
				} else if (c == ',' || c == '.') && j+1 < len(rs) && unicode.IsDigit(rs[j+1]) && j > i {
					if c == '.' {
						b.WriteRune(c)
					} else {
						sep = true
					}
				} else {
					break
				}
				j++
			}
			s := b.String()
			out = append(out, Token{Lower: s, Stem: s, Num: true, Sep: sep})
			sentenceStart = false
			i = j
		case unicode.IsLetter(r):
			j := i
			for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) || (rs[j] == '\'' && j+1 < len(rs) && unicode.IsLetter(rs[j+1]) && rs[j+1] != 's')) {
				j++
			}
			w := string(rs[i:j])
			lw := strings.ToLower(w)
			out = append(out, Token{Lower: lw, Stem: Stem(lw), Cap: unicode.IsUpper(r) && !sentenceStart})
			sentenceStart = false
			i = j
		default:
			if r == '.' || r == '!' || r == '?' || r == ':' || r == ';' || r == '"' {
				sentenceStart = true
			}
			i++
		}
	}
	return out
}
