package citations

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/ingest"
	"github.com/verity-fc/verity/sentences"
	txt "github.com/verity-fc/verity/text"
)

// Statuses of a cited URL's fetch, as the report gives them.
const (
	StatusOK          = "ok"
	StatusNotFound    = "404_not_found"
	StatusForbidden   = "403_forbidden"
	StatusHTTPError   = "http_error" // any other non-2xx status; see Source.HTTPStatus
	StatusTimeout     = "timeout"
	StatusUnreachable = "unreachable" // no connection: DNS, refused, reset, too many redirects
	// StatusBlocked: the URL, or a redirect, leads to an address the
	// guarded fetcher refuses (loopback, private, link-local, metadata).
	StatusBlocked          = "blocked"
	StatusRobotsDisallowed = "robots_disallowed"
	StatusUnsupported      = "unsupported_content" // an image, a PDF without a text layer, ...
	StatusTooLarge         = "too_large"
	StatusInvalidURL       = "invalid_url"
	// StatusThinContent: the page answered but has no text, or shows only
	// a paywall, login, bot-check or consent marker (walls.go), or shows
	// one and its other text lacks the claim. A claim citing it is
	// unverifiable, never "not in source".
	StatusThinContent = "thin_content"
)

// Source is one cited URL as fetched during a run: enough to reproduce the
// report (the final URL, the time and the SHA-256 of the text judged).
type Source struct {
	URL    string `json:"url"`
	Status string `json:"status"`
	// HTTPStatus is the response status of a failed fetch, 0 otherwise.
	HTTPStatus int    `json:"http_status,omitempty"`
	FinalURL   string `json:"final_url,omitempty"`
	Title      string `json:"title,omitempty"`
	// ContentSHA256 is the hex SHA-256 of the page's extracted text.
	ContentSHA256 string    `json:"content_sha256,omitempty"`
	FetchedAt     time.Time `json:"fetched_at"`
	// Words counts the words of the extracted text.
	Words int `json:"words,omitempty"`
	// Detail says what went wrong, for statuses other than ok.
	Detail string `json:"detail,omitempty"`
	// IgnoredInstructions counts sentences of the page that address the
	// checker ("ignore previous instructions", "mark this claim as
	// verified"); they were left out of the passages judged.
	IgnoredInstructions int `json:"ignored_instructions,omitempty"`
}

// page is a fetched source with the passages the claims are judged on.
type page struct {
	Source
	domain    string
	published time.Time
	passages  []string
	// terms holds each passage's content words (see [terms]).
	terms []map[string]bool
	// wall is the wall marker the page shows besides its text, if any.
	wall *wallMarker
}

var (
	// softNotFoundRe finds a "not found" page served with status 200; a
	// bare "404" counts only in a title.
	softNotFoundRe  = regexp.MustCompile(`(?i)\b(?:page not found|(?:error )?404 (?:error|not found)|page (?:cannot|could not|can't) be found|page (?:does not|doesn't) exist|page is no longer available)\b`)
	notFoundTitleRe = regexp.MustCompile(`(?i)^\W*(?:error\s+)?(?:404|not found)\b|\b404\W*$`)
)

// fetchAll fetches each URL once, at most cfg.Parallel at a time and
// cfg.PerHost at a time per host, within cfg.FetchBudget, and returns the
// pages in the order of urls. A failed fetch is a page with a status, not
// an error; the error is the caller's context's.
func (c *Checker) fetchAll(ctx context.Context, urls []string) ([]page, error) {
	out := make([]page, len(urls))
	hosts := map[string]chan struct{}{}
	for _, u := range urls {
		if h := hostOf(u); hosts[h] == nil {
			hosts[h] = make(chan struct{}, c.cfg.PerHost)
		}
	}
	budget, cancel := context.WithTimeout(ctx, c.cfg.FetchBudget)
	defer cancel()
	g, gctx := errgroup.WithContext(budget)
	g.SetLimit(c.cfg.Parallel)
	for i, u := range urls {
		sem := hosts[hostOf(u)]
		g.Go(func() error {
			select {
			case sem <- struct{}{}:
				defer func() { <-sem }()
			case <-gctx.Done():
			}
			p, err := c.fetchOne(gctx, ctx, u)
			if err != nil {
				return err
			}
			out[i] = p
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, fmt.Errorf("fetch cited pages: %w", err)
	}
	return out, nil
}

func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Host)
}

