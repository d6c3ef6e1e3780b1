package quantity

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/verity-fc/verity/evidence"
)

func TestCompare(t *testing.T) {
	ok := evidence.NumCheck{Applicable: true, OK: true}
	na := evidence.NumCheck{}
	bad := func(claim, source string) evidence.NumCheck {
		return evidence.NumCheck{Applicable: true, Mismatches: []evidence.Mismatch{{Claim: claim, Source: source}}}
	}
	tests := []struct {
		name, claim, source string
		want                evidence.NumCheck
	}{
		{"seed: exceeded 9,000 vs 9,210 satellites",
			"The official number of active spacecraft orbiting Earth, as of the beginning of 2024, exceeded 9,000.",
			"Our database recorded 9,210 operational satellites as of January 1, 2024, confirming the growth trend.", ok},
		{"money mismatch reports both figures", "Revenue reached $50B last year.", "Revenue reached $30 billion last year.", bad("$50B", "$30 billion")},
		{"celsius spelled vs symbol", "Warming has reached 1.1 degrees Celsius.", "Warming has reached 1.1°C above pre-industrial levels.", ok},
		{"about 31% within one unit of 30%", "Coal causes 30% of global emissions.", "Coal causes about 31% of global emissions.", ok},
		{"year off by one", "The Paris Agreement was adopted in 2015.", "The Paris Agreement was adopted in 2016.", bad("2015", "2016")},
		{"196 vs 195 countries within one unit", "196 countries signed the agreement.", "195 countries signed the agreement.", ok},
		{"under 5% vs 7%", "Unemployment is under 5%.", "Unemployment is 7%.", bad("under 5%", "7%")},
		{"no quantity in claim", "The sky is blue.", "The sky was 12% bluer.", na},
		{"no comparable quantity in source", "Revenue was $5 billion.", "Revenue grew 12% in 2020.", na},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Compare(tt.claim, tt.source)); diff != "" {
				t.Errorf("Compare(%q, %q) mismatch (-want +got):\n%s", tt.claim, tt.source, diff)
			}
		})
	}
}

func TestRelativeError(t *testing.T) {
	tests := []struct {
		a, b, want float64
	}{
		{50, 30, 2.0 / 3},
		{30, 30, 0},
		{0, 0, 0},
		{1, 0, math.Inf(1)},
		{-5, -10, 0.5},
	}
	for _, tt := range tests {
		if got := RelativeError(tt.a, tt.b); math.Abs(got-tt.want) > 1e-12 && !(math.IsInf(got, 1) && math.IsInf(tt.want, 1)) {
			t.Errorf("RelativeError(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
