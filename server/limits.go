package server

import (
	"errors"
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"golang.org/x/net/netutil"
	"golang.org/x/time/rate"
)

// heavyRoutes run long and spend much memory or fetch the web; each has a
// cap on how many run at once.
var heavyRoutes = []string{"/v1/factcheck", "/v1/citations", "/v1/ingest"}

// rateLimiter is one token bucket a client: per API key, or per client
// address when the server runs without keys. Buckets idle for longer than
// idleAfter are dropped, so a stream of new addresses cannot grow the map
// without bound.
type rateLimiter struct {
	limit rate.Limit
	burst int
	now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

const idleAfter = 10 * time.Minute

func newRateLimiter(perSecond float64, burst int) *rateLimiter {
	return &rateLimiter{limit: rate.Limit(perSecond), burst: burst, now: time.Now, buckets: map[string]*bucket{}}
}

// take spends one token of client's bucket; when there is none, it returns
// how long until there is.
func (r *rateLimiter) take(client string) (bool, time.Duration) {
	now := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.bucket(client, now)
	res := b.lim.ReserveN(now, 1)
	if !res.OK() {
		return false, time.Second
	}
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return false, d
	}
	return true, 0
}

// bucket returns client's bucket, made when missing, after dropping the
// buckets idle for longer than idleAfter (at most once per idleAfter).
// r.mu must be held.
func (r *rateLimiter) bucket(client string, now time.Time) *bucket {
	if now.Sub(r.swept) > idleAfter {
		for k, b := range r.buckets {
			if now.Sub(b.seen) > idleAfter {
				delete(r.buckets, k)
			}
		}
		r.swept = now
	}
	b := r.buckets[client]
	if b == nil {
		b = &bucket{lim: rate.NewLimiter(r.limit, r.burst)}
		r.buckets[client] = b
	}
	b.seen = now
	return b
}

// retryAfter is d as whole seconds for a Retry-After header, at least 1.
func retryAfter(d time.Duration) string {
	return strconv.Itoa(max(1, int(math.Ceil(d.Seconds()))))
}

// rateLimit answers 429 with Retry-After to a client over its rate. The
// probes and the UI's files are not limited.
func (s *Server) rateLimit() gin.HandlerFunc {
	return func(c *gin.Context) {
		if s.limiter == nil || (isPublic(c) && c.FullPath() != "") {
			c.Next()
			return
		}
		client := "ip:" + clientIP(c.Request)
		if id := c.GetString(ctxKeyID); id != "" {
			client = "key:" + id
		}
		ok, wait := s.limiter.take(client)
		if ok {
			c.Next()
			return
		}
		s.tooMany(c, wait)
	}
}

// tooMany answers 429 with Retry-After.
func (s *Server) tooMany(c *gin.Context, wait time.Duration) {
	s.metrics.rejected("rate")
	c.Header("Retry-After", retryAfter(wait))
	writeProblem(c, Problem{Type: "https://verity.dev/problems/rate-limited", Title: "Too many requests", Status: http.StatusTooManyRequests,
		Detail: "this client is over its rate of " + strconv.FormatFloat(s.cfg.RateLimit, 'g', -1, 64) + " requests a second; retry after " + retryAfter(wait) + " s"})
}

// clientIP is the address the connection came from. X-Forwarded-For is not
// read: any client can set it. Behind a proxy, every client shares the
// proxy's bucket unless keys are configured, which the README says.
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// limitHeavy answers 503 with Retry-After when cfg.MaxHeavy requests of
// the same heavy route are already running.
func (s *Server) limitHeavy() gin.HandlerFunc {
	slots := map[string]chan struct{}{}
	for _, r := range heavyRoutes {
		slots[r] = make(chan struct{}, s.cfg.MaxHeavy)
	}
	return func(c *gin.Context) {
		sem := slots[c.FullPath()]
		if sem == nil || c.Request.Method != http.MethodPost {
			c.Next()
			return
		}
		select {
		case sem <- struct{}{}:
			defer func() { <-sem }()
			c.Next()
		default:
			s.metrics.rejected("busy")
			c.Header("Retry-After", "5")
			writeProblem(c, Problem{Type: "https://verity.dev/problems/busy", Title: "Busy", Status: http.StatusServiceUnavailable,
				Detail: strconv.Itoa(s.cfg.MaxHeavy) + " requests to " + c.FullPath() + " are running, the most this server runs at once; try again later"})
		}
	}
}

// isTimeout reports whether err is a read that ran out of time.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// HTTPServer returns an http.Server for the API with the configured
// connection limits: ReadHeaderTimeout (10 s), ReadTimeout for headers and
// body, IdleTimeout for keep-alive connections. net/http lifts the read
// deadline once a body has been read, so ReadTimeout does not cut a long
// request (a fact-check stream) short; a body sent too slowly fails its
// read with a timeout, which bindJSON answers 408.
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: min(10*time.Second, s.cfg.ReadTimeout),
		ReadTimeout:       s.cfg.ReadTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
	}
}

// Listener caps ln at cfg.MaxConns connections open at once; a further
// client waits in the kernel's backlog until one closes.
func (s *Server) Listener(ln net.Listener) net.Listener {
	return netutil.LimitListener(ln, s.cfg.MaxConns)
}
