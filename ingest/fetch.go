package ingest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Defaults of [FetchConfig].
const (
	DefaultMaxBytes     = 10 << 20 // 10 MiB
	DefaultTimeout      = 20 * time.Second
	DefaultMaxRedirects = 5
	DefaultUserAgent    = "verity/0.1 (+https://github.com/verity-fc/verity)"
)

// DefaultContentTypes are the media types Fetch accepts when
// FetchConfig.ContentTypes is empty: the ones [Extract] reads.
var DefaultContentTypes = []string{
	"text/html", "application/xhtml+xml", "text/plain", "text/markdown", "text/x-markdown",
	"application/pdf",
}

// FetchConfig configures a [Fetcher]. The zero value is a safe default.
type FetchConfig struct {
	// AllowPrivate allows loopback, private (RFC 1918, fc00::/7) and shared
	// (100.64.0.0/10) addresses. Default false. It is meant for tests and
	// closed networks (VERITY_FETCH_ALLOW_PRIVATE=1); link-local, cloud
	// metadata, multicast and reserved addresses stay refused.
	AllowPrivate bool
	// MaxBytes bounds a response body after decompression. Default 10 MiB.
	MaxBytes int64
	// Timeout bounds one Fetch: robots.txt, redirects, headers and body.
	// Default 20 s.
	Timeout time.Duration
	// MaxRedirects is the number of redirects followed. Default 5.
	MaxRedirects int
	// UserAgent is sent with every request. Its product token (the text
	// before the first "/") is the agent matched in robots.txt. Default
	// [DefaultUserAgent].
	UserAgent string
	// IgnoreRobots turns off robots.txt. By default Fetch obeys it: it
	// fetches robots.txt once per host (cached for an hour) and refuses
	// disallowed URLs, redirect targets included.
	IgnoreRobots bool
	// ContentTypes lists the media types Fetch accepts; others fail with
	// [ErrUnsupportedContentType]. Default [DefaultContentTypes].
	ContentTypes []string
	// MaxConcurrent bounds the fetches under way at once through this
	// Fetcher, whoever asks (ingest, the citation checker); more wait.
	// Default 16.
	MaxConcurrent int
	// MaxBytesInFlight bounds the body bytes that fetches under way hold
	// at once: each reserves its announced Content-Length, or MaxBytes
	// when none is announced, before reading, and waits while the budget
	// is spent. Default 64 MiB, and at least MaxBytes.
	MaxBytesInFlight int64
	// Now is the clock. Default time.Now.
	Now func() time.Time
	// Observe, when set, is told the [FetchStatus] of every Fetch (for
	// metrics).
	Observe func(status string)
}

// DefaultFetchConfig returns the defaults the zero FetchConfig stands for.
func DefaultFetchConfig() FetchConfig { return FetchConfig{}.withDefaults() }

// Validate reports the first setting that cannot work, naming it as
// verity's configuration does (fetch.max_bytes). It checks the values as
// given: start from DefaultFetchConfig.
func (c FetchConfig) Validate() error {
	switch {
	case c.Timeout <= 0 || c.MaxBytes <= 0:
		return fmt.Errorf("fetch.timeout and fetch.max_bytes must be positive")
	case c.MaxConcurrent < 1 || c.MaxConcurrent > 1024:
		return fmt.Errorf("fetch.max_concurrent must be between 1 and 1024, got %d", c.MaxConcurrent)
	case c.MaxBytesInFlight < c.MaxBytes:
		return fmt.Errorf("fetch.max_bytes_in_flight (%d) must be at least fetch.max_bytes (%d)", c.MaxBytesInFlight, c.MaxBytes)
	}
	return nil
}

