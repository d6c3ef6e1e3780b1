package scoring

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/verity-fc/verity/evidence"
)

func judged(id, domain string, e, c, rel, rec float64) evidence.Judged {
	return evidence.Judged{
		Passage:  evidence.Passage{ID: id, SourceID: id, Domain: domain, Reliability: rel, Text: "passage " + id},
		Judgment: evidence.Judgment{Entail: e, Contradict: c, Neutral: 1 - e - c},
		Recency:  rec,
	}
}

func TestFeatures(t *testing.T) {
	s := New(DefaultConfig(), nil)
	tests := []struct {
		name string
		in   []evidence.Judged
		want evidence.Features
	}{
		{"empty", nil, evidence.Features{NumOK: 0.5}},
		{
			"mixed domains and a domainless source",
			[]evidence.Judged{
				judged("p1", "a.com", 0.9, 0.05, 0.8, 0.6),
				judged("p2", "b.org", 0.7, 0.1, 0.6, 0.9),
				judged("p3", "a.com", 0.65, 0.2, 0.8, 0.3),
				judged("p4", "c.net", 0.1, 0.6, 0.4, 1.0),
				judged("s1", "", 0.62, 0.3, 0.5, 0.5),
			},
			// top-3 by entailment: p1 .9, p2 .7, p3 .65; agreeing origins: a.com, b.org, source:s1.
			evidence.Features{EMax: 0.9, EMean3: 0.75, CMax: 0.6, AgreeDom: 3, RelAvg: (0.8 + 0.6 + 0.8) / 3, RecMax: 1.0, NumOK: 0.5},
		},
		{
			"agreement needs entail >= 0.6 and contradict < 0.5",
			[]evidence.Judged{
				judged("p1", "a.com", 0.6, 0.0, 1, 0),
				judged("p2", "b.com", 0.59, 0.0, 1, 0),
				judged("p3", "c.com", 0.6, 0.5, 1, 0),
			},
			evidence.Features{EMax: 0.6, EMean3: (0.6 + 0.6 + 0.59) / 3, CMax: 0.5, AgreeDom: 1, RelAvg: 1, NumOK: 0.5},
		},
		{
			"one passage: means over what was judged",
			[]evidence.Judged{judged("p1", "a.com", 0.8, 0.1, 0.9, 0.4)},
			evidence.Features{EMax: 0.8, EMean3: 0.8, CMax: 0.1, AgreeDom: 1, RelAvg: 0.9, RecMax: 0.4, NumOK: 0.5},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := s.Features(tt.in)
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
				t.Errorf("Features mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFeaturesNumOK(t *testing.T) {
	s := New(DefaultConfig(), nil)
	ok := judged("p1", "a.com", 0.9, 0, 1, 1)
	ok.Num = evidence.NumCheck{Applicable: true, OK: true}
	bad := judged("p2", "b.com", 0.8, 0, 1, 1)
	bad.Num = evidence.NumCheck{Applicable: true, OK: false}
	far := judged("p3", "c.com", 0.1, 0, 1, 1) // outside the top three
	far.Num = evidence.NumCheck{Applicable: true, OK: false}
	tests := []struct {
		name string
		in   []evidence.Judged
		want float64
	}{
		{"all agree", []evidence.Judged{ok}, 1},
		{"one disagrees", []evidence.Judged{ok, bad}, 0},
		{"none applicable", []evidence.Judged{judged("p", "a.com", 0.9, 0, 1, 1)}, 0.5},
		{"only top three count", []evidence.Judged{ok, ok, ok, far}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := s.Features(tt.in).NumOK; got != tt.want {
				t.Errorf("NumOK = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRawAndScore(t *testing.T) {
	s := New(DefaultConfig(), nil)
	tests := []struct {
		name      string
		f         evidence.Features
		wantRaw   float64
		wantScore int
	}{
		// 0.40*.95 + 0.20*.88 + 0.15*1 + 0.15*.85 + 0.10*1 - 0.25*.12 = 0.9035; sigmoid(2.69) = 0.9364
		{"seed example", evidence.Features{EMax: 0.95, EMean3: 0.88, CMax: 0.12, AgreeDom: 4, RelAvg: 0.85, RecMax: 1}, 0.9035, 94},
		// raw 0: sigmoid(-3.333) = 0.0344
		{"nothing", evidence.Features{NumOK: 0.5}, 0, 3},
		// 0.04 + 0.01 + 0 + 0.105 + 0.08 - 0.225 = 0.01; sigmoid(-3.267) = 0.0367
		{"refuting", evidence.Features{EMax: 0.1, EMean3: 0.05, CMax: 0.9, RelAvg: 0.7, RecMax: 0.8}, 0.01, 4},
		// 0.36 + 0.15 + 0.15 + 0.11 + 0.10 - 0.15 = 0.72; sigmoid(1.4667) = 0.8125
		{"features example", evidence.Features{EMax: 0.9, EMean3: 0.75, CMax: 0.6, AgreeDom: 3, RelAvg: 2.2 / 3, RecMax: 1}, 0.72, 81},
		// agree_dom saturates at 3: raw 0.15; sigmoid(-2.333) = 0.0884
		{"agree_dom capped", evidence.Features{AgreeDom: 9, NumOK: 0.5}, 0.15, 9},
		// raw exactly at the centre maps to 50
		{"centre", evidence.Features{EMax: 1, EMean3: 0.5, NumOK: 0.5}, 0.5, 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := s.Raw(tt.f); !approx(got, tt.wantRaw) {
				t.Errorf("Raw = %v, want %v", got, tt.wantRaw)
			}
			if got := s.Score(tt.f); got != tt.wantScore {
				t.Errorf("Score = %d, want %d", got, tt.wantScore)
			}
		})
	}
}

func approx(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

type fixedCal float64

func (c fixedCal) Probability(evidence.Features) float64 { return float64(c) }

func TestScoreUsesCalibration(t *testing.T) {
	f := evidence.Features{EMax: 0.95, EMean3: 0.88, AgreeDom: 4, RelAvg: 0.85, RecMax: 1}
	for _, tt := range []struct {
		p    float64
		want int
	}{{0.734, 73}, {1.7, 100}, {-0.2, 0}} {
		if got := New(DefaultConfig(), fixedCal(tt.p)).Score(f); got != tt.want {
			t.Errorf("calibrated Score with p=%v = %d, want %d", tt.p, got, tt.want)
		}
	}
}

func TestNumOKWeight(t *testing.T) {
	cfg := DefaultConfig()
	cfg.WNumOK = 0.1
	s := New(cfg, nil)
	if got := s.Raw(evidence.Features{NumOK: 1}); !approx(got, 0.05) {
		t.Errorf("Raw with num_ok 1 = %v, want 0.05", got)
	}
	if got := s.Raw(evidence.Features{NumOK: 0}); !approx(got, -0.05) {
		t.Errorf("Raw with num_ok 0 = %v, want -0.05", got)
	}
}

func TestVerdict(t *testing.T) {
	s := New(DefaultConfig(), nil)
	tests := []struct {
		name string
		f    evidence.Features
		want evidence.Verdict
	}{
		{"supported", evidence.Features{EMax: 0.8, CMax: 0.3, AgreeDom: 2}, evidence.Supported},
		{"supported at the thresholds", evidence.Features{EMax: 0.7, CMax: 0.39, AgreeDom: 2}, evidence.Supported},
		{"one domain is not enough", evidence.Features{EMax: 0.95, CMax: 0.0, AgreeDom: 1}, evidence.NotEnoughEvidence},
		{"contradiction 0.40 blocks support", evidence.Features{EMax: 0.9, CMax: 0.40, AgreeDom: 3}, evidence.NotEnoughEvidence},
		{"contested is checked first", evidence.Features{EMax: 0.8, CMax: 0.75, AgreeDom: 3}, evidence.Contested},
		{"contested at the thresholds", evidence.Features{EMax: 0.7, CMax: 0.5}, evidence.Contested},
		{"refuted", evidence.Features{EMax: 0.2, CMax: 0.75}, evidence.Refuted},
		{"refuted at the threshold", evidence.Features{EMax: 0.69, CMax: 0.7}, evidence.Refuted},
		{"weak both ways", evidence.Features{EMax: 0.5, CMax: 0.5}, evidence.NotEnoughEvidence},
		{"empty", evidence.Features{}, evidence.NotEnoughEvidence},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := s.Verdict(tt.f); got != tt.want {
				t.Errorf("Verdict(%+v) = %q, want %q", tt.f, got, tt.want)
			}
		})
	}
}

func TestCitations(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2024, 1, d, 0, 0, 0, 0, time.UTC) }
	p := func(id, domain string, e, c float64, published time.Time) evidence.Judged {
		j := judged(id, domain, e, c, 0.5, 0.5)
		j.URL = "https://" + domain + "/" + id
		j.PublishedAt = published
		return j
	}
	ids := func(cs []evidence.Citation) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.SourceID)
		}
		return out
	}
	tests := []struct {
		name string
		in   []evidence.Judged
		v    evidence.Verdict
		max  int
		want []string
	}{
		{"none", nil, evidence.NotEnoughEvidence, 3, nil},
		{
			"highest entailment, one per domain",
			[]evidence.Judged{p("a1", "a.com", 0.9, 0, day(1)), p("a2", "a.com", 0.85, 0, day(2)), p("b1", "b.com", 0.6, 0, day(1)), p("c1", "c.com", 0.3, 0, day(1))},
			evidence.Supported, 3, []string{"a1", "b1", "c1"},
		},
		{
			"newest wins within the same band",
			[]evidence.Judged{p("old", "a.com", 0.91, 0, day(1)), p("new", "b.com", 0.90, 0, day(9)), p("c", "c.com", 0.2, 0, day(1))},
			evidence.Supported, 2, []string{"new", "old"},
		},
		{
			"a second passage of one domain fills up to two",
			[]evidence.Judged{p("a1", "a.com", 0.9, 0, day(1)), p("a2", "a.com", 0.8, 0, day(1))},
			evidence.Supported, 3, []string{"a1", "a2"},
		},
		{
			"refuted cites contradiction",
			[]evidence.Judged{p("e", "a.com", 0.9, 0.0, day(1)), p("c1", "b.com", 0.0, 0.95, day(1)), p("c2", "c.com", 0.0, 0.8, day(1))},
			evidence.Refuted, 2, []string{"c1", "c2"},
		},
		{
			"contested leads with both sides",
			[]evidence.Judged{p("e1", "a.com", 0.9, 0.0, day(1)), p("e2", "b.com", 0.85, 0.0, day(1)), p("c1", "c.com", 0.05, 0.9, day(1))},
			evidence.Contested, 2, []string{"e1", "c1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Citations(tt.in, tt.v, tt.max)
			if diff := cmp.Diff(tt.want, ids(got)); diff != "" {
				t.Errorf("Citations mismatch (-want +got):\n%s", diff)
			}
			for _, c := range got {
				if c.URL == "" || c.Snippet == "" {
					t.Errorf("citation %+v lacks url or snippet", c)
				}
			}
		})
	}
}

func TestSnippet(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short  text\n here", 50, "short text here"},
		{"the quick brown fox jumps over", 20, "the quick brown fox…"},
		{"ééééé ééééé", 7, "ééééé…"},
	}
	for _, tt := range tests {
		if got := Snippet(tt.in, tt.n); got != tt.want {
			t.Errorf("Snippet(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("default config invalid: %v", err)
	}
	bad := DefaultConfig()
	bad.SigmoidScale = 0
	if bad.Validate() == nil {
		t.Error("zero sigmoid scale accepted")
	}
	bad = DefaultConfig()
	bad.RefutedCMax = 1.5
	if bad.Validate() == nil {
		t.Error("threshold above 1 accepted")
	}
}
