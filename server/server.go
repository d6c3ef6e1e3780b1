// Package server is verity's HTTP API: Gin routes, request validation, the
// one error-to-status mapping, server-sent events and the OpenAPI
// description. Handlers parse, call a use-case interface and write; the work
// happens in the packages behind those interfaces.
package server

import (
	"context"
	_ "embed"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/retention"
	"github.com/verity-fc/verity/verify"
)

// Verifier runs the verify path.
type Verifier interface {
	Verify(ctx context.Context, req verify.Request) (evidence.Result, error)
}

// Probe is a backend that /readyz checks.
type Probe struct {
	Name string
	Ping func(ctx context.Context) error
}

// Config holds the server's limits. The zero value works, with no rate
// limit; DefaultConfig is what verity serves with. The koanf tags are the
// keys of the server section of verity's configuration.
type Config struct {
	// MaxBodyBytes bounds JSON request bodies. Default 1 MiB.
	MaxBodyBytes int64 `koanf:"max_body_bytes"`
	// RequestTimeout bounds one request (not event streams). Default 60 s.
	RequestTimeout time.Duration `koanf:"request_timeout"`
	// StreamHeartbeat is how often an event stream without events gets a
	// keep-alive comment. Default 15 s.
	StreamHeartbeat time.Duration `koanf:"stream_heartbeat"`
	// UploadDir receives files uploaded to POST /v1/ingest; empty disables
	// uploads.
	UploadDir string `koanf:"-"`

	// AllowedOrigins are the browser origins (https://app.example.org)
	// whose requests are answered, with CORS headers; "*" allows any. The
	// server's own origin is always allowed. Default none.
	AllowedOrigins []string `koanf:"allowed_origins"`
	// AllowedHosts are the host names the server answers to (the Host
	// header, port ignored); "*" allows any. Empty checks nothing; serve
	// fills in the loopback names on a loopback address.
	AllowedHosts []string `koanf:"allowed_hosts"`
	// RateLimit is the sustained requests a second of one client (an API
	// key, or an address without keys) and RateBurst its burst. Zero
	// RateLimit turns the limit off; RateBurst defaults to 2 s' worth.
	RateLimit float64 `koanf:"rate_limit"`
	RateBurst int     `koanf:"rate_burst"`
	// MaxHeavy bounds the requests of each heavy route (fact-check,
	// citations, ingest) running at once. Default 4.
	MaxHeavy int `koanf:"max_heavy"`
	// ReadTimeout bounds reading a request, headers and body. Default 30 s.
	ReadTimeout time.Duration `koanf:"read_timeout"`
	// IdleTimeout closes keep-alive connections idle that long. Default 2 min.
	IdleTimeout time.Duration `koanf:"idle_timeout"`
	// MaxConns bounds the connections open at once. Default 512.
	MaxConns int `koanf:"max_connections"`
}

// DefaultConfig returns the limits verity serves with: the zero Config's
// defaults and a rate limit of 20 requests a second, burst 40.
func DefaultConfig() Config {
	return Config{RateLimit: 20, RateBurst: 40, AllowedOrigins: []string{}, AllowedHosts: []string{}}.withDefaults()
}

// Validate reports the first setting that cannot work, naming it as the
// configuration does (server.max_heavy). It checks the values as given:
// start from DefaultConfig.
func (c Config) Validate() error {
	switch {
	case c.MaxBodyBytes < 1 || c.RequestTimeout <= 0:
		return fmt.Errorf("server.max_body_bytes and server.request_timeout must be positive")
	case c.RateLimit < 0 || c.RateBurst < 0 || c.MaxHeavy < 1 || c.MaxConns < 1:
		return fmt.Errorf("server.rate_limit and server.rate_burst must not be negative, server.max_heavy and server.max_connections must be at least 1")
	case c.ReadTimeout <= 0 || c.IdleTimeout <= 0:
		return fmt.Errorf("server.read_timeout and server.idle_timeout must be positive")
	case c.StreamHeartbeat < 0:
		return fmt.Errorf("server.stream_heartbeat must not be negative")
	}
	return nil
}

func (c Config) withDefaults() Config {
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = 1 << 20
	}
	if c.RequestTimeout <= 0 {
		c.RequestTimeout = 60 * time.Second
	}
	if c.StreamHeartbeat <= 0 {
		c.StreamHeartbeat = 15 * time.Second
	}
	if c.RateLimit > 0 && c.RateBurst <= 0 {
		c.RateBurst = max(1, int(2*c.RateLimit))
	}
	if c.MaxHeavy <= 0 {
		c.MaxHeavy = 4
	}
	if c.ReadTimeout <= 0 {
		c.ReadTimeout = 30 * time.Second
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = 2 * time.Minute
	}
	if c.MaxConns <= 0 {
		c.MaxConns = 512
	}
	return c
}

// Deps are the use cases the routes call. Verifier is required; a nil
// optional dependency leaves its routes out.
type Deps struct {
	Verifier Verifier
	Jobs     Jobs
	Sources  Sources
	Probes   []Probe
	// FactCheck serves /v1/factcheck and /v1/factchecks/{messageId}.
	FactCheck FactChecker
	// Entail serves POST /v1/entailment.
	Entail EntailmentRunner
	// Jury serves POST /v1/jury.
	Jury JuryRunner
	// Citations serves POST /v1/citations; nil leaves the route out.
	Citations CitationChecker
	// Keys, when set, turns authentication on: every route but the probes,
	// the API description and the web UI's files needs an API key.
	Keys Keys
	// Metrics, when set, records the requests and serves GET /metrics.
	Metrics *Metrics
	// Storage, when set, adds what the store and the upload directory
	// hold to GET /v1/stats.
	Storage retention.UsageStore
}

