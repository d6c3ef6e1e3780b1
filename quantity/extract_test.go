package quantity

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// w builds an expected quantity; Start and End are filled in by the test
// from where Text occurs in the input.
type w Quantity

func q(text string, kind Kind, v float64, unit string, step float64) w {
	return w{Text: text, Kind: kind, Value: v, High: v, Unit: unit, Step: step}
}

func num(text string, v, step float64) w { return q(text, Number, v, "", step) }

func year(text string, y float64) w {
	x := q(text, Year, y, "year", 1)
	x.Precision = YearPrecision
	return x
}

func day(text string, y, m, d int) w {
	x := q(text, Date, float64(y), "date", 0)
	x.Date, x.Precision = time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC), DayPrecision
	return x
}

func (x w) bound(b Bound, strict bool) w {
	x.Bound, x.Approx, x.Strict = b, b != Exact, strict
	return x
}

func (x w) between(hi float64) w {
	x.High = hi
	return x.bound(Between, false)
}

func TestExtract(t *testing.T) {
	month := day("March 2023", 2023, 3, 1)
	month.Precision = MonthPrecision
	tests := []struct {
		name, in string
		want     []w
	}{
		// Numbers, scales and grouping.
		{"thousands comma", "It cost 1,234 dollars less.", []w{q("1,234 dollars", Money, 1234, "USD", 1)}},
		{"plain integer", "They found 9210 objects.", []w{num("9210", 9210, 1)}},
		{"decimal", "a ratio of 3.5", []w{num("3.5", 3.5, 0.1)}},
		{"scale word", "1.5 million residents", []w{q("1.5 million residents", Number, 1.5e6, "people", 1e5)}},
		{"bn spaced", "a market worth 30 bn", []w{num("30 bn", 30e9, 1e9)}},
		{"k attached", "9k followers", []w{num("9k", 9000, 1000)}},
		{"M attached", "5M users", []w{num("5M", 5e6, 1e6)}},
		{"spelled", "the twelve apostles", []w{num("twelve", 12, 1)}},
		{"a dozen", "a dozen eggs", []w{num("a dozen", 12, 1)}},
		{"spelled compound", "twenty-five people", []w{q("twenty-five people", Number, 25, "people", 1)}},
		{"spelled hundreds", "seven hundred and fifty seats", []w{num("seven hundred and fifty", 750, 1)}},
		{"spelled with scale", "two million people", []w{q("two million people", Number, 2e6, "people", 1e6)}},
		{"half a million", "half a million visitors", []w{num("half a million", 5e5, 1e5)}},
		{"european grouping", "about 30.000 inhabitants", []w{q("about 30.000 inhabitants", Number, 30000, "people", 1).bound(Approx, false)}},
		{"decimal comma", "sold 1,5 million copies", []w{num("1,5 million", 1.5e6, 1e5)}},
		{"negative", "a change of -3.5 points", []w{num("-3.5", -3.5, 0.1)}},
		{"unicode minus", "fell to −2", []w{num("−2", -2, 1)}},
		{"several", "5 kg and 3 t", []w{q("5 kg", Measure, 5, "kg", 1), q("3 t", Measure, 3, "t", 1)}},
		{"one in five", "1 in 5 people", []w{num("1", 1, 1), q("5 people", Number, 5, "people", 1)}},
		{"population colon", "Population: 8 billion", []w{num("8 billion", 8e9, 1e9)}},

		// Money.
		{"dollar B", "Revenue was $30B.", []w{q("$30B", Money, 30e9, "USD", 1e9)}},
		{"dollar billion", "$4.2 billion", []w{q("$4.2 billion", Money, 4.2e9, "USD", 1e8)}},
		{"code before m", "USD 5m", []w{q("USD 5m", Money, 5e6, "USD", 1e6)}},
		{"code attached", "USD5m", []w{q("USD5m", Money, 5e6, "USD", 1e6)}},
		{"euro", "€3 each", []w{q("€3", Money, 3, "EUR", 1)}},
		{"pound bn", "£2.5bn", []w{q("£2.5bn", Money, 2.5e9, "GBP", 1e8)}},
		{"US dollar sign", "US$5 billion", []w{q("US$5 billion", Money, 5e9, "USD", 1e9)}},
		{"spaced M after currency", "under $ 4.8 M", []w{q("under $ 4.8 M", Money, 4.8e6, "USD", 1e5).bound(AtMost, true)}},
		{"currency range", "$10-$20 billion", []w{q("$10-$20 billion", Money, 10e9, "USD", 1e9).between(20e9)}},

		// Percentages and fractions.
		{"percent sign", "12%", []w{q("12%", Percent, 12, "%", 1)}},
		{"percent word", "12 percent", []w{q("12 percent", Percent, 12, "%", 1)}},
		{"per cent", "12 per cent", []w{q("12 per cent", Percent, 12, "%", 1)}},
		{"percentage points", "rose 2 percentage points", []w{q("2 percentage points", Percent, 2, "pp", 1)}},
		{"percent range", "10-20%", []w{q("10-20%", Percent, 10, "%", 1).between(20)}},
		{"half of", "half of voters", []w{q("half", Percent, 50, "%", 1).bound(Approx, false)}},
		{"two-thirds of", "two-thirds of members", []w{q("two-thirds", Percent, 200.0/3, "%", 1).bound(Approx, false)}},
		{"a quarter of", "a quarter of homes", []w{q("a quarter", Percent, 25, "%", 1).bound(Approx, false)}},
		{"second half is not a fraction", "the second half of 2024", []w{year("2024", 2024)}},

		// Measures.
		{"celsius words", "1.1 degrees Celsius", []w{q("1.1 degrees Celsius", Measure, 1.1, "°C", 0.1)}},
		{"celsius symbol", "1.1°C", []w{q("1.1°C", Measure, 1.1, "°C", 0.1)}},
		{"negative celsius", "temperatures of -40°C", []w{q("-40°C", Measure, -40, "°C", 1)}},
		{"ppm", "421 ppm", []w{q("421 ppm", Measure, 421, "ppm", 1)}},
		{"years duration", "800,000 years", []w{q("800,000 years", Measure, 800000, "year", 1)}},
		{"km", "3.5 km", []w{q("3.5 km", Measure, 3.5, "km", 0.1)}},
		{"kg", "2,000 kg", []w{q("2,000 kg", Measure, 2000, "kg", 1)}},
		{"gigatonnes", "36.8 Gt of CO2", []w{q("36.8 Gt", Measure, 36.8e9, "t", 1e8)}},
		{"km/h", "5 km/h", []w{q("5 km/h", Measure, 5, "km/h", 1)}},
		{"square km", "600 km²", []w{q("600 km²", Measure, 600, "km²", 1)}},
		{"hyphenated unit", "a 10-year study", []w{q("10-year", Measure, 10, "year", 1)}},
		{"scale then unit", "1.5 million tonnes", []w{q("1.5 million tonnes", Measure, 1.5e6, "t", 1e5)}},

		// Years, decades and dates.
		{"in year", "in 2015", []w{year("2015", 2015)}},
		{"since year", "since 1969", []w{year("1969", 1969)}},
		{"year before noun", "The 2024 report found 12 cases", []w{year("2024", 2024), num("12", 12, 1)}},
		{"mid year", "mid-2020", []w{year("2020", 2020)}},
		{"BC", "500 BC", []w{year("500 BC", -500)}},
		{"circa", "c. 1969", []w{year("c. 1969", 1969).bound(Approx, false)}},
		{"after year", "after 2016", []w{year("after 2016", 2016).bound(AtLeast, true)}},
		{"decade", "the 1990s", []w{func() w { x := year("1990s", 1990); x.Step = 10; return x.between(1999) }()}},
		{"decade apostrophe", "the 1990's", []w{func() w { x := year("1990's", 1990); x.Step = 10; return x.between(1999) }()}},
		{"year range", "2015-2020", []w{year("2015-2020", 2015).between(2020)}},
		{"season", "the 2019-20 season", []w{year("2019-20", 2019).between(2020)}},
		{"month day year", "January 1, 2024", []w{day("January 1, 2024", 2024, 1, 1)}},
		{"iso", "2024-02-15", []w{day("2024-02-15", 2024, 2, 15)}},
		{"day month year", "15 March 2023", []w{day("15 March 2023", 2023, 3, 15)}},
		{"ordinal day of month", "the 15th of March 2023", []w{day("15th of March 2023", 2023, 3, 15)}},
		{"abbreviated month", "Jan. 5, 2020", []w{day("Jan. 5, 2020", 2020, 1, 5)}},
		{"month year", "March 2023", []w{month}},
		{"before date", "before July 11, 1987", []w{day("before July 11, 1987", 1987, 7, 11).bound(AtMost, true)}},
		{"day and month without year", "on March 15 it rained", nil},
		{"february 30 is no date", "2023-02-30", nil},

		// Hedges and bounds.
		{"more than", "more than 25 million subscribers", []w{num("more than 25 million", 25e6, 1e6).bound(AtLeast, true)}},
		{"exceeded", "exceeded 9,000", []w{num("exceeded 9,000", 9000, 1).bound(AtLeast, true)}},
		{"at least", "at least 9,000", []w{num("at least 9,000", 9000, 1).bound(AtLeast, false)}},
		{"plus sign", "9,000+", []w{num("9,000+", 9000, 1).bound(AtLeast, false)}},
		{"or more", "9,000 or more", []w{num("9,000 or more", 9000, 1).bound(AtLeast, false)}},
		{"under", "under 5%", []w{q("under 5%", Percent, 5, "%", 1).bound(AtMost, true)}},
		{"up to", "up to 40 km", []w{q("up to 40 km", Measure, 40, "km", 1).bound(AtMost, false)}},
		{"about", "about 31%", []w{q("about 31%", Percent, 31, "%", 1).bound(Approx, false)}},
		{"nearly", "nearly 200 countries", []w{num("nearly 200", 200, 1).bound(Approx, false)}},
		{"tilde", "~300 ppm", []w{q("~300 ppm", Measure, 300, "ppm", 1).bound(Approx, false)}},
		{"an estimated", "an estimated 5,000 people", []w{q("an estimated 5,000 people", Number, 5000, "people", 1).bound(Approx, false)}},
		{"between and", "between 10 and 20 people", []w{q("between 10 and 20 people", Number, 10, "people", 1).between(20)}},
		{"to range", "10 to 20 people", []w{q("10 to 20 people", Number, 10, "people", 1).between(20)}},
		{"from to is two figures", "rose from 10 to 20", []w{num("10", 10, 1), num("20", 20, 1)}},

		// Ordinals.
		{"ordinal", "the 42nd most subscribed", []w{q("42nd", Ordinal, 42, "", 1)}},
		{"ordinal th", "ranked 15th", []w{q("15th", Ordinal, 15, "", 1)}},

		// Not quantities.
		{"covid", "COVID-19 cases", nil},
		{"g7", "the G7 summit", nil},
		{"a4", "A4 paper", nil},
		{"co2", "CO2 levels", nil},
		{"version", "v1.2 and version 2.0", nil},
		{"dotted version", "release 1.2.3", nil},
		{"phone dashes", "call 555-123-4567 now", nil},
		{"phone international", "call +1 555 123 4567", nil},
		{"phone brackets", "call (555) 123-4567", nil},
		{"list markers", "1. First item\n2. Second item", nil},
		{"one of", "one of the best", nil},
		{"clock", "at 10:30 today", nil},
		{"pm", "at 3 pm and 4pm", nil},
		{"figure label", "see Figure 3 and page 12", nil},
		{"number sign", "the #1 hit", nil},
		{"citation marker", "as shown [12]", nil},
		{"enumeration", "(3) the parties", nil},
		{"compound adjective", "a 5-star hotel", nil},
		{"score", "won 3-1", nil},
		{"slash", "open 24/7", nil},
		{"leading zero", "zip 02139", nil},
		{"name parts", "Call of Duty 2 sold 2 million copies on Xbox 360 .", []w{num("2 million", 2e6, 1e6)}},
		{"4G", "4G networks", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want []Quantity
			from := 0
			for _, x := range tt.want {
				i := strings.Index(tt.in[from:], x.Text)
				if i < 0 {
					t.Fatalf("bad test: %q not in %q", x.Text, tt.in[from:])
				}
				x.Start, x.End = from+i, from+i+len(x.Text)
				from = x.End
				want = append(want, Quantity(x))
			}
			got := Extract(tt.in)
			if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
				t.Errorf("Extract(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
			if has := HasQuantity(tt.in); has != (len(want) > 0) {
				t.Errorf("HasQuantity(%q) = %v, want %v", tt.in, has, len(want) > 0)
			}
		})
	}
}

// TestExtractExact: the exact reading takes a year after "in" for the
// year of the figure before it, not the start of a span to the next
// figure, which Extract reads as a range.
func TestExtractExact(t *testing.T) {
	texts := func(qs []Quantity) []string {
		var out []string
		for _, q := range qs {
			out = append(out, q.Text)
		}
		return out
	}
	const s = "The population grew from 12,000 in 2000 to 15,500 in 2020."
	if got, want := texts(ExtractExact(s)), []string{"12,000", "2000", "15,500", "2020"}; !slices.Equal(got, want) {
		t.Errorf("ExtractExact(%q) = %q, want %q", s, got, want)
	}
	if got, want := texts(Extract(s)), []string{"12,000", "2000 to 15,500", "2020"}; !slices.Equal(got, want) {
		t.Errorf("Extract(%q) = %q, want %q", s, got, want)
	}
	// Two years and a span of years stay what they were.
	for _, s := range []string{"The war lasted from 1939 to 1945.", "Prices rose in 2019 to 2020."} {
		if got, want := texts(ExtractExact(s)), texts(Extract(s)); !slices.Equal(got, want) {
			t.Errorf("ExtractExact(%q) = %q, want %q as Extract", s, got, want)
		}
	}
}
