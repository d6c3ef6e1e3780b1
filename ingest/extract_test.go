package ingest

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

const articlePage = `<!doctype html>
<html><head>
<title>Satellites pass 9,000 | Space News</title>
<meta property="og:title" content="Satellites pass 9,000">
<meta property="article:published_time" content="2024-02-15T10:30:00Z">
<style>p { color: red }</style>
<script>document.write("injected text")</script>
</head><body>
<header><a href="/">Space News</a> <nav><a href="/a">Home</a> <a href="/b">World</a></nav></header>
<aside>Trending: something else</aside>
<article>
  <h1>Satellites pass 9,000</h1>
  <p>Our database recorded 9,210 operational satellites as of January 1, 2024.</p>
  <p>The count has  grown
  every year since 2019, driven by <b>broadband</b> constellations.</p>
  <div class="share-buttons">Share on X Share on Facebook</div>
  <table><tr><td>Year</td><td>Count</td></tr><tr><td>2024</td><td>9,210</td></tr></table>
</article>
<div id="comments"><p>First comment here</p></div>
<footer>Copyright 2024 Space News</footer>
<form><input name="q"><button>Search</button></form>
</body></html>`

func TestExtractHTML(t *testing.T) {
	doc, err := Extract([]byte(articlePage), "text/html; charset=utf-8", "https://news.example/sat")
	if err != nil {
		t.Fatal(err)
	}
	want := Document{
		Title: "Satellites pass 9,000",
		Text: "Satellites pass 9,000\n\n" +
			"Our database recorded 9,210 operational satellites as of January 1, 2024.\n\n" +
			"The count has grown every year since 2019, driven by broadband constellations.\n\n" +
			"Year Count\n\n2024 9,210",
		PublishedAt: time.Date(2024, 2, 15, 10, 30, 0, 0, time.UTC),
	}
	if diff := cmp.Diff(want, doc); diff != "" {
		t.Errorf("Extract (-want +got):\n%s", diff)
	}
}

func TestExtractHTMLRoot(t *testing.T) {
	long := strings.Repeat("This is the main text of the page. ", 6)
	tests := []struct {
		name string
		body string
		want string
	}{
		{
			"main when no article",
			`<body><nav>Menu</nav><main><p>` + long + `</p></main><div>Other</div></body>`,
			strings.TrimSpace(long),
		},
		{
			"longest article",
			`<body><article><p>Short teaser of another story that is long enough to count as an article but shorter than the main one.</p></article>` +
				`<article><p>` + long + long + `</p></article></body>`,
			strings.TrimSpace(long + long),
		},
		{
			"teaser article falls back to main",
			`<body><main><article><p>Teaser.</p></article><p>Body text.</p></main></body>`,
			"Teaser.\n\nBody text.",
		},
		{
			"body when nothing marks the main text",
			`<body><div><p>One.</p><p>Two<br>three.</p></div></body>`,
			"One.\n\nTwo\n\nthree.",
		},
		{
			"wrapper named sidebar is kept",
			`<body><div class="layout has-sidebar"><p>` + long + `</p><div class="sidebar">Links</div></div></body>`,
			strings.TrimSpace(long),
		},
		{
			"hidden and template content dropped",
			`<body><p>Seen.</p><div hidden>Unseen.</div><template><p>Template.</p></template><noscript>Enable JS</noscript><p aria-hidden="true">Icon</p></body>`,
			"Seen.",
		},
		{
			"entities decoded",
			`<body><p>Caf&eacute; &amp; bar&nbsp;&lt;3</p></body>`,
			"Café & bar <3",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Extract([]byte(tt.body), "text/html", "")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, doc.Text); diff != "" {
				t.Errorf("text (-want +got):\n%s", diff)
			}
		})
	}
}

func TestExtractHTMLTitle(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"og:title first", `<head><title>T | Site</title><meta property="og:title" content="OG"></head>`, "OG"},
		{"title element", `<head><title>  Plain
			title </title></head><body><h1>H</h1></body>`, "Plain title"},
		{"h1 when no title", `<body><h1>Heading <em>one</em></h1><p>x</p></body>`, "Heading one"},
		{"none", `<body><p>x</p></body>`, ""},
		{"capped", `<title>` + strings.Repeat("long ", 100) + `</title>`, strings.TrimSpace(strings.Repeat("long ", 60))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Extract([]byte(tt.body), "text/html", "")
			if err != nil {
				t.Fatal(err)
			}
			if doc.Title != tt.want {
				t.Errorf("title = %q, want %q", doc.Title, tt.want)
			}
		})
	}
}

