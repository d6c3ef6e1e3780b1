package quantity

import (
	"math"
	"strings"
)

// Bounds and ranges: the hedges before a quantity ("more than", "about",
// "before"), and the second end of a range after it ("10-20%").

// hedgeBefore looks for a hedge that ends right before token i and returns
// its bound and first token; with none it returns Exact and i. A strict
// hedge ("more than", "under", ">") excludes its figure.
func (s *scanner) hedgeBefore(i int) (Bound, int, bool) {
	j := i - 1
	if j >= s.floor && j >= 0 && s.toks[j].Kind == tSym {
		if b, ok := symbolHedges[s.toks[j].Text]; ok {
			return b, j, s.toks[j].Text == ">" || s.toks[j].Text == "<"
		}
		if s.toks[j].Text == "=" && s.isSym(j-1, ">", "<") && j-1 >= s.floor {
			return symbolHedges[s.toks[j-1].Text+"="], j - 1, false
		}
		// "c. 1969", "ca. 1500", "approx. 30".
		if s.toks[j].Text == "." && s.isWord(j-1, "c", "ca", "approx") && j-1 >= s.floor {
			return Approx, j - 1, false
		}
		return Exact, i, false
	}
	var words [maxHedgeWords]string
	n := 0
	for j >= s.floor && j >= 0 && n < maxHedgeWords && s.toks[j].Kind == tWord {
		words[n] = strings.ToLower(s.toks[j].Text)
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
			if s.exact && phrase == "over" && m < n && words[1] == "averaged" {
				return Exact, i, false // "averaged over 12 reviews" is 12
			}
			return b, i - m, strictHedges[phrase]
		}
	}
	return Exact, i, false
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

// decadeBound is yearBound for a decade at i, in the exact reading only,
// with "the" allowed between: "after the 1850s" is from 1860 on. Check
// reads a decade as its span whatever precedes it.
func (s *scanner) decadeBound(i int) (Bound, int) {
	if !s.exact {
		return Exact, 0
	}
	the := 0
	if i-1 >= s.floor && s.isWord(i-1, "the") {
		the = 1
	}
	if b, n := s.yearBound(i - the); n > 0 {
		return b, n + the
	}
	return Exact, 0
}

// spanParts are the parts of a decade or a century that "early", "mid"
// and "late" name, as shares of the span: the early 1990s are 1990 to
// 1993, the mid-1990s 1993 to 1996, the late 1990s 1996 to 1999.
var spanParts = map[string][2]float64{"early": {0, 0.4}, "mid": {0.3, 0.7}, "late": {0.6, 1}}

// partOfSpan reads, in the exact reading, "early", "mid" or "late" (or
// "mid-") just before toks[i], the first token of a decade or a century,
// and returns the part's share of the span and how many tokens it takes;
// n is 0 when there is none.
func (s *scanner) partOfSpan(i int) (lo, hi float64, n int) {
	if !s.exact || i < 1 {
		return 0, 0, 0
	}
	k := i - 1
	if s.isSym(k, "-") && s.attached(k) && s.attached(k+1) {
		k-- // "mid-1990s"
	}
	if k < s.floor {
		return 0, 0, 0
	}
	part, ok := spanParts[s.lower(k)]
	if !ok {
		return 0, 0, 0
	}
	return part[0], part[1], i - k
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
	if second.skip || second.ordinal || second.decade || second.century {
		return q, 0, 0, false, resume
	}
	if s.exact && !joined && s.isWord(start-1, "in") && yearPart(first) && !yearPart(second) {
		// "grew from 12,000 in 2000 to 15,500 in 2020": the year of the
		// first figure, not a span from it to the second.
		return q, 0, 0, false, 0
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

// yearPart reports whether a part is written as a year: four plain digits
// from 1000 to 2100.
func yearPart(p part) bool {
	return p.plain && p.digits == 4 && !p.scaled && !p.unitted && p.v >= 1000 && p.v <= 2100
}
