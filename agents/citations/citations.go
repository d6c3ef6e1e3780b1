// Package citations is the citation checker of seed 003: it reads a
// document (Markdown, HTML or plain text), finds its factual claims and the
// citations each one carries (numbered references, footnotes, inline links,
// bare URLs), fetches every cited URL once through the guarded fetcher of
// ingest, judges whether each page states its claim with the evidence layer
// (NLI plus the numeric, date and unit check), flags unsourced and
// fabricated-looking claims, looks for alternative sources in verity's own
// corpus, and returns the seed's fact-check report.
//
// Fetched pages are data: nothing in a page changes what the checker does.
// Sentences in a page that address the checker are left out of the text
// judged and counted in the report.
package citations

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/ingest"
	"github.com/verity-fc/verity/scoring"
	"github.com/verity-fc/verity/verify"
)

// Fetcher fetches a cited URL. *ingest.Fetcher is the one implementation
// outside tests: it refuses internal addresses, bounds size and time and
// obeys robots.txt.
type Fetcher interface {
	Fetch(ctx context.Context, url string) (*ingest.Page, error)
}

// Assessor judges given passages against a claim: NLI probabilities and
// the numeric check for each (*verify.Service).
type Assessor interface {
	Assess(ctx context.Context, claim string, passages []evidence.Judged) (evidence.Result, error)
}

// Searcher searches verity's corpus for evidence on a claim
// (*verify.Service).
type Searcher interface {
	Verify(ctx context.Context, req verify.Request) (evidence.Result, error)
}

var (
	_ Fetcher  = (*ingest.Fetcher)(nil)
	_ Assessor = (*verify.Service)(nil)
	_ Searcher = (*verify.Service)(nil)
)

// Deps are the checker's collaborators. Fetcher and Assessor are required;
// without a Searcher no alternative sources are looked for.
type Deps struct {
	Fetcher  Fetcher
	Assessor Assessor
	Searcher Searcher
	// Logger defaults to discarding.
	Logger *slog.Logger
}

// Document formats.
const (
	FormatMarkdown = "markdown"
	FormatHTML     = "html"
	FormatText     = "text"
)

// Document is a document to check.
type Document struct {
	// Text is the document itself, at most Config.MaxDocumentBytes.
	Text string
	// Format is "markdown" (or "md"), "html" or "text" (or "txt"). Empty
	// picks the format from Path's extension, else sniffs for HTML and
	// reads anything else as Markdown.
	Format string
	// Path names the document in the report (analysis_path). It is never
	// read.
	Path string
}

// DefaultMaxDocumentBytes is the default bound on a document's text, 2 MiB:
// the one definition the server and the command line read too.
const DefaultMaxDocumentBytes = 2 << 20

// Config tunes the checker. The zero value gives the defaults.
type Config struct {
	// MaxDocumentBytes bounds Document.Text. Default
	// [DefaultMaxDocumentBytes].
	MaxDocumentBytes int
	// MaxClaims bounds the claims of one document. Default 2,000.
	MaxClaims int
	// MaxURLs bounds the distinct cited URLs of one document. Default 200.
	MaxURLs int
	// Parallel bounds the fetches, and separately the judgments, in
	// flight. Default 8.
	Parallel int
	// PerHost bounds the fetches in flight to one host. Default 2.
	PerHost int
	// FetchBudget bounds the time all fetches of one run may take; URLs
	// not fetched by then get the status timeout and the report is still
	// made. Default 45 s, under the server's 60 s request timeout. Each
	// fetch is also bounded by the fetcher's own timeout.
	FetchBudget time.Duration
	// TopPassages is how many passages of a page, those sharing the most
	// content words with the claim, are judged. Default 6 (seed 004's
	// top_n).
	TopPassages int
	// MaxPassages bounds the passages read from one page (about 100 words
	// each). Default 400.
	MaxPassages int
	// VerifyEntail is the entailment probability from which a passage
	// states the claim. Default the scoring layer's agree_entail (0.6; see
	// WithScoring): the built-in judge gives a verbatim restatement about
	// 0.65.
	VerifyEntail float64
	// StrictOverlap: a passage that agrees with all of a claim's figures
	// and holds at least this share of its content words states the claim
	// even when the NLI judge is unsure. Default 0.8.
	StrictOverlap float64
	// ContradictMin is the contradiction probability from which an
	// on-topic passage contradicts the claim. Default the scoring layer's
	// refuted_c_max (0.7, seed 004's; see WithScoring).
	ContradictMin float64
	// MinOverlap is the share of the claim's content words a passage must
	// hold to be on the claim's topic, so that its different figure or
	// its contradiction counts against the claim. Default 0.5.
	MinOverlap float64
	// DOIResolver and ArXivResolver are the URL prefixes DOIs and arXiv
	// ids are fetched from. Defaults [DOIURL] and [ArXivURL]; a closed
	// network may run a mirror. Reports name the public URL; the source's
	// final_url says where the page came from.
	DOIResolver, ArXivResolver string
	// MaxSearches bounds the corpus searches for alternative sources.
	// Default 50.
	MaxSearches int
	// Now is the clock. Default time.Now.
	Now func() time.Time
}