func (c FetchConfig) withDefaults() FetchConfig {
	if c.MaxBytes <= 0 {
		c.MaxBytes = DefaultMaxBytes
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxRedirects <= 0 {
		c.MaxRedirects = DefaultMaxRedirects
	}
	if c.UserAgent == "" {
		c.UserAgent = DefaultUserAgent
	}
	if len(c.ContentTypes) == 0 {
		c.ContentTypes = slices.Clone(DefaultContentTypes)
	}
	if c.MaxConcurrent <= 0 {
		c.MaxConcurrent = DefaultMaxConcurrentFetches
	}
	if c.MaxBytesInFlight <= 0 {
		c.MaxBytesInFlight = DefaultMaxBytesInFlight
	}
	c.MaxBytesInFlight = max(c.MaxBytesInFlight, c.MaxBytes)
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// Errors of [Fetcher.Fetch] that callers branch on with errors.Is. See also
// [ErrBlocked], [*StatusError] and [ErrUnsupportedContentType].
var (
	ErrTooLarge          = errors.New("body too large")
	ErrTimeout           = errors.New("fetch timed out")
	ErrTooManyRedirects  = errors.New("too many redirects")
	ErrRobotsDisallowed  = errors.New("disallowed by robots.txt")
	errRobotsUnavailable = errors.New("robots.txt unavailable")
)

// ErrUnsupportedContentType is matched by a [*ContentTypeError].
var ErrUnsupportedContentType = errors.New("unsupported content type")

// ContentTypeError is a document whose type verity does not read.
type ContentTypeError struct {
	Type string
}

func (e *ContentTypeError) Error() string {
	return fmt.Sprintf("unsupported content type %q", e.Type)
}

// Is reports whether target is ErrUnsupportedContentType.
func (e *ContentTypeError) Is(target error) bool { return target == ErrUnsupportedContentType }

// StatusError is a response whose status is not 2xx.
type StatusError struct {
	URL  string
	Code int
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("status %d %s from %s", e.Code, http.StatusText(e.Code), e.URL)
}

// Page is a fetched response.
type Page struct {
	// URL is the final URL, after redirects.
	URL        string
	StatusCode int
	// ContentType is the Content-Type header, or the sniffed type when the
	// server sent none or application/octet-stream.
	ContentType string
	Body        []byte
	FetchedAt   time.Time
}

// Fetcher is the one guarded HTTP client of verity: every outbound request
// of the service goes through it, so the refusal of internal addresses, the
// size and time bounds and robots.txt hold everywhere. It is safe for
// concurrent use.
type Fetcher struct {
	cfg    FetchConfig
	logger *slog.Logger
	guard  *guard
	client *http.Client
	robots *robotsCache
	agent  string
	budget *budget
}

// NewFetcher returns a Fetcher. A nil logger discards logs.
func NewFetcher(cfg FetchConfig, logger *slog.Logger) *Fetcher {
	return newFetcher(cfg, logger, nil, nil)
}

// newFetcher is NewFetcher with two test hooks: resolver replaces the
// system's name resolution, and exempt lists addresses the guard allows
// whatever the rules say.
func newFetcher(cfg FetchConfig, logger *slog.Logger, resolver *net.Resolver, exempt []netip.Addr) *Fetcher {
	cfg = cfg.withDefaults()
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	f := &Fetcher{
		cfg:    cfg,
		logger: logger,
		guard:  &guard{allowPrivate: cfg.AllowPrivate, exempt: exempt},
		agent:  strings.TrimSpace(strings.SplitN(cfg.UserAgent, "/", 2)[0]),
		budget: newBudget(cfg.MaxConcurrent, cfg.MaxBytesInFlight),
	}
	dialer := &net.Dialer{
		Timeout:   10 * time.Second,
		KeepAlive: 30 * time.Second,
		Control:   f.guard.control,
		Resolver:  resolver,
	}
	transport := &http.Transport{
		// No proxy: a proxy would make the connection the guard checks
		// one to the proxy, not to the target.
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           64,
		MaxIdleConnsPerHost:    4,
		IdleConnTimeout:        90 * time.Second,
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  cfg.Timeout,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: 1 << 20,
	}
	f.client = &http.Client{
		Transport:     transport,
		CheckRedirect: f.checkRedirect,
		Timeout:       cfg.Timeout,
	}
	f.robots = newRobotsCache(f, time.Hour, 4096)
	return f
}

// Client returns the guarded client for callers that need raw access (a
// HEAD request, their own body handling). Its requests are address-checked
// at dial time and on every redirect and bounded by the configured timeout;
// robots.txt, the body size and content type are the caller's to check.
func (f *Fetcher) Client() *http.Client { return f.client }

type robotsKey struct{}

func (f *Fetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > f.cfg.MaxRedirects {
		return fmt.Errorf("%w: more than %d", ErrTooManyRedirects, f.cfg.MaxRedirects)
	}
	if err := f.guard.checkURL(req.URL); err != nil {
		return err
	}
	if obey, _ := req.Context().Value(robotsKey{}).(bool); obey {
		return f.robots.check(req.Context(), req.URL)
	}
	return nil
}

// Fetch GETs rawURL and returns the page. It fails with [ErrBlocked] for
// refused addresses, [*StatusError] for a non-2xx status, [ErrTooLarge],
// [ErrTimeout] (which also matches context.DeadlineExceeded),
// [ErrRobotsDisallowed], [ErrTooManyRedirects] and
// [ErrUnsupportedContentType].
func (f *Fetcher) Fetch(ctx context.Context, rawURL string) (*Page, error) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil {
		return nil, fmt.Errorf("fetch: invalid URL %q: %w", rawURL, err)
	}
	page, err := f.fetch(ctx, u)
	if f.cfg.Observe != nil {
		f.cfg.Observe(FetchStatus(page, err))
	}
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", u.Redacted(), err)
	}
	return page, nil
}

