package quantity

import (
	"math"
	"strings"
	"sync"
	"time"
)

// Extract returns the quantities written in text, in order of Start. Spans
// never overlap. It does not take as quantities: numbers joined to letters
// ("COVID-19", "G7", "A4", "CO2", "4G", "v1.2"), version-like numbers
// ("1.2.3"), identifiers after a label ("Figure 3", "page 12", "No. 5",
// "#1", "[12]", "(3)"), list markers at the start of a line ("1.", "2)"),
// times of day and ratios ("10:30", "3 pm", "3:1"), slashed numbers
// ("24/7", "02/15/2024"), phone-like digit runs ("+1 555 123 4567",
// "(555) 123-4567", "555-123-4567"), digit strings with a leading zero or
// ten or more digits, a day and month with no year ("March 15"), and the
// lone words "one" and "zero" (too often not a count: "one of the").
func Extract(text string) []Quantity {
	var out []Quantity
	scan(text, func(q Quantity) bool {
		out = append(out, q)
		return true
	})
	return out
}

// HasQuantity reports whether text contains at least one quantity that
// Extract would return. It stops at the first one.
func HasQuantity(text string) bool {
	found := false
	scan(text, func(Quantity) bool {
		found = true
		return false
	})
	return found
}

// maxTextBytes bounds the input one call reads; longer text is read up to
// this many bytes (about 200,000 words).
const maxTextBytes = 1 << 20

var tokenPool = sync.Pool{New: func() any { s := make([]token, 0, 512); return &s }}

// scan calls yield with each quantity of text until yield returns false.
func scan(text string, yield func(Quantity) bool) {
	if len(text) > maxTextBytes {
		text = text[:maxTextBytes]
	}
	bufp := tokenPool.Get().(*[]token)
	s := scanner{text: text, toks: tokenize(text, (*bufp)[:0])}
	s.each(func(q Quantity, _, _ int) bool { return yield(q) })
	if cap(s.toks) <= maxPooledTokens {
		*bufp = s.toks[:0]
		tokenPool.Put(bufp)
	}
}

// maxPooledTokens keeps the buffers of very long texts out of the pool.
const maxPooledTokens = 1 << 14

// each calls yield with each quantity and the tokens [ts, te) it spans.
func (s *scanner) each(yield func(q Quantity, ts, te int) bool) {
	for i := 0; i < len(s.toks); {
		q, next, ok := s.at(i)
		if next <= i {
			next = i + 1 // never loop: every step consumes a token
		}
		if ok {
			ts := i
			for ts > 0 && s.toks[ts].start > q.Start {
				ts--
			}
			if !yield(q, ts, next) {
				return
			}
			s.floor = next
		}
		i = next
	}
}

type scanner struct {
	text string
	toks []token
	// floor is the first token after the last quantity; a hedge is never
	// looked for before it.
	floor int
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
	if !ok || t.kind != tSym {
		return false
	}
	for _, x := range syms {
		if t.text == x {
			return true
		}
	}
	return false
}

// isWord reports whether token i is one of words, ignoring case.
func (s *scanner) isWord(i int, words ...string) bool {
	t, ok := s.tok(i)
	if !ok || t.kind != tWord {
		return false
	}
	for _, w := range words {
		if strings.EqualFold(t.text, w) {
			return true
		}
	}
	return false
}

// attached reports whether token i exists and follows the previous token
// with no space.
func (s *scanner) attached(i int) bool {
	t, ok := s.tok(i)
	return ok && !t.space
}

func (s *scanner) kindAt(i int) (tokKind, bool) {
	t, ok := s.tok(i)
	return t.kind, ok
}

func (s *scanner) isNum(i int) bool {
	k, ok := s.kindAt(i)
	return ok && k == tNum
}

func (s *scanner) lower(i int) string {
	if i < 0 || i >= len(s.toks) {
		return ""
	}
	return strings.ToLower(s.toks[i].text)
}

// at tries to read a quantity starting at token i. It returns the quantity,
// the token index after what it consumed (or skipped), and whether a
// quantity was read.
func (s *scanner) at(i int) (Quantity, int, bool) {
	t := s.toks[i]
	switch t.kind {
	case tNum:
		return s.number(i)
	case tWord:
		if _, ok := foldLookup(startWords, t.text); !ok {
			return Quantity{}, i + 1, false // most words: one lookup
		}
		if _, ok := foldLookup(months, t.text); ok && isUpper(t.text[0]) {
			if q, next, ok := s.monthFirstDate(i); ok || next > i+1 {
				return q, next, ok
			}
		}
		if _, ok := currencyPrefixWords[t.text]; ok && s.isSym(i+1, "$") && s.attached(i+1) && s.isNum(i+2) {
			return s.number(i)
		}
		if f, ok := symbolUnits[t.text]; ok && f.kind == Money && s.isNum(i+1) {
			return s.number(i)
		}
		return s.wordNumber(i)
	default:
		if _, ok := currencySymbols[t.text]; ok && s.isNum(i+1) {
			return s.number(i)
		}
		if (t.text == "-" || t.text == "−" || t.text == "+") && s.isNum(i+1) && s.attached(i+1) && s.signable(i) {
			return s.number(i)
		}
		if (t.text == "-" || t.text == "−") && s.attached(i+1) && s.currencyAt(i+1) != "" && s.isNum(i+2) {
			return s.number(i)
		}
		return Quantity{}, i + 1, false
	}
}

