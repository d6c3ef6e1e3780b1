package citations

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The checker splits sentences itself rather than through ingest's
// splitter or Punkt (github.com/neurosnap/sentences): it needs each
// sentence's byte span in the block, so that the citation markers removed
// from the text can be put back on the sentence they follow, and neither
// gives spans. The rules are the usual ones for English prose.

// span is a sentence's byte range [start, end) in its block's text.
type span struct{ start, end int }

// noStop lists words (lower case, without the period) after which a period
// does not end a sentence.
var noStop = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "sr": true, "jr": true, "st": true,
	"gen": true, "gov": true, "sen": true, "rep": true, "rev": true, "hon": true, "pres": true,
	"al": true, "cf": true, "e.g": true, "i.e": true, "etc": true, "vs": true, "viz": true, "approx": true,
	"ca": true, "fig": true, "figs": true, "eq": true, "ref": true, "refs": true, "vol": true, "pp": true,
	"ed": true, "eds": true, "ch": true, "sec": true, "dept": true, "univ": true, "inc": true, "ltd": true,
	"co": true, "corp": true, "bros": true, "est": true, "no": true, "nos": true, "p": true,
	"jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true,
	"sep": true, "sept": true, "oct": true, "nov": true, "dec": true,
}

func closesQuote(r rune) bool { return strings.ContainsRune("\"')]}\u201d\u2019\u00bb", r) }
func opensQuote(r rune) bool  { return strings.ContainsRune("\"'([{\u201c\u2018\u00ab", r) }

// sentenceSpans splits text (one block, whitespace already collapsed) into
// sentences. A sentence ends at a run of ".", "!" or "?" and any closing
// quotes or brackets, when whitespace and then a capital letter, a digit or
// an opening quote or bracket follow, unless the period ends a word of
// [noStop], an initial ("J. Smith") or an initialism ("U.S."). A decimal
// point never ends a sentence: no space follows it.
func sentenceSpans(text string) []span {
	var out []span
	start := 0
	emit := func(from, to int) {
		for from < to && text[from] == ' ' {
			from++
		}
		for to > from && text[to-1] == ' ' {
			to--
		}
		if from < to {
			out = append(out, span{from, to})
		}
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		end := i + 1
		for end < len(text) && strings.IndexByte(".!?", text[end]) >= 0 {
			end++
		}
		for end < len(text) {
			r, n := utf8.DecodeRuneInString(text[end:])
			if !closesQuote(r) {
				break
			}
			end += n
		}
		next := end
		for next < len(text) && text[next] == ' ' {
			next++
		}
		if next == end || next == len(text) {
			i = end - 1
			continue
		}
		r, n := utf8.DecodeRuneInString(text[next:])
		if opensQuote(r) && next+n < len(text) {
			r, _ = utf8.DecodeRuneInString(text[next+n:])
		}
		if !unicode.IsUpper(r) && !unicode.IsDigit(r) {
			i = end - 1
			continue
		}
		if c == '.' && end == i+1 && periodInWord(text[start:i]) {
			i = end - 1
			continue
		}
		emit(start, end)
		start = next
		i = next - 1
	}
	emit(start, len(text))
	return out
}

// periodInWord reports whether the word that ends before (just ahead of a
// period) is one after which the period does not end the sentence.
func periodInWord(before string) bool {
	w := before[strings.LastIndexByte(before, ' ')+1:]
	w = strings.TrimLeftFunc(w, opensQuote)
	if w == "" {
		return false
	}
	if noStop[strings.ToLower(w)] {
		return true
	}
	first, _ := utf8.DecodeRuneInString(w)
	if utf8.RuneCountInString(w) == 1 || strings.Contains(w, ".") {
		// An initial ("J. Smith") or an initialism ("U.S."); a lower-case
		// "a.m." may end a sentence.
		return unicode.IsUpper(first)
	}
	return false
}
