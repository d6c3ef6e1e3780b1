// Package quantity finds the numbers, amounts, measures, percentages, years
// and dates written in English text, normalises their scale and units, and
// compares the quantities of a claim with those of a source passage within
// small tolerances (seed 004, section 3: "±2% or ±1 unit").
//
// It is pure: no I/O, no state, safe for concurrent use; the one thing it
// reads besides its input is today's date, by which [CheckExact] dates a
// claim's "N years ago". Text is treated as
// data only; nothing in it changes how it is read beyond the quantities it
// contains. Extract is a single left-to-right pass over a token list and
// costs tens of microseconds on a 1,000-word passage.
package quantity

import (
	"strconv"
	"time"
)

// Kind is what a quantity counts or measures.
type Kind uint8

const (
	// Number is a plain count or figure: "9,210 operational satellites",
	// "twelve", "1.5 million". Unit is "" or "people".
	Number Kind = iota
	// Percent is a percentage (Unit "%") or a change in percentage points
	// (Unit "pp"). Spelled fractions of a whole ("half of", "two-thirds
	// of") are percentages too.
	Percent
	// Money is an amount in a currency; Unit is its ISO 4217 code.
	Money
	// Measure is a physical or time measure with a unit ("421 ppm",
	// "1.1°C", "800,000 years").
	Measure
	// Year is a calendar year ("in 2015") or a span of years ("the 1990s",
	// "2015-2020"); Value (and High) hold the years.
	Year
	// Date is a calendar day or month ("January 1, 2024", "March 2023").
	Date
	// Ordinal is a rank written with digits ("42nd").
	Ordinal
)

var kindNames = [...]string{"number", "percent", "money", "measure", "year", "date", "ordinal"}

// String returns the kind's lower-case name.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText encodes the kind as its name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Bound says how a quantity's figure constrains the true value.
type Bound uint8

const (
	// Exact: the figure as written, within rounding.
	Exact Bound = iota
	// AtLeast: "more than", "over", "at least", "exceeded", "9,000+",
	// "after 2016"; see Quantity.Strict.
	AtLeast
	// AtMost: "less than", "under", "below", "up to", "at most",
	// "before 2016".
	AtMost
	// Approx: "about", "around", "nearly", "almost", "roughly", "~",
	// and spelled fractions ("half of").
	Approx
	// Between: a range, "10-20%", "between 10 and 20", "the 1990s";
	// Value is the low end and High the high end.
	Between
)

var boundNames = [...]string{"exact", "at_least", "at_most", "approx", "between"}

// String returns the bound's name.
func (b Bound) String() string {
	if int(b) < len(boundNames) {
		return boundNames[b]
	}
	return "bound(" + strconv.Itoa(int(b)) + ")"
}

// MarshalText encodes the bound as its name.
func (b Bound) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

// Precision is how much of a date is given.
type Precision uint8

const (
	// NoPrecision is the zero value, used by kinds other than Year and Date.
	NoPrecision Precision = iota
	// YearPrecision: only the year (or a span of years) is given.
	YearPrecision
	// MonthPrecision: month and year, "March 2023".
	MonthPrecision
	// DayPrecision: a calendar day, "15 March 2023", "2024-02-15".
	DayPrecision
)

// Quantity is one quantity found in a text.
type Quantity struct {
	// Text is the quantity as written, text[Start:End], including a hedge
	// before it ("more than 9,000") and its unit ("1.1 degrees Celsius").
	Text string `json:"text"`
	// Value is the figure with its scale applied ("1.5 million" ->
	// 1500000, "$4.2bn" -> 4.2e9, "12%" -> 12) in Unit. For a range it is
	// the low end. For Year it is the year; for Date, the date's year.
	Value float64 `json:"value"`
	// High is the high end of a range (Bound Between); otherwise it equals
	// Value.
	High float64 `json:"high"`
	// Unit is the canonical unit: "" for a plain number, "people", "%",
	// "pp", a currency code ("USD", "EUR", "GBP", ...), a measure symbol
	// ("km", "m", "kg", "t", "°C", "ppm", "km²", "TWh", "year", "day",
	// ...), "year" for Year and "date" for Date. Measures keep the unit
	// they were written in; see [Quantity.Base] to convert.
	Unit string `json:"unit"`
	Kind Kind   `json:"kind"`
	// Bound says how the figure constrains the value; Approx is true
	// whenever Bound is not Exact.
	Bound  Bound `json:"bound"`
	Approx bool  `json:"approx"`
	// Strict is true for a bound that excludes its figure: "more than",
	// "over", "exceeded", "under", "less than", ">", and "before" or
	// "after" a year or date. "At least", "up to", "9,000+" include it.
	Strict bool `json:"strict,omitempty"`
	// Step is one unit in the last place written, in Unit: "1.1" -> 0.1,
	// "9,000" -> 1, "9k" -> 1000, "1.5 million" -> 100000, "twelve" -> 1.
	// It is what "±1 unit" means in [Compare].
	Step float64 `json:"step"`
	// Date is the first day of a Date (UTC), zero for other kinds.
	Date time.Time `json:"date,omitzero"`
	// Precision is set for Year and Date.
	Precision Precision `json:"precision,omitempty"`
	// Yearless marks a day and month written with no year ("May 5", "20
	// March"), which only [CheckExact] reads: Date holds the day in the
	// leap year 2000, and Value and High are 0.
	Yearless bool `json:"yearless,omitempty"`
	// Lone marks a lone "one" before a word ("one term"), which only
	// [CheckExact] reads, and only against a figure of the same noun.
	Lone bool `json:"lone,omitempty"`
	// Start and End are byte offsets of Text in the input.
	Start int `json:"start"`
	End   int `json:"end"`
}

// Base returns the quantity's Value converted to the base unit of its
// dimension, and that unit: 5 "km" -> 5000 "m", 3 "Gt" (stored as
// 3e9 "t") -> 3e12 "kg", 18 "month" -> 547.875 "day". Units without a
// conversion (currencies, "%", "°C", "°F", plain numbers) come back
// unchanged.
func (q Quantity) Base() (float64, string) {
	u, ok := unitInfo[q.Unit]
	if !ok || u.base == "" {
		return q.Value, q.Unit
	}
	return q.Value * u.factor, u.base
}
