package quantity

import (
	"math"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/verity-fc/verity/evidence"
	txt "github.com/verity-fc/verity/text"
)

// Tolerances of [Compare]. They are the seed's "±2% or ±1 unit", plus a
// wider band for hedged figures.
const (
	// RelTolerance is the relative tolerance between two figures: 2% of
	// the source figure.
	RelTolerance = 0.02
	// ApproxTolerance replaces RelTolerance when either figure is
	// hedged as approximate ("about", "nearly", "~", "half of"): 10%.
	ApproxTolerance = 0.10
	// contextWindow is how many content words on each side of a quantity
	// describe what it counts.
	contextWindow = 8
	// maxClaimQuantities and maxSourceQuantities bound the work of one
	// Check: a claim is one sentence and a passage a few paragraphs, so
	// quantities beyond these are not compared.
	maxClaimQuantities  = 32
	maxSourceQuantities = 2000
)

// Outcome is how one claim quantity fares against a source.
type Outcome uint8

const (
	// NotCompared: the source has no quantity of a compatible kind and
	// unit, or none that can be told apart from unrelated figures.
	NotCompared Outcome = iota
	// Agrees: the source's figure lies within the claim's figure and
	// tolerance (or bound).
	Agrees
	// Conflicts: the source's figure cannot be what the claim says.
	Conflicts
	// Unsettled: the figures overlap without one settling the other
	// ("more than 25 million" against "over 20 million"), or the source
	// has several candidates, none agreeing, none sharing the claim's
	// context.
	Unsettled
)

var outcomeNames = [...]string{"not_compared", "agrees", "conflicts", "unsettled"}

// String returns the outcome's name.
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "outcome(?)"
}

// MarshalText encodes the outcome as its name.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// Finding is the comparison of one claim quantity with a source.
type Finding struct {
	Claim Quantity `json:"claim"`
	// Source is the source quantity the claim quantity was judged
	// against; zero when Outcome is NotCompared.
	Source  Quantity `json:"source"`
	Outcome Outcome  `json:"outcome"`
	// RelErr is [RelativeError] of the claim's Value against the source's
	// Value, both in the base unit of their dimension; 0 for Year, Date
	// and NotCompared.
	RelErr float64 `json:"rel_err"`
}

// RelativeError returns |a-b| / |b|: how far a claimed figure a is from a
// reference figure b, as a fraction of b (0.5 is 50%). It is 0 when both
// are 0 and +Inf when only b is 0.
func RelativeError(a, b float64) float64 {
	if b == 0 {
		if a == 0 {
			return 0
		}
		return math.Inf(1)
	}
	return math.Abs(a-b) / math.Abs(b)
}

// Compare checks the quantities of claim against those of source and
// summarises [Check]: a mismatch for each claim quantity that conflicts
// (OK false); otherwise OK when at least one agrees; Applicable false when
// none is compared or settled.
func Compare(claim, source string) evidence.NumCheck {
	return summarise(Check(claim, source))
}

// CompareExact is [Compare] over [CheckExact].
func CompareExact(claim, source string) evidence.NumCheck {
	return summarise(CheckExact(claim, source))
}

func summarise(findings []Finding) evidence.NumCheck {
	var nc evidence.NumCheck
	for _, f := range findings {
		switch f.Outcome {
		case Conflicts:
			nc.Mismatches = append(nc.Mismatches, evidence.Mismatch{Claim: f.Claim.Text, Source: f.Source.Text})
		case Agrees:
			nc.Applicable = true
		}
	}
	if len(nc.Mismatches) > 0 {
		return evidence.NumCheck{Applicable: true, OK: false, Mismatches: nc.Mismatches}
	}
	nc.OK = nc.Applicable
	return nc
}

// Check compares each quantity of claim with the quantities of source and
// returns one Finding per claim quantity, in order. Only the first 32
// quantities of the claim and the first 2,000 of the source are compared.
//
// Candidates. A claim quantity is compared only with source quantities of
// a compatible kind and unit: counts with counts ("" and "people"), ranks
// with counts ("ranked 15", "15th"), percentages with percentages ("%"
// and "pp" apart), money in the same currency, measures of one dimension
// after conversion (km with m, t with kg; °C and °F are not converted,
// bare "degrees" match either), years and dates with each other.
//
// Agreement. Both figures are read as intervals. The claim's exact figure
// v accepts a source figure b when |v-b| <= max(2% of |b|, ½ unit, 1 unit
// if the claim writes at least two significant places). One unit is the
// claim's Step, one unit in the last place the claim wrote ("196" -> 1,
// "1.1" -> 0.1, "$50B" -> $1B, "9k" -> 1000, "3 million" -> 1 million).
// Half a unit is what rounding hides, so "3 million" agrees with 3.1
// million but not 3.6 million. The seed's full "±1 unit" counts only when
// the figure is at least ten units, so that one unit is at most a tenth of
// it: "196 countries" agrees with 195, "30%" with 31% and "1.1°C" with
// 1.2°C, but "3 Oscars" does not agree with 4. A hedged "about" figure
// widens 2% to [ApproxTolerance]. A bound ("more than", "under") accepts
// figures on its side without tolerance, excluding its own figure when
// strict ("more than 9,000" is not met by 9,000, "at least 9,000" is); a
// range accepts figures inside it. Source bounds and ranges are intervals
// too: a claim agrees when the source's interval lies within the claim's,
// and conflicts when the two do not meet; otherwise it is Unsettled. Years
// and dates are compared as spans of days with no tolerance: a year agrees
// only with the same year (or a date in it), a day with the same day, a
// month with a day in that month; "circa" widens a year by one each side;
// "before" and "after" a year or date are strict bounds. Ranks have no
// tolerance.
//
// Choice among candidates. Long passages hold unrelated figures, so each
// candidate is scored by the content words (stop words left out, plurals
// folded) it shares with the claim quantity within eight words on either
// side, stopping at a neighbouring quantity. A point or range agrees when
// any candidate agrees (a figure that matches is itself evidence that it
// is the one meant). A bound agrees only when one of the best-scoring
// candidates meets it, or a candidate within 25% of the bound does ("more
// than $33 million" and "$33.2 million"), since unrelated figures meet
// bounds easily. Otherwise only the best-scoring candidates count: a
// conflict is reported when every one of them conflicts and either they
// share context with the claim quantity or the source offers exactly one
// candidate, and the nearest conflicting figure is reported. When several
// candidates share nothing with the claim, the outcome is Unsettled.
func Check(claim, source string) []Finding { return check(claim, source, false) }

