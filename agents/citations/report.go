package citations

import (
	"fmt"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Report is the fact-check report of seed 003, plus the sources fetched
// (for reproducing it) and every claim's verdict.
type Report struct {
	// Timestamp is when the check started, UTC, to the second.
	Timestamp    time.Time `json:"timestamp"`
	AnalysisPath string    `json:"analysis_path"`
	Summary      Summary   `json:"summary"`
	// CriticalIssues are the high-severity findings: fabricated-looking
	// figures, false attributions and statistics off by more than 50%.
	CriticalIssues []CriticalIssue `json:"critical_issues"`
	// CitationIssues lists every (claim, citation) pair that did not
	// verify.
	CitationIssues      []CitationIssue  `json:"citation_issues"`
	UnsourcedClaims     []UnsourcedClaim `json:"unsourced_claims"`
	VerificationDetails Details          `json:"verification_details"`
	// Recommendations are ordered by priority, most severe first.
	Recommendations []string `json:"recommendations"`
	// Warnings say what limits the report: no claims found (and what was
	// looked for).
	Warnings []string      `json:"warnings"`
	Sources  []Source      `json:"sources"`
	Claims   []ClaimResult `json:"claims"`
}

// Summary counts the claims and citations. Every claim is verified, false
// (contradicted by or misattributed to its source) or unverified.
type Summary struct {
	TotalClaims      int `json:"total_claims"`
	VerifiedClaims   int `json:"verified_claims"`
	UnverifiedClaims int `json:"unverified_claims"`
	FalseClaims      int `json:"false_claims"`
	// AccuracyScore is 100 * verified / total, one decimal; nil (JSON
	// null) for a document without claims, which has nothing to score
	// (Report.Warnings says so).
	AccuracyScore *float64 `json:"accuracy_score"`
	// CitationsChecked counts (claim, citation) pairs; CitationsValid
	// those whose source was read and states the claim.
	CitationsChecked int `json:"citations_checked"`
	CitationsValid   int `json:"citations_valid"`
}

// NoClaimsWarning is the report's warning when a document has no claims:
// no accuracy is scored, and it says what was looked for.
const NoClaimsWarning = "No claims found, so no accuracy score: verity looked for sentences that cite a source " +
	"(markers [1], (1), superscripts, [^1] footnotes, reference links, inline links, bare URLs, DOIs, arXiv ids, HTML <a> and <cite>) " +
	"and for uncited sentences of four words or more that state a figure, a date, an attribution, a cause or a named entity; " +
	"headings, reference lists, questions, opinions and predictions are not claims"

// CriticalIssue is a high-severity finding.
type CriticalIssue struct {
	Severity       string `json:"severity"`
	Claim          string `json:"claim"`
	Issue          string `json:"issue"`
	Location       string `json:"location"`
	Recommendation string `json:"recommendation"`
	CitationID     string `json:"citation_id,omitempty"`
	URL            string `json:"url,omitempty"`
}

// CitationIssue is a (claim, citation) pair that did not verify. Status is
// a fetch status (404_not_found, 403_forbidden, http_error, timeout,
// unreachable, blocked, robots_disallowed, unsupported_content, too_large,
// invalid_url, thin_content), a reference problem (reference_missing,
// no_url) or a judgment of the page (claim_not_in_source, contradicted,
// misattributed).
type CitationIssue struct {
	CitationID string `json:"citation_id"`
	URL        string `json:"url"`
	Status     string `json:"status"`
	Claim      string `json:"claim"`
	// Actual is what the source says instead: its figure, its statement,
	// or what is missing.
	Actual         string `json:"actual,omitempty"`
	Recommendation string `json:"recommendation"`
	Severity       string `json:"severity"`
	Location       string `json:"location"`
	// HTTPStatus is the response status of an http_error, 404 or 403.
	HTTPStatus int `json:"http_status,omitempty"`
	// Excerpt is the source sentence the finding rests on.
	Excerpt string `json:"excerpt,omitempty"`
	// Alternative is a source in verity's corpus that states the claim.
	Alternative *Alternative `json:"alternative,omitempty"`
}

// UnsourcedClaim is a claim that cites nothing.
type UnsourcedClaim struct {
	Claim          string       `json:"claim"`
	Location       string       `json:"location"`
	Severity       string       `json:"severity"`
	Recommendation string       `json:"recommendation"`
	Kind           string       `json:"kind"`
	Alternative    *Alternative `json:"alternative,omitempty"`
}

// Details are the run's counters. Webfetch counts distinct URLs fetched
// and those read as usable text; websearch counts corpus searches for
// alternative sources.
type Details struct {
	WebfetchAttempts      int     `json:"webfetch_attempts"`
	WebfetchSuccessful    int     `json:"webfetch_successful"`
	WebsearchFallbacks    int     `json:"websearch_fallbacks"`
	ProcessingTimeSeconds float64 `json:"processing_time_seconds"`
}

// Alternative is a source in verity's corpus that states a claim.
type Alternative struct {
	URL      string `json:"url,omitempty"`
	Title    string `json:"title,omitempty"`
	SourceID string `json:"source_id"`
	Excerpt  string `json:"excerpt"`
}

// ClaimResult is one claim with its verdict and the status of each of its
// citations.
type ClaimResult struct {
	Claim string `json:"claim"`
	// Resolved is the claim as checked when its subject leaned on the
	// sentences before and was resolved from them ("It opened in 1937."
	// -> "The Golden Gate Bridge opened in 1937."); empty otherwise.
	Resolved  string          `json:"resolved,omitempty"`
	Location  string          `json:"location"`
	Line      int             `json:"line"`
	Kind      string          `json:"kind"`
	Verdict   string          `json:"verdict"`
	Citations []CitationCheck `json:"citations"`
}

// CitationCheck is one citation of a claim and its status.
type CitationCheck struct {
	CitationID string `json:"citation_id"`
	URL        string `json:"url,omitempty"`
	Status     string `json:"status"`
}

func location(line int) string { return "line " + strconv.Itoa(line) }

func round1(x float64) float64 { return math.Round(x*10) / 10 }

// unsourcedSeverity grades a claim with no citation: seed 003 flags
// statistical, market-size and competitor claims (medium); other claims
// and vague attributions are low. Fabricated-looking figures are critical
// issues instead (see [fabrication]).
func unsourcedSeverity(info claimInfo) string {
	if info.fabricated || info.precise {
		return SeverityHigh
	}
	switch info.kind {
	case KindMarket, KindCompany, KindStatistic:
		return SeverityMedium
	}
	return SeverityLow
}

// fabrication says why an unsourced claim looks fabricated, or "".
func fabrication(info claimInfo) string {
	switch {
	case info.fabricated:
		return "No source provided, appears fabricated: results the author claims as their own"
	case info.precise:
		return "No source provided for a precise percentage; it may be fabricated"
	}
	return ""
}

// rec is a recommendation before numbering.
type rec struct {
	severity string
	text     string
	lines    []int
}

var severityRank = map[string]int{SeverityHigh: 0, SeverityMedium: 1, SeverityLow: 2}

// maxRecommendations bounds the recommendation list; the lists above hold
// the rest.
const maxRecommendations = 10

func buildReport(path string, outs []outcome, pages []page) Report {
	r := Report{
		AnalysisPath:    path,
		CriticalIssues:  []CriticalIssue{},
		CitationIssues:  []CitationIssue{},
		UnsourcedClaims: []UnsourcedClaim{},
		Recommendations: []string{},
		Warnings:        []string{},
		Sources:         make([]Source, len(pages)),
		Claims:          make([]ClaimResult, len(outs)),
	}
	for i, p := range pages {
		r.Sources[i] = p.Source
		if p.Status != StatusInvalidURL {
			r.VerificationDetails.WebfetchAttempts++
		}
		if p.Status == StatusOK {
			r.VerificationDetails.WebfetchSuccessful++
		}
	}
	var recs []rec
	recIndex := map[string]int{}
	addRec := func(severity, text string, line int) {
		if i, ok := recIndex[text]; ok {
			recs[i].lines = append(recs[i].lines, line)
			return
		}
		recIndex[text] = len(recs)
		recs = append(recs, rec{severity: severity, text: text, lines: []int{line}})
	}
	var lowUnsourced, mediumUnsourced []int

	s := &r.Summary
	s.TotalClaims = len(outs)
	for i, o := range outs {
		loc := location(o.line)
		cr := ClaimResult{Claim: o.text, Resolved: o.info.resolved, Location: loc, Line: o.line, Kind: o.info.kind, Verdict: o.verdict, Citations: []CitationCheck{}}
		switch o.verdict {
		case VerdictVerified:
			s.VerifiedClaims++
		case VerdictFalse, VerdictMisattributed:
			s.FalseClaims++
		}
		for _, ch := range o.checks {
			cr.Citations = append(cr.Citations, CitationCheck{CitationID: ch.cite.id, URL: ch.cite.url, Status: ch.status})
			s.CitationsChecked++
			if ch.status == StatusVerified {
				s.CitationsValid++
				continue
			}
			ci := citationIssue(o, ch)
			r.CitationIssues = append(r.CitationIssues, ci)
			if ci.Severity == SeverityHigh {
				r.CriticalIssues = append(r.CriticalIssues, CriticalIssue{
					Severity: SeverityHigh, Claim: o.text, Issue: criticalText(ch, o.info), Location: loc,
					Recommendation: ci.Recommendation, CitationID: ch.cite.id, URL: ch.cite.url,
				})
			}
			addRec(ci.Severity, ci.Recommendation, o.line)
		}
		if o.verdict == VerdictUnsourced {
			sev := unsourcedSeverity(o.info)
			if why := fabrication(o.info); why != "" {
				text := "Remove claim or provide verifiable source"
				r.CriticalIssues = append(r.CriticalIssues, CriticalIssue{Severity: sev, Claim: o.text, Issue: why, Location: loc, Recommendation: text})
				addRec(sev, fmt.Sprintf("Remove or source the claim %q", clip(o.text, 60)), o.line)
			} else {
				uc := UnsourcedClaim{Claim: o.text, Location: loc, Severity: sev, Kind: o.info.kind, Alternative: o.alternative}
				uc.Recommendation = unsourcedRecommendation(o)
				r.UnsourcedClaims = append(r.UnsourcedClaims, uc)
				if sev == SeverityMedium {
					mediumUnsourced = append(mediumUnsourced, o.line)
				} else {
					lowUnsourced = append(lowUnsourced, o.line)
				}
			}
		}
		r.Claims[i] = cr
	}
	s.UnverifiedClaims = s.TotalClaims - s.VerifiedClaims - s.FalseClaims
	if s.TotalClaims > 0 {
		score := round1(100 * float64(s.VerifiedClaims) / float64(s.TotalClaims))
		s.AccuracyScore = &score
	} else {
		r.Warnings = append(r.Warnings, NoClaimsWarning)
	}
	if len(mediumUnsourced) > 0 {
		recs = append(recs, rec{severity: SeverityMedium, text: fmt.Sprintf("Add sources for %d unsourced statistical, market or company %s", len(mediumUnsourced), plural(len(mediumUnsourced), "claim", "claims")), lines: mediumUnsourced})
	}
	if len(lowUnsourced) > 0 {
		recs = append(recs, rec{severity: SeverityLow, text: fmt.Sprintf("Consider sourcing or qualifying %d other unsourced %s", len(lowUnsourced), plural(len(lowUnsourced), "claim", "claims")), lines: lowUnsourced})
	}
	sort.SliceStable(recs, func(a, b int) bool { return severityRank[recs[a].severity] < severityRank[recs[b].severity] })
	for i, rc := range recs {
		if i == maxRecommendations {
			r.Recommendations = append(r.Recommendations, fmt.Sprintf("Priority %d: %d more %s; see citation_issues and unsourced_claims", i+1, len(recs)-i, plural(len(recs)-i, "item", "items")))
			break
		}
		r.Recommendations = append(r.Recommendations, fmt.Sprintf("Priority %d: %s (%s)", i+1, rc.text, linesText(rc.lines)))
	}
	return r
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// linesText is "line 4" or "lines 4, 9, 12" (at most eight listed).
func linesText(lines []int) string {
	sort.Ints(lines)
	lines = compactInts(lines)
	if len(lines) == 1 {
		return location(lines[0])
	}
	parts := make([]string, 0, len(lines))
	for i, l := range lines {
		if i == 8 {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, strconv.Itoa(l))
	}
	return "lines " + strings.Join(parts, ", ")
}

func compactInts(xs []int) []int {
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

func citationIssue(o outcome, ch check) CitationIssue {
	ci := CitationIssue{
		CitationID: ch.cite.id, URL: ch.cite.url, Status: ch.status, Claim: o.text,
		Actual: ch.finding.actual, Severity: ch.finding.severity, Location: location(o.line),
		Excerpt: ch.finding.excerpt, Alternative: ch.alternative,
	}
	if ch.page != nil {
		ci.HTTPStatus = ch.page.HTTPStatus
		if ci.Actual == "" {
			ci.Actual = fetchActual(ch.page)
		}
	}
	if ci.Severity == "" {
		ci.Severity = fetchSeverity(ch.status)
	}
	ci.Recommendation = citationRecommendation(ch)
	return ci
}

// fetchActual says briefly why a page could not be read; Source.Detail
// keeps the full error.
func fetchActual(p *page) string {
	switch {
	case p.HTTPStatus != 0:
		return fmt.Sprintf("HTTP %d %s", p.HTTPStatus, http.StatusText(p.HTTPStatus))
	case p.Status == StatusTimeout:
		return "The page did not answer within the fetch time limit"
	}
	return p.Detail
}

// citationRecommendation says what to do about a failed citation.
func citationRecommendation(ch check) string {
	id := ch.cite.id
	var text string
	switch ch.status {
	case StatusClaimNotInSource:
		text = fmt.Sprintf("Correct the claim to match %s or cite a source that states it", id)
	case StatusContradicted:
		if ch.finding.passage != nil && len(ch.finding.passage.Num.Mismatches) > 0 {
			text = fmt.Sprintf("Correct to match source: %s gives %s", id, ch.finding.actual)
		} else {
			text = fmt.Sprintf("Review the claim against %s, which states otherwise", id)
		}
	case StatusMisattributed:
		text = fmt.Sprintf("Attribute the statement to the source that makes it (%s does not name the organisation credited) or remove the attribution", id)
	case StatusThinContent:
		text = fmt.Sprintf("Cite an openly readable source instead of %s, whose text could not be read (see actual)", id)
	case StatusReferenceMissing:
		text = fmt.Sprintf("Add %s to the reference list or remove the marker", id)
	case StatusNoURL:
		text = fmt.Sprintf("Give a URL for reference %s so it can be checked", id)
	case StatusBlocked:
		text = fmt.Sprintf("Replace citation %s: it leads to an internal address that is not fetched", id)
	default:
		text = fmt.Sprintf("Replace broken citation %s (%s) or remove the claim", id, ch.status)
	}
	if ch.alternative != nil {
		text += "; verity's corpus has a source that states it: " + ch.alternative.where()
	}
	return text
}

// where names an alternative source: its URL, else its title and id.
func (a *Alternative) where() string {
	if a.URL != "" {
		return a.URL
	}
	if a.Title != "" {
		return fmt.Sprintf("%q (source %s)", a.Title, a.SourceID)
	}
	return "source " + a.SourceID
}

func unsourcedRecommendation(o outcome) string {
	text := "Add citation or qualify as estimate"
	switch {
	case o.info.vague:
		text = "Name the study or expert and cite it"
	case unsourcedSeverity(o.info) == SeverityLow:
		text = "Add a citation"
	}
	if o.alternative != nil {
		text += "; verity's corpus has a source that states it: " + o.alternative.where()
	}
	return text
}

// criticalText describes a high-severity citation finding.
func criticalText(ch check, info claimInfo) string {
	switch ch.status {
	case StatusMisattributed:
		return fmt.Sprintf("False attribution: the claim credits %s, but %s does not", info.entity, ch.cite.id)
	case StatusContradicted:
		var parts []string
		if ch.finding.passage != nil {
			for _, m := range ch.finding.passage.Num.Mismatches {
				parts = append(parts, fmt.Sprintf("%s, not %s", m.Source, m.Claim))
			}
		}
		if len(parts) > 0 {
			return fmt.Sprintf("Completely wrong statistic: %s gives %s", ch.cite.id, strings.Join(parts, "; "))
		}
		return fmt.Sprintf("The claim contradicts its source %s", ch.cite.id)
	}
	return ch.status
}