func TestExtractHTMLDate(t *testing.T) {
	tests := []struct {
		name string
		body string
		want time.Time
	}{
		{"article:published_time", `<meta property="article:published_time" content="2024-03-03T08:00:00+02:00">`, time.Date(2024, 3, 3, 6, 0, 0, 0, time.UTC)},
		{"og:published_time", `<meta property="og:published_time" content="2023-07-01">`, day(2023, 7, 1)},
		{"meta name=date", `<meta name="date" content="2022-11-05">`, day(2022, 11, 5)},
		{"dc.date case-insensitive", `<meta name="DC.Date" content="2021-01-31">`, day(2021, 1, 31)},
		{"article meta beats dc.date", `<meta name="dc.date" content="2021-01-31"><meta property="article:published_time" content="2020-05-05">`, day(2020, 5, 5)},
		{"itemprop meta", `<meta itemprop="datePublished" content="2019-09-09">`, day(2019, 9, 9)},
		{"itemprop element", `<p>By X, <span itemprop="datePublished">March 3, 2018</span></p>`, day(2018, 3, 3)},
		{"time datetime", `<article><p>Text</p><time datetime="2017-04-04T00:00:00Z">April 4</time></article>`, day(2017, 4, 4)},
		{"time pubdate first", `<time datetime="2001-01-01">x</time><time pubdate datetime="2016-06-06">y</time>`, day(2016, 6, 6)},
		{"JSON-LD", `<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2015-05-15T12:00:00Z"}</script>`, time.Date(2015, 5, 15, 12, 0, 0, 0, time.UTC)},
		{"JSON-LD graph", `<script type="application/ld+json">{"@graph":[{"@type":"WebSite"},{"@type":"Article","dateCreated":"2014-01-01","datePublished":"2014-02-02"}]}</script>`, day(2014, 2, 2)},
		{"JSON-LD before time", `<time datetime="2001-01-01">x</time><script type="Application/LD+JSON">[{"datePublished":"2013-03-13"}]</script>`, day(2013, 3, 13)},
		{"broken JSON-LD ignored", `<script type="application/ld+json">{"datePublished":</script><time datetime="2012-12-12">x</time>`, day(2012, 12, 12)},
		{"visible published", `<body><header><p class="byline">Published March 3, 2024 by Ann</p></header><p>Text</p></body>`, day(2024, 3, 3)},
		{"visible posted on", `<body><p>Posted on 5th June 2020</p></body>`, day(2020, 6, 5)},
		{"visible with weekday", `<body><p>Published: Tuesday, Sept. 10, 2019</p></body>`, day(2019, 9, 10)},
		{"visible ISO", `<body><p>Date: 2011-08-09</p></body>`, day(2011, 8, 9)},
		{"visible published beats updated", `<body><p>Updated Jan 2, 2024. Published Dec 30, 2023</p></body>`, day(2023, 12, 30)},
		{"visible updated alone", `<body><p>Last updated 2 Feb 2024</p></body>`, day(2024, 2, 2)},
		{"script text is not visible", `<body><script>var s = "Published March 3, 2024";</script><p>Text</p></body>`, time.Time{}},
		{"slash dates are ambiguous", `<body><p>Published 03/04/2024</p></body>`, time.Time{}},
		{"no date", `<body><p>Nothing here, 2024 was a year.</p></body>`, time.Time{}},
		{"garbage meta", `<meta property="article:published_time" content="yesterday-ish">`, time.Time{}},
		{"absurd year", `<meta name="date" content="0001-01-01">`, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Extract([]byte("<html><head></head>"+tt.body+"</html>"), "text/html", "")
			if err != nil {
				t.Fatal(err)
			}
			if !doc.PublishedAt.Equal(tt.want) {
				t.Errorf("PublishedAt = %v, want %v", doc.PublishedAt, tt.want)
			}
		})
	}
}

func TestExtractMarkdown(t *testing.T) {
	src := "---\ntitle: \"Front Title\"\ndate: 2024-01-15\ntags: [a, b]\n---\n" +
		"# Heading One\n\nSome *emphasis* and a [link](https://example.com/x) and `code`.\n" +
		"Second line of the paragraph.\n\n" +
		"- item one\n- item **two**\n\n" +
		"> quoted text\n\n" +
		"```go\nfunc main() {}\n```\n\n" +
		"![alt text](img.png) <span>raw</span> html\n\n" +
		"| A | B |\n|---|---|\n| 1 | 2 |\n\n" +
		"Tom &amp; Jerry <https://auto.example>\n"
	doc, err := Extract([]byte(src), "", "notes/readme.md")
	if err != nil {
		t.Fatal(err)
	}
	want := Document{
		Title: "Front Title",
		Text: "Heading One\n\n" +
			"Some emphasis and a link and code. Second line of the paragraph.\n\n" +
			"item one\n\nitem two\n\nquoted text\n\nraw html\n\nA B\n\n1 2\n\n" +
			"Tom & Jerry https://auto.example",
		PublishedAt: day(2024, 1, 15),
	}
	if diff := cmp.Diff(want, doc); diff != "" {
		t.Errorf("Extract markdown (-want +got):\n%s", diff)
	}
}

