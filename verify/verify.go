// Package verify answers whether a claim is supported by the corpus: it
// retrieves passages, judges each against the claim, checks numbers and
// dates, and scores the result as seed 004 specifies. It is the evidence
// layer that the API, the CLI and the agent pipelines call.
package verify

import (
	"context"
	"fmt"
	"github.com/verity-fc/verity/ingest"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/verity-fc/verity/claim"
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/retrieval"
	"github.com/verity-fc/verity/scoring"
)

// Retriever finds and re-ranks the passages to judge for a claim.
type Retriever interface {
	Retrieve(ctx context.Context, claim string, opts retrieval.Options) ([]evidence.Judged, error)
}

// Judge is the NLI contract (see nli.Judge).
type Judge interface {
	Judge(ctx context.Context, claim string, passages []string) ([]evidence.Judgment, error)
}

// NumChecker compares the quantities of a claim with those of a passage.
type NumChecker func(claim, passage string) evidence.NumCheck

// Limits bound a request and tune the gates that decide which judged
// passages count. The zero value means the defaults below. The koanf tags
// are the keys of the verify section of verity's configuration.
type Limits struct {
	// MaxClaimChars bounds the claim, in characters. Default 1,000.
	MaxClaimChars int `koanf:"max_claim_chars"`
	// MaxDomains bounds the domain filter. Default 50.
	MaxDomains int `koanf:"max_domains"`
	// MaxCitations is 2 or 3; default 3.
	MaxCitations int `koanf:"citations"`
	// MinAbout is the aboutness (see [evidence.Judged.About]) below which
	// a passage cannot contradict the claim, in (0,1]. Default
	// [DefaultMinAbout]; a negative value turns the gate off.
	MinAbout float64 `koanf:"min_about"`
	// MinAboutEntail is the aboutness below which a passage can neither
	// entail nor contradict the claim, in (0,1]. Default
	// [DefaultMinAboutEntail]; a negative value turns the gate off.
	MinAboutEntail float64 `koanf:"min_about_entail"`
	// Credible is the reliability from which a newer passage supersedes an
	// older time-dependent statement, in [0,1]. Default [DefaultCredible].
	Credible float64 `koanf:"credible"`
	// NearCopy is the Jaccard similarity of word 5-grams from which a
	// passage counts as a copy of an earlier one, in (0,1]. Default
	// [DefaultNearCopy]; a negative value turns the check off.
	NearCopy float64 `koanf:"near_copy"`
	// Conflict is the contradiction a passage counts with when one of its
	// sentences states the claim's event with another figure or name (see
	// [DefaultConflict]), in (0,1]. A negative value turns the rule off.
	Conflict float64 `koanf:"conflict"`
}

// DefaultLimits returns the defaults the zero Limits stand for.
func DefaultLimits() Limits { return Limits{}.withDefaults() }

// Validate reports the first setting that cannot work, naming it as the
// configuration does (verify.citations). It checks the values as given:
// start from DefaultLimits.
func (l Limits) Validate() error {
	switch {
	case l.MaxClaimChars < 1:
		return fmt.Errorf("verify.max_claim_chars must be at least 1, got %d", l.MaxClaimChars)
	case l.MaxDomains < 1:
		return fmt.Errorf("verify.max_domains must be at least 1, got %d", l.MaxDomains)
	case l.MaxCitations < 2 || l.MaxCitations > 3:
		return fmt.Errorf("verify.citations must be 2 or 3, got %d", l.MaxCitations)
	case l.MinAbout > 1 || l.MinAboutEntail > 1 || l.NearCopy > 1 || l.Conflict > 1 || l.Credible < 0 || l.Credible > 1:
		return fmt.Errorf("verify.min_about, verify.min_about_entail, verify.near_copy and verify.conflict must be at most 1 (negative turns the gate off), verify.credible in [0,1]")
	}
	return nil
}

