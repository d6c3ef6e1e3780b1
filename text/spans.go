package text

import (
	"unicode"
	"unicode/utf8"
)

// SpanKind is what a Span holds.
type SpanKind uint8

const (
	SpanWord   SpanKind = iota // a run of letters
	SpanNumber                 // ASCII digits with inner ',' or '.' between digits
	SpanSymbol                 // any other single rune
)

// Span is one token of Spans, a slice of the input: Text is
// input[Start:End].
type Span struct {
	Text       string
	Start, End int
	Kind       SpanKind
	// Space is true when whitespace or the start of the text precedes
	// the token; Line is true when it is the first token on its line.
	Space, Line bool
}

// Spans appends to toks the tokens of text (words, numbers and single-rune
// symbols) with their byte offsets, dropping whitespace, and returns the
// extended slice. Invalid UTF-8 bytes become one-byte symbols, so offsets
// always fall on the bytes of the input. It is package quantity's
// tokeniser: figures, units and dates are read from the spans, and the
// offsets locate them in the text.
func Spans(text string, toks []Span) []Span {
	space, line := true, true
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\n':
			space, line = true, true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			space = true
			i++
			continue
		case c >= '0' && c <= '9':
			j := i + 1
			for j < len(text) {
				d := text[j]
				if d >= '0' && d <= '9' {
					j++
					continue
				}
				if (d == ',' || d == '.') && j+1 < len(text) && text[j+1] >= '0' && text[j+1] <= '9' {
					j += 2
					continue
				}
				break
			}
			toks = append(toks, Span{Text: text[i:j], Start: i, End: j, Kind: SpanNumber, Space: space, Line: line})
			i = j
		case c < utf8.RuneSelf && !isASCIIAlpha(c):
			toks = append(toks, Span{Text: text[i : i+1], Start: i, End: i + 1, Kind: SpanSymbol, Space: space, Line: line})
			i++
		default:
			r, size := utf8.DecodeRuneInString(text[i:])
			if unicode.IsSpace(r) {
				space = true
				i += size
				continue
			}
			if !isSpanLetter(r) {
				toks = append(toks, Span{Text: text[i : i+size], Start: i, End: i + size, Kind: SpanSymbol, Space: space, Line: line})
				i += size
				break
			}
			j := i + size
			for j < len(text) {
				if d := text[j]; d < utf8.RuneSelf {
					if !isASCIIAlpha(d) {
						break
					}
					j++
					continue
				}
				r, size := utf8.DecodeRuneInString(text[j:])
				if !isSpanLetter(r) {
					break
				}
				j += size
			}
			toks = append(toks, Span{Text: text[i:j], Start: i, End: j, Kind: SpanWord, Space: space, Line: line})
			i = j
		}
		space, line = false, false
	}
	return toks
}

func isASCIIAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isSpanLetter(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.Is(unicode.Mn, r))
}