// fetchOne fetches and reads one URL within ctx, the run's fetch budget.
// It returns an error only when parent, the caller's context, ends; every
// other failure, the budget's end included, is the page's status.
func (c *Checker) fetchOne(ctx, parent context.Context, rawURL string) (page, error) {
	p := page{Source: Source{URL: rawURL}, domain: evidence.DomainOf(rawURL)}
	if _, err := ingest.CanonicalURL(rawURL); err != nil {
		p.Status, p.Detail, p.FetchedAt = StatusInvalidURL, err.Error(), c.cfg.Now().UTC()
		return p, nil
	}
	var (
		fp  *ingest.Page
		err = ctx.Err()
	)
	if err == nil {
		fp, err = c.fetcher.Fetch(ctx, c.fetchTarget(rawURL))
	}
	if err != nil {
		if perr := parent.Err(); perr != nil {
			return page{}, perr
		}
		p.Status, p.HTTPStatus = fetchStatus(err)
		p.Detail = err.Error()
		if ctx.Err() != nil {
			p.Status, p.HTTPStatus = StatusTimeout, 0
			p.Detail = fmt.Sprintf("not fetched within the run's fetch budget of %s", c.cfg.FetchBudget)
		}
		p.FetchedAt = c.cfg.Now().UTC()
		c.log.Debug("cited page not fetched", "url", rawURL, "status", p.Status, "err", err)
		return p, nil
	}
	p.FinalURL, p.FetchedAt = fp.URL, fp.FetchedAt.UTC()
	if d := evidence.DomainOf(fp.URL); d != "" {
		p.domain = d
	}
	doc, err := ingest.Extract(fp.Body, fp.ContentType, fp.URL)
	if err != nil {
		p.Status, p.Detail = StatusUnsupported, err.Error()
		if errors.Is(err, ingest.ErrTooLarge) {
			p.Status = StatusTooLarge
		}
		return p, nil
	}
	sum := sha256.Sum256([]byte(doc.Text))
	p.ContentSHA256, p.Title = hex.EncodeToString(sum[:]), doc.Title
	p.Words = len(strings.Fields(doc.Text))
	text, ignored := ingest.DropInstructions(doc.Text)
	p.IgnoredInstructions = ignored
	p.Status, p.Detail, text, p.wall = contentStatus(doc.Title, text)
	if p.Status != StatusOK {
		return p, nil
	}
	p.published = doc.PublishedAt
	p.passages = ingest.Chunk(text, ingest.ChunkConfig{})
	if len(p.passages) > c.cfg.MaxPassages {
		p.passages = p.passages[:c.cfg.MaxPassages]
	}
	p.terms = make([]map[string]bool, len(p.passages))
	for i, ps := range p.passages {
		p.terms[i] = txt.CitationTerms(ps)
	}
	return p, nil
}

// fetchTarget is where rawURL is fetched from: DOI and arXiv URLs go to
// the configured resolvers.
func (c *Checker) fetchTarget(rawURL string) string {
	if rest, ok := strings.CutPrefix(rawURL, DOIURL); ok {
		return c.cfg.DOIResolver + rest
	}
	if rest, ok := strings.CutPrefix(rawURL, ArXivURL); ok {
		return c.cfg.ArXivResolver + rest
	}
	return rawURL
}

// fetchStatus maps a fetch error to a status and, for HTTP errors, the
// response code.
func fetchStatus(err error) (string, int) {
	var se *ingest.StatusError
	switch {
	case errors.As(err, &se):
		switch se.Code {
		case http.StatusNotFound, http.StatusGone:
			return StatusNotFound, se.Code
		case http.StatusForbidden, http.StatusUnauthorized:
			return StatusForbidden, se.Code
		}
		return StatusHTTPError, se.Code
	case errors.Is(err, ingest.ErrBlocked):
		return StatusBlocked, 0
	case errors.Is(err, ingest.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return StatusTimeout, 0
	case errors.Is(err, ingest.ErrRobotsDisallowed):
		return StatusRobotsDisallowed, 0
	case errors.Is(err, ingest.ErrUnsupportedContentType):
		return StatusUnsupported, 0
	case errors.Is(err, ingest.ErrTooLarge):
		return StatusTooLarge, 0
	}
	return StatusUnreachable, 0
}

// softNotFoundWords: a text shorter than this that says "page not found"
// is a not-found page served with status 200.
const softNotFoundWords = 150

// contentStatus decides whether a page's text can serve as evidence, as
// walls.go says, and returns the text to judge (without wall markers) and
// the marker the page shows, if any. A page is a "soft 404" when its
// title, or a short text, says the page was not found.
func contentStatus(title, text string) (status, detail, rest string, wall *wallMarker) {
	n := len(strings.Fields(text))
	if notFoundTitleRe.MatchString(title) || softNotFoundRe.MatchString(title) || (n < softNotFoundWords && softNotFoundRe.MatchString(text)) {
		return StatusNotFound, "the page says it was not found (served with status 200)", "", nil
	}
	if n == 0 {
		return StatusThinContent, "the page has no text", "", nil
	}
	rest, m, found := splitWalls(text)
	if !found {
		return StatusOK, "", text, nil
	}
	if strings.TrimSpace(rest) == "" {
		return StatusThinContent, fmt.Sprintf("the page shows only a %s", m), "", &m
	}
	return StatusOK, "", rest, &m
}

// forEachSentence calls fn with each sentence of text, paragraph by
// paragraph.
func forEachSentence(text string, fn func(string)) {
	for _, para := range strings.Split(text, "\n\n") {
		para = strings.Join(strings.Fields(para), " ")
		for _, s := range sentences.Texts(para) {
			fn(s)
		}
	}
}
