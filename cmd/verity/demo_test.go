package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/verity-fc/verity/eval"
	"github.com/verity-fc/verity/scoring"
)

// TestDemoClaimsBenchmark runs `verity eval --mode verdicts` on an empty
// data directory: the demo corpus is ingested and the demo-claims benchmark
// (demo/claims.jsonl) verified under the seed's policy and under
// supported_min_domains: 1. The floors are what the shipped judge and
// aggregation reach (README, "Demo-claims benchmark"), so a model or
// scoring change that gives people more wrong answers fails here.
func TestDemoClaimsBenchmark(t *testing.T) {
	out, err := runVerity(t, "eval", "--mode", "verdicts", "--json", "--fit", "--data", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Set      string              `json:"set"`
		Policies []eval.PolicyReport `json:"policies"`
		Fitted   scoring.Thresholds  `json:"fitted"`
	}
	if err := json.NewDecoder(strings.NewReader(out)).Decode(&got); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	// Lowered from 72 and 74 when the judge began training on MultiNLI's
	// unverified pairs: it gained on the development splits and on the
	// SciFact corpus check, and lost two and three of these 77 claims
	// (README, "Demo-claims benchmark"). Raised to 70 and 72 with the
	// judge retrained on the mended other-subject pairs, and to 71 and 73
	// with it retrained after born and died became antonyms; the second
	// to 74 when two sentences apart that hold the whole claim became the
	// focus. The second lowered to 73 when the month "May" stopped
	// counting as the modal: para-07's Mauna Loa page ("The seasonal peak,
	// reached in May 2023, ...") had its contradiction, a real one of the
	// figures ("passed 420 parts per million" is read as exactly 420, which
	// "above 420 ppm" excludes), cut by the modal rule. The first raised
	// to 72 when the quantifier rule stopped acting on passages with no
	// quantifier ("600 international units" for "most adults"). Both
	// lowered by one, to 71 and 72, when the judge became three wider
	// networks distilled from the three before: it gains on the
	// calibration split (0.011 of mean balanced accuracy over its sets of
	// at least 100 pairs) and on 18 of the 25 development splits, and
	// loses "fell below 350 parts per million" (contradicted at 0.65, under
	// the refitted Refuted bar of 0.75) and, under the second policy, the
	// Golden Gate's start of construction, which the 2024 safety-net
	// article contradicts at 0.69 (README, "Demo-claims benchmark").
	// Raised to 72 and 74 when the judge's reading of dates stopped
	// counting a date of the other end in order, and an opening against
	// a start, as a conflict: the safety-net article and the bridge's
	// opening no longer contradict the Golden Gate's start of
	// construction (docs/nli-development.md, "The other end of
	// something, in order"). Raised to 73 and 75 when the judge stopped
	// reading the first of another kind of thing as settling a claim's
	// first: "The first email was sent over the ARPANET in 1971.", which
	// no source covers, was Refuted by the first ARPANET message of 1969
	// (docs/nli-development.md, "The first of another kind").
	floors := []int{73, 75}
	if len(got.Policies) != len(floors) {
		t.Fatalf("%d policies, want %d", len(got.Policies), len(floors))
	}
	for i, r := range got.Policies {
		if r.N < 60 {
			t.Errorf("%s: %d claims, want at least 60", r.Policy, r.N)
		}
		for _, m := range r.Misses {
			t.Logf("%s: miss %s: expected %s, got %s (%s): %s", r.Policy, m.ID, m.Expect, m.Got, m.Reason, m.Claim)
		}
		t.Logf("%s: %d of %d right (%.1f%%)", r.Policy, r.Correct, r.N, 100*r.Accuracy)
		if r.Correct < floors[i] {
			t.Errorf("%s: %d of %d claims got their expected verdict, want at least %d", r.Policy, r.Correct, r.N, floors[i])
		}
	}
	// The shipped thresholds are what the fit gives with the built-in
	// judge (the aligning network): after a change of the judge or the
	// gates, refit them with scripts/refit-judge.sh, or alone with
	//   go run ./cmd/verity eval --mode verdicts --fit --data $(mktemp -d) --write-thresholds scoring/thresholds.json
	shipped, err := scoring.BuiltinThresholds()
	if err != nil {
		t.Fatal(err)
	}
	fitted := got.Fitted
	fitted.Judge, fitted.Set, shipped.Judge, shipped.Set = "", "", "", ""
	if fitted != shipped {
		t.Errorf("scoring/thresholds.json is %+v, the fit gives %+v: refit it (see the comment above)", shipped, fitted)
	}
}
