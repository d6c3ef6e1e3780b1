package citations

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Citation markers written as plain text, in every format.
var (
	// numberedRe is "[2]", "[2, 5]", "[2-4]", "[2–4]" or "[2; 5]".
	numberedRe = regexp.MustCompile(`^\[(\d{1,4}(?:\s*[,;\-–]\s*\d{1,4})*)\]`)
	// footnoteRe is "[^1]", "[^note]".
	footnoteRe = regexp.MustCompile(`^\[\^([^\]\s]{1,64})\]`)
	// bareURLRe is an http(s) URL or one that starts with "www.".
	bareURLRe = regexp.MustCompile(`^(?i:https?://|www\.)[^\s<>"\x60]+`)
	// parenRe is "(2)", "(2, 5)" or "(2-4)".
	parenRe = regexp.MustCompile(`^\((\d{1,3}(?:\s*[,;\-–]\s*\d{1,3})*)\)`)
	// doiRe is "doi:10.1038/nature12373" or "DOI: 10.1038/...".
	doiRe = regexp.MustCompile(`^(?i:doi:[ \t]?)(10\.\d{4,9}/[^\s<>"\x60]+)`)
	// arxivRe is "arXiv:2301.01234", "arXiv:2301.01234v2" or the old
	// "arXiv:hep-th/9901001".
	arxivRe = regexp.MustCompile(`^(?i:arxiv:[ \t]?)(\d{4}\.\d{4,5}(?:v\d+)?|[a-z][a-z\-]*(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?)`)
	// supDigits are the superscript digits, by value.
	supDigits = map[rune]byte{'⁰': '0', '¹': '1', '²': '2', '³': '3', '⁴': '4', '⁵': '5', '⁶': '6', '⁷': '7', '⁸': '8', '⁹': '9'}
)

// DOIURL and ArXivURL are where DOIs and arXiv ids resolve.
const (
	DOIURL   = "https://doi.org/"
	ArXivURL = "https://arxiv.org/abs/"
)

// maxRange bounds the expansion of "[2-40]": a longer range is taken as
// its two ends.
const maxRange = 20

// numberedLabels returns the reference numbers of a numbered marker's
// inside: "2, 5" -> 2, 5; "2-4" -> 2, 3, 4.
func numberedLabels(inner string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(inner, func(r rune) bool { return r == ',' || r == ';' }) {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(strings.ReplaceAll(part, "–", "-"), "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		if err != nil {
			continue
		}
		if !isRange {
			out = append(out, strconv.Itoa(a))
			continue
		}
		b, err := strconv.Atoi(strings.TrimSpace(hi))
		if err != nil || b < a {
			out = append(out, strconv.Itoa(a))
			continue
		}
		if b-a > maxRange {
			out = append(out, strconv.Itoa(a), strconv.Itoa(b))
			continue
		}
		for n := a; n <= b; n++ {
			out = append(out, strconv.Itoa(n))
		}
	}
	return out
}

// trimURL cuts the punctuation that ends the sentence around a bare URL
// ("see https://a.org/x." or "(https://a.org/x)") but keeps balanced
// parentheses ("https://en.wikipedia.org/wiki/Go_(game)").
func trimURL(u string) string {
	for u != "" {
		last, size := utf8.DecodeLastRuneInString(u)
		switch {
		case strings.ContainsRune(".,;:!?'\"*_", last):
			u = u[:len(u)-size]
		case last == ')' && strings.Count(u, "(") < strings.Count(u, ")"):
			u = u[:len(u)-size]
		case last == ']' && strings.Count(u, "[") < strings.Count(u, "]"):
			u = u[:len(u)-size]
		default:
			return u
		}
	}
	return u
}

// absoluteURL turns "www.x.org/..." into "https://www.x.org/...".
func absoluteURL(u string) string {
	if len(u) >= 4 && strings.EqualFold(u[:4], "www.") {
		return "https://" + u
	}
	return u
}

// isWebURL reports whether u is an http(s) URL or starts with "www.".
func isWebURL(u string) bool {
	l := strings.ToLower(u)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "www.")
}

