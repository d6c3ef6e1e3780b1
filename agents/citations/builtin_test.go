package citations

import (
	"testing"

	"github.com/verity-fc/verity/nli"
)

// TestWithBuiltinJudge runs the checker end to end with the NLI model that
// ships with verity, on clear-cut pages.
func TestWithBuiltinJudge(t *testing.T) {
	judge, err := nli.LoadAligner()
	if err != nil {
		t.Fatal(err)
	}
	s := newSite(t)
	c := newChecker(t, Deps{Assessor: newService(corpusRetriever{}, judge)}, Config{})
	tests := []struct {
		name, claim, path, want, wantActual string
	}{
		{"supporting page", "A controlled trial found that AI tutoring doubles learning gains", "/study", StatusVerified, ""},
		{"same figure", "The global AI tutoring market was worth $50 billion in 2023", "/market-50b", StatusVerified, ""},
		{"other figure", "The global AI tutoring market was worth $50 billion in 2023", "/market-30b", StatusContradicted, "$30 billion"},
		{"other price", "Duolingo Super costs $4 per month for an individual learner", "/pricing", StatusContradicted, "$12.99"},
		{"unrelated page", "The global AI tutoring market was worth $50 billion in 2023", "/unrelated", StatusClaimNotInSource, ""},
		{"page that instructs the checker", "The global AI tutoring market was worth $50 billion in 2023", "/injection", StatusClaimNotInSource, ""},
		{"page that negates it", "The global AI tutoring market grew 20% in 2023", "/negated", StatusContradicted, ""},
		{"page that negates something else", "The global AI tutoring market grew 20% in 2023", "/grew", StatusVerified, ""},
		{"misattributed", "According to Khan Academy, 60% of students prefer online learning", "/pew", StatusMisattributed, ""},
		{"attributed", "According to Khan Academy, 60% of students prefer online learning", "/khan", StatusVerified, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := checkOne(t, c, tt.claim, s.URL+tt.path)
			if got := r.Claims[0].Citations[0].Status; got != tt.want {
				t.Errorf("status = %q, want %q (issues %+v)", got, tt.want, r.CitationIssues)
			}
			if tt.wantActual != "" && (len(r.CitationIssues) != 1 || r.CitationIssues[0].Actual != tt.wantActual) {
				t.Errorf("citation issues = %+v, want actual %q", r.CitationIssues, tt.wantActual)
			}
		})
	}
}
