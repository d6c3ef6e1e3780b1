package citations

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/verity-fc/verity/ingest"
	"github.com/verity-fc/verity/internal/golden"
)

// mapFetcher serves fixed pages by URL, fetched at a fixed time; other URLs
// are 404.
type mapFetcher map[string]string

func (m mapFetcher) Fetch(_ context.Context, url string) (*ingest.Page, error) {
	body, ok := m[url]
	if !ok {
		return nil, &ingest.StatusError{URL: url, Code: 404}
	}
	return &ingest.Page{URL: url, StatusCode: 200, ContentType: "text/html", Body: []byte(body),
		FetchedAt: time.Date(2025, 8, 26, 16, 45, 1, 0, time.UTC)}, nil
}

const goldenDoc = `# AI tutoring platform

The global AI tutoring market was worth $50 billion in 2023 [1]. AI tutoring doubles learning gains [2].
According to Khan Academy, 60% of students prefer online learning [3].

Our pilot with 500 students showed 73% improvement. 87% of students use digital learning tools daily.

Duolingo Super costs $12.99 per month for an individual learner ([pricing](https://duolingo.example/plans)).

## References

[1] Market report, https://market.example/2023
[2] Harvard study, https://harvard.example/study
[3] Survey, https://pew.example/online
`

func goldenReport(t *testing.T) Report {
	t.Helper()
	f := mapFetcher{
		"https://market.example/2023":    pages["/market-30b"],
		"https://pew.example/online":     pages["/pew"],
		"https://duolingo.example/plans": article("Duolingo Super | plans *and* [prices]", "Duolingo Super costs $12.99 per month or $84 per year for an individual learner."),
	}
	c := newChecker(t, Deps{Fetcher: f}, Config{})
	r, err := c.Check(context.Background(), Document{Text: goldenDoc, Path: "analyses/ai-tutoring/iteration_1.md"})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRenderMarkdownGolden(t *testing.T) {
	golden.Check(t, "report.md", RenderMarkdown(goldenReport(t)))
}

func TestEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"a | b", `a \| b`},
		{"![img](https://evil.example/x.png)", `\!\[img\](https://evil.example/x.png)`},
		{"<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
		{"line\nbreak", "line break"},
		{"# heading", `\# heading`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := escape(tt.in); got != tt.want {
				t.Errorf("escape(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRenderMarkdownEmpty(t *testing.T) {
	got := RenderMarkdown(Report{Summary: Summary{AccuracyScore: ptr(100.0)}})
	if !strings.HasPrefix(got, "# Citation check\n") || strings.Contains(got, "## ") {
		t.Errorf("empty report rendered as:\n%s", got)
	}
}