// CheckExact is [Check] without the tolerance of one unit in the claim's
// last written place: only the rounding that place hides (half a unit),
// and the ±10% of a hedged figure, let two figures agree, so "12 workers"
// conflicts with 11, which Check lets pass. It also prefers the source
// figure that counts the claim's noun: "less than 62 losses" is judged
// against "62 losses", not against the "47 wins" beside it, which Check
// lets agree. And when no passage figure shares a context word with a
// claim's bound, the figures near the bound are the ones compared:
// "reviewed by less than 76 critics" against "an average score of 9 out
// of 10, based on 76 reviews" conflicts through 76. The NLI judge reads figures
// this way; its training encoder uses Check (nli.Aligner). CheckExact
// also reads a day and month written with no year ("born on May 5",
// "after 19 March"), which Check skips, and compares it with the day and
// month of a source's dates: "May 5" conflicts with "February 5, 1964".
// And it takes no number of a list of citations ("[19, 20]", "[, 5]"),
// as Check takes none of a single "[12]". It reads the plural scales
// "crores" and "lakhs", reads "globally" and "worldwide" as one context
// word, and judges a claim's day against the source's days rather than a
// year range beside them ("28 January 2020" against "the 2019–20
// pandemic ... on 29 January 2020" conflicts). And it reads a score out of
// a scale of 5, 10 or 100 ("7.9/10", "9.5 stars out of 10"), which Check
// skips as it skips "24/7", comparable with another score out of the same
// scale and with a plain number within it ("an average score of 8.6"),
// a score out of 100 also with a percentage. It reads the spaced forms of
// tokenized datasets, "the 1800 's" (a century) and "US $ 90 billion", a
// bound before a decade ("after the 1850s": from 1860), and "averaged
// over 12 reviewers" as 12, not a bound. And it takes no figure of a name
// written "iPhone 4" or "the Group of 15", as both readings take none of
// "Xbox 360". And it reads a length of time in years that a word of
// lasting opens ("lasted six years", "for 20 years") against a span of
// two years the source joins ("from 1939 to 1945"), a year either way.
// A claim's whole figure of three digits or more ending in two zeros or
// more is read as rounded to its last zero but one ("$100 million" is
// $95 to $105 million; see roundFigure). And a lone "one" ("served one
// term"), which both readings otherwise skip, is judged against a
// source's figure of the same noun ("two terms"), and nothing else. A
// bound's best-placed figure within 10% of it is the figure it speaks of,
// and a figure merely near the bound does not meet it beside that one
// (placedClose); a word of the claim's opening name counts half in placing
// a figure (placed); "outside" and "overseas" read as "other", the name
// after "outside" left out; a percentage after a label word ("the PS4
// version 75.43%") is a figure; no length of time is negative ("Episode
// III -12 years before"); a length in months, weeks or days is judged
// against a span of dates measured in days; "minus" makes a temperature
// negative, and "below freezing" is a bound at 0 °C. A claim's time ago,
// up to a thousand years, is dated from today when the source has none of
// its own: in 2026 "more than 80 years ago" is before 1947 (dateAgo).
func CheckExact(claim, source string) []Finding { return check(claim, source, true) }

func check(claim, source string, exact bool) []Finding {
	cl := analyse(claim, maxClaimQuantities, exact)
	if len(cl.found) == 0 {
		return nil
	}
	src := analyse(source, maxSourceQuantities, exact)
	if exact {
		cl.dayRanges(claim, false)
		src.dayRanges(source, true)
	}
	if exact && !src.hasAgo() {
		cl.dateAgo(claim, now().Year())
	}
	out := make([]Finding, 0, len(cl.found))
	srcCtx := make([][]string, len(src.found))
	// sctx returns source quantity j's context, read once.
	sctx := func(j int) []string {
		if srcCtx[j] == nil {
			srcCtx[j] = src.context(j)
		}
		return srcCtx[j]
	}
	var subject map[string]bool
	if exact {
		subject = cl.openingName()
	}
	var cands []candidate
	for i, c := range cl.found {
		cctx := cl.context(i)
		// Read in the exact reading only: the noun the claim's figure
		// counts, the end of a span the claim's date names, and a decade
		// of a round hundred as its century.
		chead, crole, lasting, age := "", noRole, false, false
		if exact {
			chead, crole, lasting, age = cl.head(i), cl.wordRole(i), cl.lengthOfTime(i), cl.ageAtDeath(i)
			c.q = roundFigure(centuryOf(c.q))
		}
		cands = cands[:0]
		for j := range src.found {
			if lasting && !src.parenthesised(j) || age {
				// A span of years is a length of time too: "lasted six
				// years" against "from 1939 to 1945" or "began in
				// 1939 and ended in 1945". A span in parentheses is
				// most often a life ("Pope Innocent III (1161 – 16 July
				// 1216) held office from 1198"), not the length the
				// claim speaks of, unless the claim gives an age at
				// death ("was 45 when she died").
				if d, out, ok := src.spanAgainst(j, c.q, age, source); ok {
					cands = append(cands, candidate{q: d, score: placed(cctx, sctx(j), subject), outcome: out})
				}
			}
			s := src.found[j]
			if age {
				continue // an age is judged against a life only
			}
			if !compatible(c.q, s.q) || exact && (!rankComparable(c.q, s.q) || !yearComparable(c.q, s.q)) {
				continue
			}
			if s.q.Lone && (c.q.Lone || chead == "" || src.head(j) != chead) {
				// A lone "one" counts only the claim's noun, against a
				// figure: two lone ones ("if one exists") say nothing.
				continue
			}
			k := candidate{q: s.q, score: placed(cctx, sctx(j), subject), outcome: relate(c.q, s.q, exact)}
			if chead != "" && src.head(j) == chead {
				k.score += headBonus
				k.head = true
			}
			srole := noRole
			if crole != noRole {
				srole = src.sourceRole(j)
			}
			if crole != noRole && srole.side() == crole.side() || exact && c.q.Bound == Between && s.q.Bound == Between && c.q.dated() {
				k.score += headBonus
				k.head = true
			}
			if srole != noRole && srole != crole {
				switch {
				case k.outcome == Agrees && (srole == openRole || crole == openRole):
					// A start and an opening on one date: a theatre
					// "opened in 1911" and "(1911–1993)".
				case k.outcome == Agrees:
					// The same date, but the other end: "died in 1989"
					// against "born 18 September 1989".
					k.outcome = Conflicts
				case k.outcome == Conflicts && inOrder(c.q, crole, s.q, srole):
					// Another date of the other end, in order: "born
					// in 1950" against "died in 1989" says nothing of
					// the birth, and "building work started in 1933"
					// nothing against "the net was completed in 2024".
					k.outcome = Unsettled
				}
			}
			cands = append(cands, k)
			if exact && crole == noRole && !c.q.bounded() && !c.q.Yearless && src.spanRole(j) == startRole && !src.found[j+1].q.Yearless {
				// Two dates joined as a span ("Gilmore Girls, 2005 --
				// 2015") are a candidate as the span too, and a time
				// within it agrees. (A range the source writes as one,
				// "the 2019–20 pandemic", "the 1990s", is left to relate:
				// it is as often a season or an era as a span of time.)
				// A Date's Value and High are its year, as a Year's are.
				end := src.found[j+1].q
				sp := Quantity{Kind: Year, Unit: "year", Value: s.q.Value, High: end.High, Bound: Between, Step: 1, Precision: YearPrecision,
					Start: s.q.Start, End: end.End, Text: source[s.q.Start:end.End]}
				out := relate(c.q, sp, exact)
				if days(c.q).within(days(sp)) {
					out = Agrees // a time within the span is in it
				}
				if s.q.Kind == Date && end.Kind == Date && c.q.Kind == Date {
					// A span of two dates is the days from the first to
					// the last, not their years: "5 to 14 July 2019" does
					// not hold 20 July 2019.
					cd, sd := days(c.q), interval{days(s.q).lo, days(end).hi}
					switch {
					case cd.within(sd):
						out = Agrees
					case !cd.meets(sd):
						out = Conflicts
					default:
						out = Unsettled
					}
				}
				cands = append(cands, candidate{q: sp, score: max(k.score, placed(cctx, sctx(j+1), subject)), outcome: out})
			}
		}
		if exact && c.q.bounded() {
			cands = closeOnly(c.q, nearOnly(c.q, cands))
		}
		if exact && c.q.Precision == DayPrecision {
			cands = daysOnly(cands)
		}
		if c.q.Lone || dimensionNouns[chead] && slices.ContainsFunc(cands, func(k candidate) bool { return k.head }) {
			// A lone "one" is judged only against figures of its noun,
			// or not at all; a figure of a dimension against the
			// source's figures of that dimension when there are any:
			// "25 metres deep" against "a depth of 2 metres", not "a
			// length of 25 metres".
			cands = slices.DeleteFunc(cands, func(k candidate) bool { return !k.head })
			if len(cands) == 0 {
				continue
			}
		}
		out = append(out, judge(c.q, cands, exact))
	}
	return out
}

// now is the clock a claim's "N years ago" is read by (tests set it).
var now = time.Now

// maxAgoYears is the furthest back a claim's "N years ago" is dated from
// today: further back ("3.3 million years ago"), the year written is no
// more exact than the length, which is compared as written.
const maxAgoYears = 1000

