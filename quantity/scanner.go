package quantity

import "strings"

// The scanner walks the tokens of a text; these are its look-ups of the
// token at an index and the small helpers every reader shares.

type scanner struct {
	text string
	toks []token
	// floor is the first token after the last quantity; a hedge is never
	// looked for before it.
	floor int
	// exact reads as CheckExact does: a day and month with no year as a
	// date, and no number of a list of citations ("[19, 20]", "[, 5]").
	exact bool
}

func (s *scanner) tok(i int) (token, bool) {
	if i < 0 || i >= len(s.toks) {
		return token{}, false
	}
	return s.toks[i], true
}

// isSym reports whether token i is the symbol sym.
func (s *scanner) isSym(i int, syms ...string) bool {
	t, ok := s.tok(i)
	if !ok || t.Kind != tSym {
		return false
	}
	for _, x := range syms {
		if t.Text == x {
			return true
		}
	}
	return false
}

// isWord reports whether token i is one of words, ignoring case.
func (s *scanner) isWord(i int, words ...string) bool {
	t, ok := s.tok(i)
	if !ok || t.Kind != tWord {
		return false
	}
	for _, w := range words {
		if strings.EqualFold(t.Text, w) {
			return true
		}
	}
	return false
}

// attached reports whether token i exists and follows the previous token
// with no space.
func (s *scanner) attached(i int) bool {
	t, ok := s.tok(i)
	return ok && !t.Space
}

func (s *scanner) kindAt(i int) (tokKind, bool) {
	t, ok := s.tok(i)
	return t.Kind, ok
}

func (s *scanner) isNum(i int) bool {
	k, ok := s.kindAt(i)
	return ok && k == tNum
}

func (s *scanner) lower(i int) string {
	if i < 0 || i >= len(s.toks) {
		return ""
	}
	return strings.ToLower(s.toks[i].Text)
}

// scaleWord returns the scale of the word at i ("million", "crore"). The
// exact reading also takes the plurals of pluralScales; Check's does not,
// so that the figures the shipped networks were trained on stay as they
// were read.
func (s *scanner) scaleWord(i int) (float64, bool) {
	w := s.lower(i)
	if sc, ok := scaleWords[w]; ok {
		return sc, true
	}
	if s.exact {
		sc, ok := pluralScales[w]
		return sc, ok
	}
	return 0, false
}

// signable reports whether the sign at i stands alone before its number:
// at the start, after a space, or after an opening bracket or a symbol.
func (s *scanner) signable(i int) bool {
	t := s.toks[i]
	if t.Space {
		return true
	}
	prev, _ := s.tok(i - 1)
	return prev.Kind == tSym && prev.Text != "-" && prev.Text != "." && prev.Text != ","
}

// currencyAt returns the currency code of the symbol at token i ("$" ->
// "USD", "€" -> "EUR"), or "".
func (s *scanner) currencyAt(i int) string {
	t, ok := s.tok(i)
	if !ok {
		return ""
	}
	if t.Kind == tSym {
		return currencySymbols[t.Text]
	}
	return ""
}

// joined returns tokens [from, to) as one string with a single space where
// the text has any whitespace. It slices the text, without allocating,
// when the text already has single spaces.
func (s *scanner) joined(from, to int) string {
	raw := s.text[s.toks[from].Start:s.toks[to-1].End]
	single := true
	for j := from + 1; j < to && single; j++ {
		gap := s.toks[j].Start - s.toks[j-1].End
		single = gap == 0 || (gap == 1 && s.text[s.toks[j-1].End] == ' ')
	}
	if single {
		return raw
	}
	var b strings.Builder
	for j := from; j < to; j++ {
		if j > from && s.toks[j].Space {
			b.WriteByte(' ')
		}
		b.WriteString(s.toks[j].Text)
	}
	return b.String()
}

// skipJoined returns the index after the run of tokens joined without
// spaces that contains p ("COVID-19-related", "10:30:00").
func (s *scanner) skipJoined(p int) int {
	j := p + 1
	for j < len(s.toks) && !s.toks[j].Space && s.toks[j].Text != "," && s.toks[j].Text != ";" &&
		!(s.toks[j].Text == "." && (j+1 >= len(s.toks) || s.toks[j+1].Space)) {
		j++
	}
	return j
}

func (s *scanner) finish(q Quantity, start, end int) Quantity {
	q.Start = s.toks[start].Start
	q.End = s.toks[end-1].End
	q.Text = s.text[q.Start:q.End]
	return q
}

// foldLookup looks w up in m ignoring ASCII case, without allocating for
// words of up to 32 bytes.
func foldLookup[V any](m map[string]V, w string) (V, bool) {
	var buf [32]byte
	if len(w) > len(buf) {
		v, ok := m[strings.ToLower(w)]
		return v, ok
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if isUpper(c) {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	v, ok := m[string(buf[:len(w)])]
	return v, ok
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s) && i < 9; i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}