// signable reports whether the sign at i stands alone before its number:
// at the start, after a space, or after an opening bracket or a symbol.
func (s *scanner) signable(i int) bool {
	t := s.toks[i]
	if t.space {
		return true
	}
	prev, _ := s.tok(i - 1)
	return prev.kind == tSym && prev.text != "-" && prev.text != "." && prev.text != ","
}

// currencyAt returns the currency code of the symbol at token i ("$" ->
// "USD", "€" -> "EUR"), or "".
func (s *scanner) currencyAt(i int) string {
	t, ok := s.tok(i)
	if !ok {
		return ""
	}
	if t.kind == tSym {
		return currencySymbols[t.text]
	}
	return ""
}

// figure is a number as written, before scale words and units.
type figure struct {
	v, step float64
	isInt   bool
	// plain is true for a digit run with no comma or decimal point;
	// digits counts its digits.
	plain  bool
	digits int
	words  bool // spelled out
	next   int  // token after the figure
}

// part is a figure with its scale and unit.
type part struct {
	figure
	value, step float64
	unit        string
	kind        Kind
	scaled      bool // a scale word or letter was applied
	unitted     bool // a unit was read
	ordinal     bool
	decade      bool
	bound       Bound // from a suffix hedge ("or more", "+")
	era         float64
	next        int
	skip        bool // not a quantity; skip to next
}

// number reads a quantity whose first token (sign, currency or figure) is
// at i.
func (s *scanner) number(i int) (Quantity, int, bool) {
	p := i
	sign := 1.0
	if s.isSym(p, "-", "−", "+") {
		if s.toks[p].text != "+" {
			sign = -1
		} else if end, phone := s.phoneRun(p); phone {
			return Quantity{}, end, false
		}
		p++
	}
	currency := ""
	if t := s.toks[p]; t.kind == tWord {
		if code, ok := currencyPrefixWords[t.text]; ok {
			currency = code
			p += 2
		} else {
			currency = symbolUnits[t.text].unit
			p++
		}
	} else if c := s.currencyAt(p); c != "" {
		currency = c
		p++
	}
	if !s.isNum(p) {
		return Quantity{}, p + 1, false
	}
	if p == i {
		if next, skip := s.notQuantity(p); skip {
			return Quantity{}, next, false
		}
		if q, next, ok := s.numberFirstDate(p); ok || next > p+1 {
			return q, next, ok
		}
	}
	first := s.part(p, currency)
	if first.skip {
		return Quantity{}, first.next, false
	}
	if p == i && s.namePart(p, first) {
		return Quantity{}, first.next, false
	}
	bound, start, strict := s.hedgeBefore(i)
	q := Quantity{Value: sign * first.value, Step: first.step, Unit: first.unit, Kind: first.kind}
	end := first.next
	if first.bound != Exact && bound == Exact {
		bound = first.bound
	}
	if sign > 0 && !first.ordinal {
		r, rstart, rend, ok, resume := s.rangeAfter(first, currency, start)
		if ok {
			q, start, end = r, rstart, rend
			bound = Between
		} else if resume > 0 {
			// "2-1", "3-0": figures joined by a hyphen that form no range.
			return Quantity{}, resume, false
		}
	}
	switch {
	case first.ordinal:
		q.Kind, q.Unit, q.Step = Ordinal, "", 1
	case first.decade:
		q.Kind, q.Unit, q.Step, q.Precision = Year, "year", 10, YearPrecision
		q.High = q.Value + 9
		bound = Between
	case first.era != 0 && bound != Between:
		q.Kind, q.Unit, q.Step, q.Precision = Year, "year", 1, YearPrecision
		q.Value *= first.era
	case q.Kind == Number && q.Unit == "" && currency == "" && bound != Between && s.yearLike(first, sign, bound, start, i):
		q.Kind, q.Unit, q.Step, q.Precision = Year, "year", 1, YearPrecision
		bound, strict = Exact, false
		if s.isWord(start, "circa", "c", "ca") {
			bound = Approx
		} else if b, n := s.yearBound(i); n > 0 {
			bound, start, strict = b, i-n, true
		}
	}
	if bound != Between {
		q.High = q.Value
	}
	q.Bound, q.Approx = bound, bound != Exact
	q.Strict = strict && (bound == AtLeast || bound == AtMost)
	return s.finish(q, start, end), end, true
}

// yearLike reports whether a bare four-digit integer is a calendar year:
// 1000 to 2100, written without a comma, not negative, with no hedge
// other than "circa" before it, and not a count of people.
func (s *scanner) yearLike(f part, sign float64, bound Bound, start, i int) bool {
	if !f.plain || f.digits != 4 || f.scaled || f.unitted || sign < 0 || f.v < 1000 || f.v > 2100 {
		return false
	}
	if bound == Exact {
		return true
	}
	return start < i && s.isWord(start, "circa", "c", "ca")
}