// ago reports whether quantity i is a number of years or decades before
// "ago" ("80 years ago", "more than two decades ago"), or an age in the
// present tense, which dates a start as "ago" does ("is over 100 years
// old" was built, founded or born more than 100 years ago).
func (a analysis) ago(i int) bool {
	f := a.found[i]
	if f.q.Kind != Measure || f.q.Unit != "year" && f.q.Unit != "decade" || f.te >= len(a.toks) || a.toks[f.te].Kind != tWord {
		return false
	}
	switch next := a.toks[f.te].Text; {
	case strings.EqualFold(next, "ago"):
		return true
	case strings.EqualFold(next, "old"):
		return f.ts > 0 && a.toks[f.ts-1].Kind == tWord && presentCopulas[strings.ToLower(a.toks[f.ts-1].Text)]
	}
	return false
}

// presentCopulas put an age in the present tense ("is 30 years old").
var presentCopulas = txt.Set("is", "are")

// hasAgo reports whether some quantity of the text is a time ago.
func (a analysis) hasAgo() bool {
	for i := range a.found {
		if a.ago(i) {
			return true
		}
	}
	return false
}

// dateAgo reads each of the claim's times ago, up to maxAgoYears, as the
// years it names, counted back from year: in 2026 "opened more than 80
// years ago" is "before 1947", "less than 50 years ago" "after 1975",
// "89 years ago" about 1937, so that the claim can be judged against the
// source's "opened in 1937". A claim is made today; a source's "20 years
// ago" was written on a day the judge does not know, so when the source
// has a time ago of its own, the claim's is compared with it as a length,
// as before (check does not call dateAgo then).
func (a *analysis) dateAgo(text string, year int) {
	for i := range a.found {
		if !a.ago(i) {
			continue
		}
		f := &a.found[i]
		q := f.q
		per := 1.0
		if q.Unit == "decade" {
			per = 10
		}
		lo, hi := q.Value*per, q.High*per
		if hi > maxAgoYears {
			continue
		}
		y := float64(year)
		d := Quantity{Kind: Year, Unit: "year", Step: 1, Precision: YearPrecision, Approx: true,
			Start: q.Start, End: a.toks[f.te].End}
		d.Text = text[d.Start:d.End]
		switch q.Bound {
		case AtLeast: // more than N years ago: before year-N+1
			d.Bound, d.Strict, d.Value = AtMost, true, y-lo+1
		case AtMost: // less than N years ago: after year-N-1
			d.Bound, d.Strict, d.Value = AtLeast, true, y-lo-1
		case Between: // 20 to 30 years ago
			d.Bound, d.Value, d.High = Between, y-hi-1, y-lo
			d.Step = 2 // a span of years ago, not a span the claim dates
		default: // about, or just, N years (decades) ago
			d.Bound, d.Value = Approx, y-lo
			if per > 1 {
				d.Bound, d.Value, d.High = Between, y-lo-per/2, y-lo+per/2
				d.Step = per
			}
		}
		if d.High == 0 {
			d.High = d.Value
		}
		f.q = d
		f.te++
	}
}

// parenthesised reports whether quantity i stands inside parentheses.
func (a analysis) parenthesised(i int) bool {
	depth := 0
	for _, t := range a.toks[:a.found[i].ts] {
		if t.Kind != tSym {
			continue
		}
		switch t.Text {
		case "(":
			depth++
		case ")":
			depth = max(0, depth-1)
		}
	}
	return depth > 0
}

// lastingWords open a length of time: "lasted six years", "for 20 years".
var lastingWords = txt.Set("for", "lasted", "lasting", "lasts", "last", "spanned", "spanning", "spans", "span", "took",
	"taking", "takes", "during", "served", "ran")

// agedWords after a number of years make it an age or a time from now,
// not a length: "40 years old", "20 years ago", "two years later".
var agedWords = txt.Set("old", "ago", "later", "earlier", "after", "before", "younger", "older", "since")

// lengthUnits are the units of a length of time that a span of dates
// measures: years, and months, weeks and days, against dates of a month
// or a day (spanLength).
var lengthUnits = txt.Set("year", "month", "week", "day")

// lengthOfTime reports whether quantity i is a length of time (in
// lengthUnits) that a word of lasting opens ("lasted six years", "for
// more than 20 years", "lasted three weeks"), not an age ("40 years old")
// nor a time from now ("20 years ago").
func (a analysis) lengthOfTime(i int) bool {
	f := a.found[i]
	if f.q.Kind != Measure || !lengthUnits[f.q.Unit] {
		return false
	}
	if f.te < len(a.toks) && a.toks[f.te].Kind == tWord && agedWords[strings.ToLower(a.toks[f.te].Text)] {
		return false
	}
	for k := f.ts - 1; k >= max(0, f.ts-3); k-- {
		if t := a.toks[k]; t.Kind == tWord && lastingWords[strings.ToLower(t.Text)] {
			return true
		}
	}
	return false
}

// ageWords, before a claim's plain number, make it an age: "died at
// 45", "died aged 45", "at the age of 45".
var ageWords = txt.Set("aged", "age", "at")

// ageAtDeath reports whether claim quantity i is an age at death: a plain
// number or a number of years ("45", "45 years") after "aged", "at the
// age of" or "died at", or before "when he (she, they) died" ("was 45
// when she died").
func (a analysis) ageAtDeath(i int) bool {
	f := a.found[i]
	if f.q.Kind != Number && (f.q.Kind != Measure || f.q.Unit != "year") || f.q.bounded() {
		return false
	}
	word := func(k int) string {
		if k < 0 || k >= len(a.toks) || a.toks[k].Kind != tWord {
			return ""
		}
		return strings.ToLower(a.toks[k].Text)
	}
	after := f.te
	for after < len(a.toks) && (word(after) == "years" || word(after) == "old") {
		after++
	}
	if word(after) == "when" && (word(after+2) == "died" || word(after+3) == "died") {
		return true
	}
	before := word(f.ts - 1)
	if before == "of" && word(f.ts-2) == "age" {
		before = "age"
	}
	if !ageWords[before] {
		return false
	}
	for _, t := range a.toks {
		if t.Kind == tWord && (strings.EqualFold(t.Text, "died") || strings.EqualFold(t.Text, "death")) {
			return true
		}
	}
	return false
}

// spanEnd returns the date that closes a span source date j opens: the
// next date when the two are joined ("from 1939 to 1945", spanRole) or
// when words give j a start and the next an end ("began in 1939 and
// ended in 1945", "was born in 1920 and died in 1965"); -1 for none.
func (a analysis) spanEnd(j int) int {
	switch {
	case a.spanRole(j) == startRole:
		return j + 1
	case j+1 < len(a.found) && a.found[j+1].q.dated() && a.wordRole(j).side() == startRole && a.wordRole(j+1) == endRole:
		return j + 1
	}
	return -1
}

// spanAgainst relates a claim's length of time in years, or its age at
// death (age: a plain number, read in years), to the span source date j
// opens (spanEnd): the span, how the claim's figure relates to it, and
// false when j opens none.
func (a analysis) spanAgainst(j int, claim Quantity, age bool, source string) (Quantity, Outcome, bool) {
	end := a.spanEnd(j)
	if end < 0 {
		return Quantity{}, NotCompared, false
	}
	d := spanLength(a.found[j].q, a.found[end].q, source)
	if age {
		d = ageLength(a.found[j].q, a.found[end].q, source)
		claim.Kind, claim.Unit = Measure, "year" // "45" is 45 years
	}
	out := relate(claim, d, true)
	ci, si := figures(claim, d, true)
	mid := (ci.lo + ci.hi) / 2
	if ci.within(si) || age && claim.Value >= d.Value && claim.Value <= d.High || claim.Bound == Exact && mid >= si.lo && mid <= si.hi {
		// A length within the span's, an age the two years allow, or a
		// figure the span allows: "lasted 10 days" against "from 5 July
		// to 14 July", nine or ten days by how the days are counted.
		out = Agrees
	}
	return d, out, true
}

