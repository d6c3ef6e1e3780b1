package ingest

import (
	"html"
	"strings"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// markdownParser parses CommonMark with GFM tables and strikethrough. It
// is safe for concurrent use.
var markdownParser = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough)).Parser()

// extractMarkdown returns the prose of a Markdown document: headings,
// paragraphs, list items, quotes and table rows, with the markup, link
// targets, images, raw HTML and code blocks dropped. The title is the
// front matter's title, else the first level-1 heading, else the first
// heading; the date is the front matter's date.
func extractMarkdown(src string) Document {
	var doc Document
	src, doc.Title, doc.PublishedAt = frontMatter(src)
	source := []byte(src)
	root := markdownParser.Parse(text.NewReader(source))
	w := &mdWalker{source: source}
	w.block(root, 0)
	doc.Text = strings.Join(w.paras, "\n\n")
	if doc.Title == "" {
		doc.Title = w.h1
	}
	if doc.Title == "" {
		doc.Title = w.firstHeading
	}
	return doc
}

type mdWalker struct {
	source       []byte
	paras        []string
	h1           string
	firstHeading string
}

func (w *mdWalker) block(n ast.Node, depth int) {
	if depth > maxHTMLDepth {
		return
	}
	switch n := n.(type) {
	case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock, *ast.ThematicBreak, *ast.LinkReferenceDefinition:
		return
	case *ast.Heading:
		t := w.paragraph(n)
		if n.Level == 1 && w.h1 == "" {
			w.h1 = t
		}
		if w.firstHeading == "" {
			w.firstHeading = t
		}
		return
	case *ast.Paragraph, *ast.TextBlock:
		w.paragraph(n)
		return
	case *extast.TableRow, *extast.TableHeader:
		var cells []string
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			var b strings.Builder
			w.inline(c, &b, depth+1)
			if t := cleanParagraph(html.UnescapeString(b.String())); t != "" {
				cells = append(cells, t)
			}
		}
		if len(cells) > 0 {
			w.paras = append(w.paras, strings.Join(cells, " "))
		}
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		w.block(c, depth+1)
	}
}

// paragraph appends the inline text of n as a paragraph and returns it.
func (w *mdWalker) paragraph(n ast.Node) string {
	var b strings.Builder
	w.inline(n, &b, 0)
	t := cleanParagraph(html.UnescapeString(b.String()))
	if t != "" {
		w.paras = append(w.paras, t)
	}
	return t
}

func (w *mdWalker) inline(n ast.Node, b *strings.Builder, depth int) {
	if depth > maxHTMLDepth {
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Value(w.source))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.AutoLink:
			b.Write(c.Label(w.source))
		case *ast.RawHTML, *ast.Image:
			// Markup and pictures are not prose.
		default:
			w.inline(c, b, depth+1)
		}
	}
}

// frontMatter strips a leading YAML front matter block ("---" lines) and
// returns its title and date. Only those two keys are read, as plain
// "key: value" lines; nothing in the block is evaluated.
func frontMatter(src string) (rest, title string, date time.Time) {
	s := strings.TrimPrefix(strings.ReplaceAll(src, "\r\n", "\n"), "\ufeff")
	if !strings.HasPrefix(s, "---\n") {
		return src, "", time.Time{}
	}
	block, after, ok := strings.Cut(s[4:], "\n---")
	if !ok || len(block) > 64<<10 {
		return src, "", time.Time{}
	}
	if i := strings.IndexByte(after, '\n'); i >= 0 {
		after = after[i+1:]
	} else {
		after = ""
	}
	for line := range strings.Lines(block) {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		val = strings.Trim(strings.TrimSpace(val), `"'`)
		switch strings.ToLower(strings.TrimSpace(key)) {
		case "title":
			title = val
		case "date", "published", "published_at", "pubdate":
			if t, ok := parseDate(val); ok && date.IsZero() {
				date = t
			}
		}
	}
	return after, title, date
}