// namePart reports whether the bare figure at p belongs to a name:
// "Xbox 360", "Billboard 200", "Call of Duty 2", "PlayStation 3", "Week
// 2". The word before it is capitalised but does not open a sentence, is
// not a month, a hedge, a currency or a function word, and the figure has
// no unit or scale and is not a year ("London 2012" keeps its year).
func (s *scanner) namePart(p int, f part) bool {
	if f.unitted || f.scaled || f.ordinal || f.decade || f.kind != Number {
		return false
	}
	if f.plain && f.digits == 4 && f.v >= 1000 && f.v <= 2100 {
		return false
	}
	prev, ok := s.tok(p - 1)
	if !ok || prev.kind != tWord || !isUpper(prev.text[0]) || !s.toks[p].space || prev.line {
		return false
	}
	w := strings.ToLower(prev.text)
	if _, month := months[w]; month || stopwords[w] || hedgeWords[w] {
		return false
	}
	if _, code := symbolUnits[prev.text]; code {
		return false
	}
	before, ok := s.tok(p - 2)
	return ok && !(before.kind == tSym && (before.text == "." || before.text == "!" || before.text == "?"))
}

// yearBound reads "before", "after", "prior to", "earlier than" and
// "later than" right before the year or date at i, and how many words
// they take. These bounds are strict: "before 2016" ends on 31 December
// 2015.
func (s *scanner) yearBound(i int) (Bound, int) {
	if i-1 < s.floor {
		return Exact, 0
	}
	switch s.lower(i - 1) {
	case "before":
		return AtMost, 1
	case "after":
		return AtLeast, 1
	case "to", "than":
		if i-2 < s.floor {
			return Exact, 0
		}
		switch s.lower(i-2) + " " + s.lower(i-1) {
		case "prior to", "earlier than":
			return AtMost, 2
		case "later than":
			return AtLeast, 2
		}
	}
	return Exact, 0
}

// notQuantity reports whether the digits at p are an identifier, a code, a
// marker or a phone number rather than a quantity, and where to resume.
func (s *scanner) notQuantity(p int) (int, bool) {
	t := s.toks[p]
	prev, hasPrev := s.tok(p - 1)
	// Joined to a word or number: "G7", "CO2", "v1.2", "H1N1".
	if hasPrev && !t.space && (prev.kind == tWord || prev.kind == tNum) {
		return s.skipJoined(p), true
	}
	// Hyphen-joined to a word: "COVID-19", "B-52", but "mid-2020" is a year.
	if hasPrev && !t.space && prev.kind == tSym && (prev.text == "-" || prev.text == "_" || prev.text == "/" || prev.text == ".") {
		if pp, ok := s.tok(p - 2); ok && !prev.space && (pp.kind == tWord || pp.kind == tNum) {
			if !(pp.kind == tWord && prev.text == "-" && yearAffixes[strings.ToLower(pp.text)]) {
				return s.skipJoined(p), true
			}
		}
	}
	// "#1", "No. 5", "Figure 3", "p. 12".
	if hasPrev && prev.kind == tSym && prev.text == "#" {
		return p + 1, true
	}
	if hasPrev && prev.kind == tWord && labelWords[strings.ToLower(prev.text)] && strings.ToLower(prev.text) != "no" {
		return s.skipJoined(p), true
	}
	if hasPrev && prev.kind == tSym && prev.text == "." && p >= 2 && s.toks[p-2].kind == tWord && labelWords[strings.ToLower(s.toks[p-2].text)] {
		return s.skipJoined(p), true
	}
	// "[12]" citation markers and "(3)" enumerations.
	if s.isSym(p-1, "[") && s.isSym(p+1, "]") {
		return p + 2, true
	}
	if s.isSym(p-1, "(") && s.isSym(p+1, ")") && len(t.text) <= 2 {
		return p + 2, true
	}
	// "1." or "2)" opening a line.
	if t.line && len(t.text) <= 3 && allDigits(t.text) && s.isSym(p+1, ".", ")") && s.attached(p+1) {
		if n, ok := s.tok(p + 2); !ok || n.space {
			return p + 2, true
		}
	}
	// Times and ratios "10:30", "3:1"; slashed "24/7", "02/15/2024".
	if s.isSym(p+1, ":", "/") && s.attached(p+1) && s.isNum(p+2) && s.attached(p+2) {
		return s.skipJoined(p), true
	}
	if s.isWord(p+1, "am", "pm") || (s.isWord(p+1, "a", "p") && s.isSym(p+2, ".") && s.isWord(p+3, "m")) {
		return p + 2, true
	}
	if end, phone := s.phoneRun(p); phone {
		return end, true
	}
	if allDigits(t.text) && ((len(t.text) > 1 && t.text[0] == '0') || len(t.text) >= 10) {
		return s.skipJoined(p), true
	}
	return p, false
}

// skipJoined returns the index after the run of tokens joined without
// spaces that contains p ("COVID-19-related", "10:30:00").
func (s *scanner) skipJoined(p int) int {
	j := p + 1
	for j < len(s.toks) && !s.toks[j].space && s.toks[j].text != "," && s.toks[j].text != ";" &&
		!(s.toks[j].text == "." && (j+1 >= len(s.toks) || s.toks[j+1].space)) {
		j++
	}
	return j
}