// plainMarkers appends s to b, taking out numbered and footnote markers
// and bare URLs as marks.
func plainMarkers(b *builder, s string, line int) {
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '[':
			if m := numberedRe.FindStringSubmatch(s[i:]); m != nil {
				b.text(s[start:i], line)
				for _, n := range numberedLabels(m[1]) {
					b.mark(mark{kind: refMark, id: "[" + n + "]", label: n})
				}
				i += len(m[0]) - 1
				start = i + 1
			} else if m := footnoteRe.FindStringSubmatch(s[i:]); m != nil {
				b.text(s[start:i], line)
				b.mark(mark{kind: refMark, id: m[0], label: "^" + strings.ToLower(m[1])})
				i += len(m[0]) - 1
				start = i + 1
			}
		case c == '(':
			if m := parenRe.FindStringSubmatch(s[i:]); m != nil && i > 0 {
				b.text(s[start:i], line)
				softMarks(b, m[1], true)
				i += len(m[0]) - 1
				start = i + 1
			}
		case (c == 'd' || c == 'D' || c == 'a' || c == 'A') && wordStart(s, i):
			id, u, n := identifierURL(s[i:])
			if n == 0 {
				continue
			}
			b.text(s[start:i], line)
			b.mark(mark{kind: linkMark, id: id, url: u})
			i += n - 1
			start = i + 1
		case c >= 0x80:
			r, _ := utf8.DecodeRuneInString(s[i:])
			if _, ok := supDigits[r]; !ok || i == 0 {
				continue
			}
			if !superscriptMayCite(s[:i]) {
				continue
			}
			var num []byte
			j := i
			for j < len(s) {
				r, size := utf8.DecodeRuneInString(s[j:])
				d, ok := supDigits[r]
				if !ok {
					break
				}
				num = append(num, d)
				j += size
			}
			if next, _ := utf8.DecodeRuneInString(s[j:]); unicode.IsLetter(next) || unicode.IsDigit(next) || len(num) > 3 {
				continue
			}
			b.text(s[start:i], line)
			softMarks(b, string(num), false)
			i = j - 1
			start = j
		case (c == 'h' || c == 'H' || c == 'w' || c == 'W') && wordStart(s, i):
			loc := bareURLRe.FindString(s[i:])
			if loc == "" {
				continue
			}
			u := trimURL(loc)
			if pu, err := url.Parse(absoluteURL(u)); err != nil || pu.Host == "" {
				continue
			}
			b.text(s[start:i], line)
			b.mark(mark{kind: linkMark, id: u, url: absoluteURL(u)})
			i += len(u) - 1
			start = i + 1
		}
	}
	b.text(s[start:], line)
}

// superscriptMayCite reports whether a superscript number after before
// can be a citation: it follows punctuation or a word of three letters or
// more, not a number ("10²") or a unit ("m²", "km³").
func superscriptMayCite(before string) bool {
	prev, _ := utf8.DecodeLastRuneInString(before)
	switch {
	case unicode.IsPunct(prev):
		return true
	case !unicode.IsLetter(prev):
		return false
	}
	word := before[strings.LastIndexFunc(before, func(r rune) bool { return !unicode.IsLetter(r) })+1:]
	return utf8.RuneCountInString(word) >= 3
}

// softMarks adds a soft marker for each reference number of inner ("2",
// "2, 5", "2-4"), named "(2)" when paren is set and "^2" (a superscript)
// otherwise.
func softMarks(b *builder, inner string, paren bool) {
	for _, n := range numberedLabels(inner) {
		id := "^" + n
		if paren {
			id = "(" + n + ")"
		}
		b.mark(mark{kind: softRefMark, id: id, label: n})
	}
}

// identifierURL reads a DOI ("doi:10.1038/x") or an arXiv id
// ("arXiv:2301.01234") at the start of s and returns the id as written,
// the URL it resolves to and its length in s; n is 0 when s starts with
// neither.
func identifierURL(s string) (id, u string, n int) {
	if m := doiRe.FindStringSubmatch(s); m != nil {
		doi := trimURL(m[1])
		n = len(m[0]) - len(m[1]) + len(doi)
		return "doi:" + doi, DOIURL + doi, n
	}
	if m := arxivRe.FindStringSubmatch(s); m != nil {
		return "arXiv:" + m[1], ArXivURL + m[1], len(m[0])
	}
	return "", "", 0
}

// wordStart reports whether s[i] begins a word.
func wordStart(s string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '/' && r != '.' && r != '@'
}

// markerText reports whether a link's text is itself a citation marker
// ("2", "[2]", "^1", "[^1]") and returns the id to report it under.
func markerText(text string) (string, bool) {
	t := strings.TrimSpace(text)
	inner := strings.TrimSuffix(strings.TrimPrefix(t, "["), "]")
	if inner == "" || len(inner) > 12 {
		return "", false
	}
	if _, err := strconv.Atoi(inner); err == nil {
		return "[" + inner + "]", true
	}
	if strings.HasPrefix(inner, "^") && !strings.ContainsAny(inner, " ") {
		return "[" + inner + "]", true
	}
	return "", false
}

// linkID is the id of an inline link with the given text.
func linkID(text, target string) string {
	if id, ok := markerText(text); ok {
		return id
	}
	t := strings.Join(strings.Fields(text), " ")
	if t == "" {
		return target
	}
	if utf8.RuneCountInString(t) > 80 {
		r := []rune(t)
		t = string(r[:77]) + "..."
	}
	return fmt.Sprintf("[%s]", t)
}
