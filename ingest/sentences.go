package ingest

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The sentence splitter is written here rather than taken from
// github.com/neurosnap/sentences (Punkt): on plain English test sentences
// that library split "(Fig." from "2)" and "Smith et al." from "reported",
// and missed the boundary in "grew in 2023. Mr. Jones disagreed". These
// rules, with a list of abbreviations, do better on the scientific and
// news prose verity ingests.

// abbreviations never end a sentence when followed by a period
// (lower-case, without the period).
var abbreviations = map[string]bool{
	// titles
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "sr": true, "jr": true,
	"st": true, "mt": true, "ft": true, "gen": true, "col": true, "lt": true, "sgt": true,
	"capt": true, "cmdr": true, "adm": true, "gov": true, "sen": true, "rep": true,
	"rev": true, "hon": true, "pres": true, "supt": true, "messrs": true, "mme": true,
	// Latin and references
	"al": true, "cf": true, "e.g": true, "i.e": true, "viz": true, "vs": true, "approx": true,
	"ca": true, "fig": true, "figs": true, "eq": true, "eqs": true, "ref": true, "refs": true,
	"vol": true, "vols": true, "pp": true, "ed": true, "eds": true, "ch": true, "sec": true,
	"tab": true, "suppl": true, "dept": true, "univ": true, "assn": true, "inc": true,
	"ltd": true, "co": true, "corp": true, "bros": true, "est": true,
	// months
	"jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true,
	"sep": true, "sept": true, "oct": true, "nov": true, "dec": true,
}

// numberAbbreviations end no sentence when a number follows ("No. 5").
var numberAbbreviations = map[string]bool{"no": true, "nos": true, "art": true, "p": true}

func isCloser(r rune) bool {
	switch r {
	case '"', '\'', ')', ']', '}', '\u201d', '\u2019', '\u00bb':
		return true
	}
	return false
}

func isOpener(r rune) bool {
	switch r {
	case '"', '\'', '(', '[', '{', '\u201c', '\u2018', '\u00ab':
		return true
	}
	return false
}

// splitSentences splits one paragraph into sentences. A sentence ends at
// ".", "!" or "?" (with any closing quotes or brackets) followed by
// whitespace and a capital letter, a digit or an opening quote, unless the
// period ends an abbreviation, an initial ("J. Smith") or an initialism
// ("U.S."). A decimal point ("3.5") is never an end: no space follows it.
func splitSentences(p string) []string {
	var out []string
	start := 0
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		j := i + 1
		for j < len(p) && (p[j] == '.' || p[j] == '!' || p[j] == '?') {
			j++
		}
		single := j == i+1
		for j < len(p) {
			r, size := utf8.DecodeRuneInString(p[j:])
			if !isCloser(r) {
				break
			}
			j += size
		}
		end := j
		for j < len(p) {
			r, size := utf8.DecodeRuneInString(p[j:])
			if !unicode.IsSpace(r) {
				break
			}
			j += size
		}
		if j == end || j >= len(p) {
			i = end - 1
			continue
		}
		next, _ := utf8.DecodeRuneInString(p[j:])
		if isOpener(next) {
			after, _ := utf8.DecodeRuneInString(p[j+utf8.RuneLen(next):])
			next = after
		}
		if !unicode.IsUpper(next) && !unicode.IsDigit(next) {
			i = end - 1
			continue
		}
		if c == '.' && single && abbreviationBefore(p[start:i], next) {
			i = end - 1
			continue
		}
		if s := strings.TrimSpace(p[start:end]); s != "" {
			out = append(out, s)
		}
		start = j
		i = j - 1
	}
	if s := strings.TrimSpace(p[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// abbreviationBefore reports whether the word that ends text (just before
// a period) is an abbreviation, so that the period does not end the
// sentence. next is the first letter or digit after the period.
func abbreviationBefore(text string, next rune) bool {
	w := text[strings.LastIndexFunc(text, unicode.IsSpace)+1:]
	w = strings.TrimLeftFunc(w, isOpener)
	if w == "" {
		return false
	}
	lw := strings.ToLower(w)
	switch {
	case abbreviations[lw]:
		return true
	case numberAbbreviations[lw] && unicode.IsDigit(next):
		return true
	case utf8.RuneCountInString(w) == 1:
		// An initial ("J. Smith"); "vitamin x. Then" and "in 2. Then" end.
		r, _ := utf8.DecodeRuneInString(w)
		return unicode.IsUpper(r)
	case strings.Contains(w, "."):
		// "U.S", "U.K" hold; lower-case "a.m", "p.m" may end a sentence.
		r, _ := utf8.DecodeRuneInString(w)
		return unicode.IsUpper(r)
	}
	return false
}