// phoneRun reports whether a phone-like digit run starts at p (a "+" or
// a number), and the index after it: an international "+" number with
// seven or more digits, "(555) 123-4567", or three or more hyphen-joined
// digit groups that are not an ISO date.
func (s *scanner) phoneRun(p int) (int, bool) {
	j := p
	plus := s.isSym(j, "+")
	if plus {
		j++
	}
	if s.isoDate(p) {
		return p, false
	}
	if s.isSym(p-1, "(") && s.isNum(p) && len(s.toks[p].text) == 3 && s.isSym(p+1, ")") &&
		s.isNum(p+2) && len(s.toks[p+2].text) == 3 && s.isSym(p+3, "-", ".") && s.isNum(p+4) && len(s.toks[p+4].text) == 4 {
		return p + 5, true
	}
	digits, groups := 0, 0
	for {
		if s.isSym(j, "(") && s.isNum(j+1) {
			j++
		}
		if !s.isNum(j) || !allDigits(s.toks[j].text) {
			break
		}
		digits += len(s.toks[j].text)
		groups++
		j++
		if s.isSym(j, ")") {
			j++
		}
		// Groups continue after a hyphen or a dot, or after a space when
		// the run began with "+".
		if s.isSym(j, "-", ".") && s.attached(j) && s.isNum(j+1) && s.attached(j+1) {
			j++
			continue
		}
		if plus && s.isNum(j) && len(s.toks[j].text) <= 4 {
			continue
		}
		break
	}
	if plus && digits >= 7 && groups >= 1 {
		return j, true
	}
	if groups >= 3 && digits >= 7 {
		return j, true
	}
	return j, false
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
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

// parseDigits reads "1,234.5": commas must group thousands, at most one
// decimal point. step is one unit in the last written place.
func parseDigits(s string) (figure, bool) {
	var f figure
	intPart, frac := s, ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		intPart, frac = s[:i], s[i+1:]
		if europeanGroups(s) {
			// "30.000", "1.234.567": dots group thousands.
			intPart, frac = strings.ReplaceAll(s, ".", ""), ""
		} else if strings.IndexByte(frac, '.') >= 0 || strings.IndexByte(frac, ',') >= 0 {
			return f, false // "1.2.3", "1.234,5"
		}
	}
	if c := strings.IndexByte(intPart, ','); c >= 0 && frac == "" && strings.Count(intPart, ",") == 1 && len(intPart)-c-1 <= 2 {
		// "1,5 million": a decimal comma (a thousands comma is followed
		// by three digits).
		intPart, frac = intPart[:c], intPart[c+1:]
		if intPart == "" || (len(intPart) > 1 && intPart[0] == '0') {
			return f, false
		}
	}
	if strings.IndexByte(intPart, ',') >= 0 {
		if !thousands(intPart, ',') {
			return f, false // "1,5,6", "1,23,456"
		}
		intPart = strings.ReplaceAll(intPart, ",", "")
	} else {
		f.plain = frac == ""
		f.digits = len(intPart)
	}
	v := 0.0
	for i := 0; i < len(intPart); i++ {
		v = v*10 + float64(intPart[i]-'0')
	}
	scale := 1.0
	for i := 0; i < len(frac); i++ {
		scale /= 10
		v += float64(frac[i]-'0') * scale
	}
	f.v, f.step, f.isInt = v, scale, frac == ""
	return f, true
}

// europeanGroups reports whether s groups thousands with dots: either
// several groups ("1.234.567") or the one group "000" ("30.000").
func europeanGroups(s string) bool {
	if strings.IndexByte(s, ',') >= 0 || !thousands(s, '.') {
		return false
	}
	return strings.Count(s, ".") > 1 || strings.HasSuffix(s, ".000")
}

// thousands reports whether sep groups the digits of s in thousands: one
// to three digits, no leading zero, then groups of exactly three.
func thousands(s string, sep byte) bool {
	first := strings.IndexByte(s, sep)
	if first <= 0 || first > 3 || s[0] == '0' {
		return false
	}
	for i := first; i < len(s); i += 4 {
		if s[i] != sep || i+4 > len(s) || strings.IndexByte(s[i+1:i+4], sep) >= 0 {
			return false
		}
	}
	return true
}

// figureAt reads the figure at token p: digits, or spelled-out words.
func (s *scanner) figureAt(p int) (figure, bool) {
	t := s.toks[p]
	if t.kind == tNum {
		f, ok := parseDigits(t.text)
		f.next = p + 1
		return f, ok
	}
	return s.spelled(p)
}