// AgeAtDeath relates a claim's age at death ("She was 45 when she
// died.", "died at the age of 44") to the life the source gives ("born
// in 1920 and died in 1965", "(27 January 1756 – 5 December 1791)"):
// Agrees when the age is one the two years allow, Conflicts when it is
// none, NotCompared when the claim gives no age or the source no life.
// aged reports whether the claim gives an age, so that a source without a
// life can be told from a claim without an age.
func AgeAtDeath(claim, source string) (out Outcome, aged bool) {
	cl := analyse(claim, maxClaimQuantities, true)
	for i, c := range cl.found {
		if !cl.ageAtDeath(i) {
			continue
		}
		src := analyse(source, maxSourceQuantities, true)
		for j := range src.found {
			if _, out, ok := src.spanAgainst(j, c.q, true, source); ok && out != Unsettled {
				return out, true
			}
		}
		return NotCompared, true
	}
	return NotCompared, false
}

// ageLength returns the age at death of one born at start and dead at
// end: "1920" to "1965" is 44 or 45 years, by whether the birthday came
// before the death in its year.
func ageLength(start, end Quantity, source string) Quantity {
	n := end.High - start.Value
	return Quantity{Kind: Measure, Unit: "year", Value: max(0, n-1), High: n, Bound: Between, Step: 1,
		Start: start.Start, End: end.End, Text: source[start.Start:end.End]}
}

// spanLength returns the length in years of the span from start to end
// (two dates the source joins, see [analysis.spanRole]), a year either
// way: "from 1939 to 1945" is five to seven years, since the two years
// may name any of their days.
//
// A span with a date of a month or a day at either end is measured in
// days, from the end's first day less the start's last to the end's last
// less the start's first, counting the last day: "began on 1 March and
// ended on 22 March" is 21 to 22 days, which "lasted three weeks" meets.
func spanLength(start, end Quantity, source string) Quantity {
	text := source[start.Start:end.End]
	if start.Kind == Date || end.Kind == Date {
		si, ei := days(start), days(end)
		return Quantity{Kind: Measure, Unit: "day", Value: max(0, ei.lo-si.hi), High: max(0, ei.hi-si.lo) + 1, Bound: Between, Step: 1,
			Start: start.Start, End: end.End, Text: text}
	}
	n := end.High - start.Value
	return Quantity{Kind: Measure, Unit: "year", Value: max(0, n-1), High: n + 1, Bound: Between, Step: 1,
		Start: start.Start, End: end.End, Text: text}
}

// candidate is a compatible source quantity, the context words it shares
// with the claim quantity, and how it relates to it.
type candidate struct {
	q       Quantity
	score   int
	outcome Outcome
	// head: the source figure counts the noun the claim's counts (see
	// [analysis.head]; exact reading only).
	head bool
}

// headBonus is what sharing the counted noun adds to a candidate's
// context score (placed): more than a shared context word, since "62
// losses" and "47 wins" share "record" and "total" with the claim's "less
// than 62 losses" but only one counts losses.
const headBonus = 4

// bounded reports whether q is a bound: "more than 9,000", "under 5 km".
func (q Quantity) bounded() bool { return q.Bound == AtLeast || q.Bound == AtMost }

// dated reports whether q is a time: a year or a date.
func (q Quantity) dated() bool { return q.Kind == Year || q.Kind == Date }

// nearBound is how close to a bound an unrelated-looking figure must lie
// to be taken as the figure the bound speaks of: within 25%.
const nearBound = 0.25

// near reports whether source figure s lies within nearBound of the
// claim's bound c.
func near(c, s Quantity) bool {
	if c.dated() || s.dated() {
		return false
	}
	return relErr(s, c) <= nearBound
}

// judge chooses among the candidates for claim quantity c; see [Check].
func judge(c Quantity, cands []candidate, exact bool) Finding {
	f := Finding{Claim: c}
	if len(cands) == 0 {
		return f
	}
	headed := false
	for _, k := range cands {
		headed = headed || k.head
	}
	if headed && c.dated() {
		// A date that names the end of a span ("born in 1993") is judged
		// against that end of a span of the source ("January 23, 1911 –
		// March 16, 1993") when there is one, and a span of years against
		// the source's spans ("from 1927-1956" against "from 1927-1941",
		// not the "October 1941" of another sentence).
		cands = slices.DeleteFunc(cands, func(k candidate) bool { return !k.head })
	}
	best := 0
	for _, k := range cands {
		best = max(best, k.score)
	}
	closePlaced := exact && c.bounded() && placedClose(c, cands, best)
	// A point or range that some candidate matches agrees; a bound needs
	// the match among the best-placed candidates, since bounds are easily
	// met by unrelated figures. A figure near the bound is let through
	// too, unless some candidate counts the claim's noun: then that one is
	// the figure the bound speaks of.
	pick := -1
	for j, k := range cands {
		if k.outcome != Agrees || c.bounded() && k.score < best && (headed || closePlaced && !sameBound(c, k.q) || !near(c, k.q)) {
			continue
		}
		if pick < 0 || k.score > cands[pick].score {
			pick = j
		}
	}
	if pick >= 0 {
		f.Outcome = Agrees
	} else {
		f.Outcome = Conflicts
		for j, k := range cands {
			if k.score < best {
				continue
			}
			switch {
			case k.outcome == Unsettled && f.Outcome == Conflicts:
				f.Outcome, pick = Unsettled, j
			case f.Outcome == Conflicts && (pick < 0 || relErr(c, k.q) < relErr(c, cands[pick].q)):
				pick = j // report the nearest conflicting figure
			}
		}
		if f.Outcome == Conflicts && best == 0 && len(cands) > 1 {
			f.Outcome = Unsettled
		}
	}
	f.Source = cands[pick].q
	f.RelErr = relErr(c, f.Source)
	return f
}

// placedClose reports, for the exact reading of a bound, whether a
// best-placed candidate lies within closeBound of it: that figure is the
// one the bound was written about, and a figure merely near the bound is
// not let through beside it. "a budget of over 70 crores" against "earned
// 73.32 crore worldwide, against a production budget of 65 crore" is about
// the budget, not the 73.32 crore that meets it.
func placedClose(c Quantity, cands []candidate, best int) bool {
	return best > 0 && slices.ContainsFunc(cands, func(k candidate) bool {
		return k.score == best && closeTo(c, k.q)
	})
}

// sameBound reports whether source figure s is the claim's bound c written
// again, the same figure bounded the same way: "pH values of less than 7
// indicate an acid, while those greater than 7 indicate a base" has the
// claim's "greater than 7", whatever the better placed "less than 7" says.
func sameBound(c, s Quantity) bool {
	return s.Bound == c.Bound && relErr(s, c) == 0
}

// found is a quantity with the tokens it spans.
type found struct {
	q      Quantity
	ts, te int
}

type analysis struct {
	toks  []token
	found []found
	// inQty marks tokens inside a quantity.
	inQty []bool
	// exact is the exact reading's: context words read through
	// contextGlosses.
	exact bool
}

// yearOfContext gives a yearless date (at token ts) the year of the date
// before it in its sentence, when it falls after that date in the year:
// "On 15 July 2015, Tevez was named to the shortlist; on 12 August, it
// was announced he placed ninth." dates the placing 12 August 2015, which
// "After 10 August 2015, Tevez was placed ninth." can be judged against
// (the 15 July alone conflicted with it). A day before the other in the
// year, or in another sentence, is left yearless: the year may have
// turned.
func (a *analysis) yearOfContext(q Quantity, ts int) Quantity {
	for k := len(a.found) - 1; k >= 0; k-- {
		f := a.found[k]
		if f.q.Kind != Date || f.q.Yearless || f.q.Precision != DayPrecision {
			continue
		}
		for t := f.te; t < ts; t++ {
			if tk := a.toks[t]; tk.Kind == tSym && (tk.Text == "." || tk.Text == "!" || tk.Text == "?") {
				return q // another sentence
			}
		}
		y := f.q.Date.Year()
		d := time.Date(y, q.Date.Month(), q.Date.Day(), 0, 0, 0, 0, time.UTC)
		if d.Day() != q.Date.Day() || d.Before(f.q.Date) {
			return q
		}
		q.Date, q.Value, q.High, q.Yearless = d, float64(y), float64(y), false
		return q
	}
	return q
}

