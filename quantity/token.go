package quantity

import (
	"unicode"
	"unicode/utf8"
)

type tokKind uint8

const (
	tWord tokKind = iota // a run of letters
	tNum                 // ASCII digits with inner ',' or '.' between digits
	tSym                 // any other single rune
)

// token is a slice of the input; text is input[start:end].
type token struct {
	text       string
	start, end int
	kind       tokKind
	// space is true when whitespace or the start of the text precedes
	// the token; line is true when it is the first token on its line.
	space, line bool
}

// tokenize splits text into words, numbers and single-rune symbols,
// dropping whitespace. Invalid UTF-8 bytes become one-byte symbols, so
// offsets always fall on the bytes of the input.
func tokenize(text string, toks []token) []token {
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
			toks = append(toks, token{text: text[i:j], start: i, end: j, kind: tNum, space: space, line: line})
			i = j
		case c < utf8.RuneSelf && !isASCIILetter(c):
			toks = append(toks, token{text: text[i : i+1], start: i, end: i + 1, kind: tSym, space: space, line: line})
			i++
		default:
			r, size := utf8.DecodeRuneInString(text[i:])
			if unicode.IsSpace(r) {
				space = true
				i += size
				continue
			}
			if !isLetter(r) {
				toks = append(toks, token{text: text[i : i+size], start: i, end: i + size, kind: tSym, space: space, line: line})
				i += size
				break
			}
			j := i + size
			for j < len(text) {
				if d := text[j]; d < utf8.RuneSelf {
					if !isASCIILetter(d) {
						break
					}
					j++
					continue
				}
				r, size := utf8.DecodeRuneInString(text[j:])
				if !isLetter(r) {
					break
				}
				j += size
			}
			toks = append(toks, token{text: text[i:j], start: i, end: j, kind: tWord, space: space, line: line})
			i = j
		}
		space, line = false, false
	}
	return toks
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isLetter(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.Is(unicode.Mn, r))
}
