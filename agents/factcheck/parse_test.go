package factcheck

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// seedExtraction is the extract row's content of seed 001 section G.
const seedExtraction = "CLAIM 1: ARPANET was funded by the U.S. Department of Defense in 1969\nContext: The Internet originated from ARPANET, a project funded by the U.S. Department of Defense in 1969.\nType: DATE\n\nCLAIM 2: The first message sent on ARPANET was 'LO'\nContext: The first message sent was 'LO' — the system crashed before 'LOGIN' could be completed.\nType: ATTRIBUTION\n\nCLAIM 3: Tim Berners-Lee invented the World Wide Web in 1989 at CERN\nContext: Tim Berners-Lee invented the World Wide Web in 1989 at CERN.\nType: DATE\n\n...\n\nEXTRACTION SUMMARY:\nTotal claims: 12\nBy type: DATE: 4, STATISTIC: 3, ATTRIBUTION: 2, TECHNICAL: 2, COMPARISON: 1"

var seedClaims = []ExtractedClaim{
	{ID: "claim_1", Claim: "ARPANET was funded by the U.S. Department of Defense in 1969", Context: "The Internet originated from ARPANET, a project funded by the U.S. Department of Defense in 1969.", Type: "DATE"},
	{ID: "claim_2", Claim: "The first message sent on ARPANET was 'LO'", Context: "The first message sent was 'LO' — the system crashed before 'LOGIN' could be completed.", Type: "ATTRIBUTION"},
	{ID: "claim_3", Claim: "Tim Berners-Lee invented the World Wide Web in 1989 at CERN", Context: "Tim Berners-Lee invented the World Wide Web in 1989 at CERN.", Type: "DATE"},
}

