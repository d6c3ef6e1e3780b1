package factcheck

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/internal/golden"
)

func TestReliabilityScore(t *testing.T) {
	tests := []struct {
		name string
		s    Summary
		want *int
	}{
		{"no claims", Summary{}, nil},
		{"all verified", Summary{Verified: 7}, new(100)},
		{"all disputed", Summary{Disputed: 4}, new(0)},
		{"all unverifiable", Summary{Unverifiable: 3}, new(50)},
		{"mixed", Summary{Verified: 9, Disputed: 2, Unverifiable: 1}, new(79)},
		{"one disputed of ten", Summary{Verified: 9, Disputed: 1}, new(90)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, reliabilityScore(tt.s)); diff != "" {
				t.Errorf("score (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBand(t *testing.T) {
	for score, want := range map[int]string{100: "Highly reliable", 90: "Highly reliable", 89: "Mostly reliable with minor issues",
		70: "Mostly reliable with minor issues", 69: "Mixed accuracy", 50: "Mixed accuracy", 49: "Significant inaccuracies",
		30: "Significant inaccuracies", 29: "Unreliable", 0: "Unreliable"} {
		if got := band(score); got != want {
			t.Errorf("band(%d) = %q, want %q", score, got, want)
		}
	}
}

func TestParseScore(t *testing.T) {
	tests := []struct {
		text string
		want int
		ok   bool
	}{
		{"# Fact-Check Report\n\n## Overall Reliability Score: 78\nMostly reliable.", 78, true},
		{"## Overall Reliability Score: **92**/100", 92, true},
		{"overall reliability score 5", 5, true},
		{"## Overall Reliability Score: 250", 100, true},
		{"## Overall Reliability Score: [0-100]", 0, false},
		{"No score here.", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseScore(tt.text)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseScore(%q) = %d, %v; want %d, %v", tt.text, got, ok, tt.want, tt.ok)
		}
	}
}

func TestAnnotate(t *testing.T) {
	content := "A is 1. B is 2! C is 3. A is 1."
	cs := []ClaimConsensus{
		{Claim: "B is 2", ConsensusVerdict: Disputed},
		{Claim: "A is 1", ConsensusVerdict: Verified},
		{Claim: "not in the text", ConsensusVerdict: Verified},
		{Claim: "C is 3", ConsensusVerdict: Unverifiable},
	}
	want := "A is 1. B is 2! [DISPUTED] C is 3. [UNVERIFIABLE] A is 1. [VERIFIED]"
	// Each claim is looked for after the previous one first, so "A is 1"
	// marks its second occurrence; "C is 3" is then found from the start.
	if got := annotate(content, cs); got != want {
		t.Errorf("annotate =\n%q\nwant\n%q", got, want)
	}
}

func TestConsensusNotes(t *testing.T) {
	split := ClaimConsensus{ClaimID: "claim_2", ConsensusVerdict: Disputed, Verdicts: []ClaimVerification{{Verdict: Verified}, {Verdict: Disputed}}}
	plain := func(verdict string) ClaimConsensus {
		return ClaimConsensus{ClaimID: "claim_1", ConsensusVerdict: verdict, Verdicts: []ClaimVerification{{Verdict: verdict}}}
	}
	tests := []struct {
		name    string
		cs      []ClaimConsensus
		opinion bool
		want    []string
	}{
		{"no claims", nil, false, []string{noteNoClaims}},
		{"opinion, no claims", nil, true, []string{noteOpinion, noteNoClaims}},
		{"few claims, all verified", []ClaimConsensus{plain(Verified)}, false, []string{noteFewClaims, noteAllVerified}},
		{"all disputed with an even split", []ClaimConsensus{plain(Disputed), split, plain(Disputed)}, false,
			[]string{noteAllDisputed, "Checkers split evenly on claim_2 (1 VERIFIED, 1 DISPUTED); it is reported as DISPUTED with LOW confidence."}},
		{"all unverifiable", []ClaimConsensus{plain(Unverifiable), plain(Unverifiable), plain(Unverifiable)}, false, []string{noteAllUnverified}},
		{"mixed", []ClaimConsensus{plain(Unverifiable), plain(Verified), plain(Disputed)}, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, consensusNotes(tt.cs, summarize(tt.cs), tt.opinion)); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTemplateReport(t *testing.T) {
	cs := calculateConsensus(seedClaims, [][]ClaimVerification{
		{
			{ClaimID: "claim_1", Verdict: Verified, Evidence: "Funded by ARPA.", Confidence: High, CheckerModel: "m1"},
			{ClaimID: "claim_2", Verdict: Verified, Evidence: "Crashed after LO.", Confidence: High, CheckerModel: "m1"},
			{ClaimID: "claim_3", Verdict: Disputed, Evidence: "Proposed in 1989.", Correction: new("Proposed in 1989 | first site 1991"), Confidence: Medium, CheckerModel: "m1"},
		},
		{
			{ClaimID: "claim_1", Verdict: Verified, Evidence: "DoD agency.", Confidence: Medium, CheckerModel: "m2"},
			{ClaimID: "claim_2", Verdict: Unverifiable, Evidence: missingEvidence, Confidence: Low, CheckerModel: "m2"},
			{ClaimID: "claim_3", Verdict: Verified, Evidence: "He invented it.", Confidence: Low, CheckerModel: "m2"},
		},
	})
	s := summarize(cs)
	content := "The Internet originated from ARPANET, a project funded by the U.S. Department of Defense in 1969. Tim Berners-Lee invented the World Wide Web in 1989 at CERN."
	got := templateReport(reportInput{
		content: content, consensus: cs, score: reliabilityScore(s), extractor: "ext",
		checkers: []string{"m1", "m2"}, failed: []CheckerFailure{{Model: "m3", Error: "failed"}}, reporter: BuiltinReporter,
		notes: consensusNotes(cs, s, false),
	})
	golden.Check(t, "template_report.golden", got)
	if !strings.Contains(got, "| claim_3 | Tim Berners-Lee invented the World Wide Web in 1989 at CERN | DISPUTED | 50% | Proposed in 1989 \\| first site 1991 |") {
		t.Errorf("evidence table row for claim_3 missing or malformed:\n%s", got)
	}

	none := templateReport(reportInput{content: "Just vibes.", extractor: BuiltinExtractor, reporter: BuiltinReporter, notes: []string{noteNoClaims}})
	golden.Check(t, "template_report_no_claims.golden", none)
}