// analyse tokenizes text and finds its first limit quantities.
func analyse(text string, limit int, exact bool) analysis {
	if len(text) > maxTextBytes {
		text = text[:maxTextBytes]
	}
	s := scanner{text: text, toks: tokenize(text, nil), exact: exact}
	a := analysis{toks: s.toks, inQty: make([]bool, len(s.toks)), exact: exact}
	s.each(func(q Quantity, ts, te int) bool {
		if exact && q.Yearless {
			q = a.yearOfContext(q, ts)
		}
		if exact && q.Kind == Measure && q.Value < 0 && slices.Contains(durationParts, q.Unit) {
			// No length of time is negative: the sign is a dash, "based
			// on Episode III -12 years before Episode IV".
			q.Value, q.High = -q.Value, -q.High
		}
		if n := len(a.found); exact && n > 0 && s.joinsDuration(a.found[n-1], q, ts) {
			// "2 hours and 50 minutes": one length of time.
			a.found[n-1] = found{joinDuration(text, a.found[n-1].q, q), a.found[n-1].ts, te}
		} else {
			a.found = append(a.found, found{q, ts, te})
		}
		for k := ts; k < te; k++ {
			a.inQty[k] = true
		}
		return len(a.found) < limit
	})
	if exact && len(a.found) < limit {
		a.freezing(text)
	}
	return a
}

// dayRanges reads, in the exact reading, the days written before the
// month of the date after them as dates of that month: a source's "from 5
// to 14 July 2019" (ranges) as 5 July 2019 to 14 July 2019 (the two
// joined by "to", a span, see spanRole), and "between 5th and 19th
// September 2014" as 5 September 2014 and 19 September 2014. A range of
// days is read only right before a month and year ("5 to 14" is a range
// of numbers otherwise), and only in a source: a claim's span is judged
// end by end, and "aired 5-19 September 2014" would conflict with "aired
// on 5 September 2014" through its end, where its month agrees. A lone
// day is read only before "and", "to" or a dash and a date of a day.
func (a *analysis) dayRanges(text string, ranges bool) {
	day := func(v float64) bool { return v >= 1 && v <= 31 && v == math.Trunc(v) }
	numAt := func(from, to int, last bool) int {
		at := -1
		for k := from; k < to; k++ {
			if a.toks[k].Kind == tNum {
				if !last {
					return k
				}
				at = k
			}
		}
		return at
	}
	// dateOf is day d of month's month, read from tokens ts to te and
	// written as text[start:end] (the first day of a range is written as
	// the range: "5 to 14 July 2019").
	dateOf := func(month Quantity, d float64, ts, te, start, end int) found {
		q := month
		q.Date = time.Date(month.Date.Year(), month.Date.Month(), int(d), 0, 0, 0, 0, time.UTC)
		q.Precision, q.Bound, q.Approx, q.Strict = DayPrecision, Exact, false, false
		q.Start, q.End = start, end
		q.Text = text[start:end]
		return found{q, ts, te}
	}
	for k := 0; k+1 < len(a.found); k++ {
		f, next := a.found[k], a.found[k+1]
		if next.q.Kind != Date || next.q.Bound != Exact || f.te != next.ts && !a.joinedDay(f.te, next.ts) {
			continue
		}
		switch {
		case ranges && f.te == next.ts && next.q.Precision == MonthPrecision && f.q.Kind == Number && f.q.Bound == Between &&
			day(f.q.Value) && day(f.q.High) && f.q.Value < f.q.High:
			lo, hi := numAt(f.ts, f.te, false), numAt(f.ts, f.te, true)
			if lo < 0 || hi <= lo {
				continue
			}
			month := next.q
			a.found[k] = dateOf(month, f.q.Value, lo, lo+1, a.toks[lo].Start, month.End)
			a.found[k+1] = dateOf(month, f.q.High, hi, next.te, a.toks[hi].Start, month.End)
		case f.te != next.ts && next.q.Precision == DayPrecision && (f.q.Kind == Number || f.q.Kind == Ordinal) &&
			f.q.Bound == Exact && f.q.Unit == "" && day(f.q.Value) && a.toks[next.ts].Kind == tNum:
			a.found[k] = dateOf(next.q, f.q.Value, f.ts, f.te, f.q.Start, next.q.End)
		}
	}
}

// joinedDay reports whether the tokens from k to end join a day to the
// date after it: one "and", "to" or dash.
func (a analysis) joinedDay(k, end int) bool {
	if end != k+1 {
		return false
	}
	t := a.toks[k]
	return t.Kind == tWord && (strings.EqualFold(t.Text, "and") || strings.EqualFold(t.Text, "to")) ||
		t.Kind == tSym && (t.Text == "-" || t.Text == "–")
}

// freezingBounds are the words before "freezing" that make it a bound on
// a temperature: "below freezing" is below 0 °C.
var freezingBounds = map[string]Bound{"below": AtMost, "under": AtMost, "above": AtLeast, "over": AtLeast}

// freezing adds, in the exact reading, the temperature bound that "below
// freezing" or "above freezing (point)" writes in words, so that "The
// temperature dropped below freezing." can be judged against "lows
// reached minus 5 degrees Celsius".
func (a *analysis) freezing(text string) {
	for k := 1; k < len(a.toks); k++ {
		t, prev := a.toks[k], a.toks[k-1]
		if t.Kind != tWord || prev.Kind != tWord || a.inQty[k] || a.inQty[k-1] || !strings.EqualFold(t.Text, "freezing") {
			continue
		}
		b, ok := freezingBounds[strings.ToLower(prev.Text)]
		if !ok {
			continue
		}
		te := k + 1
		if te < len(a.toks) && a.toks[te].Kind == tWord && strings.EqualFold(a.toks[te].Text, "point") {
			te++
		}
		q := Quantity{Kind: Measure, Unit: "°C", Bound: b, Approx: true, Strict: true, Step: 1,
			Start: prev.Start, End: a.toks[te-1].End}
		q.Text = text[q.Start:q.End]
		at := len(a.found)
		for at > 0 && a.found[at-1].ts > k {
			at--
		}
		a.found = slices.Insert(a.found, at, found{q, k - 1, te})
		for j := k - 1; j < te; j++ {
			a.inQty[j] = true
		}
	}
}

// durationParts are the units of time, from the larger, that a length
// of time written in parts joins: "2 hours and 50 minutes", "3 years and
// 6 months", "1 day, 4 hours".
var durationParts = []string{"year", "month", "week", "day", "hour", "minute", "second"}

// joinsDuration reports whether q, whose first token is ts, goes on the
// length of time prev: both exact measures of time, q's unit smaller than
// prev's, and only "and" or a comma between them.
func (s *scanner) joinsDuration(prev found, q Quantity, ts int) bool {
	pi, qi := slices.Index(durationParts, prev.q.Unit), slices.Index(durationParts, q.Unit)
	if pi < 0 || qi <= pi || prev.q.Bound != Exact || q.Bound != Exact || prev.q.Value <= 0 || q.Value <= 0 {
		return false
	}
	switch ts - prev.te {
	case 0:
		return false
	case 1:
		return s.isWord(prev.te, "and") || s.isSym(prev.te, ",")
	case 2:
		return s.isSym(prev.te, ",") && s.isWord(prev.te+1, "and")
	}
	return false
}