// spelled reads a spelled-out number: "twelve", "twenty-five", "three
// hundred and six", "two million", "a dozen", "a million", "half a
// million". Fractions ("half of") are read by wordNumber.
func (s *scanner) spelled(p int) (figure, bool) {
	var f figure
	w := s.lower(p)
	switch w {
	case "a", "an":
		n := s.lower(p + 1)
		if n == "dozen" {
			return figure{v: 12, step: 1, isInt: true, words: true, next: p + 2}, true
		}
		if n == "hundred" {
			return figure{v: 100, step: 100, isInt: true, words: true, next: p + 2}, true
		}
		if sc, ok := scaleWords[n]; ok && len(n) > 3 {
			return figure{v: sc, step: sc, isInt: true, words: true, next: p + 2}, true
		}
		return f, false
	case "half":
		if s.isWord(p+1, "a", "an") {
			n := s.lower(p + 2)
			if sc, ok := scaleWords[n]; ok && len(n) > 3 {
				return figure{v: sc / 2, step: sc / 10, words: true, next: p + 3}, true
			}
			if n == "dozen" {
				return figure{v: 6, step: 1, isInt: true, words: true, next: p + 3}, true
			}
		}
		return f, false
	}
	total, cur, step := 0.0, 0.0, 1.0
	j, read := p, 0
	for j < len(s.toks) && s.toks[j].kind == tWord {
		w := strings.ToLower(s.toks[j].text)
		if v, ok := ones[w]; ok {
			cur += v
		} else if v, ok := tens[w]; ok {
			cur += v
			if s.isSym(j+1, "-") && s.attached(j+1) && s.attached(j+2) {
				if u, ok := ones[s.lower(j+2)]; ok && u < 10 && u > 0 {
					cur += u
					j += 2
				}
			}
		} else if w == "hundred" && read > 0 {
			cur = math.Max(cur, 1) * 100
		} else if sc, ok := scaleWords[w]; ok && read > 0 && len(w) > 3 {
			total += math.Max(cur, 1) * sc
			cur, step = 0, sc
		} else if w == "dozen" && read > 0 {
			cur = math.Max(cur, 1) * 12
		} else if w == "and" && read > 0 && (s.lower(j-1) == "hundred") {
			if _, ok := ones[s.lower(j+1)]; !ok {
				if _, ok := tens[s.lower(j+1)]; !ok {
					break
				}
			}
		} else {
			break
		}
		read++
		j++
	}
	if read == 0 {
		return f, false
	}
	return figure{v: total + cur, step: step, isInt: true, words: true, next: j}, true
}

// wordNumber reads a quantity that starts with a word: a spelled number
// with its unit, or a spelled fraction of a whole ("half of", "two-thirds
// of", "a quarter of") as a percentage.
func (s *scanner) wordNumber(i int) (Quantity, int, bool) {
	_, isOne := foldLookup(ones, s.toks[i].text)
	_, isTen := foldLookup(tens, s.toks[i].text)
	if !isOne && !isTen && !s.isWord(i, "a", "an", "half") {
		return Quantity{}, i + 1, false
	}
	w := s.lower(i)
	if frac, next, ok := s.fraction(i); ok {
		bound, start, strict := s.hedgeBefore(i)
		if bound == Exact {
			bound = Approx
		}
		v := 100 * frac
		q := Quantity{Value: v, High: v, Unit: "%", Kind: Percent, Bound: bound, Approx: true, Step: 1,
			Strict: strict && bound != Approx}
		return s.finish(q, start, next), next, true
	}
	f, ok := s.spelled(i)
	if !ok {
		return Quantity{}, i + 1, false
	}
	pt := s.after(f, "")
	if pt.skip {
		return Quantity{}, pt.next, false
	}
	// A lone "one" or "zero" is too often not a count ("one of the").
	if (w == "one" || w == "zero") && f.next == i+1 && !pt.unitted {
		return Quantity{}, i + 1, false
	}
	bound, start, strict := s.hedgeBefore(i)
	if pt.bound != Exact && bound == Exact {
		bound, strict = pt.bound, false
	}
	q := Quantity{Value: pt.value, High: pt.value, Step: pt.step, Unit: pt.unit, Kind: pt.kind, Bound: bound, Approx: bound != Exact,
		Strict: strict && (bound == AtLeast || bound == AtMost)}
	return s.finish(q, start, pt.next), pt.next, true
}

func (s *scanner) finish(q Quantity, start, end int) Quantity {
	q.Start = s.toks[start].start
	q.End = s.toks[end-1].end
	q.Text = s.text[q.Start:q.End]
	return q
}

// fraction reads "half of", "a third of", "two-thirds of", "three
// quarters of", "one fifth of" and returns the fraction.
func (s *scanner) fraction(i int) (float64, int, bool) {
	w := s.lower(i)
	if w == "half" {
		// "half of", "half the", but not "the second half of 2024".
		if s.isWord(i+1, "of", "the") && !s.isWord(i-1, "first", "second", "latter", "the", "a", "other") {
			return 0.5, i + 1, true
		}
		return 0, 0, false
	}
	num, j := 0.0, i+1
	switch {
	case w == "a" || w == "an" || w == "one":
		num = 1
	default:
		v, ok := ones[w]
		if !ok || v < 2 || v > 9 {
			return 0, 0, false
		}
		num = v
	}
	if s.isSym(j, "-") && s.attached(j) && s.attached(j+1) {
		j++
	}
	d, ok := fractionWords[s.lower(j)]
	if !ok || !s.isWord(j+1, "of") {
		return 0, 0, false
	}
	name := s.lower(j)
	if (num == 1) == strings.HasSuffix(name, "s") || name == "half" && num != 1 {
		return 0, 0, false // "a thirds", "two third"
	}
	return num * d, j + 1, true
}

