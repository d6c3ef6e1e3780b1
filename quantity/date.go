package quantity

import (
	"strings"
	"time"
)

// Dates: "15 March 2023", "March 15, 2023", "March 2023" and "2024-02-15".

// numberFirstDate reads "15 March 2023", "15th of March, 2023" and
// "2024-02-15" at p. A day and month with no year is skipped (returned
// not ok with next past the month) so that its day is not read as a
// number.
func (s *scanner) numberFirstDate(p int) (Quantity, int, bool) {
	t := s.toks[p]
	if !allDigits(t.Text) {
		return Quantity{}, p, false
	}
	if s.isoDate(p) {
		y, m, d := atoi(s.toks[p+isoYear].Text), atoi(s.toks[p+isoMonth].Text), atoi(s.toks[p+isoDay].Text)
		end := p + isoTokens
		if q, ok := s.date(y, m, d, DayPrecision, p, end); ok {
			return q, end, true
		}
		return Quantity{}, s.skipJoined(p), false
	}
	if len(t.Text) > 2 {
		return Quantity{}, p, false
	}
	day := atoi(t.Text)
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
	if !ok || mt.Kind != tWord || !isUpper(mt.Text[0]) {
		return Quantity{}, p, false
	}
	month, ok := months[strings.ToLower(mt.Text)]
	if !ok {
		return Quantity{}, p, false
	}
	j++
	if s.isSym(j, ".") && len(mt.Text) <= 4 {
		j++
	}
	if q, next, ok := s.dayDate(month, day, p, j); ok {
		return q, next, true
	}
	end := j
	if s.isSym(end-1, ".") {
		end-- // "5 May." ends a sentence: the dot is no abbreviation's
	}
	if q, ok := s.yearlessDate(month, day, p, end); ok {
		return q, end, true
	}
	return Quantity{}, j, false
}

// The tokens of an ISO 8601 date "2024-02-15", as offsets from its first.
const (
	isoYear   = iota // "2024"
	isoDash1         // "-"
	isoMonth         // "02"
	isoDash2         // "-"
	isoDay           // "15"
	isoTokens        // the number of tokens
)

// isoDate reports whether an ISO 8601 date "2024-02-15" starts at p.
func (s *scanner) isoDate(p int) bool {
	year, dash1, month, dash2, day := p+isoYear, p+isoDash1, p+isoMonth, p+isoDash2, p+isoDay
	return s.isNum(year) && len(s.toks[year].Text) == 4 && allDigits(s.toks[year].Text) &&
		s.isSym(dash1, "-") && s.attached(dash1) && s.isNum(month) && s.attached(month) &&
		len(s.toks[month].Text) == 2 && allDigits(s.toks[month].Text) &&
		s.isSym(dash2, "-") && s.attached(dash2) && s.isNum(day) && s.attached(day) &&
		len(s.toks[day].Text) <= 2 && allDigits(s.toks[day].Text)
}

// monthFirstDate reads "January 1, 2024", "Jan. 1st 2024", "March 2023"
// and "March of 2023" at i. A month and day with no year is skipped.
func (s *scanner) monthFirstDate(i int) (Quantity, int, bool) {
	month := months[strings.ToLower(s.toks[i].Text)]
	j := i + 1
	if s.isSym(j, ".") && s.attached(j) && len(s.toks[i].Text) <= 4 {
		j++
	}
	if s.isWord(j, "of") && s.isNum(j+1) {
		j++
	}
	t, ok := s.tok(j)
	if !ok || t.Kind != tNum || !allDigits(t.Text) {
		return Quantity{}, i + 1, false
	}
	if len(t.Text) == 4 {
		if s.attached(j+1) && (s.isWord(j+1, "s") || s.isSym(j+1, "-")) {
			return Quantity{}, i + 1, false
		}
		q, ok := s.date(atoi(t.Text), month, 1, MonthPrecision, i, j+1)
		return q, j + 1, ok
	}
	if len(t.Text) > 2 {
		return Quantity{}, i + 1, false
	}
	day := atoi(t.Text)
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
	if q, ok := s.yearlessDate(month, day, i, k); ok {
		return q, k, true
	}
	return Quantity{}, k, false
}

// dayDate reads the year of a day date at y (after an optional comma) and
// returns the date spanning tokens from start.
func (s *scanner) dayDate(month, day, start, y int) (Quantity, int, bool) {
	if s.isSym(y, ",") {
		y++
	}
	if !s.isNum(y) || len(s.toks[y].Text) != 4 || !allDigits(s.toks[y].Text) {
		return Quantity{}, 0, false
	}
	q, ok := s.date(atoi(s.toks[y].Text), month, day, DayPrecision, start, y+1)
	return q, y + 1, ok
}

// leapYear holds a yearless date: a year in which every day and month
// written exists (29 February).
const leapYear = 2000

// yearlessDate builds a Yearless date spanning tokens [start, end) when
// the scanner reads them (CheckExact), or reports false.
func (s *scanner) yearlessDate(m, d, start, end int) (Quantity, bool) {
	if !s.exact {
		return Quantity{}, false
	}
	q, ok := s.date(leapYear, m, d, DayPrecision, start, end)
	q.Value, q.High, q.Yearless = 0, 0, true
	return q, ok
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
