package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/verity-fc/verity/corpus"
)

// Keys looks API keys up by the hash of the key; corpus.KeyStore
// implements it.
type Keys interface {
	KeyByHash(ctx context.Context, hash string) (corpus.APIKey, error)
}

// keyPrefix starts every API key, so that a leaked key is recognisable
// (secret scanners, logs).
const keyPrefix = "vk_"

// NewKey returns a new API key of scope and its record to store: the key
// is 256 random bits, shown once; the record holds its SHA-256 only.
func NewKey(name string, scope corpus.KeyScope, now time.Time) (key string, rec corpus.APIKey, err error) {
	if !scope.Valid() {
		return "", corpus.APIKey{}, fmt.Errorf("scope must be read or write, got %q", scope)
	}
	secret := make([]byte, 32)
	id := make([]byte, 6)
	if _, err := rand.Read(secret); err != nil {
		return "", corpus.APIKey{}, err
	}
	if _, err := rand.Read(id); err != nil {
		return "", corpus.APIKey{}, err
	}
	key = keyPrefix + base64.RawURLEncoding.EncodeToString(secret)
	return key, corpus.APIKey{
		ID: hex.EncodeToString(id), Name: name, Scope: scope, Prefix: key[:len(keyPrefix)+6],
		Hash: HashKey(key), CreatedAt: now.UTC(),
	}, nil
}

// HashKey is what a store keeps of key: its hex SHA-256.
func HashKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// publicRoutes answer without a key: probes, the API description and the
// web UI's files (the UI asks for a key when the API answers 401).
var publicRoutes = map[string]bool{
	"/healthz": true, "/readyz": true, "/openapi.json": true, "/": true, uiPrefix + "*path": true,
}

// routeScope is the scope a request needs: write to ingest or delete,
// read for everything else.
func routeScope(c *gin.Context) corpus.KeyScope {
	if c.Request.Method == http.MethodDelete || (c.Request.Method == http.MethodPost && c.FullPath() == "/v1/ingest") {
		return corpus.ScopeWrite
	}
	return corpus.ScopeRead
}

// isPublic reports whether c's route needs no key. Requests that match no
// route need one under /v1 and /metrics, so that a client without a key
// learns nothing about the API from 404s.
func isPublic(c *gin.Context) bool {
	if c.Request.Method == http.MethodOptions {
		return true // preflights carry no credentials
	}
	if p := c.FullPath(); p != "" {
		return publicRoutes[p]
	}
	path := c.Request.URL.Path
	return !strings.HasPrefix(path, "/v1/") && path != "/v1" && path != "/metrics"
}

// authenticate checks the request's bearer key when the server runs with
// keys: 401 without a valid key, 403 when its scope is short.
func (s *Server) authenticate() gin.HandlerFunc {
	return func(c *gin.Context) {
		if s.deps.Keys == nil || isPublic(c) {
			c.Next()
			return
		}
		key, ok := bearer(c.GetHeader("Authorization"))
		if !ok {
			s.unauthorized(c, "", "send an API key as Authorization: Bearer KEY")
			return
		}
		rec, err := s.deps.Keys.KeyByHash(c.Request.Context(), HashKey(key))
		switch {
		case errors.Is(err, corpus.ErrNotFound), err == nil && rec.Revoked():
			s.unauthorized(c, "invalid_token", "the API key is unknown or revoked")
			return
		case err != nil:
			s.writeError(c, fmt.Errorf("look up API key: %w", err))
			return
		}
		if need := routeScope(c); !rec.Scope.Allows(need) {
			c.Header("WWW-Authenticate", `Bearer realm="verity", error="insufficient_scope", scope="`+string(need)+`"`)
			writeProblem(c, Problem{Type: "https://verity.dev/problems/forbidden", Title: "Forbidden", Status: http.StatusForbidden,
				Detail: fmt.Sprintf("this API key has scope %s; %s %s needs scope %s", rec.Scope, c.Request.Method, c.Request.URL.Path, need)})
			return
		}
		c.Set(ctxKeyID, rec.ID)
		c.Next()
	}
}

// ctxKeyID is the gin context key of the ID of the request's API key.
const ctxKeyID = "verity.key_id"

func (s *Server) unauthorized(c *gin.Context, code, detail string) {
	h := `Bearer realm="verity"`
	if code != "" {
		h += `, error="` + code + `"`
	}
	c.Header("WWW-Authenticate", h)
	writeProblem(c, Problem{Type: "https://verity.dev/problems/unauthorized", Title: "Unauthorized", Status: http.StatusUnauthorized, Detail: detail})
}

// bearer returns the token of an "Authorization: Bearer TOKEN" header.
func bearer(h string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}