// part reads the figure at p and what follows it: attached scale letters
// ("9k", "$5m"), ordinal and decade suffixes, scale words, suffix hedges
// and the unit.
func (s *scanner) part(p int, currency string) part {
	f, ok := s.figureAt(p)
	if !ok {
		return part{next: s.skipJoined(p), skip: true}
	}
	return s.after(f, currency)
}

func (s *scanner) after(f figure, currency string) part {
	pt := part{figure: f, kind: Number, next: f.next}
	mult := 1.0
	if currency != "" {
		pt.kind, pt.unit = Money, currency
	}
	k := f.next
	if !f.words && s.attached(k) {
		t := s.toks[k]
		switch {
		case t.kind == tWord && f.isInt && currency == "" && (t.text == "st" || t.text == "nd" || t.text == "rd" || t.text == "th"):
			pt.ordinal = true
			pt.value, pt.step, pt.next = f.v, 1, k+1
			return pt
		case t.kind == tWord && t.text == "s" && f.plain && f.digits == 4 && math.Mod(f.v, 10) == 0:
			pt.decade = true
			pt.value, pt.step, pt.next = f.v, 10, k+1
			return pt
		case (t.text == "'" || t.text == "’") && f.plain && f.digits == 4 && math.Mod(f.v, 10) == 0 && s.isWord(k+1, "s") && s.attached(k+1):
			pt.decade = true
			pt.value, pt.step, pt.next = f.v, 10, k+2
			return pt
		case t.kind == tWord && currency != "" && currencyScales[t.text] != 0:
			mult, pt.scaled = currencyScales[t.text], true
			k++
		case t.kind == tWord && attachedScales[t.text] != 0:
			mult, pt.scaled = attachedScales[t.text], true
			k++
		case t.kind == tWord:
			if _, _, ok := s.unitAt(k); !ok && !s.isSym(k+1, "²", "³") {
				if sc, ok := scaleWords[strings.ToLower(t.text)]; ok {
					mult, pt.scaled = sc, true
					k++
				} else {
					// "4G", "3D", "5G": a code, not a quantity.
					return part{next: s.skipJoined(k), skip: true}
				}
			}
		}
	}
	if !pt.scaled {
		if sc, ok := scaleWords[s.lower(k)]; ok && s.toks[k].kind == tWord {
			mult, pt.scaled = sc, true
			k++
		} else if t, ok := s.tok(k); ok && currency != "" && !f.words && t.kind == tWord && (attachedScales[t.text] != 0 || currencyScales[t.text] != 0) {
			mult, pt.scaled = attachedScales[t.text]+currencyScales[t.text], true // "$ 4.8 M"
			k++
		}
	}
	// "9,000+" and "9,000-plus".
	if s.isSym(k, "+") && s.attached(k) {
		pt.bound = AtLeast
		k++
	} else if s.isSym(k, "-") && s.attached(k) && s.isWord(k+1, "plus") && s.attached(k+1) {
		pt.bound = AtLeast
		k += 2
	}
	// The unit, spaced or attached ("12 %", "10km") or hyphenated
	// ("10-year").
	uk := k
	if s.isSym(k, "-") && s.attached(k) && s.attached(k+1) {
		if kk, _ := s.kindAt(k + 1); kk == tWord {
			uk = k + 1
		}
	}
	if uf, next, ok := s.unitAt(uk); ok && (currency == "" || (uf.kind == Money && uf.unit == currency)) {
		if currency == "" {
			pt.kind, pt.unit = uf.kind, uf.unit
		}
		mult *= uf.mult
		pt.unitted = true
		k = next
	} else if sc, ok := scaleWords[s.lower(uk)]; ok && uk != k && !pt.scaled {
		mult, pt.scaled = sc, true // "$5-billion"
		k = uk + 1
	} else if uk != k {
		// "5-star", "3-D": a compound adjective, not a quantity.
		return part{next: s.skipJoined(k), skip: true}
	}
	if s.isWord(k, "or") {
		if b, ok := suffixHedges["or "+s.lower(k+1)]; ok {
			pt.bound = b
			k += 2
		}
	} else if s.isWord(k, "plus") {
		pt.bound = AtLeast
		k++
	}
	if pt.kind == Number && pt.unit == "" && f.plain && !pt.scaled {
		if e, ok := eras[s.lower(k)]; ok && isUpper(s.toks[k].text[0]) {
			pt.era = e
			k++
		}
	}
	pt.value, pt.step, pt.next = f.v*mult, f.step*mult, k
	return pt
}

// unitAt matches the longest unit form starting at token k.
func (s *scanner) unitAt(k int) (unitForm, int, bool) {
	if k >= len(s.toks) || s.toks[k].kind == tNum {
		return unitForm{}, k, false
	}
	for n := min(maxUnitTokens, len(s.toks)-k); n >= 1; n-- {
		key := s.joined(k, k+n)
		if f, ok := symbolUnits[key]; ok {
			return f, k + n, true
		}
		if s.toks[k].kind == tWord {
			if f, ok := wordUnits[strings.ToLower(key)]; ok {
				return f, k + n, true
			}
		}
	}
	return unitForm{}, k, false
}

