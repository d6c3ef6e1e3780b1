package verify

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/retrieval"
	"github.com/verity-fc/verity/scoring"
)

type fakeRetriever struct {
	passages []evidence.Judged
	got      retrieval.Options
	err      error
}

func (f *fakeRetriever) Retrieve(_ context.Context, _ string, opts retrieval.Options) ([]evidence.Judged, error) {
	f.got = opts
	return f.passages, f.err
}

// keywordJudge entails passages containing "yes" and contradicts those
// containing "no".
type keywordJudge struct{ err error }

func (k keywordJudge) Judge(_ context.Context, _ string, ps []string) ([]evidence.Judgment, error) {
	if k.err != nil {
		return nil, k.err
	}
	out := make([]evidence.Judgment, len(ps))
	for i, p := range ps {
		switch {
		case strings.Contains(p, "yes"):
			out[i] = evidence.Judgment{Entail: 0.9, Contradict: 0.05, Neutral: 0.05}
		case strings.Contains(p, "no"):
			out[i] = evidence.Judgment{Entail: 0.05, Contradict: 0.9, Neutral: 0.05}
		default:
			out[i] = evidence.Judgment{Neutral: 1}
		}
	}
	return out, nil
}

func noNumbers(string, string) evidence.NumCheck { return evidence.NumCheck{} }

func passage(id, domain, text string) evidence.Judged {
	return evidence.Judged{Passage: evidence.Passage{ID: id, SourceID: id, Domain: domain, URL: "https://" + domain + "/" + id, Text: text, Reliability: 0.8}, Recency: 0.9}
}

func newService(r Retriever, j Judge) *Service {
	return New(r, j, scoring.New(scoring.DefaultConfig(), nil), noNumbers, Limits{})
}

func TestValidate(t *testing.T) {
	s := newService(&fakeRetriever{}, keywordJudge{})
	tests := []struct {
		name      string
		req       Request
		wantField string
	}{
		{"ok", Request{Claim: "The sky is blue.", K: 20, TopN: 6, Domains: []string{"nasa.gov"}, Since: "2020-01-01"}, ""},
		{"rfc3339 since", Request{Claim: "The bridge opened in 1937.", Since: "2020-01-01T00:00:00Z"}, ""},
		{"empty claim", Request{Claim: "   "}, "claim"},
		{"long claim", Request{Claim: strings.Repeat("a", 1001)}, "claim"},
		{"k too big", Request{Claim: "The bridge opened in 1937.", K: 201}, "k"},
		{"k negative", Request{Claim: "The bridge opened in 1937.", K: -1}, "k"},
		{"top_n too big", Request{Claim: "The bridge opened in 1937.", TopN: 21}, "top_n"},
		{"top_n over k", Request{Claim: "The bridge opened in 1937.", K: 3, TopN: 4}, "top_n"},
		{"bad domain", Request{Claim: "The bridge opened in 1937.", Domains: []string{"https://a.com/"}}, "domains[0]"},
		{"empty domain", Request{Claim: "The bridge opened in 1937.", Domains: []string{"a.com", ""}}, "domains[1]"},
		{"too many domains", Request{Claim: "The bridge opened in 1937.", Domains: make([]string, 51)}, "domains"},
		{"bad since", Request{Claim: "The bridge opened in 1937.", Since: "last year"}, "since"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Validate(tt.req)
			if tt.wantField == "" {
				if err != nil {
					t.Fatalf("Validate: unexpected error %v", err)
				}
				return
			}
			var ie *evidence.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("Validate error = %v, want *evidence.InputError", err)
			}
			if ie.Field != tt.wantField {
				t.Errorf("field = %q, want %q (%v)", ie.Field, tt.wantField, err)
			}
		})
	}
}

func TestVerifyEmptyCorpus(t *testing.T) {
	s := newService(&fakeRetriever{}, keywordJudge{})
	res, err := s.Verify(context.Background(), Request{Claim: "The sky is blue at noon."})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != evidence.NotEnoughEvidence {
		t.Errorf("verdict = %q, want Not enough evidence", res.Verdict)
	}
	if res.Score != 3 { // round(100*sigmoid((0-0.5)/0.15))
		t.Errorf("score = %d, want 3", res.Score)
	}
	if res.Passages == nil || res.Citations == nil {
		t.Error("passages and citations must be empty lists, not nil")
	}
	if _, ok := res.TimingsMS["total"]; !ok {
		t.Errorf("timings lack total: %v", res.TimingsMS)
	}
}

