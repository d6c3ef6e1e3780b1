package verify

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/scoring"
	"github.com/verity-fc/verity/sentences"
)

// mapJudge judges each passage by the first key of its map that the
// passage's text contains; neutral otherwise.
type mapJudge map[string]evidence.Judgment

func (m mapJudge) Judge(_ context.Context, _ string, ps []string) ([]evidence.Judgment, error) {
	out := make([]evidence.Judgment, len(ps))
	for i, p := range ps {
		out[i] = evidence.Judgment{Neutral: 1}
		for k, j := range m {
			if strings.Contains(p, k) {
				out[i] = j
				break
			}
		}
	}
	return out, nil
}

var (
	entails     = evidence.Judgment{Entail: 0.9, Contradict: 0.05, Neutral: 0.05}
	contradicts = evidence.Judgment{Entail: 0.05, Contradict: 0.9, Neutral: 0.05}
)

// dated is a passage from domain with reliability rel, published on day.
func dated(id, domain, text, day string, rel float64) evidence.Judged {
	p := passage(id, domain, text)
	p.Reliability = rel
	if day != "" {
		t, err := time.Parse("2006-01-02", day)
		if err != nil {
			panic(err)
		}
		p.PublishedAt = t
	}
	return p
}

func assess(t *testing.T, limits Limits, cfg scoring.Config, judge mapJudge, claim string, ps ...evidence.Judged) evidence.Result {
	t.Helper()
	s := New(&fakeRetriever{}, judge, scoring.New(cfg, nil), noNumbers, limits)
	s.now = func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }
	res, err := s.Assess(context.Background(), claim, ps)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestAboutness(t *testing.T) {
	for _, tc := range []struct {
		claim, passage string
		min, max       float64
	}{
		// Figures and dates are what a contradiction is about: they do not
		// count against aboutness.
		{"The Golden Gate Bridge opened in 1950.", "The Golden Gate Bridge opened to traffic in May 1937.", 1, 1},
		// A name the passage lacks weighs 2: the Brooklyn Bridge is another subject.
		{"The Brooklyn Bridge opened in 1883.", "The bridge opened in 1937. It is painted orange.", 0.6, 0.6},
		{"The Brooklyn Bridge opened in 1883.", "Paris is the capital of France.", 0, 0},
		// The best window of one or two sentences counts, not the whole passage.
		{"Sputnik 1 weighed about 84 kilograms.", "The space age began in 1957. Sputnik 1 was a polished sphere. It weighed 84 kilograms. Later satellites were heavier.", 1, 1},
		// Stems: "launched" and "launch" are one term.
		{"The Soviet Union launched Sputnik 1.", "The launch of Sputnik 1 by the Soviet Union shocked the world.", 1, 1},
		// A claim of figures only is about every passage.
		{"1937.", "Anything at all.", 1, 1},
		// A name's initials stand for it, either way round.
		{"The ISS has had a crew on board since 2000.", "The International Space Station has had a crew on board since 2000.", 1, 1},
		{"The International Space Station has had a crew on board since 2000.", "The ISS has had a crew on board since 2000.", 1, 1},
		// Initials match only a word the other text writes in capitals.
		{"The International Space Station has had a crew on board since 2000.", "The iss of the crew on board since 2000.", 0.25, 0.25},
	} {
		got := bestWindow(claimTerms(tc.claim), tc.passage).about
		if got < tc.min-1e-9 || got > tc.max+1e-9 {
			t.Errorf("about(%q, %q) = %.3f, want in [%.2f, %.2f]", tc.claim, tc.passage, got, tc.min, tc.max)
		}
	}
}