// DefaultConfig returns the defaults the zero Config stands for.
func DefaultConfig() Config { return Config{}.withDefaults() }

// WithScoring takes the thresholds the checker shares with the scoring
// layer from s: VerifyEntail is s.AgreeEntail, ContradictMin s.RefutedCMax.
func (c Config) WithScoring(s scoring.Config) Config {
	c.VerifyEntail, c.ContradictMin = s.AgreeEntail, s.RefutedCMax
	return c
}

// Validate reports a threshold outside (0, 1] or a bound below 1. It
// checks the values as given: start from DefaultConfig.
func (c Config) Validate() error {
	for _, t := range []struct {
		name string
		v    float64
	}{
		{"VerifyEntail", c.VerifyEntail}, {"StrictOverlap", c.StrictOverlap},
		{"ContradictMin", c.ContradictMin}, {"MinOverlap", c.MinOverlap},
	} {
		if t.v <= 0 || t.v > 1 {
			return fmt.Errorf("citations: %s is %v; it must lie in (0, 1]", t.name, t.v)
		}
	}
	for _, b := range []struct {
		name string
		v    int
	}{
		{"MaxDocumentBytes", c.MaxDocumentBytes}, {"MaxClaims", c.MaxClaims}, {"MaxURLs", c.MaxURLs},
		{"Parallel", c.Parallel}, {"PerHost", c.PerHost}, {"TopPassages", c.TopPassages},
		{"MaxPassages", c.MaxPassages}, {"MaxSearches", c.MaxSearches},
	} {
		if b.v < 1 {
			return fmt.Errorf("citations: %s is %d; it must be at least 1", b.name, b.v)
		}
	}
	return nil
}

