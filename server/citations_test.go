package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/verity-fc/verity/agents/citations"
	"github.com/verity-fc/verity/ingest"
)

type fetcherFunc func(ctx context.Context, url string) (*ingest.Page, error)

func (f fetcherFunc) Fetch(ctx context.Context, url string) (*ingest.Page, error) { return f(ctx, url) }

// recordingChecker is the real checker (over a fetcher that finds nothing
// and the verify service) that also records the documents it was given.
type recordingChecker struct {
	inner *citations.Checker
	docs  chan citations.Document
}

func (r *recordingChecker) Check(ctx context.Context, doc citations.Document) (citations.Report, error) {
	r.docs <- doc
	return r.inner.Check(ctx, doc)
}

func citationServer(t *testing.T) (*httptest.Server, chan citations.Document) {
	t.Helper()
	notFound := fetcherFunc(func(_ context.Context, url string) (*ingest.Page, error) {
		return nil, &ingest.StatusError{URL: url, Code: http.StatusNotFound}
	})
	checker, err := citations.New(citations.Deps{Fetcher: notFound, Assessor: realVerifier().(citations.Assessor)}, citations.Config{})
	if err != nil {
		t.Fatal(err)
	}
	rc := &recordingChecker{inner: checker, docs: make(chan citations.Document, 10)}
	return newTestServer(t, Deps{Citations: rc}), rc.docs
}

func upload(t *testing.T, url, field, name string, content []byte, extra map[string]string) (*http.Response, []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if field != "" {
		fw, err := mw.CreateFormFile(field, name)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(content)
	}
	for k, v := range extra {
		mw.WriteField(k, v)
	}
	mw.Close()
	resp, err := http.Post(url, mw.FormDataContentType(), &buf)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func TestCitationsJSON(t *testing.T) {
	ts, docs := citationServer(t)
	req := `{"document": "# Pilot\n\nOur pilot with 500 students showed 73% improvement. Sales doubled [1].\n\n[1]: https://gone.example/x\n", "format": "markdown", "path": "analyses/a.md"}`
	resp, body := post(t, ts.URL+"/v1/citations", req)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var r citations.Report
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatal(err)
	}
	if r.AnalysisPath != "analyses/a.md" || r.Summary.TotalClaims != 2 || len(r.CriticalIssues) != 1 ||
		len(r.CitationIssues) != 1 || r.CitationIssues[0].Status != citations.StatusNotFound {
		t.Errorf("report = %+v", r)
	}
	if d := <-docs; d.Format != "markdown" || !strings.HasPrefix(d.Text, "# Pilot") {
		t.Errorf("checker got %+v", d)
	}
}

func TestCitationsMarkdown(t *testing.T) {
	ts, _ := citationServer(t)
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/v1/citations", strings.NewReader(`{"document": "Our pilot with 500 students showed 73% improvement."}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/markdown")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/markdown") ||
		!strings.HasPrefix(string(body), "# Citation check") || !strings.Contains(string(body), "## Critical issues") {
		t.Errorf("status %d, type %q, body:\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}

func TestCitationsUpload(t *testing.T) {
	ts, docs := citationServer(t)
	html := []byte(`<html><body><p>Our pilot with 500 students showed 73% improvement.</p></body></html>`)
	resp, body := upload(t, ts.URL+"/v1/citations", "file", "../../analysis.HTML", html, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	if d := <-docs; d.Format != citations.FormatHTML || d.Path != "analysis.HTML" || !bytes.Equal([]byte(d.Text), html) {
		t.Errorf("checker got %+v", d)
	}
	resp, body = upload(t, ts.URL+"/v1/citations", "file", "notes.log", []byte("Our pilot with 500 students showed 73% improvement."), map[string]string{"format": "text"})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	if d := <-docs; d.Format != "text" {
		t.Errorf("checker got format %q, want text", d.Format)
	}
}

func TestCitationsRejects(t *testing.T) {
	ts, _ := citationServer(t)
	big := strings.Repeat("a", maxDocumentBytes+1)
	tests := []struct {
		name, field string
		send        func() (*http.Response, []byte)
	}{
		{"empty document", "document", func() (*http.Response, []byte) { return post(t, ts.URL+"/v1/citations", `{"document": "  "}`) }},
		{"no body", "body", func() (*http.Response, []byte) { return post(t, ts.URL+"/v1/citations", ``) }},
		{"unknown field", "documnet", func() (*http.Response, []byte) { return post(t, ts.URL+"/v1/citations", `{"documnet": "x"}`) }},
		{"bad format", "format", func() (*http.Response, []byte) {
			return post(t, ts.URL+"/v1/citations", `{"document": "Sales doubled in 2020.", "format": "pdf"}`)
		}},
		{"long path", "path", func() (*http.Response, []byte) {
			return post(t, ts.URL+"/v1/citations", fmt.Sprintf(`{"document": "x", "path": %q}`, strings.Repeat("p", 301)))
		}},
		{"document over 2 MiB", "document", func() (*http.Response, []byte) {
			return post(t, ts.URL+"/v1/citations", fmt.Sprintf(`{"document": %q}`, big))
		}},
		{"body over the JSON limit", "document", func() (*http.Response, []byte) {
			return post(t, ts.URL+"/v1/citations", fmt.Sprintf(`{"document": %q}`, strings.Repeat(`"`, maxDocumentBytes+1)))
		}},
		{"upload without file", "file", func() (*http.Response, []byte) {
			return upload(t, ts.URL+"/v1/citations", "", "", nil, map[string]string{"format": "text"})
		}},
		{"upload of a pdf", "file", func() (*http.Response, []byte) {
			return upload(t, ts.URL+"/v1/citations", "file", "paper.pdf", []byte("%PDF"), nil)
		}},
		{"empty upload", "file", func() (*http.Response, []byte) {
			return upload(t, ts.URL+"/v1/citations", "file", "a.md", []byte(" \n"), nil)
		}},
		{"upload over 2 MiB", "file", func() (*http.Response, []byte) {
			return upload(t, ts.URL+"/v1/citations", "file", "a.md", []byte(big), nil)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := tt.send()
			var p Problem
			json.Unmarshal(body, &p)
			if resp.StatusCode != http.StatusBadRequest || p.Field != tt.field {
				t.Errorf("status %d problem %+v, want 400 naming %q", resp.StatusCode, p, tt.field)
			}
		})
	}
}

func TestCitationsRouteNeedsChecker(t *testing.T) {
	ts := newTestServer(t, Deps{})
	resp, _ := post(t, ts.URL+"/v1/citations", `{"document": "x"}`)
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("status %d without a checker, want 404", resp.StatusCode)
	}
}
