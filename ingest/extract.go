package ingest

import (
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/unicode/norm"
)

// MaxExtractBytes bounds the input of [Extract]: 16 MiB.
const MaxExtractBytes = 16 << 20

// Document is the text and metadata extracted from one source.
type Document struct {
	Title string
	// Text is the main text, paragraphs separated by a blank line, each
	// paragraph's whitespace collapsed, Unicode NFC.
	Text string
	// PublishedAt is the publication date in UTC, or zero when none was
	// found.
	PublishedAt time.Time
}

// Extract returns the title, main text and publication date of body.
// contentType (a Content-Type value, may be empty) picks the format; when
// it is empty, application/octet-stream or text/plain, sourceURL's
// extension (.html, .htm, .md, .markdown, .txt, .pdf) decides, and
// content sniffing after that. PDFs are read as pdf.go describes, under
// its limits; one without a text layer fails with [ErrNoTextLayer]. The character set comes from contentType, a byte
// order mark or an HTML meta tag. HTML is parsed, never run: scripts and
// styles are dropped. Input over [MaxExtractBytes] is refused. Extract
// waits while the extraction budget is spent (see [SetExtractionBudget]).
func Extract(body []byte, contentType, sourceURL string) (Document, error) {
	if len(body) > MaxExtractBytes {
		return Document{}, fmt.Errorf("extract: %w: %d bytes, limit %d", ErrTooLarge, len(body), MaxExtractBytes)
	}
	defer extraction.hold(int64(len(body)))()
	kind, err := formatOf(body, contentType, sourceURL)
	if err != nil {
		return Document{}, fmt.Errorf("extract: %w", err)
	}
	if kind == formatPDF {
		doc, err := extractPDF(body)
		if err != nil {
			return Document{}, fmt.Errorf("extract: %w", err)
		}
		doc.Title = oneLine(doc.Title, maxTitleRunes)
		return doc, nil
	}
	src := toUTF8(body, contentType)
	var doc Document
	switch kind {
	case formatHTML:
		doc, err = extractHTML(src)
	case formatMarkdown:
		doc = extractMarkdown(src)
	default:
		doc = extractPlain(src)
	}
	if err != nil {
		return Document{}, fmt.Errorf("extract: %w", err)
	}
	doc.Title = oneLine(doc.Title, maxTitleRunes)
	return doc, nil
}

type format int

const (
	formatText format = iota
	formatHTML
	formatMarkdown
	formatPDF
)

// formatByExt maps file extensions to formats; Expand walks directories
// for exactly these.
var formatByExt = map[string]format{
	".html": formatHTML, ".htm": formatHTML, ".xhtml": formatHTML,
	".md": formatMarkdown, ".markdown": formatMarkdown,
	".txt": formatText, ".text": formatText,
	".pdf": formatPDF,
}

func formatOf(body []byte, contentType, sourceURL string) (format, error) {
	mt := mediaType(contentType)
	switch mt {
	case "text/html", "application/xhtml+xml":
		return formatHTML, nil
	case "text/markdown", "text/x-markdown":
		return formatMarkdown, nil
	case "application/pdf", "application/x-pdf":
		return formatPDF, nil
	case "", "text/plain", "application/octet-stream":
		// Servers send Markdown files as text/plain; the name says more.
	default:
		return 0, &ContentTypeError{Type: contentType}
	}
	if f, ok := formatByExt[extOf(sourceURL)]; ok {
		return f, nil
	}
	if mt == "text/plain" {
		return formatText, nil
	}
	switch sniffed := mediaType(http.DetectContentType(body)); sniffed {
	case "text/html":
		return formatHTML, nil
	case "text/plain":
		return formatText, nil
	case "application/pdf":
		return formatPDF, nil
	default:
		return 0, &ContentTypeError{Type: sniffed}
	}
}

// extOf returns the lower-case extension of a URL's or file path's last
// element.
func extOf(source string) string {
	p := source
	if u, err := url.Parse(source); err == nil && u.Scheme != "" && len(u.Scheme) > 1 {
		p = u.Path
	}
	return strings.ToLower(path.Ext(strings.ReplaceAll(p, "\\", "/")))
}

// toUTF8 decodes body to UTF-8 using the charset named by contentType, a
// byte order mark or an HTML meta tag, falling back to windows-1252 for
// text that is not valid UTF-8 (the HTML standard's rule). Invalid bytes
// that remain become U+FFFD.
func toUTF8(body []byte, contentType string) string {
	enc, name, _ := charset.DetermineEncoding(body, contentType)
	if name != "utf-8" {
		if out, err := enc.NewDecoder().Bytes(body); err == nil {
			body = out
		}
	}
	s := string(body)
	s = strings.TrimPrefix(s, "\ufeff")
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\ufffd")
	}
	return s
}

const maxTitleRunes = 300

// oneLine collapses s's whitespace and cuts it to at most max runes.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:max]))
}

// cleanParagraph collapses a paragraph's whitespace, drops control
// characters and applies NFC.
func cleanParagraph(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) && !unicode.IsSpace(r) {
			return -1
		}
		if r == '\u00a0' {
			return ' '
		}
		return r
	}, s)
	return norm.NFC.String(joinFields(s))
}

// NormalizeText is the form of text that is chunked and hashed: Unix line
// ends, paragraphs (separated by blank lines) with collapsed whitespace,
// no control characters, NFC, one blank line between paragraphs. Single
// line breaks inside a paragraph become spaces.
func NormalizeText(text string) string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	var paras []string
	for _, p := range splitParagraphs(text) {
		if p = cleanParagraph(p); p != "" {
			paras = append(paras, p)
		}
	}
	return strings.Join(paras, "\n\n")
}

// splitParagraphs splits text at lines that are empty or hold only
// whitespace.
func splitParagraphs(text string) []string {
	var paras []string
	var cur strings.Builder
	for line := range strings.Lines(text) {
		if strings.TrimSpace(line) == "" {
			if cur.Len() > 0 {
				paras = append(paras, cur.String())
				cur.Reset()
			}
			continue
		}
		cur.WriteString(line)
	}
	if cur.Len() > 0 {
		paras = append(paras, cur.String())
	}
	return paras
}

// extractPlain reads plain text. Its title is the first paragraph when
// that is one short line without final punctuation and text follows; the
// title stays in the text.
func extractPlain(src string) Document {
	text := NormalizeText(src)
	first, _, ok := strings.Cut(text, "\n\n")
	if ok && utf8.RuneCountInString(first) <= 150 && !strings.ContainsAny(first[len(first)-1:], ".:;,") {
		raw := strings.TrimSpace(strings.SplitN(strings.TrimLeft(src, "\r\n\t \ufeff"), "\n", 2)[0])
		if cleanParagraph(raw) == first {
			return Document{Title: first, Text: text}
		}
	}
	return Document{Text: text}
}
