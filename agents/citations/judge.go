package citations

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/quantity"
	txt "github.com/verity-fc/verity/text"
)

// Outcomes of a claim against a page that was fetched and read.
const (
	StatusVerified         = "verified"
	StatusClaimNotInSource = "claim_not_in_source"
	// StatusContradicted: the page gives a different figure or states the
	// opposite. The claim is false as cited.
	StatusContradicted = "contradicted"
	// StatusMisattributed: the page supports the statement but does not
	// name the organisation the claim attributes it to.
	StatusMisattributed = "misattributed"
)

// Severities, as seed 003 defines them.
const (
	SeverityHigh   = "high"
	SeverityMedium = "medium"
	SeverityLow    = "low"
)

// finding is the outcome of one claim against one cited page.
type finding struct {
	status string
	// actual is what the page says instead: its figure for a number
	// mismatch, its statement for a contradiction, or a note on what is
	// missing.
	actual string
	// excerpt is the passage sentence the outcome rests on.
	excerpt  string
	severity string
	// passage is the deciding passage, when there is one.
	passage *evidence.Judged
}

// judge decides whether the page states the claim. The passages that share
// the most content words with the claim (at most cfg.TopPassages, none
// that shares nothing) are judged by the evidence layer (NLI and the
// numeric, date and unit check), and [decide] reads the judgments.
func (c *Checker) judge(ctx context.Context, info claimInfo, p *page) (finding, error) {
	ct := txt.CitationTerms(info.content)
	type cand struct {
		i   int
		ovl float64
	}
	var cands []cand
	for i, pt := range p.terms {
		if o := txt.SetOverlap(ct, pt); o > 0 {
			cands = append(cands, cand{i, o})
		}
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].ovl > cands[b].ovl })
	if len(cands) > c.cfg.TopPassages {
		cands = cands[:c.cfg.TopPassages]
	}
	if len(cands) == 0 {
		return c.notInSource(info, false), nil
	}
	url := p.FinalURL
	if url == "" {
		url = p.URL
	}
	js := make([]evidence.Judged, len(cands))
	for k, cd := range cands {
		js[k] = evidence.Judged{
			Passage: evidence.Passage{
				ID: p.ContentSHA256[:16] + ":" + strconv.Itoa(cd.i), SourceID: p.ContentSHA256[:16], Ordinal: cd.i,
				Text: p.passages[cd.i], URL: url, Domain: p.domain, Title: p.Title, PublishedAt: p.published,
			},
			Relevance: cd.ovl,
			Recency:   0.5,
		}
	}
	res, err := c.assessor.Assess(ctx, info.content, js)
	if err != nil {
		return finding{}, fmt.Errorf("judge claim against %s: %w", p.URL, err)
	}
	if len(res.Passages) != len(js) {
		return finding{}, fmt.Errorf("judge claim against %s: got %d passages back for %d", p.URL, len(res.Passages), len(js))
	}
	ovl := make([]float64, len(cands))
	for k, cd := range cands {
		ovl[k] = cd.ovl
	}
	f := c.decide(info, res.Passages, ovl)
	if f.status == StatusVerified && info.entity != "" && !attributed(info.entity, f.passage, p) {
		return finding{
			status:   StatusMisattributed,
			actual:   fmt.Sprintf("The page states this without naming %s", info.entity),
			excerpt:  f.excerpt,
			severity: SeverityHigh,
			passage:  f.passage,
		}, nil
	}
	return f, nil
}

// attributed reports whether the page credits entity with what the
// supporting passage says: the passage, the page's title or its domain
// names the entity.
func attributed(entity string, sup *evidence.Judged, p *page) bool {
	return (sup != nil && mentions(sup.Text, entity)) || mentions(p.Title, entity) || domainNames(p.domain, entity)
}

