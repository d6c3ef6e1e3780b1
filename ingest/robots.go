package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/temoto/robotstxt"
)

// maxRobotsBytes bounds a robots.txt; Google reads the first 500 KiB too.
const maxRobotsBytes = 512 << 10

// robotsCache fetches robots.txt once per scheme and host and keeps it for
// ttl. Concurrent lookups of one host share one fetch.
type robotsCache struct {
	f   *Fetcher
	ttl time.Duration
	max int

	mu      sync.Mutex
	entries map[string]*robotsEntry
}

type robotsEntry struct {
	ready   chan struct{} // closed when data or err is set
	data    *robotstxt.RobotsData
	err     error
	fetched time.Time
}

func newRobotsCache(f *Fetcher, ttl time.Duration, max int) *robotsCache {
	return &robotsCache{f: f, ttl: ttl, max: max, entries: map[string]*robotsEntry{}}
}

// check returns nil when robots.txt of u's host allows the fetcher's agent
// to fetch u, an error matching ErrRobotsDisallowed when it does not, and
// the fetch error when robots.txt could not be read.
func (c *robotsCache) check(ctx context.Context, u *url.URL) error {
	data, err := c.get(ctx, u)
	if err != nil {
		return err
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	if !data.TestAgent(path, c.f.agent) {
		return fmt.Errorf("%w: %s", ErrRobotsDisallowed, u.Redacted())
	}
	return nil
}

func (c *robotsCache) get(ctx context.Context, u *url.URL) (*robotstxt.RobotsData, error) {
	key := u.Scheme + "://" + strings.ToLower(u.Host)
	for {
		c.mu.Lock()
		e, ok := c.entries[key]
		if ok && e.isReady() && c.f.cfg.Now().Sub(e.fetched) > c.ttl {
			delete(c.entries, key)
			ok = false
		}
		if !ok {
			c.evictLocked()
			e = &robotsEntry{ready: make(chan struct{})}
			c.entries[key] = e
			c.mu.Unlock()
			e.data, e.err = c.fetch(ctx, key)
			e.fetched = c.f.cfg.Now()
			if e.err != nil {
				// Failures are not cached: the next fetch of the host
				// tries again.
				c.mu.Lock()
				if c.entries[key] == e {
					delete(c.entries, key)
				}
				c.mu.Unlock()
			}
			close(e.ready)
			return e.data, e.err
		}
		c.mu.Unlock()
		select {
		case <-e.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		// Another caller's cancellation is not ours: look again.
		if errors.Is(e.err, context.Canceled) || errors.Is(e.err, context.DeadlineExceeded) {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue
		}
		return e.data, e.err
	}
}

func (e *robotsEntry) isReady() bool {
	select {
	case <-e.ready:
		return true
	default:
		return false
	}
}

// evictLocked keeps the cache under max entries, dropping expired ones
// first and then arbitrary finished ones.
func (c *robotsCache) evictLocked() {
	if len(c.entries) < c.max {
		return
	}
	now := c.f.cfg.Now()
	for k, e := range c.entries {
		if e.isReady() && now.Sub(e.fetched) > c.ttl {
			delete(c.entries, k)
		}
	}
	for k, e := range c.entries {
		if len(c.entries) < c.max {
			return
		}
		if e.isReady() {
			delete(c.entries, k)
		}
	}
}

// fetch reads origin/robots.txt through the guarded client. A 4xx means no
// rules; a 5xx means "disallow everything" for now, as Google treats them.
func (c *robotsCache) fetch(ctx context.Context, origin string) (*robotstxt.RobotsData, error) {
	// The robots.txt request itself is not robots-checked.
	ctx = context.WithValue(ctx, robotsKey{}, false)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, origin+"/robots.txt", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", c.f.cfg.UserAgent)
	resp, err := c.f.client.Do(req)
	if err != nil {
		err = unwrapURLError(err)
		if errors.Is(err, ErrBlocked) || ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %w", errRobotsUnavailable, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxRobotsBytes))
	if err != nil {
		return nil, fmt.Errorf("%w: read: %w", errRobotsUnavailable, err)
	}
	data, err := robotstxt.FromStatusAndBytes(resp.StatusCode, body)
	if err != nil {
		// An unparsable file or an odd status sets no rules.
		c.f.logger.Debug("robots.txt ignored", "origin", origin, "status", resp.StatusCode, "err", err)
		data, _ = robotstxt.FromStatusAndBytes(http.StatusNotFound, nil)
	}
	return data, nil
}
