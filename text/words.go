package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxTermBytes is the longest word full-text search indexes or queries;
// longer "words" are hashes, base64 and the like.
const MaxTermBytes = 64

// Words splits s into lower-case runs of letters and numbers, the way
// SQLite FTS5's unicode61 tokenizer does; everything else separates words.
// It is full-text search's tokeniser (package retrieval).
func Words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	})
}

// EachWord calls f with each word of Words(s), in order, and returns buf
// for reuse. The word f gets lives in buf and is valid only during the
// call. ASCII text, most of it, is split and lower-cased here byte by byte
// without allocating a word (the full-text index analyses every passage
// it ingests through it); other text goes through Words.
func EachWord(s string, buf []byte, f func(word []byte)) []byte {
	buf = buf[:0]
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			for _, w := range Words(s) {
				buf = append(buf[:0], w...)
				f(buf)
			}
			return buf[:0]
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
			buf = append(buf, c)
		case 'A' <= c && c <= 'Z':
			buf = append(buf, c+('a'-'A'))
		case len(buf) > 0:
			f(buf)
			buf = buf[:0]
		}
	}
	if len(buf) > 0 {
		f(buf)
	}
	return buf[:0]
}

// SearchTerm reports whether w, a word of Words, is one full-text search
// indexes and queries: not on SearchStop, not a single letter (a single
// digit counts), not longer than MaxTermBytes.
func SearchTerm(w string) bool {
	return w != "" && !SearchStop.Has(w) && len(w) <= MaxTermBytes && (len(w) > 1 || unicode.IsDigit(rune(w[0])))
}

// SearchTerms returns the distinct search terms of s (see SearchTerm), at
// most max of them, in order of first appearance.
func SearchTerms(s string, max int) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range Words(s) {
		if len(out) == max {
			break
		}
		if seen[w] || !SearchTerm(w) {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// CitationTerms returns the distinct content words of s as the citation
// checker compares a claim with the page it cites: lower case, split at
// everything but letters, digits and the commas and points inside
// figures, digit groups joined ("1,000" -> "1000"), CitationStop left out,
// and words with a letter stemmed by Porter2 (figures are kept as they
// are).
func CitationTerms(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != ',' && r != '.'
	}) {
		w = strings.Trim(w, ",.")
		if strings.IndexFunc(w, unicode.IsLetter) < 0 {
			w = strings.ReplaceAll(w, ",", "")
		}
		if w == "" || CitationStop.Has(w) {
			continue
		}
		if strings.IndexFunc(w, unicode.IsLetter) >= 0 {
			w = Porter2(w)
		}
		out[w] = true
	}
	return out
}

// PairWords returns the distinct words of s that the NLI training data
// pairs claims and passages by (nli/train's other-subject set): lower-case
// runs of ASCII letters and digits, at least two bytes long, not on
// PairStop, in order of first appearance.
func PairWords(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if len(w) > 1 && !PairStop.Has(w) && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}