// Server is the HTTP API.
type Server struct {
	cfg     Config
	deps    Deps
	log     *slog.Logger
	engine  *gin.Engine
	metrics *Metrics
	limiter *rateLimiter
}

// New builds the routes.
func New(cfg Config, deps Deps, logger *slog.Logger) *Server {
	gin.SetMode(gin.ReleaseMode)
	s := &Server{cfg: cfg.withDefaults(), deps: deps, log: logger, engine: gin.New(), metrics: deps.Metrics}
	if s.cfg.RateLimit > 0 {
		s.limiter = newRateLimiter(s.cfg.RateLimit, s.cfg.RateBurst)
	}
	s.deps.Verifier = s.metrics.Verifier(deps.Verifier)
	if deps.Jobs != nil && s.metrics != nil {
		s.deps.Jobs = countedJobs{deps.Jobs, s.metrics}
	}
	s.engine.HandleMethodNotAllowed = true
	// The order matters: an ID and a count for every request, then the
	// checks that need no work (host, origin, key, rate, media type),
	// then the cap on heavy routes. Slow bodies are cut by the
	// http.Server's ReadTimeout (see HTTPServer), which net/http lifts
	// once the body is read, so long streams are not cut.
	s.engine.Use(requestID(), s.countRequests(), s.recoverer(), s.accessLog(),
		s.checkHost(), s.checkOrigin(), s.authenticate(), s.rateLimit(), s.checkContentType(), s.checkRequestText(),
		s.limitHeavy())
	s.engine.NoRoute(func(c *gin.Context) {
		writeProblem(c, Problem{Type: "about:blank", Title: "Not found", Status: http.StatusNotFound, Detail: "no route " + c.Request.Method + " " + c.Request.URL.Path})
	})
	s.engine.NoMethod(func(c *gin.Context) {
		writeProblem(c, Problem{Type: "about:blank", Title: "Method not allowed", Status: http.StatusMethodNotAllowed, Detail: c.Request.Method + " is not allowed on " + c.Request.URL.Path})
	})

	s.engine.GET("/healthz", s.healthz)
	s.engine.GET("/readyz", s.readyz)
	s.engine.GET("/openapi.json", s.openapi)
	if s.metrics != nil {
		s.engine.GET("/metrics", gin.WrapH(s.metrics.Handler()))
	}

	v1 := s.engine.Group("/v1", s.timeout())
	v1.POST("/verify", s.verify)
	s.corpusRoutes(v1)
	s.factcheckRoutes(s.engine.Group("/v1"))
	s.entailRoutes(v1)
	s.juryRoutes(v1)
	s.citationRoutes(v1)
	s.uiRoutes()
	return s
}

// Handler returns the server as an http.Handler.
func (s *Server) Handler() http.Handler { return s.engine }

// recoverer turns a panic into a 500 problem and logs the stack: no panic
// reaches a client as a dropped connection.
func (s *Server) recoverer() gin.HandlerFunc {
	return func(c *gin.Context) {
		defer func() {
			if r := recover(); r != nil {
				if r == http.ErrAbortHandler {
					panic(r)
				}
				s.log.ErrorContext(c.Request.Context(), "handler panicked", "path", c.Request.URL.Path, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				writeProblem(c, Problem{Type: "about:blank", Title: "Internal server error", Status: http.StatusInternalServerError, Detail: "the server failed to answer; the error is logged"})
			}
		}()
		c.Next()
	}
}

func (s *Server) accessLog() gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		s.log.DebugContext(c.Request.Context(), "request", "key", c.GetString(ctxKeyID), "method", c.Request.Method, "path", c.Request.URL.Path, "status", c.Writer.Status(), "duration", time.Since(start))
	}
}

func (s *Server) timeout() gin.HandlerFunc {
	return func(c *gin.Context) {
		ctx, cancel := context.WithTimeout(c.Request.Context(), s.cfg.RequestTimeout)
		defer cancel()
		c.Request = c.Request.WithContext(ctx)
		c.Next()
	}
}

func (s *Server) healthz(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}

// readyz pings every backend; 503 names those that are down.
func (s *Server) readyz(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), 3*time.Second)
	defer cancel()
	checks := map[string]string{}
	ready := true
	for _, p := range s.deps.Probes {
		if err := p.Ping(ctx); err != nil {
			ready = false
			checks[p.Name] = "unavailable: " + err.Error()
			continue
		}
		checks[p.Name] = "ok"
	}
	status, code := "ready", http.StatusOK
	if !ready {
		status, code = "unavailable", http.StatusServiceUnavailable
	}
	c.JSON(code, gin.H{"status": status, "checks": checks})
}

//go:embed openapi.json
var openapiJSON []byte

func (s *Server) openapi(c *gin.Context) {
	c.Data(http.StatusOK, "application/json", openapiJSON)
}

func (s *Server) verify(c *gin.Context) {
	var wire verify.WireRequest
	if err := bindJSON(c, s.cfg.MaxBodyBytes, &wire); err != nil {
		s.writeError(c, err)
		return
	}
	req, err := wire.Checked()
	if err != nil {
		s.writeError(c, err)
		return
	}
	res, err := s.deps.Verifier.Verify(c.Request.Context(), req)
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, res)
}
