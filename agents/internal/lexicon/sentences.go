// Package lexicon holds the word lists and text rules that the built-in
// agent roles share: sentence spans that keep a text's exact wording, word
// and content-word tokens, and the hedges, quantifiers, causal phrases,
// caveats and proper names those roles look for.
//
// It is pure and safe for concurrent use. Text is data only: nothing in it
// changes how it is read.
package lexicon

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sentence is one sentence of a text: Text is exactly text[Start:End], with
// the surrounding white space left out.
type Sentence struct {
	Text  string
	Start int // byte offset
	End   int // byte offset, exclusive
}

// abbreviations never end a sentence when a period follows them; lower
// case, without the period.
var abbreviations = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "sr": true, "jr": true,
	"st": true, "gen": true, "gov": true, "sen": true, "rep": true, "rev": true,
	"al": true, "cf": true, "e.g": true, "i.e": true, "vs": true, "approx": true, "ca": true,
	"fig": true, "figs": true, "eq": true, "ref": true, "vol": true, "pp": true, "ed": true,
	"no": true, "inc": true, "ltd": true, "co": true, "corp": true, "dept": true, "est": true,
	"jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true,
	"sep": true, "sept": true, "oct": true, "nov": true, "dec": true,
}

// Sentences splits text into sentences without changing a character of
// them, so that a sentence can be quoted as the text has it. A sentence
// ends at ".", "!" or "?" (and any closing quotes or brackets) followed by
// white space and then an upper-case letter, a digit or an opening quote,
// or at a blank line; a period after an abbreviation, an initial ("J.") or
// an initialism ("U.S.") does not end one. A decimal point never does: no
// space follows it.
//
// The splitter is written here because the wording must survive byte for
// byte (the extractor's "preserve exact wording" rule) and the rules above
// are all the built-in roles need.
func Sentences(text string) []Sentence {
	var out []Sentence
	add := func(start, end int) {
		for start < end {
			r, n := utf8.DecodeRuneInString(text[start:])
			if !unicode.IsSpace(r) {
				break
			}
			start += n
		}
		for end > start {
			r, n := utf8.DecodeLastRuneInString(text[start:end])
			if !unicode.IsSpace(r) {
				break
			}
			end -= n
		}
		if start < end {
			out = append(out, Sentence{Text: text[start:end], Start: start, End: end})
		}
	}
	start := 0
	for i := 0; i < len(text); {
		if j, ok := blankLine(text, i); ok {
			add(start, i)
			start, i = j, j
			continue
		}
		c := text[i]
		if c != '.' && c != '!' && c != '?' {
			i++
			continue
		}
		end := i + 1
		for end < len(text) && strings.IndexByte(".!?", text[end]) >= 0 {
			end++
		}
		for end < len(text) {
			r, n := utf8.DecodeRuneInString(text[end:])
			if !isCloser(r) {
				break
			}
			end += n
		}
		next := end
		for next < len(text) {
			r, n := utf8.DecodeRuneInString(text[next:])
			if !unicode.IsSpace(r) {
				break
			}
			next += n
		}
		if next == end || next == len(text) || !startsSentence(text[next:]) ||
			(c == '.' && end == i+1 && abbreviationBefore(text[start:i])) {
			i = end
			continue
		}
		add(start, end)
		start, i = next, next
	}
	add(start, len(text))
	return out
}

// blankLine reports whether a line break followed by only white space and
// another line break starts at i, and where the text after it begins.
func blankLine(text string, i int) (int, bool) {
	if text[i] != '\n' {
		return 0, false
	}
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\n':
			return j + 1, true
		case ' ', '\t', '\r':
		default:
			return 0, false
		}
	}
	return 0, false
}

func startsSentence(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	if isOpener(r) {
		r, _ = utf8.DecodeRuneInString(s[n:])
	}
	return unicode.IsUpper(r) || unicode.IsDigit(r)
}

// abbreviationBefore reports whether the word that ends text is an
// abbreviation, an initial or an initialism.
func abbreviationBefore(text string) bool {
	w := text[strings.LastIndexFunc(text, unicode.IsSpace)+1:]
	w = strings.TrimLeftFunc(w, isOpener)
	if w == "" {
		return false
	}
	if abbreviations[strings.ToLower(w)] {
		return true
	}
	r, _ := utf8.DecodeRuneInString(w)
	if utf8.RuneCountInString(w) == 1 {
		return unicode.IsUpper(r)
	}
	// "U.S", "U.K", "Ph.D"
	return strings.Contains(w, ".") && unicode.IsUpper(r)
}

func isCloser(r rune) bool {
	switch r {
	case '"', '\'', ')', ']', '\u201d', '\u2019':
		return true
	}
	return false
}

func isOpener(r rune) bool {
	switch r {
	case '"', '\'', '(', '[', '\u201c', '\u2018':
		return true
	}
	return false
}