func TestVerifySupportedAndRefuted(t *testing.T) {
	tests := []struct {
		name     string
		passages []evidence.Judged
		want     evidence.Verdict
		cites    []string
	}{
		{"two domains agree", []evidence.Judged{passage("a", "a.com", "yes it is"), passage("b", "b.org", "yes indeed"), passage("c", "c.net", "unrelated")}, evidence.Supported, []string{"a", "b", "c"}},
		{"one domain only", []evidence.Judged{passage("a", "a.com", "yes it is"), passage("a2", "a.com", "yes again")}, evidence.NotEnoughEvidence, []string{"a", "a2"}},
		{"refuted", []evidence.Judged{passage("a", "a.com", "no it is not"), passage("b", "b.org", "unrelated")}, evidence.Refuted, []string{"a", "b"}},
		{"contested", []evidence.Judged{passage("a", "a.com", "yes it is"), passage("b", "b.org", "no it is not")}, evidence.Contested, []string{"a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newService(&fakeRetriever{passages: tt.passages}, keywordJudge{})
			res, err := s.Verify(context.Background(), Request{Claim: "It is."})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != tt.want {
				t.Errorf("verdict = %q, want %q (features %+v)", res.Verdict, tt.want, res.Features)
			}
			var got []string
			for _, c := range res.Citations {
				got = append(got, c.SourceID)
			}
			if diff := cmp.Diff(tt.cites, got); diff != "" {
				t.Errorf("citations (-want +got):\n%s", diff)
			}
			if len(res.Passages) != len(tt.passages) {
				t.Fatalf("got %d passages, want %d", len(res.Passages), len(tt.passages))
			}
			for _, p := range res.Passages {
				if sum := p.Entail + p.Contradict + p.Neutral; sum < 0.999 || sum > 1.001 {
					t.Errorf("passage %s probabilities sum to %v", p.ID, sum)
				}
			}
		})
	}
}

func TestVerifyPassesOptions(t *testing.T) {
	r := &fakeRetriever{}
	s := newService(r, keywordJudge{})
	if _, err := s.Verify(context.Background(), Request{Claim: "The bridge opened in 1937.", K: 30, TopN: 7, Domains: []string{"WWW.Example.com"}, Since: "2021-03-04"}); err != nil {
		t.Fatal(err)
	}
	want := retrieval.Options{K: 30, TopN: 7, Domains: []string{"example.com"}, Since: time.Date(2021, 3, 4, 0, 0, 0, 0, time.UTC)}
	if diff := cmp.Diff(want, r.got); diff != "" {
		t.Errorf("options (-want +got):\n%s", diff)
	}
}

func TestVerifyErrors(t *testing.T) {
	boom := errors.New("boom")
	s := newService(&fakeRetriever{err: boom}, keywordJudge{})
	if _, err := s.Verify(context.Background(), Request{Claim: "The bridge opened in 1937."}); !errors.Is(err, boom) {
		t.Errorf("retriever error = %v, want wrapping boom", err)
	}
	s = newService(&fakeRetriever{passages: []evidence.Judged{passage("a", "a.com", "yes, the bridge opened in 1937")}}, keywordJudge{err: boom})
	if _, err := s.Verify(context.Background(), Request{Claim: "The bridge opened in 1937."}); !errors.Is(err, boom) {
		t.Errorf("judge error = %v, want wrapping boom", err)
	}
}

func TestAssessNumbersFeedNumOK(t *testing.T) {
	num := func(claim, p string) evidence.NumCheck {
		return evidence.NumCheck{Applicable: true, OK: !strings.Contains(p, "30")}
	}
	s := New(&fakeRetriever{}, keywordJudge{}, scoring.New(scoring.DefaultConfig(), nil), num, Limits{})
	res, err := s.Assess(context.Background(), "The company is worth $50B.", []evidence.Judged{passage("a", "a.com", "yes, the company is worth $30B")})
	if err != nil {
		t.Fatal(err)
	}
	if res.Features.NumOK != 0 || !res.Passages[0].Num.Applicable {
		t.Errorf("num_ok = %v, passage num = %+v; want 0 and applicable", res.Features.NumOK, res.Passages[0].Num)
	}
}
