package quantity

import (
	"math"
	"testing"

	"github.com/verity-fc/verity/evidence"
)

var fuzzSeeds = []string{
	"born in 1993", "(January 23, 1911 – March 16, 1993)", "from 2005 -- 2015", "the 1800s", "over $104 million",
	"less than $106 million", "the 9th highest", "passed away in 1986",
	"", "1", "-", "$", "1,234", "1.5 million", "$30B", "$4.2 billion", "30 bn", "USD 5m", "€3", "12%",
	"twelve", "a dozen", "half of", "1.1 degrees Celsius", "421 ppm", "800,000 years", "9k",
	"9,210 operational satellites", "in 2015", "January 1, 2024", "2024-02-15", "15 March 2023",
	"March 2023", "the 1990s", "10-20%", "-3.5", "COVID-19", "G7", "v1.2", "555-123-4567",
	"+1 555 123 4567", "(555) 123-4567", "1. item", "exceeded 9,000", "between 10 and 20",
	"$10-$20 billion", "2019-20", "10:30", "1990's", "9,000-plus", "two-thirds of", "half a million",
	"Jan. 5, 2020", "c. 1969", "before July 11, 1987", "30.000", "1,5", "US$", "-$5", "$ 4.8 M",
	"\xff\xfe9\xc3", "９", "1\u00a0000", "−2", "1e9", "0x1F", "99999999999999999999999999",
	"1.1.1.1", "1,000,000,000,000,000,000,000", "between 2015 and", "from 10 to", "(12", "[3]",
	"twenty-", "a", "an estimated", "more than", "5-", "2024-", "31 February 2023", "May 2", "²",
	"born on May 5", "after 19 March", "30 February", "from March 1 to May 30, 2020", "5 May.", "through May 2020", "[19, ]", "[, 5]", "[3-5]",
}

// FuzzExtract checks that Extract and ExtractExact never panic and that
// what they return is well formed: spans in range, in order, not overlapping, matching Text,
// finite values, and HasQuantity in agreement.
func FuzzExtract(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		qs := Extract(in)
		for name, got := range map[string][]Quantity{"Extract": qs, "ExtractExact": ExtractExact(in)} {
			end := 0
			for _, q := range got {
				if q.Start < end || q.Start >= q.End || q.End > len(in) {
					t.Fatalf("%s(%q): span [%d,%d) out of order or range (previous end %d)", name, in, q.Start, q.End, end)
				}
				if in[q.Start:q.End] != q.Text {
					t.Fatalf("%s(%q): Text %q is not input[%d:%d] = %q", name, in, q.Text, q.Start, q.End, in[q.Start:q.End])
				}
				if math.IsNaN(q.Value) || math.IsInf(q.Value, 0) || math.IsNaN(q.High) || math.IsInf(q.High, 0) || q.High < q.Value {
					t.Fatalf("%s(%q): bad value %v..%v in %+v", name, in, q.Value, q.High, q)
				}
				if q.Approx != (q.Bound != Exact) {
					t.Fatalf("%s(%q): Approx %v with bound %v", name, in, q.Approx, q.Bound)
				}
				end = q.End
			}
		}
		if HasQuantity(in) != (len(qs) > 0) {
			t.Fatalf("HasQuantity(%q) = %v with %d quantities", in, !(len(qs) > 0), len(qs))
		}
	})
}

// FuzzCompare checks that Compare never panics and that a NumCheck with
// mismatches is applicable and not OK.
func FuzzCompare(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(s, fuzzSeeds[(i*7+3)%len(fuzzSeeds)])
	}
	f.Fuzz(func(t *testing.T, claim, source string) {
		// Both readings: the exact one (the NLI judge's) has its own
		// candidates, spans of two dates among them.
		for _, compare := range []func(string, string) evidence.NumCheck{Compare, CompareExact} {
			nc := compare(claim, source)
			if len(nc.Mismatches) > 0 && (!nc.Applicable || nc.OK) {
				t.Fatalf("(%q, %q) = %+v", claim, source, nc)
			}
			if nc.OK && !nc.Applicable {
				t.Fatalf("(%q, %q) = %+v: OK but not applicable", claim, source, nc)
			}
		}
		if out, aged := AgeAtDeath(claim, source); out == Unsettled {
			t.Fatalf("AgeAtDeath(%q, %q) = %v: an age is settled or not compared", claim, source, out)
		} else if out != NotCompared && !aged {
			t.Fatalf("AgeAtDeath(%q, %q) = %v, but finds no age in the claim", claim, source, out)
		}
	})
}