func (f *Fetcher) fetch(parent context.Context, u *url.URL) (*Page, error) {
	if err := f.guard.checkURL(u); err != nil {
		return nil, err
	}
	// The wait for a slot is not part of the fetch's own time limit.
	done, err := f.budget.begin(parent)
	if err != nil {
		return nil, err
	}
	defer done()
	ctx, cancel := context.WithTimeout(parent, f.cfg.Timeout)
	defer cancel()
	if !f.cfg.IgnoreRobots {
		ctx = context.WithValue(ctx, robotsKey{}, true)
		if err := f.robots.check(ctx, u); err != nil {
			return nil, f.timeoutErr(parent, ctx, err)
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", f.cfg.UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.8,*/*;q=0.1")
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, f.timeoutErr(parent, ctx, unwrapURLError(err))
	}
	defer resp.Body.Close()
	finalURL := *resp.Request.URL
	finalURL.User = nil // credentials never reach the corpus
	final := finalURL.String()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, &StatusError{URL: final, Code: resp.StatusCode}
	}
	if resp.ContentLength > f.cfg.MaxBytes {
		return nil, fmt.Errorf("%w: %d bytes announced, limit %d", ErrTooLarge, resp.ContentLength, f.cfg.MaxBytes)
	}
	ctype := resp.Header.Get("Content-Type")
	sniff := mediaType(ctype) == "" || mediaType(ctype) == "application/octet-stream"
	if !sniff && !f.accepts(ctype) {
		return nil, &ContentTypeError{Type: ctype}
	}
	want := f.cfg.MaxBytes
	if resp.ContentLength >= 0 {
		want = resp.ContentLength
	}
	release, err := f.budget.reserve(ctx, want)
	if err != nil {
		return nil, f.timeoutErr(parent, ctx, err)
	}
	defer release()
	body, err := f.readBody(resp.Body, resp.ContentLength)
	if err != nil {
		return nil, f.timeoutErr(parent, ctx, fmt.Errorf("read body: %w", err))
	}
	if int64(len(body)) > f.cfg.MaxBytes {
		return nil, fmt.Errorf("%w: limit %d bytes", ErrTooLarge, f.cfg.MaxBytes)
	}
	if sniff {
		ctype = http.DetectContentType(body)
		if !f.accepts(ctype) {
			return nil, &ContentTypeError{Type: ctype}
		}
	}
	f.logger.Debug("fetched", "url", final, "status", resp.StatusCode, "bytes", len(body))
	return &Page{
		URL:         final,
		StatusCode:  resp.StatusCode,
		ContentType: ctype,
		Body:        body,
		FetchedAt:   f.cfg.Now(),
	}, nil
}

func (f *Fetcher) accepts(contentType string) bool {
	mt := mediaType(contentType)
	for _, t := range f.cfg.ContentTypes {
		if strings.EqualFold(t, mt) {
			return true
		}
	}
	return false
}

// timeoutErr turns the expiry of the fetch's own deadline into ErrTimeout
// (matching context.DeadlineExceeded too) and passes the caller's
// cancellation through as the caller's context error.
func (f *Fetcher) timeoutErr(parent, ctx context.Context, err error) error {
	if perr := parent.Err(); perr != nil {
		if errors.Is(perr, context.DeadlineExceeded) {
			return fmt.Errorf("%w: %w", ErrTimeout, perr)
		}
		return perr
	}
	var netErr net.Error
	if ctx.Err() != nil || (errors.As(err, &netErr) && netErr.Timeout()) {
		return fmt.Errorf("%w after %s: %w", ErrTimeout, f.cfg.Timeout, context.DeadlineExceeded)
	}
	return err
}

// unwrapURLError drops the *url.Error layer the client adds ("Get "URL":
// ..."): Fetch names the URL itself.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// mediaType returns the lower-case media type of a Content-Type value, or
// "" when it has none.
func mediaType(contentType string) string {
	if contentType == "" {
		return ""
	}
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt, _, _ = strings.Cut(contentType, ";")
	}
	return strings.ToLower(strings.TrimSpace(mt))
}