func TestRelevanceGate(t *testing.T) {
	claim := "The Brooklyn Bridge opened in 1883."
	judge := mapJudge{"Golden Gate": contradicts}
	ps := []evidence.Judged{
		passage("a", "a.com", "The Golden Gate Bridge opened in 1937."),
		passage("b", "b.com", "The Golden Gate bridge opened to traffic in 1937."),
	}
	res := assess(t, Limits{}, scoring.DefaultConfig(), judge, claim, ps...)
	if res.Verdict != evidence.NotEnoughEvidence || res.Reason.Code != evidence.ReasonNoRelevantEvidence {
		t.Errorf("verdict %s (%s), want Not enough evidence (no_relevant_evidence): %s", res.Verdict, res.Reason.Code, res.Reason.Text)
	}
	if res.Features.CMax != 0 {
		t.Errorf("c_max = %v, want 0: a passage about another bridge cannot contradict", res.Features.CMax)
	}
	for _, p := range res.Passages {
		if p.SetAside != evidence.SetAsideNotAbout || p.Contradict != 0.9 {
			t.Errorf("passage %s: set_aside %q, contradict %v; want %q and the judge's 0.9 kept for display", p.ID, p.SetAside, p.Contradict, evidence.SetAsideNotAbout)
		}
	}
	// The gate is configurable: off, the contradictions count again.
	res = assess(t, Limits{MinAbout: -1}, scoring.DefaultConfig(), judge, claim, ps...)
	if res.Verdict != evidence.Refuted {
		t.Errorf("with the gate off: verdict %s, want Refuted", res.Verdict)
	}
	// A passage about the claim's subject and event still contradicts it.
	res = assess(t, Limits{}, scoring.DefaultConfig(), mapJudge{"1937": contradicts}, "The Golden Gate Bridge opened in 1950.", ps...)
	if res.Verdict != evidence.Refuted || res.Reason.Code != evidence.ReasonRefuted {
		t.Errorf("changed date: verdict %s (%s), want Refuted (refuted)", res.Verdict, res.Reason.Code)
	}
}

func TestSuperseded(t *testing.T) {
	old := "2015 was the warmest year on record so far."
	newer := "2024 was the warmest year on record, ahead of every earlier year."
	for _, tc := range []struct {
		name   string
		claim  string
		judge  mapJudge
		ps     []evidence.Judged
		want   evidence.Verdict
		reason string
		// setAside is the id of the passage set aside as superseded, if any.
		setAside string
	}{
		{
			name:  "an older record statement does not contradict the newer fact",
			claim: "2024 was the warmest year on record.",
			judge: mapJudge{"2015": contradicts, "2024": entails},
			ps: []evidence.Judged{
				dated("old", "old.org", old, "2016-02-15", 0.9),
				dated("new1", "new1.org", newer, "2025-01-10", 0.9),
				dated("new2", "new2.org", "Records show that 2024 was the warmest year since measurements began.", "2025-01-12", 0.9),
			},
			want: evidence.Supported, reason: evidence.ReasonSupported, setAside: "old",
		},
		{
			name:  "a newer credible figure supersedes an older agreeing one",
			claim: "Solar power supplies about 1 percent of the world's electricity.",
			judge: mapJudge{"only about 1 percent": entails, "5.5 percent": contradicts},
			ps: []evidence.Judged{
				dated("old", "blog.net", "Solar power supplies only about 1 percent of the world's electricity.", "2015-09-14", 0.4),
				dated("new", "stats.org", "Solar power supplied 5.5 percent of the world's electricity in 2023.", "2024-05-08", 0.85),
			},
			want: evidence.Refuted, reason: evidence.ReasonSuperseded, setAside: "old",
		},
		{
			name:  "a newer passage that is less reliable does not supersede",
			claim: "Solar power supplies about 1 percent of the world's electricity.",
			judge: mapJudge{"only about 1 percent": entails, "5.5 percent": contradicts},
			ps: []evidence.Judged{
				dated("old", "stats.org", "Solar power supplies only about 1 percent of the world's electricity.", "2015-09-14", 0.85),
				dated("new", "blog.net", "Solar power supplied 5.5 percent of the world's electricity in 2023.", "2024-05-08", 0.4),
			},
			want: evidence.Contested, reason: evidence.ReasonContested,
		},
		{
			name:  "a statement that is not time-dependent is not superseded",
			claim: "Vitamin D supplements protect the heart.",
			judge: mapJudge{"supplements protect": entails, "do not protect": contradicts},
			ps: []evidence.Judged{
				dated("old", "blog.net", "Vitamin D supplements protect the heart.", "2015-11-02", 0.3),
				dated("new", "journal.org", "Vitamin D supplements do not protect the heart.", "2019-01-03", 0.9),
			},
			want: evidence.Contested, reason: evidence.ReasonContested,
		},
		{
			name:  "a passage a few weeks newer does not supersede",
			claim: "Solar power supplies about 1 percent of the world's electricity.",
			judge: mapJudge{"only about 1 percent": entails, "5.5 percent": contradicts},
			ps: []evidence.Judged{
				dated("old", "blog.net", "Solar power supplies only about 1 percent of the world's electricity.", "2024-04-01", 0.4),
				dated("new", "stats.org", "Solar power supplied 5.5 percent of the world's electricity in 2023.", "2024-05-08", 0.85),
			},
			want: evidence.Contested, reason: evidence.ReasonContested,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := assess(t, Limits{}, scoring.DefaultConfig(), tc.judge, tc.claim, tc.ps...)
			if res.Verdict != tc.want || res.Reason.Code != tc.reason {
				t.Errorf("verdict %s (%s), want %s (%s): %s", res.Verdict, res.Reason.Code, tc.want, tc.reason, res.Reason.Text)
			}
			for _, p := range res.Passages {
				if got := p.ID == tc.setAside; got != (p.SetAside == evidence.SetAsideSuperseded) {
					t.Errorf("passage %s set aside %q, want superseded: %v", p.ID, p.SetAside, got)
				}
			}
		})
	}
}

