package factcheck

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// v builds one checker's verdict on claim_1.
func v(verdict, confidence string, correction ...string) []ClaimVerification {
	cv := ClaimVerification{ClaimID: "claim_1", Verdict: verdict, Confidence: confidence}
	if len(correction) > 0 {
		cv.Correction = &correction[0]
	}
	return []ClaimVerification{cv}
}

func TestCalculateConsensus(t *testing.T) {
	claims := []ExtractedClaim{{ID: "claim_1", Claim: "c", Context: "ctx", Type: "DATE"}}
	type want struct {
		verdict    string
		confidence string
		agreement  float64
		correction *string
	}
	tests := []struct {
		name     string
		checkers [][]ClaimVerification
		want     want
	}{
		{"unanimous verified", [][]ClaimVerification{v(Verified, High), v(Verified, High), v(Verified, Medium)},
			want{Verified, High, 100, nil}},
		{"majority wins", [][]ClaimVerification{v(Verified, High), v(Disputed, Medium, "x"), v(Verified, Low)},
			want{Verified, Low, 66.7, nil}},
		{"majority disputed with most common correction", [][]ClaimVerification{
			v(Disputed, Medium, "it was 1991"), v(Disputed, Medium, "it was 1990"), v(Disputed, High, "it was 1990"), v(Verified, High)},
			want{Disputed, Medium, 75, new("it was 1990")}},
		{"verified/disputed tie goes to disputed", [][]ClaimVerification{v(Verified, High), v(Disputed, High, "y")},
			want{Disputed, Low, 50, new("y")}},
		{"two-two tie goes to disputed", [][]ClaimVerification{v(Verified, High), v(Disputed, High), v(Verified, High), v(Disputed, Medium, "z")},
			want{Disputed, Low, 50, new("z")}},
		{"verified/unverifiable tie goes to verified", [][]ClaimVerification{v(Unverifiable, Low), v(Verified, High)},
			want{Verified, Low, 50, nil}},
		{"disputed/unverifiable tie goes to disputed", [][]ClaimVerification{v(Disputed, High, "w"), v(Unverifiable, Low)},
			want{Disputed, Low, 50, new("w")}},
		{"three-way tie goes to disputed", [][]ClaimVerification{v(Verified, High), v(Disputed, Medium, "q"), v(Unverifiable, Low)},
			want{Disputed, Low, 33.3, new("q")}},
		{"majority unverifiable", [][]ClaimVerification{v(Unverifiable, Low), v(Unverifiable, Medium), v(Verified, High)},
			want{Unverifiable, Low, 66.7, nil}},
		{"confidence tie goes to the lower level", [][]ClaimVerification{v(Verified, High), v(Verified, Medium)},
			want{Verified, Medium, 100, nil}},
		{"correction tie goes to the first checker's", [][]ClaimVerification{v(Disputed, High, "b"), v(Disputed, High, "a")},
			want{Disputed, High, 100, new("b")}},
		{"disputed without corrections", [][]ClaimVerification{v(Disputed, High), v(Disputed, High, "")},
			want{Disputed, High, 100, nil}},
		{"single checker", [][]ClaimVerification{v(Disputed, Medium, "n")},
			want{Disputed, Medium, 100, new("n")}},
		{"no checkers", nil, want{Unverifiable, Low, 0, nil}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := calculateConsensus(claims, tt.checkers)
			if len(got) != 1 {
				t.Fatalf("got %d consensus entries, want 1", len(got))
			}
			g := want{got[0].ConsensusVerdict, got[0].ConsensusConfidence, got[0].AgreementRate, got[0].Correction}
			if diff := cmp.Diff(tt.want, g, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("consensus (-want +got):\n%s", diff)
			}
			if len(got[0].Verdicts) != len(tt.checkers) {
				t.Errorf("verdicts = %d, want one per checker (%d)", len(got[0].Verdicts), len(tt.checkers))
			}
			if got[0].Claim != "c" || got[0].Context != "ctx" || got[0].Type != "DATE" {
				t.Errorf("claim fields not carried over: %+v", got[0])
			}
		})
	}
}

func TestCalculateConsensusMatchesClaimsByID(t *testing.T) {
	claims := []ExtractedClaim{{ID: "claim_1"}, {ID: "claim_2"}}
	checker := []ClaimVerification{
		{ClaimID: "claim_2", Verdict: Disputed, Confidence: High},
		{ClaimID: "claim_1", Verdict: Verified, Confidence: High},
	}
	got := calculateConsensus(claims, [][]ClaimVerification{checker})
	if got[0].ConsensusVerdict != Verified || got[1].ConsensusVerdict != Disputed {
		t.Errorf("verdicts = %s, %s; want VERIFIED, DISPUTED", got[0].ConsensusVerdict, got[1].ConsensusVerdict)
	}
	if s := summarize(got); s != (Summary{Verified: 1, Disputed: 1}) {
		t.Errorf("summary = %+v", s)
	}
	if a := averageAgreement(got); a != 100 {
		t.Errorf("average agreement = %v, want 100", a)
	}
}