func (l Limits) withDefaults() Limits {
	if l.MaxClaimChars <= 0 {
		l.MaxClaimChars = 1000
	}
	if l.MaxDomains <= 0 {
		l.MaxDomains = 50
	}
	if l.MaxCitations < 2 || l.MaxCitations > 3 {
		l.MaxCitations = 3
	}
	switch {
	case l.MinAbout == 0 || l.MinAbout > 1:
		l.MinAbout = DefaultMinAbout
	case l.MinAbout < 0:
		l.MinAbout = 0
	}
	switch {
	case l.MinAboutEntail == 0 || l.MinAboutEntail > 1:
		l.MinAboutEntail = DefaultMinAboutEntail
	case l.MinAboutEntail < 0:
		l.MinAboutEntail = 0
	}
	if l.Credible <= 0 || l.Credible > 1 {
		l.Credible = DefaultCredible
	}
	switch {
	case l.NearCopy == 0 || l.NearCopy > 1:
		l.NearCopy = DefaultNearCopy
	case l.NearCopy < 0:
		l.NearCopy = 0
	}
	switch {
	case l.Conflict == 0 || l.Conflict > 1:
		l.Conflict = DefaultConflict
	case l.Conflict < 0:
		l.Conflict = 0
	}
	return l
}

// Request is the body of POST /v1/verify and the arguments of
// `verity verify`. Zero K and TopN keep the configured defaults.
type Request struct {
	Claim   string   `json:"claim"`
	K       int      `json:"k,omitempty"`
	TopN    int      `json:"top_n,omitempty"`
	Domains []string `json:"domains,omitempty"`
	// Since keeps passages published on or after this date:
	// "2006-01-02" or RFC 3339.
	Since string `json:"since,omitempty"`
}

// WireRequest is a Request as a client states it (the JSON body, the
// command line): K and TopN are set only when given, so that a given 0 is
// refused instead of standing for the default as it does in Request. (The
// fields are spelled out: an embedded Request would name its fields
// "Request.claim" in decoding errors.)
type WireRequest struct {
	Claim   string   `json:"claim"`
	K       *int     `json:"k,omitempty"`
	TopN    *int     `json:"top_n,omitempty"`
	Domains []string `json:"domains,omitempty"`
	Since   string   `json:"since,omitempty"`
}

// Checked returns the Request, or an *evidence.InputError when k or top_n
// was given as 0. The other bounds are checked by Service.Verify.
func (w WireRequest) Checked() (Request, error) {
	r := Request{Claim: w.Claim, Domains: w.Domains, Since: w.Since}
	if w.K != nil {
		if *w.K == 0 {
			return Request{}, outOfRange("k", retrieval.MaxK, 0)
		}
		r.K = *w.K
	}
	if w.TopN != nil {
		if *w.TopN == 0 {
			return Request{}, outOfRange("top_n", retrieval.MaxTopN, 0)
		}
		r.TopN = *w.TopN
	}
	return r, nil
}

func outOfRange(field string, max, got int) error {
	return evidence.Invalid(field, "must be between 1 and %d, got %d", max, got)
}

// Service runs the verify path.
type Service struct {
	retriever Retriever
	judge     Judge
	scorer    *scoring.Scorer
	num       NumChecker
	limits    Limits
	now       func() time.Time
}

// New returns a Service. All collaborators are required.
func New(r Retriever, j Judge, s *scoring.Scorer, num NumChecker, limits Limits) *Service {
	return &Service{retriever: r, judge: j, scorer: s, num: num, limits: limits.withDefaults(), now: time.Now}
}

// WithScoring returns a Service that scores with cfg (and the same
// calibration) and shares everything else with s: `verity eval` runs a
// verdict set under a second policy with it.
func (s *Service) WithScoring(cfg scoring.Config) *Service {
	c := *s
	c.scorer = s.scorer.WithConfig(cfg)
	return &c
}

// Scoring returns the scoring configuration.
func (s *Service) Scoring() scoring.Config { return s.scorer.Config() }

// parsed is a validated Request.
type parsed struct {
	claim string
	opts  retrieval.Options
}

// Validate checks a request and returns an *evidence.InputError naming the
// first bad field, or a *claim.NotCheckable when the claim is a question,
// an instruction, an opinion or text with no verb (see [claim.Screen]).
func (s *Service) Validate(req Request) error {
	_, err := s.parse(req)
	return err
}

