package quantity

import "strings"

// Numbers that are not quantities: identifiers, codes, markers, times,
// ratios and phone numbers.

// notQuantity reports whether the digits at p are an identifier, a code, a
// marker or a phone number rather than a quantity, and where to resume.
func (s *scanner) notQuantity(p int) (int, bool) {
	t := s.toks[p]
	// The tokens around the digits: two before, and three after.
	before2, before, after, after2, after3 := p-2, p-1, p+1, p+2, p+3
	prev, hasPrev := s.tok(before)
	// Joined to a word or number: "G7", "CO2", "v1.2", "H1N1".
	if hasPrev && !t.Space && (prev.Kind == tWord || prev.Kind == tNum) {
		return s.skipJoined(p), true
	}
	// Hyphen-joined to a word: "COVID-19", "B-52", but "mid-2020" is a year.
	if hasPrev && !t.Space && prev.Kind == tSym && (prev.Text == "-" || prev.Text == "_" || prev.Text == "/" || prev.Text == ".") {
		if pp, ok := s.tok(before2); ok && !prev.Space && (pp.Kind == tWord || pp.Kind == tNum) {
			if !(pp.Kind == tWord && prev.Text == "-" && yearAffixes[strings.ToLower(pp.Text)]) {
				return s.skipJoined(p), true
			}
		}
	}
	// "#1", "No. 5", "Figure 3", "p. 12".
	if hasPrev && prev.Kind == tSym && prev.Text == "#" {
		return after, true
	}
	// In the exact reading a percentage is no label's number: "the
	// PlayStation 4 version 75.43%".
	if hasPrev && prev.Kind == tWord && labelWords[strings.ToLower(prev.Text)] && strings.ToLower(prev.Text) != "no" && !(s.exact && (s.isSym(after, "%") || s.isWord(after, "percent"))) {
		return s.skipJoined(p), true
	}
	if hasPrev && prev.Kind == tSym && prev.Text == "." && before2 >= 0 && s.toks[before2].Kind == tWord && labelWords[strings.ToLower(s.toks[before2].Text)] {
		return s.skipJoined(p), true
	}
	// "[12]" citation markers and "(3)" enumerations.
	if s.isSym(before, "[") && s.isSym(after, "]") {
		return after2, true
	}
	if s.exact {
		if end, ok := s.citationList(p); ok {
			return end, true
		}
	}
	if s.isSym(before, "(") && s.isSym(after, ")") && len(t.Text) <= 2 {
		return after2, true
	}
	// "1." or "2)" opening a line.
	if t.Line && len(t.Text) <= 3 && allDigits(t.Text) && s.isSym(after, ".", ")") && s.attached(after) {
		if n, ok := s.tok(after2); !ok || n.Space {
			return after2, true
		}
	}
	// Times and ratios "10:30", "3:1"; slashed "24/7", "02/15/2024"; but
	// in the exact reading a score out of a scale, "7.9/10" (ratingAt).
	if s.isSym(after, ":", "/") && s.attached(after) && s.isNum(after2) && s.attached(after2) {
		if s.exact && s.isSym(after, "/") {
			if f, ok := s.figureAt(p); ok {
				if _, _, ok := s.ratingAt(f); ok {
					return p, false
				}
			}
		}
		return s.skipJoined(p), true
	}
	// "3 pm", "3 p.m.": resume after the "pm" or the "p".
	if s.isWord(after, "am", "pm") || (s.isWord(after, "a", "p") && s.isSym(after2, ".") && s.isWord(after3, "m")) {
		return after2, true
	}
	if end, phone := s.phoneRun(p); phone {
		return end, true
	}
	if allDigits(t.Text) && ((len(t.Text) > 1 && t.Text[0] == '0') || len(t.Text) >= 10) {
		return s.skipJoined(p), true
	}
	return p, false
}

// maxCitationTokens bounds a list of citations, so that a long run of
// numbers costs no more than a short one per number.
const maxCitationTokens = 64

// citationList reports whether the number at p is in square brackets
// that hold only numbers and the marks between them ("[19, 20]", "[3-5]",
// "[, 70]", a list whose other entries were links), and the index after
// the closing bracket.
func (s *scanner) citationList(p int) (int, bool) {
	inList := func(t token) bool {
		return t.Kind == tNum || t.Kind == tSym && (t.Text == "," || t.Text == ";" || t.Text == "-" || t.Text == "–")
	}
	i := p - 1
	for i >= 0 && p-i < maxCitationTokens && inList(s.toks[i]) {
		i--
	}
	if !s.isSym(i, "[") {
		return p, false
	}
	j := p + 1
	for j < len(s.toks) && j-i < maxCitationTokens && inList(s.toks[j]) {
		j++
	}
	if !s.isSym(j, "]") {
		return p, false
	}
	return j + 1, true
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
	// "(555) 123-4567", p at the area code.
	open, area, close, exchange, dash, line, end := p-1, p, p+1, p+2, p+3, p+4, p+5
	if s.isSym(open, "(") && s.isNum(area) && len(s.toks[area].Text) == 3 && s.isSym(close, ")") &&
		s.isNum(exchange) && len(s.toks[exchange].Text) == 3 && s.isSym(dash, "-", ".") && s.isNum(line) && len(s.toks[line].Text) == 4 {
		return end, true
	}
	digits, groups := 0, 0
	for {
		if s.isSym(j, "(") && s.isNum(j+1) {
			j++
		}
		if !s.isNum(j) || !allDigits(s.toks[j].Text) {
			break
		}
		digits += len(s.toks[j].Text)
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
		if plus && s.isNum(j) && len(s.toks[j].Text) <= 4 {
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
