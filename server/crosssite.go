package server

import (
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"
)

// uploadRoutes accept multipart/form-data as well as JSON.
var uploadRoutes = map[string]bool{"/v1/ingest": true, "/v1/citations": true}

// checkHost answers 421 to a request whose Host header names none of
// cfg.AllowedHosts, which blocks DNS rebinding: a page on a name the
// attacker controls, resolved to this server, sends its own name as Host.
// An empty list checks nothing.
func (s *Server) checkHost() gin.HandlerFunc {
	return func(c *gin.Context) {
		if len(s.cfg.AllowedHosts) == 0 || s.hostAllowed(c.Request.Host) {
			c.Next()
			return
		}
		writeProblem(c, Problem{Type: "https://verity.dev/problems/host", Title: "Misdirected request", Status: http.StatusMisdirectedRequest,
			Detail: "this server does not answer to the host name " + strconv.Quote(c.Request.Host) + "; see server.allowed_hosts"})
	}
}

func (s *Server) hostAllowed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	for _, a := range s.cfg.AllowedHosts {
		if a == "*" || strings.EqualFold(a, host) {
			return true
		}
	}
	return false
}

// corsHeaders are what a cross-origin client may send and read.
const (
	corsAllowHeaders  = "Authorization, Content-Type, Accept, X-Request-Id"
	corsExposeHeaders = "Location, Retry-After, X-Request-Id, WWW-Authenticate"
	corsAllowMethods  = "GET, POST, DELETE, OPTIONS"
)

// checkOrigin enforces cfg.AllowedOrigins. A request with an Origin header
// (every cross-origin request a browser makes, and every same-origin one
// but GET and HEAD) passes when the origin is the server's own or listed;
// others get 403 before any work, so a page the operator happens to open
// cannot queue jobs or spend the server's time. Requests without Origin
// (curl, SDKs) pass: they are not made by a browser on a third party's
// behalf. Listed origins get CORS headers, preflights included.
func (s *Server) checkOrigin() gin.HandlerFunc {
	return func(c *gin.Context) {
		origin := c.GetHeader("Origin")
		if origin == "" {
			c.Next()
			return
		}
		c.Writer.Header().Add("Vary", "Origin")
		if sameOrigin(origin, c.Request.Host) {
			c.Next()
			return
		}
		if !s.originAllowed(origin) {
			writeProblem(c, Problem{Type: "https://verity.dev/problems/origin", Title: "Forbidden", Status: http.StatusForbidden,
				Detail: "requests from origin " + strconv.Quote(origin) + " are not allowed; see server.allowed_origins"})
			return
		}
		h := c.Writer.Header()
		h.Set("Access-Control-Allow-Origin", origin)
		h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
		if c.Request.Method == http.MethodOptions && c.GetHeader("Access-Control-Request-Method") != "" {
			h.Set("Access-Control-Allow-Methods", corsAllowMethods)
			h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
			h.Set("Access-Control-Max-Age", "600")
			c.AbortWithStatus(http.StatusNoContent)
			return
		}
		c.Next()
	}
}

func (s *Server) originAllowed(origin string) bool {
	return slices.ContainsFunc(s.cfg.AllowedOrigins, func(a string) bool {
		return a == "*" || strings.EqualFold(strings.TrimSuffix(a, "/"), origin)
	})
}

// sameOrigin reports whether origin names the host the request was sent
// to. The scheme is not compared: behind a TLS-terminating proxy the
// server cannot see it, and host and port already tell sites apart.
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	if strings.EqualFold(u.Host, host) {
		return true
	}
	// Browsers drop the default port from Origin; a Host header may keep it.
	def := map[string]string{"http": "80", "https": "443"}[u.Scheme]
	h, p, err := net.SplitHostPort(host)
	return err == nil && p == def && strings.EqualFold(u.Host, h)
}

// checkContentType answers 415 to a request body that is not JSON, or not
// JSON or multipart/form-data on an upload route. A cross-site form or
// fetch without preflight can only send text/plain, urlencoded and
// multipart bodies, so requiring application/json closes cross-site writes
// to the JSON routes even without an Origin header.
func (s *Server) checkContentType() gin.HandlerFunc {
	return func(c *gin.Context) {
		switch c.Request.Method {
		case http.MethodPost, http.MethodPut, http.MethodPatch:
		default:
			c.Next()
			return
		}
		mt, _, _ := mime.ParseMediaType(c.GetHeader("Content-Type"))
		route := c.FullPath()
		if route == "" || mt == "application/json" || (mt == "multipart/form-data" && uploadRoutes[route]) {
			c.Next()
			return
		}
		want := "application/json"
		if uploadRoutes[route] {
			want = "application/json or multipart/form-data"
		}
		got := mt
		if got == "" {
			got = "no Content-Type"
		}
		writeProblem(c, Problem{Type: "https://verity.dev/problems/media-type", Title: "Unsupported media type", Status: http.StatusUnsupportedMediaType,
			Detail: c.Request.Method + " " + route + " takes " + want + ", got " + got, Field: "Content-Type"})
	}
}