func TestExplicitYear(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for claim, want := range map[string]int{
		"2024 was the warmest year on record.":                              0,
		"Renewables generated 30 percent of electricity in 2023.":           2023,
		"More than 9,000 spacecraft orbited Earth at the start of 2024.":    2024,
		"As of 2024, the census counts 9,400 spacecraft.":                   2024,
		"Carbon dioxide topped 415 ppm in May 2019.":                        2019,
		"The station will be steered into the Pacific in 2030.":             0,
		"The partners plan to operate the station until 2030.":              0,
		"The bridge opened in 1937 and was retrofitted in 1997.":            1997,
		"Most of the growth since 2019 comes from broadband constellations": 0,
	} {
		if got := explicitYear(claim, now); got != want {
			t.Errorf("explicitYear(%q) = %d, want %d", claim, got, want)
		}
	}
}

func TestClaimTimeSetsAsideOlderPassages(t *testing.T) {
	claim := "About 1.7 million tonnes of plastic reached the ocean in 2019."
	judge := mapJudge{"8 million": contradicts, "1.7 million": entails}
	res := assess(t, Limits{}, scoring.DefaultConfig(), judge, claim,
		dated("old", "digest.net", "About 8 million tonnes of plastic reached the ocean in 2010.", "2015-02-13", 0.65),
		dated("new1", "research.org", "About 1.7 million tonnes of plastic reached the ocean in 2019.", "2022-06-01", 0.9),
		dated("new2", "agency.org", "Roughly 1.7 million tonnes of plastic flowed into the ocean in 2019.", "2023-11-20", 0.9),
	)
	if res.Verdict != evidence.Supported {
		t.Errorf("verdict %s (%s), want Supported", res.Verdict, res.Reason.Text)
	}
	if res.Passages[0].SetAside != evidence.SetAsideBeforeClaimTime {
		t.Errorf("passage of 2015 set aside %q, want %q", res.Passages[0].SetAside, evidence.SetAsideBeforeClaimTime)
	}
	// Every passage older than the claim's time: no relevant evidence.
	res = assess(t, Limits{}, scoring.DefaultConfig(), judge, "About 1.7 million tonnes of plastic reached the ocean in 2019.",
		dated("old", "digest.net", "About 8 million tonnes of plastic reached the ocean in 2010.", "2015-02-13", 0.65))
	if res.Reason.Code != evidence.ReasonNoRelevantEvidence || !strings.Contains(res.Reason.Text, "before the time the claim names") {
		t.Errorf("reason %+v, want no_relevant_evidence naming the claim's time", res.Reason)
	}
}

