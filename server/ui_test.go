package server

import (
	"encoding/json"
	"io/fs"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/verity-fc/verity/web"
)

func TestUIFiles(t *testing.T) {
	ts := newTestServer(t, Deps{})
	tests := []struct {
		path       string
		wantStatus int
		wantType   string
		wantBody   string
	}{
		{"/", 200, "text/html", `<main id="main"`},
		{"/assets/app.css", 200, "text/css", ":root"},
		{"/assets/js/app.js", 200, "javascript", "import"},
		{"/assets/icon.svg", 200, "image/svg+xml", "<svg"},
		{"/assets/js/nope.js", 404, "application/problem+json", "no UI file"},
		{"/assets/js/", 404, "application/problem+json", ""},
		{"/assets/index.html", 404, "application/problem+json", ""},
		{"/assets/../server.go", 404, "application/problem+json", ""},
		{"/index.html", 404, "application/problem+json", ""},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			resp, err := http.Get(ts.URL + tt.path)
			resp, body := readResponse(t, resp, err)
			if resp.StatusCode != tt.wantStatus || !strings.Contains(resp.Header.Get("Content-Type"), tt.wantType) || !strings.Contains(string(body), tt.wantBody) {
				t.Fatalf("GET %s = %d %q %.80q; want %d %q containing %q", tt.path, resp.StatusCode, resp.Header.Get("Content-Type"), body, tt.wantStatus, tt.wantType, tt.wantBody)
			}
			if tt.wantStatus != 200 {
				return
			}
			for _, h := range []string{"Content-Security-Policy", "X-Content-Type-Options", "ETag"} {
				if resp.Header.Get(h) == "" {
					t.Errorf("GET %s lacks %s", tt.path, h)
				}
			}
		})
	}
}

// TestUIRevalidates checks that an unchanged file answers 304 to its ETag.
func TestUIRevalidates(t *testing.T) {
	ts := newTestServer(t, Deps{})
	resp, err := http.Get(ts.URL + "/assets/app.css")
	resp, _ = readResponse(t, resp, err)
	etag := resp.Header.Get("ETag")
	req, err := http.NewRequest(http.MethodGet, ts.URL+"/assets/app.css", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("If-None-Match", etag)
	resp, err = http.DefaultClient.Do(req)
	resp, body := readResponse(t, resp, err)
	if etag == "" || resp.StatusCode != http.StatusNotModified || len(body) != 0 {
		t.Errorf("revalidating with ETag %q = %d with %d bytes; want 304 and no body", etag, resp.StatusCode, len(body))
	}
}

// apiPath finds the server paths the UI names: in JavaScript string and
// template literals, and in index.html links.
var apiPath = regexp.MustCompile("['\"`](/(?:v1/|readyz|healthz|openapi\\.json)[^'\"`]*)['\"`]")

// TestUIUsesOnlyDocumentedRoutes keeps the UI on the public API: every path
// it calls is in openapi.json (no route exists just for the UI).
func TestUIUsesOnlyDocumentedRoutes(t *testing.T) {
	var doc struct {
		Paths map[string]json.RawMessage
	}
	if err := json.Unmarshal(openapiJSON, &doc); err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for p := range doc.Paths {
		documented[openAPIParams.ReplaceAllString(p, "{}")] = true
	}
	found := 0
	err := fs.WalkDir(web.Assets(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(name, ".js") || strings.HasSuffix(name, ".html")) {
			return err
		}
		b, err := fs.ReadFile(web.Assets(), name)
		if err != nil {
			return err
		}
		for _, m := range apiPath.FindAllStringSubmatch(string(b), -1) {
			found++
			p := uiPathTemplate(m[1])
			if !documented[p] {
				t.Errorf("%s calls %s (%s), which openapi.json does not describe", name, m[1], p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 8 {
		t.Errorf("found %d API paths in the UI; the pattern no longer matches how it names them", found)
	}
}

var (
	openAPIParams = regexp.MustCompile(`\{[^}]+\}`)
	// A ${...} segment is a path parameter; a trailing ${...} glued to the
	// path (as in /v1/jobs${query(...)}) is its query string.
	templateSegment = regexp.MustCompile(`/\$\{[^}]*\}`)
	templateTail    = regexp.MustCompile(`\$\{.*\}$`)
)

// uiPathTemplate turns `/v1/jobs/${seg(id)}` into /v1/jobs/{} and
// `/v1/jobs${query(...)}` into /v1/jobs.
func uiPathTemplate(p string) string {
	p = templateSegment.ReplaceAllString(p, "/{}")
	p = templateTail.ReplaceAllString(p, "")
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	return p
}