// joinDuration returns the length of time a and b written in parts make,
// in a's unit, spanning both; its step is b's, in a's unit ("2 hours and
// 50 minutes" is 2.83 hours, to the minute).
func joinDuration(text string, a, b Quantity) Quantity {
	av, _ := a.Base()
	bv, _ := b.Base()
	perA := a.Value / av // a's units per base unit
	q := a
	q.Value = (av + bv) * perA
	q.High = q.Value
	q.Step = b.Step * (bv / b.Value) * perA
	q.End = b.End
	q.Text = text[q.Start:q.End]
	return q
}

// context returns the folded content words that describe quantity i: the
// nouns of its own unit ("residents", "metres") and up to contextWindow
// words on each side within its clause. A side stops at a neighbouring
// quantity, at the end of a sentence or a ";", and at a word that joins
// clauses ("and", "but", "while", "whereas"), so that in "$36 million in
// North America and $40 million worldwide" the second figure's context is
// "worldwide".
func (a analysis) context(i int) []string {
	f := a.found[i]
	ctx := make([]string, 0, 2*contextWindow+2)
	add := func(k int) {
		if w, ok := a.content(k); ok {
			ctx = append(ctx, w)
		}
	}
	for k := f.ts; k < f.te; k++ {
		if t := a.toks[k]; t.Kind == tWord && !spanWord(t.Text) {
			add(k)
		}
	}
	before := len(ctx)
	for k := f.ts - 1; k >= 0 && len(ctx)-before < contextWindow && !a.boundary(k); k-- {
		add(k)
	}
	after := len(ctx)
	for k := f.te; k < len(a.toks) && len(ctx)-after < contextWindow && !a.boundary(k); k++ {
		add(k)
	}
	return ctx
}

// rankComparable reports whether a rank and a count can be the same
// figure: only a plain whole number against a rank ("ranked 15" and
// "15th"), not a bound ("under 80 crores" against "the 9th
// highest-grossing") or a fraction.
func rankComparable(c, s Quantity) bool {
	if (c.Kind == Ordinal) == (s.Kind == Ordinal) {
		return true
	}
	n := c
	if c.Kind == Ordinal {
		n = s
	}
	return n.Bound == Exact && n.Value == math.Trunc(n.Value)
}

// yearComparable reports whether the exact reading compares c with s as
// far as years go: a yearless date only with a day of a date, yearless
// or not ("May 5" with "February 5, 1964" and "5 May", not with "1964" or
// "May 1964"), and a dated claim not with a yearless source date, which
// does not say the year.
func yearComparable(c, s Quantity) bool {
	if c.Yearless {
		return s.Kind == Date && s.Precision == DayPrecision
	}
	return !s.Yearless
}

// centuryOf reads a decade of a round hundred up to 1900 as its century,
// as "the 1800s" is meant: 1800 to 1899. "The 2000s" stays a decade.
func centuryOf(q Quantity) Quantity {
	if q.Kind == Year && q.Bound == Between && q.Step == 10 && q.High == q.Value+9 && math.Mod(q.Value, 100) == 0 && q.Value <= 1900 {
		q.High = q.Value + 99
	}
	return q
}

// inOrder reports whether claim date c, in role r, could stand where it
// does when source date s is another role of the same thing: a start no
// later than the opening or the end, an opening between the two, an end
// no earlier than the start or the opening. Roles are ordered as
// declared: start, opening, end.
func inOrder(c Quantity, r role, s Quantity, sr role) bool {
	if !c.dated() || !s.dated() {
		return false
	}
	cd, sd := days(c), days(s)
	if r < sr {
		return cd.lo <= sd.hi
	}
	return cd.hi >= sd.lo
}

// roundFigure reads a claim's whole figure of three digits or more that
// ends in two zeros or more as rounded to its last zero but one: "$100
// million" is $95 to $105 million, "2,000 people" 1,950 to 2,050, so
// that "grossed $100 million" agrees with "earned $98.7 million". A
// figure written "100" is as often rounded as counted; one written "150"
// or "12" keeps its step. Dates, percentages ("100%" is all of
// something) and ranks keep theirs.
func roundFigure(q Quantity) Quantity {
	if q.Kind != Number && q.Kind != Measure && q.Kind != Money || q.Bound == Between {
		return q
	}
	digits, zeros := 0, 0
scan:
	for _, r := range q.Text {
		switch {
		case r >= '0' && r <= '9':
			digits++
			zeros++
			if r != '0' {
				zeros = 0
			}
		case digits > 0 && r == ',':
		case digits > 0 && r == '.':
			return q // a decimal point: written to that place
		case digits > 0:
			break scan
		}
	}
	if digits < 3 || zeros < 2 {
		return q
	}
	q.Step *= math.Pow(10, float64(zeros-1))
	return q
}

// A role is the end of a span of time a date stands for: its start
// ("born", "began", "from") or its end ("died", "closed", "until"), or
// an opening ("opened", "premiered", "took effect"): a start of service
// or use that follows the start of the work behind it ("construction
// began in 1933", "the bridge opened in 1937"), so another event than a
// start, between it and the end.
type role uint8

const (
	noRole role = iota
	startRole
	openRole
	endRole
)

var roleWords = map[string]role{
	"born": startRole, "birth": startRole, "began": startRole, "begun": startRole, "begin": startRole,
	"started": startRole, "start": startRole, "opened": openRole, "founded": startRole, "established": startRole,
	"premiered": openRole, "debuted": openRole, "launched": openRole, "from": startRole, "effect": openRole,
	"died": endRole, "death": endRole, "dead": endRole, "ended": endRole, "end": endRole, "closed": endRole,
	"finished": endRole, "concluded": endRole, "until": endRole, "till": endRole, "through": endRole, "expired": endRole,
	"completed": endRole, "completion": endRole,
}

// side is the end of a span a role stands at: an opening is on the
// start's.
func (r role) side() role {
	if r == openRole {
		return startRole
	}
	return r
}

// rolePrepositions give a role only right before the date ("from 1990",
// "until 2004"): in "retired from theaters in the United States on April
// 5" the "from" is a place's.
var rolePrepositions = map[string]bool{"from": true, "until": true, "till": true, "through": true}

// sourceRole returns the role of source date i: its end of a span of two
// dates (spanRole), or else the role the words before it give it ("born
// 18 September 1989").
func (a analysis) sourceRole(i int) role {
	if r := a.spanRole(i); r != noRole {
		return r
	}
	return a.wordRole(i)
}

// wordRole returns the role the words before date i give it, within its
// clause and up to contextWindow words back: "was born in 1993" names a
// start, "died in 1999" an end.
func (a analysis) wordRole(i int) role {
	f := a.found[i]
	if !f.q.dated() {
		return noRole
	}
	for k, n := f.ts-1, 0; k >= 0 && n < contextWindow && !a.boundary(k); k-- {
		if a.toks[k].Kind != tWord {
			continue
		}
		n++
		w := strings.ToLower(a.toks[k].Text)
		if n == 2 && (w == "start" || w == "end") && strings.EqualFold(a.toks[k+1].Text, "of") {
			// "at the start of 2024", "by the end of 1990": a time of
			// the year, not an end of something.
			continue
		}
		if r := roleWords[w]; r != noRole && (n == 1 || !rolePrepositions[w]) {
			return r
		}
		if w == "away" && k > 0 && strings.EqualFold(a.toks[k-1].Text, "passed") {
			return endRole // "passed away in 1986"
		}
	}
	return noRole
}

// spanRole returns whether date i opens or closes a span of two dates
// joined by a dash or "to", "until", with at most a comma beside it
// ("January 23, 1911 – March 16, 1993", "from July 13, 2007 to February
// 15, 2008", "February 15, 2005, to July 13, 2006").
func (a analysis) spanRole(i int) role {
	f := a.found[i]
	if !f.q.dated() {
		return noRole
	}
	joined := func(x, y found) bool {
		if !y.q.dated() {
			return false
		}
		n := y.ts - x.te
		if n < 1 || n > 2 {
			return false
		}
		join := false
		for k := x.te; k < y.ts; k++ {
			t := a.toks[k]
			switch {
			case t.Kind == tSym && (t.Text == "-" || t.Text == "–" || t.Text == "—"):
				join = true
			case t.Kind == tWord && (strings.EqualFold(t.Text, "to") || strings.EqualFold(t.Text, "until")):
				join = true
			case t.Kind == tSym && t.Text == ",":
			default:
				return false
			}
		}
		return join
	}
	if i+1 < len(a.found) && joined(f, a.found[i+1]) {
		return startRole
	}
	if i > 0 && joined(a.found[i-1], f) {
		return endRole
	}
	return noRole
}