// joined returns tokens [from, to) as one string with a single space where
// the text has any whitespace. It slices the text, without allocating,
// when the text already has single spaces.
func (s *scanner) joined(from, to int) string {
	raw := s.text[s.toks[from].start:s.toks[to-1].end]
	single := true
	for j := from + 1; j < to && single; j++ {
		gap := s.toks[j].start - s.toks[j-1].end
		single = gap == 0 || (gap == 1 && s.text[s.toks[j-1].end] == ' ')
	}
	if single {
		return raw
	}
	var b strings.Builder
	for j := from; j < to; j++ {
		if j > from && s.toks[j].space {
			b.WriteByte(' ')
		}
		b.WriteString(s.toks[j].text)
	}
	return b.String()
}

// hedgeBefore looks for a hedge that ends right before token i and returns
// its bound and first token; with none it returns Exact and i. A strict
// hedge ("more than", "under", ">") excludes its figure.
func (s *scanner) hedgeBefore(i int) (Bound, int, bool) {
	j := i - 1
	if j >= s.floor && j >= 0 && s.toks[j].kind == tSym {
		if b, ok := symbolHedges[s.toks[j].text]; ok {
			return b, j, s.toks[j].text == ">" || s.toks[j].text == "<"
		}
		if s.toks[j].text == "=" && s.isSym(j-1, ">", "<") && j-1 >= s.floor {
			return symbolHedges[s.toks[j-1].text+"="], j - 1, false
		}
		// "c. 1969", "ca. 1500", "approx. 30".
		if s.toks[j].text == "." && s.isWord(j-1, "c", "ca", "approx") && j-1 >= s.floor {
			return Approx, j - 1, false
		}
		return Exact, i, false
	}
	var words [maxHedgeWords]string
	n := 0
	for j >= s.floor && j >= 0 && n < maxHedgeWords && s.toks[j].kind == tWord {
		words[n] = strings.ToLower(s.toks[j].text)
		n++
		j--
	}
	for m := n; m >= 1; m-- {
		// words holds them backwards: words[0] is the nearest.
		var phrase string
		switch m {
		case 1:
			phrase = words[0]
		case 2:
			phrase = words[1] + " " + words[0]
		default:
			phrase = words[2] + " " + words[1] + " " + words[0]
		}
		if b, ok := hedges[phrase]; ok {
			if phrase == "c" {
				continue // "c" alone is not "c."
			}
			return b, i - m, strictHedges[phrase]
		}
	}
	return Exact, i, false
}

// rangeAfter reads the second end of a range after first: "10-20%",
// "$10-$20", "10 to 20 people", "between 10 and 20", "2015-2020",
// "2019-20". start is the quantity's first token (a hedge included). It
// returns the range with its first token (which takes in "between") and
// the token after it. When ok is false and resume is positive, the figures were joined
// by a hyphen and form no range ("3-0"): resume is where to go on.
func (s *scanner) rangeAfter(first part, currency string, start int) (q Quantity, qstart, end int, ok bool, resume int) {
	k := first.next
	joined := false
	switch {
	case s.isSym(k, "-", "–", "—"):
		joined = s.attached(k) && s.attached(k+1)
	case s.isWord(k, "to"):
		if first.unitted || first.scaled || first.decade || s.isWord(start-1, "from") || s.isWord(start, "from") {
			return q, 0, 0, false, 0
		}
	case s.isWord(k, "and"):
		if !s.isWord(start-1, "between") {
			return q, 0, 0, false, 0
		}
		start--
	default:
		return q, 0, 0, false, 0
	}
	p := k + 1
	cur := currency
	if c := s.currencyAt(p); c != "" {
		if currency != "" && c != currency {
			return q, 0, 0, false, 0
		}
		cur = c
		p++
	}
	if !s.isNum(p) {
		return q, 0, 0, false, 0
	}
	if _, phone := s.phoneRun(p); phone {
		return q, 0, 0, false, 0
	}
	second := s.part(p, cur)
	if joined {
		resume = max(second.next, p+1)
	}
	if second.skip || second.ordinal || second.decade {
		return q, 0, 0, false, resume
	}
	lo, hi := first.value, second.value
	unit, kind := second.unit, second.kind
	step := math.Min(first.step, second.step)
	ratio := 1.0 // the second end's scale and unit multiplier
	if second.v != 0 {
		ratio = second.value / second.v
	}
	switch {
	case first.plain && first.digits == 4 && second.plain && !second.scaled && !second.unitted && !first.unitted &&
		first.v >= 1000 && first.v <= 2100 && (second.digits == 4 || second.digits == 2):
		// Years: "2015-2020", "2019-20".
		if second.digits == 2 {
			hi = math.Floor(lo/100)*100 + second.v
		}
		unit, kind, step = "year", Year, 1
	case !first.unitted && !first.scaled && first.kind == Number:
		// "10-20%", "1-2 million": the first end takes the second's scale
		// and unit.
		lo = first.v * ratio
		step = math.Min(first.step*ratio, second.step)
	case first.unit != second.unit:
		return q, 0, 0, false, resume
	default:
		if second.scaled && !first.scaled {
			lo = first.v * ratio // "$1-2 billion"
			step = math.Min(first.step*ratio, second.step)
		}
	}
	if !(hi > lo) {
		return q, 0, 0, false, resume
	}
	end = second.next
	q = Quantity{Value: lo, High: hi, Unit: unit, Kind: kind, Step: step}
	if kind == Year {
		q.Precision = YearPrecision
	}
	return q, start, end, true, 0
}

