package quantity

import (
	"math"
	"strings"

	txt "github.com/verity-fc/verity/text"
)

// Reading a quantity that starts with a figure: its sign and currency, the
// figure, and what follows it (scale, suffix, unit, range).

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
	century     bool  // "the 21st century", in the exact reading
	bound       Bound // from a suffix hedge ("or more", "+")
	era         float64
	next        int
	skip        bool // not a quantity; skip to next
}

// prefixedSymbolTokens is the length of a currency written as a prefix and
// a symbol: "US" "$".
const prefixedSymbolTokens = 2

// number reads a quantity whose first token (sign, currency or figure) is
// at i.
func (s *scanner) number(i int) (Quantity, int, bool) {
	p := i
	sign := 1.0
	if s.isSym(p, "-", "−", "+") {
		if s.toks[p].Text != "+" {
			sign = -1
		} else if end, phone := s.phoneRun(p); phone {
			return Quantity{}, end, false
		}
		p++
	}
	currency := ""
	if t := s.toks[p]; t.Kind == tWord {
		if code, ok := currencyPrefixWords[t.Text]; ok {
			currency = code
			p += prefixedSymbolTokens
		} else {
			currency = symbolUnits[t.Text].unit
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
	if sign > 0 && !first.ordinal && !first.century {
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
	case first.century:
		// The nth century as people say it and as "the 1800s" is
		// read (centuryOf): the 19th, 1800 to 1899 (strictly 1801 to
		// 1900).
		q.Kind, q.Unit, q.Step, q.Precision = Year, "year", 100, YearPrecision
		q.Value, q.High = (first.value-1)*100, (first.value-1)*100+99
		bound = Between
		if lo, hi, n := s.partOfSpan(start); n > 0 {
			q.Value, q.High, start = q.Value+lo*100, q.Value+hi*100-1, start-n
		}
	case first.decade:
		q.Kind, q.Unit, q.Step, q.Precision = Year, "year", 10, YearPrecision
		q.High = q.Value + 9
		bound = Between
		if lo, hi, n := s.partOfSpan(start); n > 0 {
			q.Value, q.High, start = q.Value+lo*10, q.Value+hi*10-1, start-n
		} else if b, n := s.decadeBound(start); n > 0 {
			bound, start, strict = b, start-n, true
		}
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
	if bound != Between && !first.decade && !first.century {
		q.High = q.Value
	}
	q.Bound, q.Approx = bound, bound != Exact
	q.Strict = strict && (bound == AtLeast || bound == AtMost)
	if s.exact && sign > 0 && p == i && start == i && i > 0 && s.isWord(i-1, "minus") && q.Kind == Measure && temperatureUnits[q.Unit] {
		// In the exact reading, "minus 5 degrees Celsius" is below zero.
		q.Value, q.High, start = -q.Value, -q.High, i-1
	}
	return s.finish(q, start, end), end, true
}

// temperatureUnits are the units a temperature below zero is written in.
var temperatureUnits = map[string]bool{"°C": true, "°F": true, "°": true}

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
	if f.unitted || f.scaled || f.ordinal || f.decade || f.century || f.kind != Number {
		return false
	}
	if f.plain && f.digits == 4 && f.v >= 1000 && f.v <= 2100 {
		return false
	}
	prev, ok := s.tok(p - 1)
	if s.exact && ok && prev.Kind == tWord && s.toks[p].Space && (camel(prev.Text) || prev.Text == "of" && s.capitalAt(p-2)) {
		// In the exact reading also "iPhone 4" and "the Group of 15".
		return true
	}
	if !s.capitalAt(p-1) || !s.toks[p].Space {
		return false
	}
	w := strings.ToLower(prev.Text)
	if _, month := months[w]; month || txt.ContextStop.Has(w) || hedgeWords[w] {
		return false
	}
	_, code := symbolUnits[prev.Text]
	return !code
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

// after reads what follows figure f: its suffix, scale, hedge, unit and era.
func (s *scanner) after(f figure, currency string) part {
	pt := part{figure: f, kind: Number, next: f.next}
	mult := 1.0
	if currency != "" {
		pt.kind, pt.unit = Money, currency
	}
	k := f.next
	if s.exact && f.plain && f.digits == 4 && math.Mod(f.v, 100) == 0 && f.v <= 1900 && s.isSym(k, "'", "’") && !s.attached(k) && s.isWord(k+1, "s") && s.attached(k+1) {
		// "the 1700 's", as tokenized datasets write "the 1700's": in
		// the exact reading, the decade, which it reads as the century.
		pt.decade = true
		pt.value, pt.step, pt.next = f.v, 10, k+2
		return pt
	}
	if unit, next, ok := s.ratingAt(f); ok && s.exact && currency == "" {
		pt.kind, pt.unit, pt.unitted = Measure, unit, true
		pt.value, pt.step, pt.next = f.v, f.step, next
		return pt
	}
	if !f.words && s.attached(k) {
		t := s.toks[k]
		// A suffix of one token ("1st", "1990s") or two ("1990's").
		afterSuffix, s2, afterSuffix2 := k+1, k+1, k+2
		switch {
		case t.Kind == tWord && f.isInt && currency == "" && (t.Text == "st" || t.Text == "nd" || t.Text == "rd" || t.Text == "th"):
			pt.ordinal = true
			pt.value, pt.step, pt.next = f.v, 1, afterSuffix
			if s.exact && f.plain && f.v >= 1 && f.v <= 21 && s.isWord(afterSuffix, "century") && !s.isEra(afterSuffix+1) {
				// "the 21st century": in the exact reading, the years it
				// spans; a century BC is left an ordinal.
				pt.ordinal, pt.century, pt.next = false, true, afterSuffix+1
			}
			return pt
		case t.Kind == tWord && t.Text == "s" && f.plain && f.digits == 4 && math.Mod(f.v, 10) == 0:
			pt.decade = true
			pt.value, pt.step, pt.next = f.v, 10, afterSuffix
			return pt
		case (t.Text == "'" || t.Text == "’") && f.plain && f.digits == 4 && math.Mod(f.v, 10) == 0 && s.isWord(s2, "s") && s.attached(s2):
			pt.decade = true
			pt.value, pt.step, pt.next = f.v, 10, afterSuffix2
			return pt
		case t.Kind == tWord && currency != "" && currencyScales[t.Text] != 0:
			mult, pt.scaled = currencyScales[t.Text], true
			k++
		case t.Kind == tWord && attachedScales[t.Text] != 0:
			mult, pt.scaled = attachedScales[t.Text], true
			k++
		case t.Kind == tWord:
			if _, _, ok := s.unitAt(k); !ok && !s.isSym(k+1, "²", "³") {
				if sc, ok := scaleWords[strings.ToLower(t.Text)]; ok {
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
		if sc, ok := s.scaleWord(k); ok && s.toks[k].Kind == tWord {
			mult, pt.scaled = sc, true
			k++
		} else if t, ok := s.tok(k); ok && currency != "" && !f.words && t.Kind == tWord && (attachedScales[t.Text] != 0 || currencyScales[t.Text] != 0) {
			mult, pt.scaled = attachedScales[t.Text]+currencyScales[t.Text], true // "$ 4.8 M"
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
	} else if sc, ok := s.scaleWord(uk); ok && uk != k && !pt.scaled {
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
		if e, ok := eras[s.lower(k)]; ok && isUpper(s.toks[k].Text[0]) {
			pt.era = e
			k++
		}
	}
	pt.value, pt.step, pt.next = f.v*mult, f.step*mult, k
	return pt
}

// isEra reports whether the word at i names an era ("BC", "AD").
func (s *scanner) isEra(i int) bool {
	t, ok := s.tok(i)
	_, era := eras[s.lower(i)]
	return ok && t.Kind == tWord && era
}

// camel reports whether w opens in lower case and holds a capital later:
// "iPhone", "eBay".
func camel(w string) bool {
	return len(w) > 1 && !isUpper(w[0]) && strings.IndexFunc(w[1:], func(r rune) bool { return r >= 'A' && r <= 'Z' }) >= 0
}

// capitalAt reports whether token i is a capitalised word that does not
// open a sentence.
func (s *scanner) capitalAt(i int) bool {
	t, ok := s.tok(i)
	if !ok || t.Kind != tWord || !isUpper(t.Text[0]) || t.Line {
		return false
	}
	b, ok := s.tok(i - 1)
	return ok && !(b.Kind == tSym && (b.Text == "." || b.Text == "!" || b.Text == "?"))
}

// ratingScales are the scales a score is given out of: "7.9/10",
// "4.5/5", "79/100".
var ratingScales = map[string]float64{"5": 5, "10": 10, "100": 100}

// ratingAt reports whether digit figure f is a score out of a scale
// ("7.9/10", "9.5 stars out of 10"): f, a slash and 5, 10 or 100, all
// joined, or f, "out of" and the scale; f at most the scale, and not a
// date or a fraction of something ("3/10/2020", "1/5 of the vote"). It returns the score's unit ("/10") and the token after it.
// Only the exact reading takes such scores; Check skips them as it skips
// "24/7".
func (s *scanner) ratingAt(f figure) (string, int, bool) {
	if f.words {
		return "", 0, false
	}
	// within reports whether the number at k is a scale f lies within.
	within := func(k int) bool {
		scale, ok := ratingScales[s.toks[k].Text]
		return ok && f.v >= 0 && f.v <= scale
	}
	k := f.next
	if s.isWord(k, "stars", "points") {
		k++
	}
	if s.isWord(k, "out") && s.isWord(k+1, "of") && s.isNum(k+2) {
		// "9.5 stars out of 10"
		if !within(k + 2) {
			return "", 0, false
		}
		return "/" + s.toks[k+2].Text, k + 3, true
	}
	k = f.next
	if !s.isSym(k, "/") || !s.attached(k) || !s.isNum(k+1) || !s.attached(k+1) || !within(k+1) || s.isWord(k+2, "of") {
		return "", 0, false
	}
	if t, ok := s.tok(k + 2); ok && !t.Space && (t.Kind != tSym || t.Text == "/" || t.Text == "-") {
		return "", 0, false
	}
	return "/" + s.toks[k+1].Text, k + 2, true
}

// unitAt matches the longest unit form starting at token k.
func (s *scanner) unitAt(k int) (unitForm, int, bool) {
	if k >= len(s.toks) || s.toks[k].Kind == tNum {
		return unitForm{}, k, false
	}
	for n := min(maxUnitTokens, len(s.toks)-k); n >= 1; n-- {
		key := s.joined(k, k+n)
		if f, ok := symbolUnits[key]; ok {
			return f, k + n, true
		}
		if s.toks[k].Kind == tWord {
			if f, ok := wordUnits[strings.ToLower(key)]; ok {
				return f, k + n, true
			}
		}
	}
	return unitForm{}, k, false
}
