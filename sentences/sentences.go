// Package sentences splits prose into sentences without changing a
// character of them: each sentence is a span of the text, so that it can
// be quoted, highlighted or found again exactly as the text has it.
//
// The splitter is written here rather than taken from
// gopkg.in/neurosnap/sentences (Punkt, the one Go library for the job): on
// plain English sentences that library split "(Fig." from "2)" and "Smith
// et al." from "reported", and missed the boundary in "grew in 2023. Mr.
// Jones disagreed". The rules of [Split], with a list of abbreviations, do
// better on the scientific and news prose verity reads, and they return
// byte offsets, which Punkt does not.
//
// It is pure and safe for concurrent use. Text is data only: nothing in it
// changes how it is read.
package sentences

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Span is one sentence of a text: Text is exactly text[Start:End], with the
// white space around the sentence left out.
type Span struct {
	Text  string
	Start int // byte offset into the text
	End   int // byte offset into the text, exclusive
}

// abbreviations never end a sentence when a single period follows them
// (lower case, without the period).
var abbreviations = map[string]bool{
	// titles
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "sr": true, "jr": true,
	"st": true, "mt": true, "ft": true, "gen": true, "col": true, "lt": true, "sgt": true,
	"capt": true, "cmdr": true, "adm": true, "gov": true, "sen": true, "rep": true,
	"rev": true, "hon": true, "pres": true, "supt": true, "messrs": true, "mme": true, "det": true,
	// Latin and references
	"al": true, "cf": true, "e.g": true, "i.e": true, "viz": true, "vs": true, "v": true, "a.k.a": true,
	"approx": true, "ca": true, "fig": true, "figs": true, "eq": true, "eqs": true,
	"ref": true, "refs": true, "vol": true, "vols": true, "pp": true, "ed": true, "eds": true,
	"ch": true, "sec": true, "tab": true, "suppl": true, "dept": true, "univ": true,
	"assn": true, "inc": true, "ltd": true, "co": true, "corp": true, "bros": true, "est": true,
	// months
	"jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true,
	"sep": true, "sept": true, "oct": true, "nov": true, "dec": true,
}

// numberAbbreviations end no sentence when a number follows ("No. 5",
// "p. 12", "c. 1850"), but may end one otherwise ("He said no.").
var numberAbbreviations = map[string]bool{"no": true, "nos": true, "art": true, "p": true, "c": true}

// Split returns the sentences of text in order.
//
// A sentence ends at ".", "!" or "?" (a run of them, as in "?!" or "...",
// counts as one), with any closing quotes or brackets after it, when white
// space follows and then an upper-case letter or a digit, possibly behind
// an opening quote or bracket. A word that starts in lower case but holds
// an upper-case letter or a digit ("iPhone", "mTOR", "p53") may begin a
// sentence too, after a plain word. A blank line (two line breaks with
// nothing but spaces, tabs or carriage returns between them) and the end
// of the text end a sentence as well.
//
// A single period directly followed by white space does not end a
// sentence after an abbreviation ("Dr.", "Fig.", "et al.", "e.g.", "v.",
// "Jan."), after "No.", "Nos.", "Art.", "p." or "c." when a digit follows
// ("No. 5", "c. 1850"), after an upper-case initial ("J. Smith") or after
// an initialism ("U.S.", "Ph.D."). A closing quote or bracket after the
// period ("in the U.S.) The") shows that the period ends something, so
// there the sentence ends. A decimal point ("3.5") never ends a sentence:
// no white space follows it.
//
// Spans are in order, do not overlap, hold no surrounding white space and
// are never empty; only white space lies between them. Split returns nil
// for text with no sentence. Invalid UTF-8 is kept as it is, each bad byte
// read as one character that is neither a letter nor a space. It takes
// time linear in len(text).
func Split(text string) []Span {
	var out []Span
	add := func(start, end int) {
		start, end = trimSpace(text, start, end)
		if start < end {
			out = append(out, Span{Text: text[start:end], Start: start, End: end})
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
		if !isTerminator(c) {
			i++
			continue
		}
		end := i + 1
		for end < len(text) && isTerminator(text[end]) {
			end++
		}
		for end < len(text) {
			r, n := utf8.DecodeRuneInString(text[end:])
			if !isCloser(r) {
				break
			}
			end += n
		}
		// bare: a period alone, with neither other terminators nor closers.
		bare := c == '.' && end == i+1
		next := skipSpace(text, end)
		if next == end || next == len(text) {
			i = end
			continue
		}
		if !endsAt(text[start:i], bare, text[next:]) {
			i = end
			continue
		}
		add(start, end)
		start, i = next, next
	}
	add(start, len(text))
	return out
}

// Texts returns the text of each sentence of text, as [Split] finds them.
func Texts(text string) []string {
	spans := Split(text)
	if spans == nil {
		return nil
	}
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = s.Text
	}
	return out
}