// numberFirstDate reads "15 March 2023", "15th of March, 2023" and
// "2024-02-15" at p. A day and month with no year is skipped (returned
// not ok with next past the month) so that its day is not read as a
// number.
func (s *scanner) numberFirstDate(p int) (Quantity, int, bool) {
	t := s.toks[p]
	if !allDigits(t.text) {
		return Quantity{}, p, false
	}
	if s.isoDate(p) {
		y, m, d := atoi(t.text), atoi(s.toks[p+2].text), atoi(s.toks[p+4].text)
		if q, ok := s.date(y, m, d, DayPrecision, p, p+5); ok {
			return q, p + 5, true
		}
		return Quantity{}, s.skipJoined(p), false
	}
	if len(t.text) > 2 {
		return Quantity{}, p, false
	}
	day := atoi(t.text)
	if day < 1 || day > 31 {
		return Quantity{}, p, false
	}
	j := p + 1
	if s.attached(j) && (s.isWord(j, "st", "nd", "rd", "th")) {
		j++
	}
	if s.isWord(j, "of") {
		j++
	}
	mt, ok := s.tok(j)
	if !ok || mt.kind != tWord || !isUpper(mt.text[0]) {
		return Quantity{}, p, false
	}
	month, ok := months[strings.ToLower(mt.text)]
	if !ok {
		return Quantity{}, p, false
	}
	j++
	if s.isSym(j, ".") && len(mt.text) <= 4 {
		j++
	}
	if q, next, ok := s.dayDate(month, day, p, j); ok {
		return q, next, true
	}
	return Quantity{}, j, false
}

// isoDate reports whether an ISO 8601 date "2024-02-15" starts at p.
func (s *scanner) isoDate(p int) bool {
	return s.isNum(p) && len(s.toks[p].text) == 4 && allDigits(s.toks[p].text) &&
		s.isSym(p+1, "-") && s.attached(p+1) && s.isNum(p+2) && s.attached(p+2) &&
		len(s.toks[p+2].text) == 2 && allDigits(s.toks[p+2].text) &&
		s.isSym(p+3, "-") && s.attached(p+3) && s.isNum(p+4) && s.attached(p+4) &&
		len(s.toks[p+4].text) <= 2 && allDigits(s.toks[p+4].text)
}

// monthFirstDate reads "January 1, 2024", "Jan. 1st 2024", "March 2023"
// and "March of 2023" at i. A month and day with no year is skipped.
func (s *scanner) monthFirstDate(i int) (Quantity, int, bool) {
	month := months[strings.ToLower(s.toks[i].text)]
	j := i + 1
	if s.isSym(j, ".") && s.attached(j) && len(s.toks[i].text) <= 4 {
		j++
	}
	if s.isWord(j, "of") && s.isNum(j+1) {
		j++
	}
	t, ok := s.tok(j)
	if !ok || t.kind != tNum || !allDigits(t.text) {
		return Quantity{}, i + 1, false
	}
	if len(t.text) == 4 {
		if s.attached(j+1) && (s.isWord(j+1, "s") || s.isSym(j+1, "-")) {
			return Quantity{}, i + 1, false
		}
		q, ok := s.date(atoi(t.text), month, 1, MonthPrecision, i, j+1)
		return q, j + 1, ok
	}
	if len(t.text) > 2 {
		return Quantity{}, i + 1, false
	}
	day := atoi(t.text)
	k := j + 1
	if s.attached(k) && s.isWord(k, "st", "nd", "rd", "th") {
		k++
	}
	if q, next, ok := s.dayDate(month, day, i, k); ok {
		return q, next, true
	}
	if day < 1 || day > 31 {
		return Quantity{}, i + 1, false
	}
	return Quantity{}, k, false
}

// dayDate reads the year of a day date at y (after an optional comma) and
// returns the date spanning tokens from start.
func (s *scanner) dayDate(month, day, start, y int) (Quantity, int, bool) {
	if s.isSym(y, ",") {
		y++
	}
	if !s.isNum(y) || len(s.toks[y].text) != 4 || !allDigits(s.toks[y].text) {
		return Quantity{}, 0, false
	}
	q, ok := s.date(atoi(s.toks[y].text), month, day, DayPrecision, start, y+1)
	return q, y + 1, ok
}

// date builds a Date quantity spanning tokens [start, end), or reports
// false when the day does not exist.
func (s *scanner) date(y, m, d int, prec Precision, start, end int) (Quantity, bool) {
	if y < 1000 || y > 2999 || m < 1 || m > 12 || d < 1 || d > 31 {
		return Quantity{}, false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d {
		return Quantity{}, false // February 30
	}
	bound, n := s.yearBound(start)
	hs := start - n
	q := Quantity{Value: float64(y), High: float64(y), Unit: "date", Kind: Date, Date: t, Precision: prec,
		Bound: bound, Approx: bound != Exact, Strict: n > 0}
	return s.finish(q, hs, end), true
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s) && i < 9; i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}