// head returns the content word right after quantity i, the noun it
// counts ("62 losses" gives losse), or "" when the next token is not one.
func (a analysis) head(i int) string {
	if d := a.dimensionOf(i); d != "" {
		return d
	}
	k := a.found[i].te
	if k >= len(a.toks) || a.inQty[k] {
		return ""
	}
	w, _ := a.content(k)
	return w
}

// dimensionOf returns, in the exact reading, the dimension quantity i
// measures when a dimension's noun and "of" stand before it ("a depth of
// 2 metres": depth), "" otherwise. The adjective after a figure ("25
// metres deep") reaches head through contextGlosses.
func (a analysis) dimensionOf(i int) string {
	ts := a.found[i].ts
	if !a.exact || ts < 2 || a.inQty[ts-2] || !strings.EqualFold(a.toks[ts-1].Text, "of") {
		return ""
	}
	if w, ok := a.content(ts - 2); ok && dimensionNouns[w] {
		return w
	}
	return ""
}

// content returns the word at token k, plural folded (text.FoldPlural),
// when it is a content word; in the exact reading, read through
// contextGlosses and dimensionAdjectives.
func (a analysis) content(k int) (string, bool) {
	t := a.toks[k]
	if t.Kind != tWord {
		return "", false
	}
	w := txt.FoldPlural(t.Text)
	if txt.ContextStop.Has(w) || len(w) < 2 {
		return "", false
	}
	if a.exact {
		if capitalised(t.Text) && a.outsideOf(k) {
			return "", false
		}
		if g, ok := contextGlosses[w]; ok {
			w = g
		} else if n, ok := dimensionAdjectives[w]; ok {
			w = n
		}
	}
	return w, true
}

// contextGlosses are context words that say the same of a figure: "$107
// million worldwide" is the figure a claim's "across the world" or
// "globally" names, not the "$51.8 million in North America" before it.
// An adjective of a dimension reads as its noun too (dimensionAdjectives):
// "25 metres deep" is the figure of a depth, the one "a depth of 2
// metres" gives, not "a length of 25 metres" (dimensionOf).
//
// "Outside" and "overseas" read as "other", and the name after "outside"
// is left out: "$55.6 million in other territories" is the figure of
// "more than $54 million outside North America", not "$51.9 million in
// North America".
var contextGlosses = map[string]string{"worldwide": "world", "global": "world", "globally": "world",
	"outside": "other", "overseas": "other"}

// outsideOf reports whether token k is a word of a name that "outside"
// opens: "outside North America".
func (a analysis) outsideOf(k int) bool {
	for ; k >= 0; k-- {
		t := a.toks[k]
		if t.Kind != tWord {
			return false
		}
		if !capitalised(t.Text) {
			return strings.EqualFold(t.Text, "outside")
		}
	}
	return false
}

// openingName returns the content words of the name that opens the text
// (its subject, most often): the capitalised words, with the numbers,
// symbols and function words between them, before its first word in
// lower case ("Insidious: Chapter 3 (film) earned ..." gives "insidiou"
// and "chapter", read as context words are).
func (a analysis) openingName() map[string]bool {
	name := map[string]bool{}
	for k, t := range a.toks {
		if t.Kind == tWord && !capitalised(t.Text) && !txt.ContextStop.Has(strings.ToLower(t.Text)) {
			break
		}
		if w, ok := a.content(k); ok && t.Kind == tWord && capitalised(t.Text) {
			name[w] = true
		}
	}
	return name
}

// boundary reports whether token k ends a context window.
func (a analysis) boundary(k int) bool {
	t := a.toks[k]
	if a.inQty[k] {
		return true
	}
	switch t.Kind {
	case tSym:
		return t.Text == ";" || ((t.Text == "." || t.Text == "!" || t.Text == "?") && (k+1 == len(a.toks) || a.toks[k+1].Space))
	case tWord:
		return clauseWords[strings.ToLower(t.Text)]
	}
	return false
}

var clauseWords = map[string]bool{"and": true, "but": true, "while": true, "whereas": true, "whilst": true, "against": true}

// spanWord reports whether a word inside a quantity's span is part of the
// figure (a spelled number, a scale, a hedge) rather than its unit.
func spanWord(w string) bool {
	lw := strings.ToLower(w)
	_, one := ones[lw]
	_, ten := tens[lw]
	_, scale := scaleWords[lw]
	_, plural := pluralScales[lw]
	_, month := months[lw]
	return one || ten || scale || plural || month || hedgeWords[lw] || lw == "hundred" || lw == "dozen" || lw == "half"
}

// placed is a source figure's context score against a claim figure's
// context a: two for each distinct word of a in b, and one for a word of
// the claim's opening name (the subject; exact reading only), which every
// figure of a source about that subject may stand beside: in "Insidious:
// Chapter 3 has grossed $51.9 million in North America and $55.6 million in
// other territories" the title says nothing of which figure the claim's
// "more than $54 million outside North America" is about.
func placed(a, b []string, subject map[string]bool) int {
	n := 0
	for i, w := range a {
		if slices.Contains(a[:i], w) || !slices.Contains(b, w) {
			continue
		}
		n += 2
		if subject[w] {
			n--
		}
	}
	return n
}

// dimension returns the comparison class of q and the factor that
// converts its Value into the class's base unit.
func dimension(q Quantity) (string, float64) {
	switch q.Kind {
	case Year, Date:
		return "time", 1
	case Number, Ordinal:
		return "count", 1
	case Money:
		return "money:" + q.Unit, 1
	case Percent:
		return "percent:" + q.Unit, 1
	}
	if u, ok := unitInfo[q.Unit]; ok {
		return u.base, u.factor
	}
	return q.Unit, 1
}

func compatible(c, s Quantity) bool {
	dc, _ := dimension(c)
	ds, _ := dimension(s)
	if dc == ds {
		return true
	}
	// Bare "degrees" is read as the other side's temperature scale.
	deg := func(d string) bool { return d == "°C" || d == "°F" }
	if (dc == "°" && deg(ds)) || (ds == "°" && deg(dc)) {
		return true
	}
	// A score out of a scale ("8.6/10", read in the exact reading only)
	// and a plain number within the scale ("an average score of 8.6").
	return scoreOf(c, s) || scoreOf(s, c)
}

// scoreOf reports whether plain number n could be score r out of its
// scale, or percentage n a score out of 100 ("50%" and "50/100").
func scoreOf(r, n Quantity) bool {
	den, rating := strings.CutPrefix(r.Unit, "/")
	scale, ok := ratingScales[den]
	if !rating || !ok || r.Kind != Measure || n.Value < 0 || n.High > scale {
		return false
	}
	return n.Kind == Number && n.Unit == "" || n.Kind == Percent && n.Unit == "%" && scale == 100
}

// relErr is RelativeError of the two figures in base units, 0 for times.
func relErr(c, s Quantity) float64 {
	if c.dated() || s.dated() {
		return 0
	}
	_, fc := dimension(c)
	_, fs := dimension(s)
	return RelativeError(c.Value*fc, s.Value*fs)
}

// interval is a closed interval of values; infinities stand for open ends.
type interval struct{ lo, hi float64 }

func (a interval) within(b interval) bool { return a.lo >= b.lo && a.hi <= b.hi }
func (a interval) meets(b interval) bool  { return a.lo <= b.hi && b.lo <= a.hi }

