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
