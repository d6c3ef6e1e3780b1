package quantity

import (
	"sync"
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

// ExtractExact returns the quantities of text as [CheckExact] reads them:
// among other differences, a year after "in" is no end of a span ("12,000
// in 2000 to 6,100 in 2020" has the figures 12,000 and 6,100 and two
// years, where Extract reads "2000 to 6,100" as a range), and a lone
// "one" counts the noun after it ([Quantity.Lone]).
func ExtractExact(text string) []Quantity {
	a := analyse(text, maxSourceQuantities, true)
	out := make([]Quantity, len(a.found))
	for i, f := range a.found {
		out[i] = f.q
	}
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
			for ts > 0 && s.toks[ts].Start > q.Start {
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

// at tries to read a quantity starting at token i. It returns the quantity,
// the token index after what it consumed (or skipped), and whether a
// quantity was read.
func (s *scanner) at(i int) (Quantity, int, bool) {
	t := s.toks[i]
	// A quantity may open with one or two tokens before its figure: a
	// sign, a currency symbol or code, or a prefix and a symbol ("US$").
	next, second := i+1, i+2
	switch t.Kind {
	case tNum:
		if q, end, ok := s.oneIn(i); ok {
			return q, end, true
		}
		return s.number(i)
	case tWord:
		if _, ok := foldLookup(startWords, t.Text); !ok {
			return Quantity{}, next, false // most words: one lookup
		}
		if _, ok := foldLookup(months, t.Text); ok && isUpper(t.Text[0]) {
			if q, end, ok := s.monthFirstDate(i); ok || end > next {
				return q, end, ok
			}
		}
		// "US$5"; the exact reading also takes "US $5", as tokenized
		// datasets write it.
		if _, ok := currencyPrefixWords[t.Text]; ok && s.isSym(next, "$") && (s.attached(next) || s.exact) && s.isNum(second) {
			return s.number(i)
		}
		// "EUR 5"
		if f, ok := symbolUnits[t.Text]; ok && f.kind == Money && s.isNum(next) {
			return s.number(i)
		}
		return s.wordNumber(i)
	default:
		// "$5"
		if _, ok := currencySymbols[t.Text]; ok && s.isNum(next) {
			return s.number(i)
		}
		// "-5", "+5"
		if (t.Text == "-" || t.Text == "−" || t.Text == "+") && s.isNum(next) && s.attached(next) && s.signable(i) {
			return s.number(i)
		}
		// "-$5"
		if (t.Text == "-" || t.Text == "−") && s.attached(next) && s.currencyAt(next) != "" && s.isNum(second) {
			return s.number(i)
		}
		return Quantity{}, next, false
	}
}