func (s *Service) parse(req Request) (parsed, error) {
	claim := strings.TrimSpace(req.Claim)
	switch n := utf8.RuneCountInString(claim); {
	case n == 0:
		return parsed{}, evidence.Invalid("claim", "must not be empty")
	case n > s.limits.MaxClaimChars:
		return parsed{}, evidence.Invalid("claim", "is %d characters; the limit is %d", n, s.limits.MaxClaimChars)
	}
	if req.K < 0 || req.K > retrieval.MaxK {
		return parsed{}, outOfRange("k", retrieval.MaxK, req.K)
	}
	if req.TopN < 0 || req.TopN > retrieval.MaxTopN {
		return parsed{}, outOfRange("top_n", retrieval.MaxTopN, req.TopN)
	}
	if req.K > 0 && req.TopN > req.K {
		return parsed{}, evidence.Invalid("top_n", "must not exceed k (%d), got %d", req.K, req.TopN)
	}
	if len(req.Domains) > s.limits.MaxDomains {
		return parsed{}, evidence.Invalid("domains", "has %d entries; the limit is %d", len(req.Domains), s.limits.MaxDomains)
	}
	domains := make([]string, 0, len(req.Domains))
	for i, d := range req.Domains {
		d = strings.ToLower(strings.TrimSpace(d))
		if d == "" || len(d) > 253 || strings.ContainsAny(d, " /:@") {
			return parsed{}, evidence.Invalid(fmt.Sprintf("domains[%d]", i), "is not a domain name: %q", req.Domains[i])
		}
		domains = append(domains, strings.TrimPrefix(d, "www."))
	}
	var since time.Time
	if req.Since != "" {
		t, err := ParseDate(req.Since)
		if err != nil {
			return parsed{}, evidence.Invalid("since", "must be a date like 2020-01-01 or an RFC 3339 time, got %q", req.Since)
		}
		since = t
	}
	// Last: a request with a bad field is a 400 whatever its claim says.
	if err := checkable(claim); err != nil {
		return parsed{}, err
	}
	return parsed{claim: claim, opts: retrieval.Options{K: req.K, TopN: req.TopN, Domains: domains, Since: since}}, nil
}

// checkable screens a claim: a question, an instruction, an opinion or a
// fragment gets no verdict.
func checkable(text string) error { return claim.Screen(text) }

// ParseDate accepts "2006-01-02" or RFC 3339.
func ParseDate(s string) (time.Time, error) {
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, nil
	}
	return time.Parse(time.RFC3339, s)
}

// Verify retrieves, judges and scores one claim. An empty corpus is not an
// error: the result is Not enough evidence with its score and features.
func (s *Service) Verify(ctx context.Context, req Request) (evidence.Result, error) {
	p, err := s.parse(req)
	if err != nil {
		return evidence.Result{}, err
	}
	start := s.now()
	passages, err := s.retriever.Retrieve(ctx, p.claim, p.opts)
	if err != nil {
		return evidence.Result{}, fmt.Errorf("retrieve passages: %w", err)
	}
	retrieved := s.now()
	res, err := s.Assess(ctx, p.claim, passages)
	if err != nil {
		return evidence.Result{}, err
	}
	res.TimingsMS["retrieve"] = ms(retrieved.Sub(start))
	res.TimingsMS["total"] = ms(s.now().Sub(start))
	return res, nil
}

