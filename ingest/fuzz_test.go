package ingest

// Fuzz targets for every parser of untrusted input in this package. The
// f.Add calls are the seed corpus; inputs a fuzzer found to crash are kept
// under testdata/fuzz/<target>. `go test` runs the seeds; scripts/fuzz.sh
// fuzzes each target for longer.

import (
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzExtract checks that HTML, Markdown and plain-text extraction never
// panic and always return valid UTF-8 with a one-line title.
func FuzzExtract(f *testing.F) {
	seeds := []struct {
		body string
		kind uint8
	}{
		{`<html><head><title>T</title><meta property="article:published_time" content="2024-03-01"></head><body><article><p>The tower is 330 m tall.</p><nav>menu</nav></article></body></html>`, 0},
		{`<html><body><script type="application/ld+json">{"@graph":[{"datePublished":"2021-05-04"}]}</script><time datetime="2020-01-02">x</time><p>Posted March 3rd, 2019</p></body></html>`, 0},
		{`<meta charset="windows-1252"><p>caf` + "\xe9" + `</p><div class="sidebar">x</div><main><h1>H</h1><ul><li>a</li></ul></main>`, 0},
		{"<p>" + strings.Repeat("<div>", 300) + "deep" + "</p>", 0},
		{"---\ntitle: Front\ndate: 2022-02-02\n---\n# Heading\n\nSome *text* with a [link](http://x.example).\n\n- item\n- item 2\n\n```go\ncode\n```\n", 1},
		{"> quote\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<div>raw html</div>\n", 1},
		{"Title line\n\nPublished: 12 January 2020\n\nFirst paragraph.\nSame paragraph.\n\n\nSecond.", 2},
		{"\xef\xbb\xbfBOM text \x00 with NUL and \xff bad bytes", 2},
		{"\xff\xfeU\x00T\x00F\x001\x006\x00", 2},
	}
	for _, s := range seeds {
		f.Add([]byte(s.body), s.kind)
	}
	f.Fuzz(func(t *testing.T, body []byte, kind uint8) {
		ct := [...]string{"text/html; charset=utf-8", "text/markdown", "text/plain", "", "application/xhtml+xml", "text/html; charset=iso-8859-1"}[int(kind)%6]
		doc, err := Extract(body, ct, "https://example.com/page")
		if err != nil {
			return
		}
		if !utf8.ValidString(doc.Text) || !utf8.ValidString(doc.Title) {
			t.Errorf("invalid UTF-8 out: title %q text %q", doc.Title, doc.Text)
		}
		if strings.ContainsAny(doc.Title, "\n\r") {
			t.Errorf("title %q spans lines", doc.Title)
		}
		if y := doc.PublishedAt.Year(); !doc.PublishedAt.IsZero() && (y < 1800 || y > 2200) {
			t.Errorf("published %v outside 1800-2200", doc.PublishedAt)
		}
	})
}

// FuzzParseDate checks the date parsers: a date is in range and in UTC,
// and none of them panics.
func FuzzParseDate(f *testing.F) {
	for _, s := range []string{
		"2024-03-01", "2024-03-01T10:20:30Z", "2024-03-01T10:20:30+02:00", "March 3rd, 2019",
		"Sept. 4, 2020", "4 Sep 2020", "Mon, 02 Jan 2006 15:04:05 MST", "1/2/2006", "12/31/1799",
		"20060102", "1136214245", "2006-01-02 15:04:05.000000 -0700", "oct 7 1970", "not a date", "",
		"Published: 12 January 2020", "Updated 2021-01-01 Date: 2020-02-02",
		`{"@type":"NewsArticle","datePublished":"2021-05-04"}`, `[{"dateCreated":"2020-01-01"}]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		check := func(what string, d time.Time) {
			if d.IsZero() {
				return
			}
			if y := d.Year(); y < 1800 || y > 2200 {
				t.Errorf("%s(%q) = %v, outside 1800-2200", what, s, d)
			}
			if d.Location() != time.UTC {
				t.Errorf("%s(%q) = %v, not UTC", what, s, d)
			}
		}
		if d, ok := parseDate(s); ok {
			check("parseDate", d)
		} else if !d.IsZero() {
			t.Errorf("parseDate(%q) refused but returned %v", s, d)
		}
		check("visibleDate", visibleDate(s))
		check("jsonLDDate", jsonLDDate(s))
	})
}

// FuzzParseRecord checks the JSONL reader: every line it accepts is a
// record with text, an absolute http(s) URL or none, and a reliability
// in [0, 1].
func FuzzParseRecord(f *testing.F) {
	for _, s := range []string{
		`{"id":"a1","text":"The tower is 330 m tall.","url":"https://e.example/x","published_at":"2020-01-02","domain":"E.example","reliability":0.9}`,
		`{"doc_id":123,"abstract":["One.","","Two."],"title":"T"}`,
		`{"id":-1.5e3,"abstract":"An abstract."}`,
		`{"id":{"x":1},"text":"x"}`,
		`{"id":"a\u0000b","text":"x"}`,
		`{"text":"x","url":"javascript:alert(1)"}`,
		`{"text":"x","reliability":2}`,
		`{"text":"  "}`,
		`not json`,
		"{\"text\":\"a\"}\n{\"text\":\"b\"}\n\n{broken\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := scanLines(strings.NewReader(string(data)), func(_ int, _ int64, line []byte, tooLong bool) error {
			if tooLong {
				return nil
			}
			rec, err := parseRecord(line)
			if err != nil {
				return nil
			}
			if strings.TrimSpace(rec.Text) == "" {
				t.Errorf("record %q accepted without text", line)
			}
			if rec.URL != "" {
				u, err := url.Parse(rec.URL)
				if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
					t.Errorf("record %q accepted with URL %q", line, rec.URL)
				}
			}
			if r := rec.Reliability; r != nil && !(*r >= 0 && *r <= 1) {
				t.Errorf("record %q accepted with reliability %v", line, *r)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("scanLines: %v", err)
		}
	})
}

// FuzzCanonicalURL checks that canonical URLs are http(s), carry no
// fragment or tracking parameter, and are fixed points.
func FuzzCanonicalURL(f *testing.F) {
	for _, s := range []string{
		"https://Example.COM:443/a?b=2&a=1&utm_source=x#frag", "http://example.com", "http://[::1]:80/",
		"HTTP://EXAMPLE.com:8080/%7Euser?fbclid=1", "ftp://x", "https://", "http://a b", " http://x.example/ ",
		"https://user:pass@host.example/p?q=%zz", "https://xn--bcher-kva.example/ü", "http://1.2.3.4:0/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		c, err := CanonicalURL(raw)
		if err != nil {
			return
		}
		u, err := url.Parse(c)
		if err != nil {
			t.Fatalf("CanonicalURL(%q) = %q, which does not parse: %v", raw, c, err)
		}
		if u.Scheme != "http" && u.Scheme != "https" {
			t.Errorf("CanonicalURL(%q) = %q: scheme %q", raw, c, u.Scheme)
		}
		if u.Fragment != "" {
			t.Errorf("CanonicalURL(%q) = %q keeps a fragment", raw, c)
		}
		for k := range u.Query() {
			if strings.HasPrefix(strings.ToLower(k), "utm_") || trackingParams[strings.ToLower(k)] {
				t.Errorf("CanonicalURL(%q) = %q keeps %q", raw, c, k)
			}
		}
		again, err := CanonicalURL(c)
		if err != nil {
			t.Fatalf("CanonicalURL(%q) = %q, which is refused: %v", raw, c, err)
		}
		if again != c {
			t.Errorf("not a fixed point: %q -> %q -> %q", raw, c, again)
		}
	})
}

// FuzzChunk checks that passages are non-empty, within MaxChars, and made
// only of the text's words.
func FuzzChunk(f *testing.F) {
	f.Add("One sentence. Another one follows.\n\nA new paragraph with more words in it.", 5, 20, 80, 1)
	f.Add(strings.Repeat("word ", 500), 60, 120, 1200, 1)
	f.Add(strings.Repeat("x", 5000)+" tail.", 0, 0, 0, 0)
	f.Add("Ça a marché. Été 2023.\u00a0Ωμέγα έρχεται. \xff\xfe bad.", 1, 2, 10, 3)
	f.Add("", 1, 1, 1, -1)
	f.Fuzz(func(t *testing.T, text string, minWords, maxWords, maxChars, overlap int) {
		// Keep the settings in the ranges configuration allows, so the
		// fuzzer spends its time on the text.
		cfg := ChunkConfig{MinWords: minWords % 200, MaxWords: maxWords % 400, MaxChars: maxChars % 4000, OverlapSentences: overlap % 4}
		if cfg.MaxChars > 0 && cfg.MaxChars < 16 {
			cfg.MaxChars = 16
		}
		limit := cfg.withDefaults().MaxChars
		for i, p := range Chunk(text, cfg) {
			if strings.TrimSpace(p) == "" {
				t.Errorf("passage %d is empty", i)
			}
			if len(p) > limit {
				t.Errorf("passage %d has %d bytes, over %d", i, len(p), limit)
			}
		}
	})
}

// FuzzGuard checks the address guard: a URL it lets through is http(s)
// with a host, and a literal address it lets through is one classify
// accepts.
func FuzzGuard(f *testing.F) {
	for _, s := range []string{
		"http://127.0.0.1/", "http://[::ffff:127.0.0.1]/", "http://0x7f.1/", "http://2130706433/", "http://localhost./",
		"http://a.localhost/", "http://metadata.google.internal/", "http://169.254.169.254/latest", "http://[64:ff9b::a9fe:a9fe]/",
		"http://[2002:7f00:1::]/", "file:///etc/passwd", "gopher://x", "http://[fe80::1%25eth0]/", "https://example.com/",
		"http://93.184.216.34:8080/", "http:///x", "http://100.64.0.1/",
	} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, raw string, allowPrivate bool) {
		g := &guard{allowPrivate: allowPrivate}
		if a, err := netip.ParseAddr(raw); err == nil {
			reason := g.check(a)
			if err := g.control("tcp6", netip.AddrPortFrom(a, 80).String(), nil); (err == nil) != (reason == "") {
				t.Errorf("check(%v) = %q but control says %v", a, reason, err)
			}
		}
		u, err := url.Parse(raw)
		if err != nil {
			return
		}
		if err := g.checkURL(u); err != nil {
			return
		}
		if u.Scheme != "http" && u.Scheme != "https" {
			t.Errorf("checkURL let %q through with scheme %q", raw, u.Scheme)
		}
		host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
		if host == "" {
			t.Errorf("checkURL let %q through with no host", raw)
		}
		if a, err := netip.ParseAddr(host); err == nil {
			if reason, private := classify(a.Unmap()); reason != "" && !(private && allowPrivate) {
				t.Errorf("checkURL let %q through: %s", raw, reason)
			}
		}
		if !allowPrivate && (host == "localhost" || strings.HasSuffix(host, ".localhost")) {
			t.Errorf("checkURL let %q through", raw)
		}
	})
}