func TestNearCopiesCountOnce(t *testing.T) {
	claim := "The first ARPANET message was sent on 29 October 1969."
	release := "On 29 October 1969 a student at UCLA sent the first message over the ARPANET to the Stanford Research Institute, the lab announced."
	judge := mapJudge{"ARPANET": entails}
	for _, tc := range []struct {
		name   string
		second string
		want   evidence.Verdict
		dom    int
	}{
		{"syndicated copy", "On 29 October 1969 a student at UCLA sent the first message over the ARPANET to the Stanford Research Institute, the lab announced on Monday.", evidence.NotEnoughEvidence, 1},
		{"independent report", "The first ARPANET message travelled from UCLA to SRI on 29 October 1969; the receiving system crashed after two letters.", evidence.Supported, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := assess(t, Limits{}, scoring.DefaultConfig(), judge, claim,
				dated("a", "wire.org", release, "2019-10-29", 0.8),
				dated("b", "paper.com", tc.second, "2019-10-30", 0.8))
			if res.Verdict != tc.want || res.Features.AgreeDom != tc.dom {
				t.Errorf("verdict %s, agree_dom %d; want %s, %d", res.Verdict, res.Features.AgreeDom, tc.want, tc.dom)
			}
			if tc.dom == 1 && (res.Passages[1].SameOriginAs != "wire.org" || res.Reason.Code != evidence.ReasonSingleOrigin) {
				t.Errorf("copy: same_origin_as %q, reason %s; want wire.org, single_origin", res.Passages[1].SameOriginAs, res.Reason.Code)
			}
		})
	}
	// The threshold is configurable: off, the copy counts as an origin.
	res := assess(t, Limits{NearCopy: -1}, scoring.DefaultConfig(), judge, claim,
		dated("a", "wire.org", release, "2019-10-29", 0.8), dated("b", "paper.com", release+" ", "2019-10-30", 0.8))
	if res.Features.AgreeDom != 2 {
		t.Errorf("near-copy check off: agree_dom %d, want 2", res.Features.AgreeDom)
	}
}