// Assess judges the given passages against claim and scores them, without
// retrieval: the gold-evidence evaluation and the citation checker use it on
// passages they already hold. Passages keep their Relevance and Recency.
func (s *Service) Assess(ctx context.Context, claim string, passages []evidence.Judged) (evidence.Result, error) {
	start := s.now()
	judged := judgeable(passages)
	terms := claimTerms(claim)
	claimYear := explicitYear(claim, s.now())
	for i := range judged {
		judged[i].Num = s.num(claim, judged[i].Text)
	}
	s.gate(claim, terms, claimYear, judged)
	// Only the passages whose judgment can count are judged, each with
	// the subjects of its sentences resolved ("It was decommissioned in
	// 1990." after "The ARPANET was ..."): the judge reads the sentences
	// the conflict rules and the quote read.
	var texts []string
	var idx []int
	var sents [][]string // the resolved sentences of judged[idx[k]]
	for i, p := range judged {
		if !mayCount(p) {
			judged[i].Judgment = evidence.Judgment{Neutral: 1}
			continue
		}
		rs := resolvedSentences(p.Text)
		idx = append(idx, i)
		sents = append(sents, rs)
		texts = append(texts, strings.Join(rs, " "))
	}
	if len(texts) > 0 {
		js, err := s.judge.Judge(ctx, claim, texts)
		if err != nil {
			return evidence.Result{}, fmt.Errorf("judge passages: %w", err)
		}
		if len(js) != len(texts) {
			return evidence.Result{}, fmt.Errorf("judge passages: got %d judgments for %d passages", len(js), len(texts))
		}
		for k, i := range idx {
			judged[i].Judgment = js[k]
		}
		if err := s.judgeStatements(ctx, claim, terms, judged, idx, sents); err != nil {
			return evidence.Result{}, err
		}
	}
	judgedAt := s.now()
	counted := s.gated(claim, claimYear, terms, judged)
	f := s.scorer.Features(counted)
	v := s.scorer.Verdict(f)
	res := evidence.Result{
		Claim:     claim,
		Verdict:   v,
		Reason:    s.explain(v, f, judged, counted),
		Score:     s.scorer.Score(f),
		Citations: scoring.Citations(counted, v, s.limits.MaxCitations),
		Features:  f,
		Passages:  judged,
		TimingsMS: map[string]float64{"judge": ms(judgedAt.Sub(start)), "score": ms(s.now().Sub(judgedAt))},
	}
	if res.Citations == nil {
		res.Citations = []evidence.Citation{}
	}
	return res, nil
}

// judgeStatements lets a passage entail the claim as much as its
// statement of the claim's figures does. The judge reads a paragraph
// whole, and its other sentences and figures dilute a statement the
// claim makes word for word ("Construction of the Golden Gate Bridge began
// on 5 January 1933" entails itself at 0.91 alone and at 0.55 as the first
// of four sentences). A passage of more than two sentences that may entail
// the claim (aboutness >= Limits.MinAboutEntail) and has a window of one
// or two sentences that states the claim's figures (see [statement]) is
// judged again on that window, with its subjects resolved, and keeps the higher
// entailment, its contradiction and neutral scaled to the rest. Only
// entailment is raised: a window read alone also contradicts more
// readily. Passages are those of judged at the indices idx, sents[k] the
// resolved sentences of judged[idx[k]].
func (s *Service) judgeStatements(ctx context.Context, claim string, terms []term, judged []evidence.Judged, idx []int, sents [][]string) error {
	var texts []string
	var at []int
	for k, i := range idx {
		if judged[i].About < s.limits.MinAboutEntail || len(sents[k]) <= 2 {
			continue
		}
		w, ok := statement(claim, terms, sents[k], s.num, s.limits.MinAboutEntail)
		if !ok {
			continue
		}
		texts = append(texts, w)
		at = append(at, i)
	}
	if len(texts) == 0 {
		return nil
	}
	js, err := s.judge.Judge(ctx, claim, texts)
	if err != nil {
		return fmt.Errorf("judge passages: %w", err)
	}
	if len(js) != len(texts) {
		return fmt.Errorf("judge passages: got %d judgments for %d statements", len(js), len(texts))
	}
	for k, i := range at {
		judged[i].Judgment = withEntail(judged[i].Judgment, js[k].Entail)
	}
	return nil
}

// withEntail returns j with its entailment raised to e when e is higher,
// its contradiction and neutral scaled to keep the sum at 1.
func withEntail(j evidence.Judgment, e float64) evidence.Judgment {
	if e <= j.Entail {
		return j
	}
	rest := j.Contradict + j.Neutral
	if rest <= 0 {
		return evidence.Judgment{Entail: 1}
	}
	k := (1 - e) / rest
	return evidence.Judgment{Entail: e, Contradict: j.Contradict * k, Neutral: j.Neutral * k}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// judgeable returns copies of passages without the sentences ingest marked
// as addressing a checker ("ignore previous instructions ...") and without
// such sentences in passages stored before marking: they are neither
// judged nor cited. A passage with nothing else is left out.
func judgeable(passages []evidence.Judged) []evidence.Judged {
	out := make([]evidence.Judged, 0, len(passages))
	for _, p := range passages {
		text, _ := ingest.JudgedText(p.Text)
		if text == "" {
			continue
		}
		p.Text = text
		out = append(out, p)
	}
	return out
}