func TestParseClaims(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []ExtractedClaim
	}{
		{"seed row", seedExtraction, seedClaims},
		{"CRLF, lower case, bold and renumbered", "**claim 7:** Water boils at 100 C at sea level\r\ncontext: Water boils at 100 C at sea level.\r\ntype: technical\r\n",
			[]ExtractedClaim{{ID: "claim_1", Claim: "Water boils at 100 C at sea level", Context: "Water boils at 100 C at sea level.", Type: "TECHNICAL"}}},
		{"fallback: missing context and unknown type", "Here are the claims.\n\nClaim 1: The Eiffel Tower is 330 m tall\nType: MEASUREMENT\n\nClaim 2. Paris hosted the 1900 Olympics\nContext: In 1900 Paris hosted the Olympics.\n\nEXTRACTION SUMMARY:\nTotal claims: 2",
			[]ExtractedClaim{
				{ID: "claim_1", Claim: "The Eiffel Tower is 330 m tall", Context: "The Eiffel Tower is 330 m tall", Type: "TECHNICAL"},
				{ID: "claim_2", Claim: "Paris hosted the 1900 Olympics", Context: "In 1900 Paris hosted the Olympics.", Type: "TECHNICAL"},
			}},
		{"fallback: claim on the next line", "CLAIM 1:\nThe Moon is 384,400 km from Earth\nContext: x\nType: STATISTIC",
			[]ExtractedClaim{{ID: "claim_1", Claim: "The Moon is 384,400 km from Earth", Context: "x", Type: "STATISTIC"}}},
		{"nothing", "I could not find any verifiable claims in this content.", nil},
		{"summary only", "EXTRACTION SUMMARY:\nTotal claims: 0\nBy type: none", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, parseClaims(tt.text)); diff != "" {
				t.Errorf("parseClaims (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseClaimsBoundsFields(t *testing.T) {
	long := strings.Repeat("x", 3*maxFieldChars)
	got := parseClaims("CLAIM 1: " + long + "\nContext: " + long + "\nType: DATE")
	if len(got) != 1 || len(got[0].Claim) != maxFieldChars || len(got[0].Context) != maxFieldChars {
		t.Fatalf("fields not clipped to %d: %d claims", maxFieldChars, len(got))
	}
}

func TestDedupeClaims(t *testing.T) {
	in := []ExtractedClaim{
		{ID: "claim_1", Claim: "A is 1"},
		{ID: "claim_2", Claim: "B is 2"},
		{ID: "claim_3", Claim: "A is 1"},
		{ID: "claim_4", Claim: "A is 1."},
	}
	want := []ExtractedClaim{{ID: "claim_1", Claim: "A is 1"}, {ID: "claim_2", Claim: "B is 2"}, {ID: "claim_3", Claim: "A is 1."}}
	if diff := cmp.Diff(want, dedupeClaims(in)); diff != "" {
		t.Errorf("dedupeClaims (-want +got):\n%s", diff)
	}
}

// seedVerification is the verify row's content of seed 001 section G.
const seedVerification = "VERIFICATION claim_1: VERIFIED\nEvidence: ARPANET was indeed funded by ARPA (Advanced Research Projects Agency), part of the U.S. Department of Defense. The first ARPANET link was established on October 29, 1969.\nCorrection: N/A\nConfidence: HIGH\n\nVERIFICATION claim_2: VERIFIED\nEvidence: The first message on ARPANET was intended to be 'LOGIN' but the system crashed after 'LO'. This occurred on October 29, 1969, between UCLA and SRI.\nCorrection: N/A\nConfidence: HIGH\n\nVERIFICATION claim_3: DISPUTED\nEvidence: Tim Berners-Lee proposed the World Wide Web in 1989 but the first website went live in 1991. 'Invented' is slightly misleading — he proposed the concept in 1989 and implemented it by 1991.\nCorrection: Tim Berners-Lee proposed the World Wide Web in 1989; the first website launched in 1991.\nConfidence: MEDIUM\n\n...\n\nVERIFICATION SUMMARY:\nVerified: 9\nDisputed: 2\nUnverifiable: 1"

func TestParseVerifications(t *testing.T) {
	ids := []string{"claim_1", "claim_2", "claim_3"}
	missing := func(id string) ClaimVerification {
		return ClaimVerification{ClaimID: id, Verdict: Unverifiable, Evidence: missingEvidence, Confidence: Low, CheckerModel: "m"}
	}
	tests := []struct {
		name string
		text string
		want []ClaimVerification
	}{
		{"seed row", seedVerification, []ClaimVerification{
			{ClaimID: "claim_1", Verdict: Verified, Evidence: "ARPANET was indeed funded by ARPA (Advanced Research Projects Agency), part of the U.S. Department of Defense. The first ARPANET link was established on October 29, 1969.", Confidence: High, CheckerModel: "m"},
			{ClaimID: "claim_2", Verdict: Verified, Evidence: "The first message on ARPANET was intended to be 'LOGIN' but the system crashed after 'LO'. This occurred on October 29, 1969, between UCLA and SRI.", Confidence: High, CheckerModel: "m"},
			{ClaimID: "claim_3", Verdict: Disputed, Evidence: "Tim Berners-Lee proposed the World Wide Web in 1989 but the first website went live in 1991. 'Invented' is slightly misleading — he proposed the concept in 1989 and implemented it by 1991.", Correction: new("Tim Berners-Lee proposed the World Wide Web in 1989; the first website launched in 1991."), Confidence: Medium, CheckerModel: "m"},
		}},
		{"wrong ids dropped, bare numbers matched, missing made unverifiable", "VERIFICATION claim_9: DISPUTED\nEvidence: e9\nCorrection: c9\nConfidence: HIGH\n\nVERIFICATION 2: disputed\nEvidence: two\nlines\nCorrection: \"N/A\"\nConfidence: low\n\n**VERIFICATION Claim 3:** VERIFIED\nEvidence: three\nCorrection: ignored when verified\nConfidence: MEDIUM",
			[]ClaimVerification{
				missing("claim_1"),
				{ClaimID: "claim_2", Verdict: Disputed, Evidence: "two\nlines", Confidence: Low, CheckerModel: "m"},
				{ClaimID: "claim_3", Verdict: Verified, Evidence: "three", Confidence: Medium, CheckerModel: "m"},
			}},
		{"first verdict for a claim wins", "VERIFICATION claim_1: VERIFIED\nEvidence: a\nCorrection: N/A\nConfidence: HIGH\nVERIFICATION claim_1: DISPUTED\nEvidence: b\nCorrection: x\nConfidence: HIGH",
			[]ClaimVerification{{ClaimID: "claim_1", Verdict: Verified, Evidence: "a", Confidence: High, CheckerModel: "m"}, missing("claim_2"), missing("claim_3")}},
		{"malformed: nothing parsed", "All claims look right to me.", []ClaimVerification{missing("claim_1"), missing("claim_2"), missing("claim_3")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, parseVerifications(tt.text, "m", ids)); diff != "" {
				t.Errorf("parseVerifications (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFormatRoundTrips(t *testing.T) {
	if diff := cmp.Diff(seedClaims, parseClaims(formatClaims(seedClaims))); diff != "" {
		t.Errorf("parseClaims(formatClaims) (-want +got):\n%s", diff)
	}
	vs := []ClaimVerification{
		{ClaimID: "claim_1", Verdict: Verified, Evidence: "e1", Confidence: High, CheckerModel: BuiltinEvidence},
		{ClaimID: "claim_2", Verdict: Disputed, Evidence: "e2", Correction: new("c2"), Confidence: Medium, CheckerModel: BuiltinEvidence},
		{ClaimID: "claim_3", Verdict: Unverifiable, Evidence: "e3", Confidence: Low, CheckerModel: BuiltinEvidence},
	}
	if diff := cmp.Diff(vs, parseVerifications(formatVerifications(vs), BuiltinEvidence, []string{"claim_1", "claim_2", "claim_3"})); diff != "" {
		t.Errorf("parseVerifications(formatVerifications) (-want +got):\n%s", diff)
	}
}