func TestSameSlotNumericMismatch(t *testing.T) {
	claim := "More than 9,000 active spacecraft orbited Earth in 2024."
	num := func(_, p string) evidence.NumCheck {
		switch {
		case strings.Contains(p, "a dozen"):
			return evidence.NumCheck{Applicable: true, Mismatches: []evidence.Mismatch{{Claim: "More than 9,000", Source: "a dozen"}}}
		case strings.Contains(p, "2,000"):
			return evidence.NumCheck{Applicable: true, Mismatches: []evidence.Mismatch{{Claim: "More than 9,000", Source: "2,000"}}}
		}
		return evidence.NumCheck{}
	}
	s := New(&fakeRetriever{}, mapJudge{}, scoring.New(scoring.DefaultConfig(), nil), num, Limits{})
	res, err := s.Assess(context.Background(), claim, []evidence.Judged{
		passage("blog", "blog.net", "Active spacecraft fill the sky in 2024. On a clear night you can see a dozen satellites crossing the sky in an hour."),
		passage("census", "census.org", "In 2024 only 2,000 active spacecraft orbited Earth."),
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Passages[0].Num; got.Applicable || len(got.Mismatches) != 0 {
		t.Errorf("a dozen satellites seen in an hour: num %+v, want not applicable", got)
	}
	if got := res.Passages[1].Num; !got.Applicable || len(got.Mismatches) != 1 {
		t.Errorf("2,000 active spacecraft: num %+v, want the mismatch kept", got)
	}
	if res.Features.NumOK != 0 {
		t.Errorf("num_ok %v, want 0 from the census passage", res.Features.NumOK)
	}
}

// TestUnrelatedNeitherEntailsNorIsJudged: a passage that speaks of less
// than half of the claim (verify.min_about_entail) counts on neither side
// and is not judged; between that and verify.min_about it may entail but
// not contradict.
func TestUnrelatedNeitherEntailsNorIsJudged(t *testing.T) {
	claim := "Fewer than 2,000 active spacecraft orbited Earth at the start of 2024."
	ps := []evidence.Judged{
		// Judges read an unrelated passage with the claim's year as
		// entailment now and then.
		passage("a", "a.org", "2024 overtook 2023 as the warmest year on record."),
		passage("b", "b.org", "Orbital launch attempts reached a new record in 2024, and most spacecraft flew on reused stages."),
	}
	var judged []string
	j := judgeFunc(func(ps []string) { judged = append(judged, ps...) })
	s := New(&fakeRetriever{}, j, scoring.New(scoring.DefaultConfig(), nil), noNumbers, Limits{})
	res, err := s.Assess(context.Background(), claim, ps)
	if err != nil {
		t.Fatal(err)
	}
	if len(judged) != 0 {
		t.Errorf("judged %q, want none: both passages are unrelated", judged)
	}
	for _, p := range res.Passages {
		if p.SetAside != evidence.SetAsideUnrelated || p.Neutral != 1 {
			t.Errorf("passage %s: about %.2f, set_aside %q, judgment %+v; want %q and neutral 1", p.ID, p.About, p.SetAside, p.Judgment, evidence.SetAsideUnrelated)
		}
	}
	// With a judge that entails them, they still do not count.
	res = assess(t, Limits{}, scoring.DefaultConfig(), mapJudge{"2024": entails}, claim, ps...)
	if res.Features.EMax != 0 || res.Verdict != evidence.NotEnoughEvidence {
		t.Errorf("e_max %.2f, verdict %s; want 0 and Not enough evidence", res.Features.EMax, res.Verdict)
	}
	// Turned off, the judge's entailment counts again.
	res = assess(t, Limits{MinAboutEntail: -1}, scoring.DefaultConfig(), mapJudge{"2024": entails}, claim, ps...)
	if res.Features.EMax != 0.9 {
		t.Errorf("with the gate off: e_max %.2f, want 0.9", res.Features.EMax)
	}
	// Half the claim's words: may entail, may not contradict.
	half := "Active spacecraft were counted at the start of 2024."
	for _, tc := range []struct {
		judge      evidence.Judgment
		emax, cmax float64
	}{{entails, 0.9, 0}, {contradicts, 0.05, 0}} {
		res = assess(t, Limits{}, scoring.DefaultConfig(), mapJudge{"counted": tc.judge}, claim, passage("c", "c.org", half))
		if p := res.Passages[0]; p.SetAside != evidence.SetAsideNotAbout || res.Features.EMax != tc.emax || res.Features.CMax != tc.cmax {
			t.Errorf("about %.2f, set_aside %q, e_max %.2f, c_max %.2f; want %q, %.2f, %.2f", p.About, p.SetAside, res.Features.EMax, res.Features.CMax, evidence.SetAsideNotAbout, tc.emax, tc.cmax)
		}
	}
}

// TestJudgeReadsResolvedSubjects: the judge reads a passage with the
// subject of each sentence that leans on the ones before resolved, in
// order, so that a pronoun after a sentence that opens with a possessive
// resolves to the name, not to a name in passing.
func TestJudgeReadsResolvedSubjects(t *testing.T) {
	text := "The ARPANET was a packet-switching network. Its first link, between UCLA and the Stanford Research Institute, carried a message in 1969. The network grew to several dozen sites. It was decommissioned in 1990."
	var judged []string
	j := judgeFunc(func(ps []string) { judged = append(judged, ps...) })
	s := New(&fakeRetriever{}, j, scoring.New(scoring.DefaultConfig(), nil), noNumbers, Limits{})
	if _, err := s.Assess(context.Background(), "The ARPANET was decommissioned in 1990.", []evidence.Judged{passage("a", "a.org", text)}); err != nil {
		t.Fatal(err)
	}
	if len(judged) != 1 || !strings.HasSuffix(judged[0], "The ARPANET was decommissioned in 1990.") || !strings.Contains(judged[0], "The ARPANET's first link") {
		t.Errorf("judged %q, want the passage with its subjects resolved", judged)
	}
}

func TestReasonCodes(t *testing.T) {
	claim := "The Golden Gate Bridge opened in 1937."
	// Each passage words the fact its own way, so none is a near-copy.
	wording := map[string]string{
		"a": "The Golden Gate Bridge opened in 1937, said a, after four years of work.",
		"b": "In 1937 the Golden Gate Bridge opened, said b, to pedestrians first.",
		"c": "Said c: the Golden Gate Bridge, painted orange, opened in 1937.",
	}
	about := func(id, dom string) evidence.Judged { return passage(id, dom, wording[id]) }
	one := scoring.DefaultConfig()
	one.SupportedMinDomains = 1
	weakE := evidence.Judgment{Entail: 0.6, Contradict: 0.1, Neutral: 0.3}
	weakC := evidence.Judgment{Entail: 0.1, Contradict: 0.6, Neutral: 0.3}
	midC := evidence.Judgment{Entail: 0.2, Contradict: 0.45, Neutral: 0.35}
	for _, tc := range []struct {
		code  string
		cfg   scoring.Config
		judge mapJudge
		ps    []evidence.Judged
		want  evidence.Verdict
		// text holds words the sentence must contain.
		text []string
	}{
		{evidence.ReasonSupported, scoring.DefaultConfig(), mapJudge{"said": entails}, []evidence.Judged{about("a", "a.org"), about("b", "b.org")}, evidence.Supported, []string{"2 independent origins", "a.org, b.org"}},
		{evidence.ReasonRefuted, scoring.DefaultConfig(), mapJudge{"said": contradicts}, []evidence.Judged{about("a", "a.org")}, evidence.Refuted, []string{"a.org", "0.90"}},
		{evidence.ReasonContested, scoring.DefaultConfig(), mapJudge{"said a": entails, "said b": contradicts}, []evidence.Judged{about("a", "a.org"), about("b", "b.org")}, evidence.Contested, []string{"a.org", "b.org"}},
		{evidence.ReasonSingleOrigin, scoring.DefaultConfig(), mapJudge{"said": entails}, []evidence.Judged{about("a", "a.org")}, evidence.NotEnoughEvidence, []string{"a.org", "supported_min_domains", "would be Supported"}},
		{evidence.ReasonSupported, one, mapJudge{"said": entails}, []evidence.Judged{about("a", "a.org")}, evidence.Supported, []string{"1 independent origins"}},
		{evidence.ReasonPartlyContradicted, scoring.DefaultConfig(), mapJudge{"said a": entails, "said b": midC}, []evidence.Judged{about("a", "a.org"), about("b", "b.org"), about("c", "c.org")}, evidence.NotEnoughEvidence, []string{"b.org", "0.45"}},
		{evidence.ReasonWeakEntailment, scoring.DefaultConfig(), mapJudge{"said": weakE}, []evidence.Judged{about("a", "a.org")}, evidence.NotEnoughEvidence, []string{"0.60", "0.70"}},
		{evidence.ReasonWeakContradiction, scoring.DefaultConfig(), mapJudge{"said": weakC}, []evidence.Judged{about("a", "a.org")}, evidence.NotEnoughEvidence, []string{"0.60", "0.70"}},
		{evidence.ReasonNoRelevantEvidence, scoring.DefaultConfig(), mapJudge{}, nil, evidence.NotEnoughEvidence, []string{"No passage"}},
		{evidence.ReasonNoRelevantEvidence, scoring.DefaultConfig(), mapJudge{"Eiffel": contradicts}, []evidence.Judged{passage("x", "x.org", "The Eiffel Tower opened in 1889.")}, evidence.NotEnoughEvidence, []string{"of 1 passages found"}},
	} {
		t.Run(tc.code, func(t *testing.T) {
			res := assess(t, Limits{}, tc.cfg, tc.judge, claim, tc.ps...)
			if res.Verdict != tc.want || res.Reason.Code != tc.code {
				t.Fatalf("verdict %s (%s), want %s (%s): %s", res.Verdict, res.Reason.Code, tc.want, tc.code, res.Reason.Text)
			}
			for _, w := range tc.text {
				if !strings.Contains(res.Reason.Text, w) {
					t.Errorf("reason %q does not contain %q", res.Reason.Text, w)
				}
			}
		})
	}
	// superseded is covered by TestSuperseded.
}

// TestStatementEntails: a paragraph's other sentences dilute the judge's
// entailment; a passage whose sentence about the claim states the claim's
// figures keeps the entailment of that sentence read alone. Only
// entailment rises, and only where the figures agree.
func TestStatementEntails(t *testing.T) {
	claim := "The ARPANET was decommissioned in 1990."
	years := func(claim, text string) evidence.NumCheck {
		switch {
		case strings.Contains(text, "1990"), strings.Contains(text, "between 1989 and 1991"):
			return evidence.NumCheck{Applicable: true, OK: true}
		case strings.Contains(text, "1991"):
			return evidence.NumCheck{Applicable: true, Mismatches: []evidence.Mismatch{{Claim: "1990", Source: "1991"}}}
		}
		return evidence.NumCheck{}
	}
	para := func(last string) string {
		return "On 1 January 1983 the ARPANET switched to TCP/IP. The ARPANET itself had carried its first message in 1969. TCP/IP let separate networks exchange traffic. " + last
	}
	weak := evidence.Judgment{Entail: 0.2, Contradict: 0.4, Neutral: 0.4}
	// The whole paragraph (it opens with "On 1 January") reads weak; a
	// window read alone reads as the map says.
	judge := func(window evidence.Judgment) Judge {
		return textJudge(func(p string) evidence.Judgment {
			if strings.HasPrefix(p, "On 1 January") {
				return weak
			}
			return window
		})
	}
	for _, tc := range []struct {
		name    string
		last    string
		window  evidence.Judgment
		entail  float64
		contrad float64
	}{
		{"the statement with the claim's figure", "The ARPANET was formally shut down in 1990.", entails, 0.9, 0.05},
		{"the window contradicts: only entailment rises", "The ARPANET was formally shut down in 1990.", contradicts, 0.2, 0.4},
		{"another figure", "The ARPANET was formally shut down in 1991.", entails, 0.2, 0.4},
		{"no figure", "The ARPANET was formally shut down.", entails, 0.2, 0.4},
		{"a figure that agrees without stating the claim's", "The ARPANET was formally shut down between 1989 and 1991.", entails, 0.2, 0.4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(&fakeRetriever{}, judge(tc.window), scoring.New(scoring.DefaultConfig(), nil), years, Limits{})
			res, err := s.Assess(context.Background(), claim, []evidence.Judged{passage("a", "a.org", para(tc.last))})
			if err != nil {
				t.Fatal(err)
			}
			p := res.Passages[0]
			if math.Abs(p.Entail-tc.entail) > 1e-9 || math.Abs(p.Contradict-tc.contrad) > 0.01 || math.Abs(p.Entail+p.Contradict+p.Neutral-1) > 1e-9 {
				t.Errorf("judgment %+v, want entail %.2f, contradict %.2f, summing to 1", p.Judgment, tc.entail, tc.contrad)
			}
		})
	}
}

// textJudge judges each passage with its function.
type textJudge func(p string) evidence.Judgment

func (f textJudge) Judge(_ context.Context, _ string, ps []string) ([]evidence.Judgment, error) {
	out := make([]evidence.Judgment, len(ps))
	for i, p := range ps {
		out[i] = f(p)
	}
	return out, nil
}

func TestStatementWindow(t *testing.T) {
	claim := "More than 9,000 active spacecraft were operating in Earth orbit at the start of 2024."
	agree := func(claim, text string) evidence.NumCheck {
		if strings.Contains(text, "9,") {
			return evidence.NumCheck{Applicable: true, OK: true}
		}
		return evidence.NumCheck{}
	}
	for _, tc := range []struct {
		name, text, want string
	}{
		{"the sentence with the claim's figures, not the one with more of its words",
			"A 2024 census counts 9,400 active spacecraft in orbit around Earth, the first time the total passed 9,000. Dead satellites are tracked separately. Starlink alone operated more than 5,000 satellites by the end of 2023. Nearly all active spacecraft fly in low Earth orbit.",
			"A 2024 census counts 9,400 active spacecraft in orbit around Earth, the first time the total passed 9,000."},
		{"a figure that agrees but is not written", "Active spacecraft were operating in Earth orbit at the start of 2024: about 9,400. Most are small. Few are old.", ""},
		{"too little of the claim", "The 9,000 mark was passed at the start of 2024. Most are small. Few are old.", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := statement(claim, claimTerms(claim), sentences.Texts(tc.text), agree, DefaultMinAboutEntail)
			if got != tc.want || ok != (tc.want != "") {
				t.Errorf("statement %q, %v; want %q", got, ok, tc.want)
			}
		})
	}
}

func TestResolvedSentences(t *testing.T) {
	for _, tc := range []struct {
		text, want string
	}{
		{"The ARPANET was a network. Its first link, between UCLA and the Stanford Research Institute, carried a message. The network grew. It was decommissioned in 1990.",
			"The ARPANET was decommissioned in 1990."},
		{"The Golden Gate Bridge spans the strait. It opened in 1937 with Joseph Strauss as chief engineer. He died in 1938.",
			"Joseph Strauss died in 1938."},
	} {
		got := resolvedSentences(tc.text)
		if last := got[len(got)-1]; last != tc.want {
			t.Errorf("resolvedSentences(%q) ends %q, want %q", tc.text, last, tc.want)
		}
	}
}
