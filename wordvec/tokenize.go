package wordvec

import "github.com/verity-fc/verity/text"

// Tokenize splits text into lower-case tokens the way GloVe's corpus was
// tokenised (text.GloVeTokens), keeping whole the hyphenated words the
// table has, so that lookups hit.
func (t *Table) Tokenize(s string) []string {
	return t.AppendTokens(nil, s)
}

// AppendTokens appends the tokens of s, as Tokenize splits it, to dst and
// returns the extended slice.
func (t *Table) AppendTokens(dst []string, s string) []string {
	if t == nil {
		return text.GloVeTokens(dst, s, nil)
	}
	return text.GloVeTokens(dst, s, t)
}

// Known reports whether the table has a vector for the lower-case word,
// as written (Lookup also tries the word lower-cased).
func (t *Table) Known(word string) bool {
	_, ok := t.index[word]
	return ok
}
