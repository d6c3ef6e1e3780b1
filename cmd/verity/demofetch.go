package main

import (
	"context"
	"time"

	"github.com/verity-fc/verity/agents/citations"
	"github.com/verity-fc/verity/demo"
	"github.com/verity-fc/verity/ingest"
)

// demoPages serves the pages of the demo corpus to the citation checker
// and fetches every other URL with next. The demo URLs are on reserved
// example domains (RFC 2606) that resolve nowhere, so without this a
// document that cites the demo corpus, such as the web UI's sample,
// could only report its sources unavailable. No real URL is affected.
type demoPages struct {
	next citations.Fetcher
	now  func() time.Time
}

var _ citations.Fetcher = demoPages{}

// Fetch implements citations.Fetcher.
func (d demoPages) Fetch(ctx context.Context, url string) (*ingest.Page, error) {
	p, ok := demo.PageAt(url)
	if !ok {
		return d.next.Fetch(ctx, url)
	}
	body := "# " + p.Title + "\n\n" + p.Text + "\n"
	return &ingest.Page{URL: p.URL, StatusCode: 200, ContentType: "text/markdown; charset=utf-8", Body: []byte(body), FetchedAt: d.now()}, nil
}
