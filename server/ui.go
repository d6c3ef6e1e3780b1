package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/verity-fc/verity/web"
)

// uiPrefix is where the UI's files are served; index.html is served at /.
// Neither is an API route, so neither is in openapi.json.
const uiPrefix = "/assets/"

// uiCSP keeps the UI to its own files and its own API: no inline script or
// style, no third-party origin, no framing. It is a second line of defence
// behind the UI's rule of rendering server and model text as text.
const uiCSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// uiAsset is one embedded file, read once at start.
type uiAsset struct {
	name string
	body []byte
	etag string
}

// uiRoutes serves the browser UI of package web: GET / answers index.html
// and GET /assets/{path} the other files. Responses carry a content hash as
// ETag and "no-cache", so browsers revalidate cheaply and never run a stale
// script after an upgrade.
func (s *Server) uiRoutes() {
	assets, err := loadUIAssets(web.Assets())
	if err != nil {
		// The files are embedded at build time and a test reads them all,
		// so this only happens to a broken build; the API still serves.
		s.log.Error("web UI disabled", "err", err)
		return
	}
	serve := func(c *gin.Context, a uiAsset) {
		h := c.Writer.Header()
		h.Set("ETag", a.etag)
		h.Set("Cache-Control", "no-cache")
		h.Set("Content-Security-Policy", uiCSP)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		http.ServeContent(c.Writer, c.Request, a.name, time.Time{}, bytes.NewReader(a.body))
	}
	s.engine.GET("/", func(c *gin.Context) { serve(c, assets["index.html"]) })
	s.engine.GET(uiPrefix+"*path", func(c *gin.Context) {
		name := strings.TrimPrefix(c.Param("path"), "/")
		a, ok := assets[name]
		if !ok || name == "index.html" {
			writeProblem(c, Problem{Type: "about:blank", Title: "Not found", Status: http.StatusNotFound, Detail: "no UI file " + c.Request.URL.Path})
			return
		}
		serve(c, a)
	})
}

// loadUIAssets reads every regular file of fsys, keyed by its slash path.
func loadUIAssets(fsys fs.FS) (map[string]uiAsset, error) {
	assets := map[string]uiAsset{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		assets[p] = uiAsset{name: path.Base(p), body: b, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read UI files: %w", err)
	}
	if _, ok := assets["index.html"]; !ok {
		return nil, fmt.Errorf("read UI files: no index.html")
	}
	return assets, nil
}
