package citations

import (
	"context"
	"errors"
	"fmt"

	"golang.org/x/sync/errgroup"

	"github.com/verity-fc/verity/evidence"
	txt "github.com/verity-fc/verity/text"
	"github.com/verity-fc/verity/verify"
)

// Verdicts of a claim: they keep apart a source that cannot be reached, a
// source that is real but does not state the claim, a claim with no source
// at all and a claim its source contradicts.
const (
	VerdictVerified = "verified"
	// VerdictFalse: a cited source gives a different figure or states the
	// opposite.
	VerdictFalse = "false"
	// VerdictMisattributed: the source states it, but not as the
	// organisation the claim names.
	VerdictMisattributed = "misattributed"
	// VerdictMiscited: the cited sources were read and none states it.
	VerdictMiscited = "miscited"
	// VerdictSourceUnavailable: no cited source could be read (broken
	// link, timeout, paywall, missing reference entry).
	VerdictSourceUnavailable = "source_unavailable"
	// VerdictUnsourced: the claim cites nothing.
	VerdictUnsourced = "unsourced"
)

// check is the outcome of one (claim, citation) pair.
type check struct {
	cite cite
	// page is the fetched page, nil for a citation with no URL.
	page        *page
	status      string
	finding     finding
	alternative *Alternative
}

// outcome is a claim with its checks and verdict.
type outcome struct {
	claim
	checks      []check
	verdict     string
	alternative *Alternative
}

// fetchSeverity grades statuses that are not judgments of the page: broken
// links are medium (seed 003); a paywalled page and a reference without a
// URL are low.
func fetchSeverity(status string) string {
	switch status {
	case StatusThinContent, StatusNoURL:
		return SeverityLow
	}
	return SeverityMedium
}

// judgeAll judges every (claim, citation) pair whose page was read, at most
// cfg.Parallel at a time.
func (c *Checker) judgeAll(ctx context.Context, claims []claim, pages []page, index map[string]int) ([][]check, error) {
	checks := make([][]check, len(claims))
	type pair struct{ i, k int }
	var todo []pair
	for i, cl := range claims {
		checks[i] = make([]check, len(cl.cites))
		for k, ct := range cl.cites {
			ch := check{cite: ct, status: ct.problem}
			if ct.problem == "" {
				ch.page = &pages[index[urlKey(ct.url)]]
				ch.status = ch.page.Status
				if ch.status == StatusOK {
					todo = append(todo, pair{i, k})
				}
			}
			ch.finding.severity = fetchSeverity(ch.status)
			checks[i][k] = ch
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(c.cfg.Parallel)
	for _, p := range todo {
		g.Go(func() error {
			ch := &checks[p.i][p.k]
			f, err := c.judge(gctx, claims[p.i].info, ch.page)
			if err != nil {
				return err
			}
			if f.status == StatusClaimNotInSource && ch.page.wall != nil {
				// The claim may stand behind the wall.
				f = finding{status: StatusThinContent, severity: fetchSeverity(StatusThinContent),
					actual: fmt.Sprintf("The claim is not in the page's readable text, and the page shows a %s", ch.page.wall)}
			}
			ch.finding, ch.status = f, f.status
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return checks, nil
}

// verdictOf combines a claim's checks. A contradiction by any cited source
// makes the claim false even if another source supports it: the document
// must not rest on a source it misreports.
func verdictOf(checks []check) string {
	if len(checks) == 0 {
		return VerdictUnsourced
	}
	has := map[string]bool{}
	for _, ch := range checks {
		has[ch.status] = true
	}
	switch {
	case has[StatusContradicted]:
		return VerdictFalse
	case has[StatusVerified]:
		return VerdictVerified
	case has[StatusMisattributed]:
		return VerdictMisattributed
	case has[StatusClaimNotInSource]:
		return VerdictMiscited
	}
	return VerdictSourceUnavailable
}

// needsAlternative reports whether to search the corpus for a source: the
// claim's citations failed, or it is unsourced and flagged (a figure, a
// market or company claim).
func needsAlternative(o outcome) bool {
	switch o.verdict {
	case VerdictMiscited, VerdictSourceUnavailable, VerdictMisattributed:
		return true
	case VerdictUnsourced:
		return unsourcedSeverity(o.info) != SeverityLow
	}
	return false
}

// alternatives searches verity's corpus for a source that states each claim
// whose citations failed (and each flagged unsourced claim), at most
// cfg.MaxSearches searches, and attaches what it finds. It returns the
// number of searches made. A failed search is logged and skipped; only the
// context's end is an error.
func (c *Checker) alternatives(ctx context.Context, outs []outcome) (int, error) {
	if c.searcher == nil {
		return 0, nil
	}
	var todo []int
	for i, o := range outs {
		if needsAlternative(o) && len(todo) < c.cfg.MaxSearches {
			todo = append(todo, i)
		}
	}
	found := make([]*Alternative, len(outs))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(c.cfg.Parallel)
	for _, i := range todo {
		g.Go(func() error {
			alt, err := c.search(gctx, outs[i])
			if err != nil {
				return err
			}
			found[i] = alt
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return 0, fmt.Errorf("search alternative sources: %w", err)
	}
	for i, alt := range found {
		if alt == nil {
			continue
		}
		outs[i].alternative = alt
		for k := range outs[i].checks {
			if outs[i].checks[k].status != StatusVerified {
				outs[i].checks[k].alternative = alt
			}
		}
	}
	return len(todo), nil
}

// search looks for one claim's alternative source: a corpus passage that
// states it by the rules of [Checker.decide], at a URL the claim does not
// already cite.
func (c *Checker) search(ctx context.Context, o outcome) (*Alternative, error) {
	res, err := c.searcher.Verify(ctx, verify.Request{Claim: clip(o.info.content, 1000)})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var ie *evidence.InputError
		if !errors.As(err, &ie) {
			c.log.Warn("alternative source search failed", "line", o.line, "err", err)
		}
		return nil, nil
	}
	cited := map[string]bool{}
	for _, ct := range o.cites {
		cited[urlKey(ct.url)] = true
	}
	var ps []evidence.Judged
	var ovl []float64
	ct := txt.CitationTerms(o.info.content)
	for _, p := range res.Passages {
		if p.URL != "" && cited[urlKey(p.URL)] {
			continue
		}
		ps = append(ps, p)
		ovl = append(ovl, txt.SetOverlap(ct, txt.CitationTerms(p.Text)))
	}
	f := c.decide(o.info, ps, ovl)
	if f.status != StatusVerified || f.passage == nil {
		return nil, nil
	}
	p := f.passage
	return &Alternative{URL: p.URL, Title: p.Title, SourceID: p.SourceID, Excerpt: f.excerpt}, nil
}
