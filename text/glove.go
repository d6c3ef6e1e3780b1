package text

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// A Vocabulary tells GloVeTokens which hyphenated words to keep whole.
type Vocabulary interface {
	// Known reports whether the lower-case word has a vector.
	Known(word string) bool
}

// GloVeTokens appends to dst the lower-case tokens of text as GloVe's
// corpus was tokenised (Stanford PTB-style, as far as the table's
// vocabulary shows it), so that lookups in the word vectors (package
// wordvec) hit, and returns the extended slice:
//
//   - letters are lower-cased and diacritics removed ("Café" -> "cafe"):
//     the vocabulary is ASCII;
//   - a run of letters and digits is one token ("h1n1", "1990s");
//   - numbers keep their decimal point and separators ("3.5", "10:30");
//     thousands commas are dropped so "1,000" and "1000" agree;
//   - hyphenated words stay whole when vocab knows them ("well-known")
//     and are split at the hyphens otherwise ("covid-19" -> "covid", "-",
//     "19"); with a nil vocab they stay whole;
//   - negation and other clitics split off as in PTB: "don't" -> "do",
//     "n't"; "it's" -> "it", "'s"; "can't" and "won't" become "can" and
//     "will" before "n't", because GloVe's "ca" and "wo" are
//     mostly other words;
//   - initialisms with dots stay whole ("u.s.", "e.g.");
//   - the Penn Treebank escapes "-LRB-", "-RRB-" and the like become the
//     brackets they stand for;
//   - every other non-space character is a token of its own ("," "%" "$").
//
// Typographic apostrophes count as "'". The tokens "n't", "'s" and the like
// are not in the shipped vocabulary; the built-in embedder skips them
// (EmbedStop).
//
// The rules are written out here because no Go library reproduces GloVe's
// tokenisation and a mismatch silently turns known words into unknown ones.
func GloVeTokens(dst []string, text string, vocab Vocabulary) []string {
	text = gloveFold(text)
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		switch {
		case unicode.IsSpace(r) || unicode.IsControl(r) || r == utf8.RuneError:
			i += n
		case isAlnum(r):
			var end int
			dst, end = appendGloVeWord(dst, text, i, vocab)
			i = end
		default:
			if r == '-' {
				if isPTBEscapeAt(text, i) {
					dst = append(dst, ptbBrackets[text[i:i+5]])
					i += 5
					continue
				}
			}
			if r == '\'' {
				if tok, end := clitic(text, i); tok != "" {
					dst = append(dst, tok)
					i = end
					continue
				}
			}
			dst = append(dst, text[i:i+n])
			i += n
		}
	}
	return dst
}

// gloveFold lower-cases s and strips diacritics; ASCII text without upper-case
// letters comes back unchanged without allocating.
func gloveFold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	// Typographic apostrophes become ASCII before NFD so that clitics
	// split the same way whichever the writer used.
	s = gloveApostrophes.Replace(s)
	tr := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	if out, _, err := transform.String(tr, s); err == nil {
		s = out
	}
	return strings.ToLower(s)
}

// ptbBrackets are the Penn Treebank's bracket escapes, which FEVER and other
// Wikipedia-derived sets keep in their text.
var ptbBrackets = map[string]string{
	"-lrb-": "(", "-rrb-": ")", "-lsb-": "[", "-rsb-": "]", "-lcb-": "{", "-rcb-": "}",
}

func isPTBEscapeAt(s string, i int) bool {
	_, ok := ptbBrackets[s[i:min(i+5, len(s))]]
	return ok
}

var gloveApostrophes = strings.NewReplacer("\u2019", "'", "\u2018", "'")

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// alnumEnd returns the end of the run of letters and digits that starts at i.
func alnumEnd(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isAlnum(r) {
			break
		}
		i += n
	}
	return i
}

// appendGloVeWord appends the tokens of the word that starts at i (a letter or a
// digit) and returns the offset after it.
func appendGloVeWord(dst []string, s string, i int, vocab Vocabulary) ([]string, int) {
	if end := initialismEnd(s, i); end > i {
		return append(dst, s[i:end]), end
	}
	if isDigit(s[i]) {
		if end := numberEnd(s, i); end > alnumEnd(s, i) {
			return append(dst, strings.ReplaceAll(s[i:end], ",", "")), end
		}
	}
	// A run of alphanumerics, joined by single hyphens into a compound.
	end := alnumEnd(s, i)
	for end+1 < len(s) && s[end] == '-' {
		r, _ := utf8.DecodeRuneInString(s[end+1:])
		if !isAlnum(r) || isPTBEscapeAt(s, end) {
			break
		}
		end = alnumEnd(s, end+1)
	}
	word := s[i:end]
	// Negation: "don't" is "do" + "n't".
	if end+1 < len(s) && s[end] == '\'' && s[end+1] == 't' && !continuesWord(s, end+2) &&
		strings.HasSuffix(word, "n") && len(word) > 1 {
		stem := word[:len(word)-1]
		switch stem {
		case "ca":
			stem = "can"
		case "wo":
			stem = "will"
		case "sha":
			stem = "shall"
		}
		return append(dst, stem, "n't"), end + 2
	}
	if strings.IndexByte(word, '-') < 0 || vocab == nil || vocab.Known(word) {
		return append(dst, word), end
	}
	for j, part := range strings.Split(word, "-") {
		if j > 0 {
			dst = append(dst, "-")
		}
		dst = append(dst, part)
	}
	return dst, end
}

// continuesWord reports whether a letter or digit starts at i.
func continuesWord(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return isAlnum(r)
}

// clitic returns the PTB clitic ("'s", "'re", "'ve", "'ll", "'d", "'m")
// that starts at the apostrophe at i, if it directly follows a word, and the
// offset after it.
func clitic(s string, i int) (string, int) {
	if i == 0 {
		return "", i
	}
	if r, _ := utf8.DecodeLastRuneInString(s[:i]); !isAlnum(r) {
		return "", i
	}
	for _, c := range []string{"'s", "'re", "'ve", "'ll", "'d", "'m"} {
		if strings.HasPrefix(s[i:], c) && !continuesWord(s, i+len(c)) {
			return c, i + len(c)
		}
	}
	return "", i
}

// initialismEnd returns the end of an initialism like "u.s." or "e.g."
// (two or more single letters each followed by a dot) starting at i, or i.
func initialismEnd(s string, i int) int {
	j, letters := i, 0
	for j+1 < len(s) && isASCIILetter(s[j]) && s[j+1] == '.' && (j == i || s[j-1] == '.') {
		if j+2 < len(s) && isASCIILetter(s[j+2]) && (j+3 >= len(s) || s[j+3] != '.') {
			break // "a.bc": a sentence end, not an initialism
		}
		j += 2
		letters++
	}
	if letters < 2 || continuesWord(s, j) {
		return i
	}
	return j
}

func isASCIILetter(b byte) bool { return 'a' <= b && b <= 'z' }

// numberEnd returns the end of a number starting at the digit at i: digits
// joined by single '.' or ':' characters each followed by a digit ("10.5",
// "10:30"), or by ',' followed by exactly three digits ("1,000,000").
func numberEnd(s string, i int) int {
	j := digitsEnd(s, i)
	for j+1 < len(s) && isDigit(s[j+1]) {
		switch s[j] {
		case '.', ':':
		case ',':
			if digitsEnd(s, j+1) != j+4 {
				return j
			}
		default:
			return j
		}
		j = digitsEnd(s, j+1)
	}
	return j
}

func digitsEnd(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}