func (c Config) withDefaults() Config {
	setInt := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	setFloat := func(v *float64, d float64) {
		if *v <= 0 {
			*v = d
		}
	}
	setInt(&c.MaxDocumentBytes, DefaultMaxDocumentBytes)
	setInt(&c.MaxClaims, 2000)
	setInt(&c.MaxURLs, 200)
	setInt(&c.Parallel, 8)
	setInt(&c.PerHost, 2)
	if c.FetchBudget <= 0 {
		c.FetchBudget = 45 * time.Second
	}
	setInt(&c.TopPassages, 6)
	setInt(&c.MaxPassages, 400)
	sc := scoring.DefaultConfig()
	setFloat(&c.VerifyEntail, sc.AgreeEntail)
	setFloat(&c.StrictOverlap, 0.8)
	setFloat(&c.ContradictMin, sc.RefutedCMax)
	setFloat(&c.MinOverlap, 0.5)
	setInt(&c.MaxSearches, 50)
	if c.DOIResolver == "" {
		c.DOIResolver = DOIURL
	}
	if c.ArXivResolver == "" {
		c.ArXivResolver = ArXivURL
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// Checker checks the citations of documents. It is safe for concurrent
// use; each Check is one run with its own fetch cache.
type Checker struct {
	fetcher  Fetcher
	assessor Assessor
	searcher Searcher
	log      *slog.Logger
	cfg      Config
}

// New returns a Checker. It fails when a required collaborator is missing
// or a threshold lies outside (0, 1].
func New(deps Deps, cfg Config) (*Checker, error) {
	if deps.Fetcher == nil || deps.Assessor == nil {
		return nil, errors.New("citations: Fetcher and Assessor are required")
	}
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	log := deps.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Checker{fetcher: deps.Fetcher, assessor: deps.Assessor, searcher: deps.Searcher, log: log, cfg: cfg}, nil
}

// format validates doc and returns its format.
func (c *Checker) format(doc Document) (string, error) {
	if strings.TrimSpace(doc.Text) == "" {
		return "", evidence.Invalid("document", "must not be empty")
	}
	if len(doc.Text) > c.cfg.MaxDocumentBytes {
		return "", evidence.Invalid("document", "is %d bytes; the limit is %d", len(doc.Text), c.cfg.MaxDocumentBytes)
	}
	switch strings.ToLower(strings.TrimSpace(doc.Format)) {
	case "markdown", "md":
		return FormatMarkdown, nil
	case "html", "htm":
		return FormatHTML, nil
	case "text", "txt", "plain":
		return FormatText, nil
	case "":
	default:
		return "", evidence.Invalid("format", "must be markdown, html or text, got %q", clip(doc.Format, 40))
	}
	switch strings.ToLower(filepath.Ext(doc.Path)) {
	case ".html", ".htm", ".xhtml":
		return FormatHTML, nil
	case ".md", ".markdown":
		return FormatMarkdown, nil
	case ".txt", ".text":
		return FormatText, nil
	}
	head := strings.ToLower(strings.TrimSpace(doc.Text[:min(len(doc.Text), 1024)]))
	if strings.HasPrefix(head, "<!doctype html") || strings.HasPrefix(head, "<html") ||
		strings.Contains(head, "<body") || strings.HasPrefix(head, "<p") || strings.HasPrefix(head, "<div") {
		return FormatHTML, nil
	}
	return FormatMarkdown, nil
}

// claim is a check-worthy sentence of the document.
type claim struct {
	sentence
	info claimInfo
}

// Check checks doc and returns its report. Bad input is an
// *evidence.InputError naming the field ("document" or "format"). A cited
// page that cannot be fetched is a finding of the report, not an error;
// the error is the context's, or the evidence layer's when judging fails.
func (c *Checker) Check(ctx context.Context, doc Document) (Report, error) {
	start := c.cfg.Now()
	format, err := c.format(doc)
	if err != nil {
		return Report{}, err
	}
	text := doc.Text
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	var claims []claim
	sents := parseDocument(text, format)
	for _, s := range sents {
		if s.linkOnly {
			continue
		}
		if info, ok := analyseClaim(s.text, len(s.cites) > 0); ok {
			claims = append(claims, claim{sentence: s, info: info})
		}
	}
	resolveClaims(sents, claims)
	if len(claims) > c.cfg.MaxClaims {
		return Report{}, evidence.Invalid("document", "has %d claims; the limit is %d", len(claims), c.cfg.MaxClaims)
	}

	// Each distinct URL is fetched once per run.
	var urls []string
	index := map[string]int{}
	for _, cl := range claims {
		for _, ct := range cl.cites {
			if ct.url == "" {
				continue
			}
			key := urlKey(ct.url)
			if _, ok := index[key]; !ok {
				index[key] = len(urls)
				urls = append(urls, ct.url)
			}
		}
	}
	if len(urls) > c.cfg.MaxURLs {
		return Report{}, evidence.Invalid("document", "cites %d distinct URLs; the limit is %d", len(urls), c.cfg.MaxURLs)
	}
	pages, err := c.fetchAll(ctx, urls)
	if err != nil {
		return Report{}, err
	}

	checks, err := c.judgeAll(ctx, claims, pages, index)
	if err != nil {
		return Report{}, err
	}
	results := make([]outcome, len(claims))
	for i, cl := range claims {
		results[i] = outcome{claim: cl, checks: checks[i], verdict: verdictOf(checks[i])}
	}
	searches, err := c.alternatives(ctx, results)
	if err != nil {
		return Report{}, err
	}
	r := buildReport(doc.Path, results, pages)
	r.Timestamp = start.UTC().Truncate(time.Second)
	r.VerificationDetails.WebsearchFallbacks = searches
	r.VerificationDetails.ProcessingTimeSeconds = round1(c.cfg.Now().Sub(start).Seconds())
	return r, nil
}

// urlKey is the form of a URL that the fetch cache is keyed by: the
// canonical URL (ingest.CanonicalURL) when there is one.
func urlKey(raw string) string {
	if k, err := ingest.CanonicalURL(raw); err == nil {
		return k
	}
	return raw
}
