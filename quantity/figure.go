package quantity

import (
	"math"
	"strings"
)

// Figures: numbers written in digits ("1,234.5") or spelled out ("twenty-
// five", "half a million"), and spelled fractions ("two-thirds of").

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
	if math.IsInf(v, 0) {
		return f, false // more digits than a float64 holds ("$2000...0", 310 digits)
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
	if t.Kind == tNum {
		f, ok := parseDigits(t.Text)
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
		if s.exact && aLength(n) {
			// "less than a year", "over a decade": one of the unit.
			// Without a hedge "a year" is too often no length ("once a
			// year", "a year later", "$5 a year").
			if b, _, _ := s.hedgeBefore(p); b != Exact {
				return figure{v: 1, step: 1, isInt: true, words: true, next: p + 1}, true
			}
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
	for j < len(s.toks) && s.toks[j].Kind == tWord {
		w := strings.ToLower(s.toks[j].Text)
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

// aLength reports whether unit is one of time that "a" or "an" counts
// once after a hedge (spelled): the lexicon's units measured in days,
// but "second", which after "a" is as often the ordinal ("a second
// time").
func aLength(unit string) bool { return unitInfo[unit].base == "day" && unit != "second" }

// wordNumber reads a quantity that starts with a word: a spelled number
// with its unit, or a spelled fraction of a whole ("half of", "two-thirds
// of", "a quarter of") as a percentage.
func (s *scanner) wordNumber(i int) (Quantity, int, bool) {
	if s.exact {
		if q, next, ok := s.vagueAmount(i); ok {
			return q, next, true
		}
	}
	_, isOne := foldLookup(ones, s.toks[i].Text)
	_, isTen := foldLookup(tens, s.toks[i].Text)
	if !isOne && !isTen && !s.isWord(i, "a", "an", "half") {
		return Quantity{}, i + 1, false
	}
	w := s.lower(i)
	if frac, next, ok := s.fraction(i); ok {
		return s.share(i, frac, next), next, true
	}
	f, ok := s.spelled(i)
	if !ok {
		return Quantity{}, i + 1, false
	}
	pt := s.after(f, "")
	if pt.skip {
		return Quantity{}, pt.next, false
	}
	// A lone "one" or "zero" is too often not a count ("one of the"). The
	// exact reading takes a lone "one" as Lone, which it compares only
	// with a figure of the noun after it ("served one term" against
	// "serving two terms"), but after "number" as the figure it is
	// ("reached number one" against "peaked at number three").
	lone := false
	if (w == "one" || w == "zero") && f.next == i+1 && !pt.unitted {
		if !s.exact || w != "one" {
			return Quantity{}, i + 1, false
		}
		lone = !s.isWord(i-1, "number")
	}
	bound, start, strict := s.hedgeBefore(i)
	if pt.bound != Exact && bound == Exact {
		bound, strict = pt.bound, false
	}
	q := Quantity{Value: pt.value, High: pt.value, Step: pt.step, Unit: pt.unit, Kind: pt.kind, Bound: bound, Approx: bound != Exact,
		Strict: strict && (bound == AtLeast || bound == AtMost), Lone: lone}
	return s.finish(q, start, pt.next), pt.next, true
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
	if s.exact && w == "one" && s.isWord(i+1, "in") {
		// "one in five adults": a fifth, in the exact reading.
		if n, ok := s.smallCount(i + 2); ok && n >= 2 {
			return 1 / n, i + 3, true
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

// share returns the percentage a fraction that opens at toks[i] and ends
// before toks[next] gives ("two-thirds of", "one in five"): approximate,
// unless a hedge before it bounds it.
func (s *scanner) share(i int, frac float64, next int) Quantity {
	bound, start, strict := s.hedgeBefore(i)
	if bound == Exact {
		bound = Approx
	}
	v := 100 * frac
	q := Quantity{Value: v, High: v, Unit: "%", Kind: Percent, Bound: bound, Approx: true, Step: 1,
		Strict: strict && bound != Approx}
	return s.finish(q, start, next)
}

// oneIn reads, in the exact reading, "1 in 5" at toks[i] as a fifth
// (share); ok is false for anything else.
func (s *scanner) oneIn(i int) (q Quantity, next int, ok bool) {
	if !s.exact || s.toks[i].Text != "1" || !s.isWord(i+1, "in") {
		return Quantity{}, i + 1, false
	}
	n, ok := s.smallCount(i + 2)
	if !ok || n < 2 {
		return Quantity{}, i + 1, false
	}
	return s.share(i, 1/n, i+3), i + 3, true
}

// smallCount reads a count of one token at toks[i], spelled ("five",
// "twenty") or in digits ("5", "1000").
func (s *scanner) smallCount(i int) (float64, bool) {
	t, ok := s.tok(i)
	if !ok {
		return 0, false
	}
	if t.Kind == tNum {
		f, ok := parseDigits(t.Text)
		return f.v, ok
	}
	w := s.lower(i)
	if v, ok := ones[w]; ok {
		return v, true
	}
	v, ok := tens[w]
	return v, ok
}

// vagueScales are the plural scale words of a vague amount ("hundreds of
// people") and the amounts they allow: from twice the scale ("thousands"
// are at least 2,000) to below the scale a thousand times larger, as
// people use them ("thousands of people" may be 50,000).
var vagueScales = map[string][2]float64{
	"dozens": {24, 200}, "hundreds": {200, 1000}, "thousands": {2000, 1e6},
	"millions": {2e6, 1e9}, "billions": {2e9, 1e12},
}

// vagueMultipliers are the plural words that multiply a vague scale
// after them ("tens of thousands").
var vagueMultipliers = map[string]float64{"tens": 10, "dozens": 12, "hundreds": 100}

// vagueAmount reads, in the exact reading, a vague amount that opens at
// toks[i]: "hundreds of", "thousands of", "millions of" (vagueScales),
// "tens of thousands of" and "hundreds of millions of" (from twice the
// first scale times the second to twenty times it: 20,000 to 200,000),
// and "a handful of" (2 to 10), as a range (Between) of the noun after
// "of" ("thousands of people" against "more than 50,000 people"); a
// plural scale with no "of" ("left thousands without power") is the
// same range of no noun.
func (s *scanner) vagueAmount(i int) (Quantity, int, bool) {
	w := s.lower(i)
	var lo, hi float64
	var k int // the index of the last "of"
	switch {
	case w == "a" && s.isWord(i+1, "handful") && s.isWord(i+2, "of"):
		lo, hi, k = 2, 10, i+2
	case w == "tens" || vagueScales[w] != [2]float64{}:
		first := vagueMultipliers[w]
		if b, ok := vagueScales[s.lower(i+2)]; ok && first > 0 && s.isWord(i+1, "of") && s.isWord(i+3, "of") {
			// "tens of thousands": 20,000 to 200,000.
			scale := b[0] / 2
			lo, hi, k = 2*first*scale, 20*first*scale, i+3
			break
		}
		b, ok := vagueScales[w]
		if !ok {
			return Quantity{}, i + 1, false
		}
		lo, hi, k = b[0], b[1], i+1
		if !s.isWord(i+1, "of") {
			// A bare amount: "left thousands without power",
			// "hundreds were injured".
			k = i
		}
	default:
		return Quantity{}, i + 1, false
	}
	// k is at "of"; the unit is read from the noun after it.
	pt := s.after(figure{v: lo, step: lo, isInt: true, words: true, next: k + 1}, "")
	if pt.skip || pt.unitted && pt.kind != Number {
		return Quantity{}, i + 1, false
	}
	q := Quantity{Value: lo, High: hi, Step: lo, Unit: pt.unit, Kind: Number, Bound: Between, Approx: true}
	return s.finish(q, i, k+1), k + 1, true
}
