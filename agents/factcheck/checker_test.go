package factcheck

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/verify"
)

// fakeVerifier answers from a map of claim to result; a missing claim is
// Not enough evidence with no passages.
type fakeVerifier struct {
	mu      sync.Mutex
	results map[string]evidence.Result
	errs    map[string]error
	calls   []string
}

func (f *fakeVerifier) Verify(ctx context.Context, req verify.Request) (evidence.Result, error) {
	f.mu.Lock()
	f.calls = append(f.calls, req.Claim)
	res, ok := f.results[req.Claim]
	err := f.errs[req.Claim]
	f.mu.Unlock()
	if err != nil {
		return evidence.Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return evidence.Result{}, err
	}
	if !ok {
		res = evidence.Result{Claim: req.Claim, Verdict: evidence.NotEnoughEvidence, Score: 12}
	}
	return res, nil
}

var published = time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC)

func TestFromEvidence(t *testing.T) {
	cite := evidence.Citation{URL: "https://un.org/a", Title: "UN", Domain: "un.org", PublishedAt: published, Snippet: "Signed by 196\nparties.", SourceID: "s1"}
	contra := evidence.Judged{Passage: evidence.Passage{Text: "It was signed by 195 parties.", Domain: "ipcc.ch", Title: "IPCC", SourceID: "s2"}, Judgment: evidence.Judgment{Contradict: 0.95}}
	weak := evidence.Judged{Passage: evidence.Passage{Text: "Unrelated.", SourceID: "s3"}, Judgment: evidence.Judgment{Contradict: 0.1}}
	tests := []struct {
		name           string
		res            evidence.Result
		wantVerdict    string
		wantConfidence string
		wantCorrection *string
	}{
		{"supported, high score", evidence.Result{Verdict: evidence.Supported, Score: 91, Citations: []evidence.Citation{cite}, Passages: []evidence.Judged{weak}}, Verified, High, nil},
		{"supported, lower score", evidence.Result{Verdict: evidence.Supported, Score: 80, Passages: []evidence.Judged{weak}}, Verified, Medium, nil},
		{"refuted, strong contradiction", evidence.Result{Verdict: evidence.Refuted, Score: 5, Features: evidence.Features{CMax: 0.95}, Passages: []evidence.Judged{weak, contra}},
			Disputed, High, new(`According to IPCC (ipcc.ch): "It was signed by 195 parties."`)},
		{"refuted, weaker contradiction", evidence.Result{Verdict: evidence.Refuted, Score: 20, Features: evidence.Features{CMax: 0.75}, Passages: []evidence.Judged{contra}},
			Disputed, Medium, new(`According to IPCC (ipcc.ch): "It was signed by 195 parties."`)},
		{"contested", evidence.Result{Verdict: evidence.Contested, Score: 50, Passages: []evidence.Judged{contra}},
			Disputed, Low, new(`According to IPCC (ipcc.ch): "It was signed by 195 parties."`)},
		{"not enough evidence", evidence.Result{Verdict: evidence.NotEnoughEvidence, Score: 30}, Unverifiable, Low, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fromEvidence("claim_4", tt.res)
			if got.ClaimID != "claim_4" || got.CheckerModel != BuiltinEvidence {
				t.Errorf("id/model = %q/%q", got.ClaimID, got.CheckerModel)
			}
			if got.Verdict != tt.wantVerdict || got.Confidence != tt.wantConfidence {
				t.Errorf("verdict = %s %s, want %s %s", got.Verdict, got.Confidence, tt.wantVerdict, tt.wantConfidence)
			}
			if diff := cmp.Diff(tt.wantCorrection, got.Correction); diff != "" {
				t.Errorf("correction (-want +got):\n%s", diff)
			}
			if !strings.Contains(got.Evidence, string(tt.res.Verdict)) || strings.Contains(got.Evidence, "\n") {
				t.Errorf("evidence %q should name the verdict on one line", got.Evidence)
			}
			if len(got.Citations) != len(tt.res.Citations) {
				t.Errorf("citations = %d, want %d", len(got.Citations), len(tt.res.Citations))
			}
		})
	}
	got := fromEvidence("claim_1", evidence.Result{Verdict: evidence.Supported, Score: 91, Citations: []evidence.Citation{cite}})
	want := []Citation{{URL: "https://un.org/a", Title: "UN", Domain: "un.org", PublishedAt: published, Snippet: "Signed by 196\nparties.", SourceID: "s1"}}
	if diff := cmp.Diff(want, got.Citations); diff != "" {
		t.Errorf("citations (-want +got):\n%s", diff)
	}
	if !strings.Contains(got.Evidence, `Source: UN (un.org): "Signed by 196 parties."`) {
		t.Errorf("evidence does not quote the citation: %q", got.Evidence)
	}
}

func TestEvidenceCheck(t *testing.T) {
	claims := []ExtractedClaim{{ID: "claim_1", Claim: "a"}, {ID: "claim_2", Claim: "b"}, {ID: "claim_3", Claim: "c"}}
	f := &fakeVerifier{
		results: map[string]evidence.Result{"a": {Verdict: evidence.Supported, Score: 95}},
		errs:    map[string]error{"c": evidence.Invalid("claim", "is 1200 characters; the limit is 1000")},
	}
	got, err := evidenceCheck(context.Background(), f, claims, 2)
	if err != nil {
		t.Fatal(err)
	}
	verdicts := []string{got[0].Verdict, got[1].Verdict, got[2].Verdict}
	if diff := cmp.Diff([]string{Verified, Unverifiable, Unverifiable}, verdicts); diff != "" {
		t.Errorf("verdicts (-want +got):\n%s", diff)
	}
	if !strings.Contains(got[2].Evidence, "could not check") {
		t.Errorf("rejected claim's evidence = %q", got[2].Evidence)
	}

	backendDown := errors.New("judge unavailable")
	f.errs["b"] = backendDown
	if _, err := evidenceCheck(context.Background(), f, claims, 2); !errors.Is(err, backendDown) {
		t.Errorf("err = %v, want the backend error", err)
	}
}
