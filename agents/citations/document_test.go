package citations

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// got is a sentence in a comparable form.
type got struct {
	Line  int
	Text  string
	Cites []string // "id url" or "id !problem"
}

func flatten(ss []sentence) []got {
	var out []got
	for _, s := range ss {
		g := got{Line: s.line, Text: s.text}
		for _, c := range s.cites {
			if c.problem != "" {
				g.Cites = append(g.Cites, c.id+" !"+c.problem)
			} else {
				g.Cites = append(g.Cites, c.id+" "+c.url)
			}
		}
		out = append(out, g)
	}
	return out
}

func TestParseMarkdown(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []got
	}{
		{
			name: "numbered references with a list",
			doc:  "Revenue grew 20% in 2023 [1]. Costs fell [2, 3].\n\n## References\n\n[1] Annual report, https://a.example/r\n[2] https://b.example/x\n3. [Survey](https://c.example/s)\n",
			want: []got{
				{1, "Revenue grew 20% in 2023.", []string{"[1] https://a.example/r"}},
				{1, "Costs fell.", []string{"[2] https://b.example/x", "[3] https://c.example/s"}},
			},
		},
		{
			name: "marker after the period belongs to the sentence before",
			doc:  "Revenue grew 20% in 2023. [1] Costs fell.[2] Margins rose [3].\n\n[1]: https://a.example/1\n[2]: https://a.example/2\n[3]: https://a.example/3\n",
			want: []got{
				{1, "Revenue grew 20% in 2023.", []string{"[1] https://a.example/1"}},
				{1, "Costs fell.", []string{"[2] https://a.example/2"}},
				{1, "Margins rose.", []string{"[3] https://a.example/3"}},
			},
		},
		{
			name: "ranges and missing entries",
			doc:  "Sales doubled [1-3]. Prices rose [9].\n\n[1]: https://a.example/1\n[2]: https://a.example/2\n[3]: https://a.example/3\n",
			want: []got{
				{1, "Sales doubled.", []string{"[1] https://a.example/1", "[2] https://a.example/2", "[3] https://a.example/3"}},
				{1, "Prices rose.", []string{"[9] !reference_missing"}},
			},
		},
		{
			name: "inline links, autolinks, bare URLs and HTML links",
			doc: "The [2023 survey](https://s.example/2023 \"title\") found growth.\n" +
				"Sales rose (<https://t.example/a>).\n" +
				"Costs fell, see www.u.example/costs.\n" +
				"Margins rose per <a href=\"https://v.example/m\">the filing</a>.\n",
			want: []got{
				{1, "The 2023 survey found growth.", []string{"[2023 survey] https://s.example/2023"}},
				{2, "Sales rose.", []string{"https://t.example/a https://t.example/a"}},
				{3, "Costs fell, see.", []string{"www.u.example/costs https://www.u.example/costs"}},
				{4, "Margins rose per the filing.", []string{"[the filing] https://v.example/m"}},
			},
		},
		{
			name: "footnotes",
			doc:  "Sales doubled in 2020.[^src]\n\n[^src]: Company filing, https://f.example/10k\n",
			want: []got{{1, "Sales doubled in 2020.", []string{"[^src] https://f.example/10k"}}},
		},
		{
			name: "reference-style links",
			doc:  "The [filing][k10] shows growth. The [report] agrees. Brackets [sic] stay.\n\n[k10]: https://f.example/10k\n[report]: https://r.example/\n",
			want: []got{
				{1, "The filing shows growth.", []string{"[filing] https://f.example/10k"}},
				{1, "The report agrees.", []string{"[report] https://r.example/"}},
				{1, "Brackets [sic] stay.", nil},
			},
		},
		{
			name: "lines of a paragraph, lists and tables",
			doc:  "First line of a paragraph\ncontinues here. Second\nsentence [1].\n\n- Item one has 5 users.\n- Item two\n\n| Company | Users |\n|---|---|\n| Acme | 5 million [1] |\n\n[1]: https://a.example/\n",
			want: []got{
				{1, "First line of a paragraph continues here.", nil},
				{2, "Second sentence.", []string{"[1] https://a.example/"}},
				{5, "Item one has 5 users.", nil},
				{6, "Item two", nil},
				{10, "Company: Acme; Users: 5 million", []string{"[1] https://a.example/"}},
			},
		},
		{
			name: "code, images, headings, comments and front matter are not prose",
			doc:  "---\ntitle: X [1]\n---\n# Heading [1]\n\n```\nx = a[1]\n```\n\n<!-- note [1] -->\nUse `a[1]` here ![chart](https://img.example/c.png) now.\n\n[1]: https://a.example/\n",
			want: []got{{11, "Use a[1] here now.", nil}},
		},
		{
			name: "emphasis is dropped, snake_case kept",
			doc:  "**Revenue** grew _fast_ in my_table.\n",
			want: []got{{1, "Revenue grew fast in my_table.", nil}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, flatten(parseDocument(tt.doc, FormatMarkdown))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseHTML(t *testing.T) {
	doc := `<!doctype html>
<html><head><title>T [1]</title><script>var s = "[2]";</script></head>
<body>
<h1>Report</h1>
<p>The market was worth $50 billion in 2023.<sup><a href="#ref-1">[1]</a></sup> Learning gains
doubled, says a <a href="https://b.example/study">Harvard study</a>.</p>
<p>Costs fell 20% [2]. Prices &amp; margins rose (https://c.example/p).</p>
<p>See <a href="#intro">the introduction</a> and <a href="/about">about</a>.</p>
<h2>References</h2>
<ol>
<li id="ref-1">Market report. <a href="https://a.example/market">link</a></li>
<li>Other <a href="https://f.example/x">x</a></li>
</ol>
</body></html>`
	want := []got{
		{5, "The market was worth $50 billion in 2023.", []string{"[1] https://a.example/market"}},
		{5, "Learning gains doubled, says a Harvard study.", []string{"[Harvard study] https://b.example/study"}},
		{7, "Costs fell 20%.", []string{"[2] https://f.example/x"}},
		{7, "Prices & margins rose.", []string{"https://c.example/p https://c.example/p"}},
		{8, "See the introduction and about.", nil},
	}
	if diff := cmp.Diff(want, flatten(parseDocument(doc, FormatHTML))); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestTrimURL(t *testing.T) {
	tests := map[string]string{
		"https://a.example/x.":                    "https://a.example/x",
		"https://a.example/x),":                   "https://a.example/x",
		"https://en.wikipedia.org/wiki/Go_(game)": "https://en.wikipedia.org/wiki/Go_(game)",
		"https://a.example/?q=1;":                 "https://a.example/?q=1",
	}
	for in, want := range tests {
		if got := trimURL(in); got != want {
			t.Errorf("trimURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLinkListingsAreNotClaims(t *testing.T) {
	doc := "Useful pages:\n\n- [Annual report 2023](https://a.example/r)\n- Sales rose 5% ([filing](https://b.example/f)).\n"
	var got []string
	for _, s := range parseDocument(doc, FormatMarkdown) {
		got = append(got, fmt.Sprintf("%s linkOnly=%v", s.text, s.linkOnly))
	}
	want := []string{"Useful pages: linkOnly=false", "Annual report 2023 linkOnly=true", "Sales rose 5% (filing). linkOnly=false"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// BenchmarkParseDocument parses a document near the 2 MiB limit, in
// Markdown and in HTML, and finds its claims.
func BenchmarkParseDocument(b *testing.B) {
	var md, html strings.Builder
	html.WriteString("<html><body>")
	for i := 0; md.Len() < 2<<20-300; i++ {
		fmt.Fprintf(&md, "The AI tutoring market grew %d%% in 2023, according to Gartner [%d]. Smith et al. (2019) found it. See [link](https://a.example/%d).\n\n", i%90, i%50+1, i)
		fmt.Fprintf(&html, "<p id=\"p%d\">The AI tutoring market grew %d%% in 2023 <a href=\"#ref%d\">[%d]</a>. Smith found it.</p>\n", i, i%90, i%50, i%50)
	}
	for i := range 50 {
		fmt.Fprintf(&md, "[%d]: https://ref.example/%d\n", i+1, i)
		fmt.Fprintf(&html, "<li id=\"ref%d\"><a href=\"https://ref.example/%d\">r</a></li>\n", i, i)
	}
	for _, tt := range []struct{ name, format, doc string }{{"markdown", FormatMarkdown, md.String()}, {"html", FormatHTML, html.String()}} {
		b.Run(tt.name, func(b *testing.B) {
			b.SetBytes(int64(len(tt.doc)))
			for b.Loop() {
				n := 0
				for _, s := range parseDocument(tt.doc, tt.format) {
					if _, ok := analyseClaim(s.text, len(s.cites) > 0); ok {
						n++
					}
				}
				if n == 0 {
					b.Fatal("no claims")
				}
			}
		})
	}
}