func isTerminator(c byte) bool {
	return c == '.' || c == '!' || c == '?'
}

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

// blankLine reports whether a blank line starts at i: a line break, then
// only spaces, tabs and carriage returns, then another line break. It
// returns where the text after the second line break begins.
func blankLine(text string, i int) (int, bool) {
	if text[i] != '\n' {
		return 0, false
	}
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\n':
			return j + 1, true
		case ' ', '\t', '\r', '\v', '\f':
		default:
			return 0, false
		}
	}
	return 0, false
}

// skipSpace returns the offset of the first character at or after i that
// is not white space, or len(text).
func skipSpace(text string, i int) int {
	for i < len(text) {
		r, n := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += n
	}
	return i
}

// trimSpace narrows text[start:end] to leave out white space at both ends.
func trimSpace(text string, start, end int) (int, int) {
	start = skipSpace(text[:end], start)
	for end > start {
		r, n := utf8.DecodeLastRuneInString(text[start:end])
		if !unicode.IsSpace(r) {
			break
		}
		end -= n
	}
	return start, end
}

// endsAt reports whether a sentence that reads before, up to its
// terminator, ends there, given the text after the terminator and white
// space. bare tells a single period with no closer after it.
func endsAt(before string, bare bool, after string) bool {
	r, n := utf8.DecodeRuneInString(after)
	if isOpener(r) {
		after = after[n:]
		r, _ = utf8.DecodeRuneInString(after)
	}
	switch {
	case unicode.IsUpper(r) || unicode.IsDigit(r):
		return !bare || !abbreviation(lastWord(before), r)
	case unicode.IsLower(r) && mixedCase(after):
		// Names and genes that start in lower case ("iPhone", "mTOR",
		// "p53", "miR-21") may begin a sentence, but only after a plain
		// word: "e.g. mTOR" and "at 6 p.m. eBay" run on.
		return !bare || plainWord(lastWord(before))
	}
	return false
}

// mixedCase reports whether s opens with a name: a run of letters, digits
// and hyphens that holds an upper-case letter or a digit ("mTOR", "miR-21",
// but not "id=45" of a broken web address).
func mixedCase(s string) bool {
	mixed := false
	for _, r := range s {
		switch {
		case unicode.IsUpper(r) || unicode.IsDigit(r):
			mixed = true
		case unicode.IsLetter(r) || r == '-':
		default:
			return mixed
		}
	}
	return mixed
}

// plainWord reports whether word is no abbreviation, initial or initialism
// of any kind: two or more characters, no period, not in the lists.
func plainWord(word string) bool {
	lw := strings.ToLower(word)
	return utf8.RuneCountInString(word) > 1 && !strings.Contains(word, ".") &&
		!abbreviations[lw] && !numberAbbreviations[lw]
}

// lastWord returns the word that ends s, without opening quotes or
// brackets: s after its last white space.
func lastWord(s string) string {
	i := len(s)
	for i > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:i])
		if unicode.IsSpace(r) {
			break
		}
		i -= n
	}
	return strings.TrimLeftFunc(s[i:], isOpener)
}

// abbreviation reports whether word, just before a period, is an
// abbreviation, an initial or an initialism, so that the period does not
// end the sentence. next is the character that would begin the next
// sentence.
func abbreviation(word string, next rune) bool {
	if word == "" {
		return false
	}
	lw := strings.ToLower(word)
	switch {
	case abbreviations[lw]:
		return true
	case numberAbbreviations[lw] && unicode.IsDigit(next):
		return true
	}
	first, _ := utf8.DecodeRuneInString(word)
	if !unicode.IsUpper(first) {
		// "vitamin x. Then", "at 6 p.m. The" and "in 2. Then" end.
		return false
	}
	// An initial ("J. Smith") or an initialism ("U.S", "Ph.D"): letters
	// and periods only, so that "(P=0.01). Then" ends.
	return utf8.RuneCountInString(word) == 1 ||
		strings.Contains(word, ".") && !strings.ContainsFunc(word, func(r rune) bool { return r != '.' && !unicode.IsLetter(r) })
}