// relate compares claim quantity c with a compatible source quantity s.
func relate(c, s Quantity, exact bool) Outcome {
	var ci, si interval
	switch {
	case c.Kind == Ordinal || s.Kind == Ordinal:
		// A rank has no tolerance: "ranked 15" is "15th", not 16th.
		ci, si = span(c, c.Value, c.High, 0), span(s, s.Value, s.High, 0)
	case c.Yearless:
		// The day and month alone: the source's date in the claim's year.
		t := s.Date
		s.Date = time.Date(leapYear, t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
		ci, si = days(c), days(s)
	case c.dated():
		ci, si = days(c), days(s)
		if exact && c.Bound == Between && s.Bound == Between && c.Step == 1 && s.Step == 1 {
			// A span against a span: "from 1927 to 1956" says when it
			// ended, which "1927-1941" does not, though it lies within.
			// A decade ("the 1990s", Step 10) is a time within, as before.
			if ci == si {
				return Agrees
			}
			return Conflicts
		}
	default:
		ci, si = figures(c, s, exact)
	}
	switch {
	case si.within(ci):
		return Agrees
	case !si.meets(ci):
		return Conflicts
	}
	return Unsettled
}

// figures returns the claim's interval, with its tolerance, and the
// source's, in base units; exact leaves out the 2% and the one unit
// (CheckExact).
func figures(c, s Quantity, exact bool) (interval, interval) {
	_, fc := dimension(c)
	_, fs := dimension(s)
	cv, ch, step := c.Value*fc, c.High*fc, c.Step*fc
	sv, sh := s.Value*fs, s.High*fs
	approx := c.Bound == Approx || s.Bound == Approx
	rel := RelTolerance
	if approx {
		rel = ApproxTolerance
	}
	// ±½ unit, the rounding of the claim's last written place; ±2%
	// (±10% when hedged); ±1 unit when that is at most a tenth of the
	// figure. Exact keeps only the rounding and the hedge's band.
	tol := step / 2
	if !exact || approx {
		tol = math.Max(rel*math.Abs(sv), tol)
	}
	if !exact && step > 0 && math.Abs(cv) >= 10*step*(1-1e-9) {
		tol = math.Max(tol, step)
	}
	tol *= 1 + 1e-9 // float noise: 1.1 - 1.0 is 0.10000000000000009
	// A hedged source figure is a point when the claim's tolerance is
	// already widened for it, and a ±10% band against a bound or range.
	w := 0.0
	if s.Bound == Approx && c.Bound != Exact && c.Bound != Approx {
		w = ApproxTolerance * math.Abs(sv)
	}
	si := span(s, sv, sh, w)
	if exact && s.bounded() && s.Step > 0 && c.Bound != Exact && c.Bound != Approx && !(c.Bound == s.Bound && cv == sv) {
		// A source's bound read as the figure it rounds: "has grossed
		// over $104 million" is $104 to $104.5 million, so it meets
		// "less than $106 million" and not "more than $110 million". A
		// claim bound with the same figure and direction says the same
		// thing and keeps the bound's reading. The bound is cut to half
		// a unit in its last place, as a figure rounds ("over 6.7
		// million likes" does not meet "over 6.75 million", and meets
		// "less than 6.75 million"), its end and a strict bound's own
		// figure left out.
		st := s.Step * fs / 2
		si = interval{max(si.lo, math.Nextafter(sv-st, math.Inf(1))), min(si.hi, math.Nextafter(sv+st, math.Inf(-1)))}
	}
	return span(c, cv, ch, tol), si
}

// span is the interval of values q admits, its figure and high end being v
// and h (in base units), widened by tol on its closed ends; bounds are not
// widened, and a strict bound excludes its figure.
func span(q Quantity, v, h, tol float64) interval {
	switch q.Bound {
	case AtLeast:
		if q.Strict {
			v = math.Nextafter(v, math.Inf(1))
		}
		return interval{v, math.Inf(1)}
	case AtMost:
		if q.Strict {
			v = math.Nextafter(v, math.Inf(-1))
		}
		return interval{math.Inf(-1), v}
	case Between:
		return interval{v - tol, h + tol}
	}
	return interval{v - tol, v + tol}
}

// days returns the span of days a Year or Date covers, counted from the
// Unix epoch.
func days(q Quantity) interval {
	var lo, hi time.Time
	if q.Kind == Date {
		lo = q.Date
		switch q.Precision {
		case MonthPrecision:
			hi = lo.AddDate(0, 1, -1)
		case YearPrecision:
			hi = lo.AddDate(1, 0, -1)
		default:
			hi = lo
		}
	} else {
		lo = time.Date(int(q.Value), 1, 1, 0, 0, 0, 0, time.UTC)
		hi = time.Date(int(q.High), 12, 31, 0, 0, 0, 0, time.UTC)
		if q.Bound == Approx {
			lo, hi = lo.AddDate(-1, 0, 0), hi.AddDate(1, 0, 0)
		}
	}
	const day = 24 * 60 * 60
	iv := interval{float64(lo.Unix() / day), float64(hi.Unix() / day)}
	switch q.Bound {
	case AtLeast: // "after 2016": from 1 January 2017
		return interval{iv.hi + 1, math.Inf(1)}
	case AtMost: // "before 2016": to 31 December 2015
		return interval{math.Inf(-1), iv.lo - 1}
	}
	return iv
}

// daysOnly drops, when some candidate is a day, the years that neither
// agree nor conflict: against a claim's "January 29, 2020" the source's
// "28 January 2020" decides, not the "2019–20 pandemic" beside it. A
// month stays: "April 2019" may well be the month of the claim's "April
// 15, 2019", whatever other day the source names.
func daysOnly(cands []candidate) []candidate {
	if !slices.ContainsFunc(cands, func(k candidate) bool { return k.q.Precision == DayPrecision }) {
		return cands
	}
	return slices.DeleteFunc(cands, func(k candidate) bool {
		return k.q.Precision == YearPrecision && k.outcome == Unsettled
	})
}

// closeBound is how close to a bound a figure must lie to be taken as
// the figure the bound speaks of over figures that share more context
// with it: within 10%. A bound is written about a figure near it ("less
// than $78 million across the world" about "a worldwide total of
// $78,945,791"), and its context words are often the subject's, which
// the sentence's first figure shares ("Insidious: Chapter 3 has grossed
// $46,745,791 in North America").
const closeBound = 0.1

// closeTo reports whether source figure s, not a time, lies within
// closeBound of the claim's bound c.
func closeTo(c, s Quantity) bool { return !s.dated() && relErr(s, c) <= closeBound }

// closeOnly keeps, when some candidate lies within closeBound of the bound
// c and shares a context word with it, the candidates within closeBound
// (sharing context or not: "more than $54 million outside North America"
// is about "$55.6 million in other territories", not the "$51.9 million in
// North America" whose words it shares). judge then chooses among them as
// among all: "under 6.75 million likes" against "over 6.8 million likes
// ... to pass 5 million likes" conflicts, where the 5 million, as well
// placed, met it.
func closeOnly(c Quantity, cands []candidate) []candidate {
	if c.dated() {
		return cands
	}
	var kept []candidate
	placed := false
	for _, k := range cands {
		if closeTo(c, k.q) {
			kept = append(kept, k)
			placed = placed || k.score > 0
		}
	}
	if !placed {
		return cands
	}
	return kept
}

// nearOnly keeps, when no candidate shares a context word with the claim's
// bound, the candidates that lie near the bound, if any: "reviewed by
// less than 76 critics" against "an average score of 9 out of 10, based on
// 76 reviews" is about 76, not met by 9.
func nearOnly(c Quantity, cands []candidate) []candidate {
	var kept []candidate
	for _, k := range cands {
		if k.score > 0 {
			return cands
		}
		if near(c, k.q) {
			kept = append(kept, k)
		}
	}
	if len(kept) == 0 {
		return cands
	}
	return kept
}

// capitalised reports whether word w opens with a capital letter.
func capitalised(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}