// decide reads the judged passages (in the order of ovl, their word
// overlap with the claim):
//
//   - verified when a passage entails the claim (entail >= VerifyEntail),
//     or gives all of the claim's figures and holds at least StrictOverlap
//     of its content words while not contradicting it (contradict below
//     both ContradictMin and entail); in both cases with no numeric
//     mismatch and, for a claim with figures, with the numeric check
//     agreeing;
//   - contradicted when no passage verifies it and a passage on the
//     claim's topic (overlap >= MinOverlap) gives a different figure
//     (severity from the relative error: over 50% high, 10-50% medium,
//     under 10% low; a year or date medium), or contradicts it with
//     contradict >= ContradictMin, or would entail it but for a negation
//     the claim lacks ("did not grow 20%"; see negationRe) (medium: a
//     judgment with no figure to show);
//   - claim_not_in_source otherwise.
func (c *Checker) decide(info claimInfo, ps []evidence.Judged, ovl []float64) finding {
	numeric := quantity.HasQuantity(info.content)
	ct := txt.CitationTerms(info.content)
	claimNegated := negationRe.MatchString(info.content)
	var support, conflict, contra int = -1, -1, -1
	var contraScore float64
	for k := range ps {
		p := &ps[k]
		mismatch := p.Num.Applicable && !p.Num.OK && len(p.Num.Mismatches) > 0
		onTopic := ovl[k] >= c.cfg.MinOverlap
		figuresOK := !numeric || (p.Num.Applicable && p.Num.OK)
		entails := p.Entail >= c.cfg.VerifyEntail ||
			(numeric && ovl[k] >= c.cfg.StrictOverlap && p.Contradict < c.cfg.ContradictMin && p.Entail >= p.Contradict)
		// The NLI judge may miss a negation ("did not grow 20%"): a
		// sentence that negates what the claim asserts does not state it.
		negated := entails && !claimNegated && negates(bestSentence(p.Text, ct), ct)
		if entails && !negated && !mismatch && figuresOK && (support < 0 || p.Entail > ps[support].Entail) {
			support = k
		}
		if mismatch && onTopic && (conflict < 0 || ovl[k] > ovl[conflict]) {
			conflict = k
		}
		score := p.Contradict
		if negated {
			score = max(score, p.Entail)
		}
		if !mismatch && onTopic && (p.Contradict >= c.cfg.ContradictMin || negated) && (contra < 0 || score > contraScore) {
			contra, contraScore = k, score
		}
	}
	switch {
	case support >= 0:
		p := &ps[support]
		return finding{status: StatusVerified, excerpt: bestSentence(p.Text, ct), passage: p}
	case conflict >= 0:
		p := &ps[conflict]
		var figs []string
		for _, m := range p.Num.Mismatches {
			figs = append(figs, m.Source)
		}
		return finding{
			status:   StatusContradicted,
			actual:   strings.Join(figs, "; "),
			excerpt:  bestSentence(p.Text, ct),
			severity: mismatchSeverity(p.Num.Mismatches),
			passage:  p,
		}
	case contra >= 0:
		p := &ps[contra]
		s := bestSentence(p.Text, ct)
		// A source that states the opposite of the claim it is cited for
		// is a critical issue (seed 003's "false attribution" class).
		return finding{status: StatusContradicted, actual: s, excerpt: s, severity: SeverityHigh, passage: p}
	}
	onTopic := false
	for k := range ps {
		onTopic = onTopic || ovl[k] >= c.cfg.MinOverlap
	}
	return c.notInSource(info, numeric && onTopic)
}

func (c *Checker) notInSource(info claimInfo, figureMissing bool) finding {
	actual := "No passage of the page states this claim"
	if figureMissing {
		actual = "The page discusses this but does not give the claimed figure"
	}
	return finding{status: StatusClaimNotInSource, actual: actual, severity: SeverityMedium}
}

// negationRe finds the negations that reverse a statement.
var negationRe = regexp.MustCompile(`(?i)\b(?:(?:do|does|did|is|are|was|were|has|have|had|could|would|will)\s+not|(?:do|does|did|is|are|was|were|has|have|had|could|would|wo|ca)n['’]t|cannot|never|no longer|failed to|neither|nor)\b`)

// negationWindow is how many words after a negation it reaches.
const negationWindow = 4

// negates reports whether sentence negates something the claim asserts: a
// negation followed, within negationWindow words, by one of the claim's
// content words or figures ("did not grow 20%" against "grew 20%"). A
// negation of something else ("although it did not reach its peak") does
// not count.
func negates(sentence string, claim map[string]bool) bool {
	for _, loc := range negationRe.FindAllStringIndex(sentence, -1) {
		after := strings.Fields(sentence[loc[1]:])
		after = after[:min(len(after), negationWindow)]
		for w := range txt.CitationTerms(strings.Join(after, " ")) {
			if claim[w] {
				return true
			}
		}
	}
	return false
}

// mismatchSeverity grades a number mismatch by its largest relative error
// (see [quantity.RelativeError]): over 50% high, 10% to 50% medium, less
// low. A year or date that differs is medium.
func mismatchSeverity(ms []evidence.Mismatch) string {
	worst := 0.0
	dated := false
	for _, m := range ms {
		cq, sq := quantity.Extract(m.Claim), quantity.Extract(m.Source)
		if len(cq) == 0 || len(sq) == 0 {
			dated = true
			continue
		}
		if cq[0].Kind == quantity.Year || cq[0].Kind == quantity.Date {
			dated = true
			continue
		}
		cv, _ := cq[0].Base()
		sv, _ := sq[0].Base()
		worst = max(worst, quantity.RelativeError(cv, sv))
	}
	switch {
	case worst > 0.5:
		return SeverityHigh
	case worst >= 0.1 || dated:
		return SeverityMedium
	}
	return SeverityLow
}

// bestSentence returns the sentence of text that shares the most content
// words with the claim, at most 300 characters.
func bestSentence(text string, claim map[string]bool) string {
	best, bestScore := "", -1.0
	forEachSentence(text, func(s string) {
		if o := txt.SetOverlap(claim, txt.CitationTerms(s)); o > bestScore {
			best, bestScore = s, o
		}
	})
	return clip(best, 300)
}

// clip cuts s to at most n runes, ending in "..." when cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-3])) + "..."
}