func TestExtractMarkdownTitle(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"first h1", "Intro text\n\n## Sub\n\n# Main\n\n# Second\n", "Main"},
		{"first heading when no h1", "## Sub\n\ntext\n", "Sub"},
		{"setext h1", "Title\n=====\n\ntext\n", "Title"},
		{"none", "just text\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Extract([]byte(tt.src), "text/markdown", "")
			if err != nil {
				t.Fatal(err)
			}
			if doc.Title != tt.want {
				t.Errorf("title = %q, want %q", doc.Title, tt.want)
			}
		})
	}
}

func TestExtractPlain(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want Document
	}{
		{
			"title line and wrapped paragraphs",
			"A Short Title\n\nFirst paragraph that is\nwrapped over lines.\r\n\r\nSecond\tone.\n",
			Document{Title: "A Short Title", Text: "A Short Title\n\nFirst paragraph that is wrapped over lines.\n\nSecond one."},
		},
		{
			"first line that is a sentence is no title",
			"This is a sentence.\n\nAnother.",
			Document{Text: "This is a sentence.\n\nAnother."},
		},
		{
			"single paragraph has no title",
			"Only text here",
			Document{Text: "Only text here"},
		},
		{
			"control characters dropped",
			"a\x00b\x07c d",
			Document{Text: "abc d"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Extract([]byte(tt.src), "text/plain; charset=utf-8", "")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, doc); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestExtractFormatAndCharset(t *testing.T) {
	tests := []struct {
		name        string
		body        []byte
		contentType string
		source      string
		wantText    string
		wantErr     error
	}{
		{"markdown by extension over text/plain", []byte("# T\n\n*x*"), "text/plain", "https://raw.example/README.md", "T\n\nx", nil},
		{"html by extension", []byte("<p>hi</p>"), "", "/tmp/a.HTM", "hi", nil},
		{"html sniffed", []byte("<!DOCTYPE html><p>hi</p>"), "application/octet-stream", "https://x.example/page", "hi", nil},
		{"text sniffed", []byte("plain words"), "", "", "plain words", nil},
		{"latin-1 from header", []byte("caf\xe9"), "text/plain; charset=iso-8859-1", "", "café", nil},
		{"charset from meta", []byte("<meta charset=\"windows-1252\"><p>caf\xe9 \x93q\x94</p>"), "text/html", "", "café “q”", nil},
		{"invalid UTF-8 without charset", []byte("ok \xff\xfe end"), "text/plain; charset=utf-8", "", "ok \ufffd end", nil},
		{"json refused", []byte(`{"a":1}`), "application/json", "", "", ErrUnsupportedContentType},
		{"image refused", []byte("\x89PNG\r\n\x1a\n\x00\x00"), "", "https://x.example/pic", "", ErrUnsupportedContentType},
		{"too large", make([]byte, MaxExtractBytes+1), "text/plain", "", "", ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Extract(tt.body, tt.contentType, tt.source)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if doc.Text != tt.wantText {
				t.Errorf("text = %q, want %q", doc.Text, tt.wantText)
			}
		})
	}
}

func TestExtractTooDeepHTML(t *testing.T) {
	deep := strings.Repeat("<div>", 5000) + "deep text" + strings.Repeat("</div>", 5000)
	if _, err := Extract([]byte(deep), "text/html", ""); err == nil {
		t.Fatal("Extract of 5,000 nested elements succeeded, want the parser's depth error")
	}
}

func TestExtractHostileHTML(t *testing.T) {
	tests := []struct {
		name string
		body string
	}{
		{"nesting near the parser's limit", "<body><p>top</p>" + strings.Repeat("<span>", 500) + "deep text</body>"},
		{"unclosed tags", "<body><p><b><i><p>text<table><td>cell"},
		{"huge JSON-LD", `<script type="application/ld+json">` + strings.Repeat(`[`, 100000) + `</script><p>x</p>`},
		{"binary junk", "\x00\x01<p>\xff\xfe</p>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Extract([]byte(tt.body), "text/html", "")
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			if doc.Text == "" {
				t.Errorf("no text extracted")
			}
		})
	}
}
