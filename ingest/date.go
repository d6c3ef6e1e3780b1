package ingest

import (
	"encoding/json"
	"regexp"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/araddon/dateparse"
)

// dateMetaKeys are the <meta> names and properties that carry a
// publication date, best first. They are matched without regard to case
// against the property, name and itemprop attributes.
var dateMetaKeys = []string{
	"article:published_time", "og:published_time", "og:article:published_time",
	"datepublished", "citation_publication_date", "citation_date",
	"dc.date.issued", "dcterms.issued", "dc.date", "dcterms.date", "dcterms.created",
	"date", "pubdate", "publishdate", "publish-date", "publish_date", "publication_date",
	"sailthru.date", "parsely-pub-date",
}

// maxJSONLDBytes bounds one JSON-LD script that is parsed for a date.
const maxJSONLDBytes = 1 << 20

// htmlDate finds the publication date in machine-readable markup: meta
// tags, then an element with itemprop=datePublished, then JSON-LD
// datePublished (or dateCreated), then a <time datetime> element. It
// returns the zero time when none parses.
func htmlDate(doc *goquery.Document) time.Time {
	meta := map[string]string{}
	doc.Find("meta[content]").Each(func(_ int, s *goquery.Selection) {
		content := s.AttrOr("content", "")
		for _, attr := range []string{"property", "name", "itemprop"} {
			key := strings.ToLower(strings.TrimSpace(s.AttrOr(attr, "")))
			if _, seen := meta[key]; key != "" && !seen {
				meta[key] = content
			}
		}
	})
	for _, key := range dateMetaKeys {
		if t, ok := parseDate(meta[key]); ok {
			return t
		}
	}
	var found time.Time
	doc.Find("[itemprop=datePublished]").EachWithBreak(func(_ int, s *goquery.Selection) bool {
		for _, v := range []string{s.AttrOr("datetime", ""), s.AttrOr("content", ""), s.Text()} {
			if t, ok := parseDate(v); ok {
				found = t
				return false
			}
		}
		return true
	})
	if !found.IsZero() {
		return found
	}
	doc.Find("script").EachWithBreak(func(_ int, s *goquery.Selection) bool {
		if !strings.EqualFold(strings.TrimSpace(s.AttrOr("type", "")), "application/ld+json") {
			return true
		}
		found = jsonLDDate(s.Text())
		return found.IsZero()
	})
	if !found.IsZero() {
		return found
	}
	// A <time> marked as the publication date first, then any.
	for _, sel := range []string{"time[pubdate][datetime]", "article time[datetime]", "time[datetime]"} {
		if t, ok := parseDate(doc.Find(sel).First().AttrOr("datetime", "")); ok {
			return t
		}
	}
	return time.Time{}
}

// jsonLDDate returns the first datePublished in a JSON-LD document (at
// any depth, @graph included), else the first dateCreated.
func jsonLDDate(src string) time.Time {
	if len(src) > maxJSONLDBytes {
		return time.Time{}
	}
	var v any
	if err := json.Unmarshal([]byte(strings.TrimSpace(src)), &v); err != nil {
		return time.Time{}
	}
	for _, key := range []string{"datePublished", "dateCreated"} {
		if t, ok := findJSONDate(v, key, 0); ok {
			return t
		}
	}
	return time.Time{}
}

func findJSONDate(v any, key string, depth int) (time.Time, bool) {
	if depth > 32 {
		return time.Time{}, false
	}
	switch v := v.(type) {
	case map[string]any:
		if s, ok := v[key].(string); ok {
			if t, ok := parseDate(s); ok {
				return t, true
			}
		}
		for _, child := range v {
			if t, ok := findJSONDate(child, key, depth+1); ok {
				return t, true
			}
		}
	case []any:
		for _, child := range v {
			if t, ok := findJSONDate(child, key, depth+1); ok {
				return t, true
			}
		}
	}
	return time.Time{}, false
}

const monthPattern = `(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`

// visibleDateRE finds a date written after a word such as "Published" in
// the page text: "Published March 3, 2024", "Posted on 3 March 2024",
// "Date: 2024-03-03". Numeric dates with slashes are left out: whether
// 03/04 is March or April is a guess.
var visibleDateRE = regexp.MustCompile(`(?i)\b(published|posted|released|issued|updated|dated?)\b(?:\s+(?:on|at))?\s*[:\-–—]?\s*` +
	`(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?` +
	`(` + monthPattern + `\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}` +
	`|\d{1,2}(?:st|nd|rd|th)?\s+` + monthPattern + `,?\s+\d{4}` +
	`|\d{4}-\d{2}-\d{2}(?:[tT ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?)`)

// maxVisibleDateScan bounds how much page text is searched for a date:
// bylines sit near the top.
const maxVisibleDateScan = 20000

// visibleDate returns the date after "Published", "Posted", "Released" or
// "Issued" in text, else after "Updated" or "Date", else zero.
func visibleDate(text string) time.Time {
	if len(text) > maxVisibleDateScan {
		text = text[:maxVisibleDateScan]
	}
	var fallback time.Time
	for _, m := range visibleDateRE.FindAllStringSubmatch(text, 20) {
		t, ok := parseDate(m[2])
		if !ok {
			continue
		}
		switch strings.ToLower(m[1]) {
		case "published", "posted", "released", "issued":
			return t
		}
		if fallback.IsZero() {
			fallback = t
		}
	}
	return fallback
}

var (
	ordinalRE   = regexp.MustCompile(`(?i)(\d)(st|nd|rd|th)\b`)
	abbrevDotRE = regexp.MustCompile(`([A-Za-z])\.`) // "Mar." -> "Mar"
	septRE      = regexp.MustCompile(`(?i)\bsept\b`) // dateparse knows "Sep"
)

// parseDate parses a date in any common layout with dateparse, in UTC when
// the text names no zone. It refuses years outside 1800-2200, which are
// typos or not dates, and never panics on hostile input.
func parseDate(s string) (t time.Time, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 64 {
		return time.Time{}, false
	}
	s = ordinalRE.ReplaceAllString(s, "$1")
	s = abbrevDotRE.ReplaceAllString(s, "$1")
	s = septRE.ReplaceAllString(s, "Sep")
	defer func() {
		if recover() != nil {
			t, ok = time.Time{}, false
		}
	}()
	t, err := dateparse.ParseIn(s, time.UTC)
	if err != nil || t.Year() < 1800 || t.Year() > 2200 {
		return time.Time{}, false
	}
	return t.UTC(), true
}
