package ingest

import (
	"fmt"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Elements that never hold visible text.
const invisibleSelector = "script, style, noscript, template, iframe, object, embed, svg, canvas, " +
	"[hidden], [aria-hidden=true]"

// Page furniture around the main text.
const furnitureSelector = "nav, header, footer, aside, form, button, select, textarea, dialog, menu, " +
	"[role=navigation], [role=banner], [role=contentinfo], [role=complementary], [role=search]"

// boilerplateTokens are class and id words of page furniture (cookie
// banners, share bars, comment threads). An element carrying one is
// dropped from the main text unless it holds half of it or more, which
// guards against a wrapper named, say, "page has-sidebar".
var boilerplateTokens = map[string]bool{
	"ad": true, "ads": true, "advert": true, "advertisement": true, "banner": true,
	"breadcrumb": true, "breadcrumbs": true, "comment": true, "comments": true,
	"cookie": true, "cookies": true, "consent": true, "menu": true, "modal": true,
	"newsletter": true, "popup": true, "promo": true, "related": true, "share": true,
	"sharing": true, "sidebar": true, "social": true, "subscribe": true, "toolbar": true,
}

// minArticleChars is the text an <article> needs to be taken as the main
// text rather than a teaser.
const minArticleChars = 140

// maxHTMLDepth bounds the depth of the text walks (HTML and Markdown);
// text nested deeper is dropped rather than risk a runaway recursion on
// hostile markup. The HTML parser itself refuses trees deeper than 512.
const maxHTMLDepth = 512

func extractHTML(src string) (Document, error) {
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(src))
	if err != nil {
		return Document{}, fmt.Errorf("parse HTML: %w", err)
	}
	out := Document{Title: htmlTitle(doc)}
	out.PublishedAt = htmlDate(doc)
	doc.Find(invisibleSelector).Remove()
	if out.PublishedAt.IsZero() {
		out.PublishedAt = visibleDate(blockText(doc.Find("body")))
	}
	doc.Find(furnitureSelector).Remove()
	root := mainRoot(doc)
	dropBoilerplate(root)
	out.Text = blockText(root)
	return out, nil
}

func htmlTitle(doc *goquery.Document) string {
	for _, sel := range []string{`meta[property="og:title"]`, `meta[name="twitter:title"]`} {
		if t, ok := doc.Find(sel).First().Attr("content"); ok && strings.TrimSpace(t) != "" {
			return t
		}
	}
	if t := strings.TrimSpace(doc.Find("head title").First().Text()); t != "" {
		return t
	}
	if t := strings.TrimSpace(doc.Find("title").First().Text()); t != "" {
		return t
	}
	return doc.Find("h1").First().Text()
}

// mainRoot picks the element holding the main text: the longest <article>
// when it is long enough, else <main> or [role=main], else <body>.
func mainRoot(doc *goquery.Document) *goquery.Selection {
	var best *goquery.Selection
	bestLen := 0
	doc.Find("article").Each(func(_ int, s *goquery.Selection) {
		if n := len(strings.TrimSpace(s.Text())); n > bestLen {
			best, bestLen = s, n
		}
	})
	if best != nil && bestLen >= minArticleChars {
		return best
	}
	if m := doc.Find("main, [role=main]").First(); m.Length() > 0 {
		return m
	}
	if b := doc.Find("body"); b.Length() > 0 {
		return b
	}
	return doc.Selection
}

func dropBoilerplate(root *goquery.Selection) {
	total := len(root.Text())
	root.Find("[class], [id]").Each(func(_ int, s *goquery.Selection) {
		if !hasBoilerplateToken(s.AttrOr("class", "")) && !hasBoilerplateToken(s.AttrOr("id", "")) {
			return
		}
		if 2*len(s.Text()) < total {
			s.Remove()
		}
	})
}

func hasBoilerplateToken(attr string) bool {
	for _, tok := range strings.FieldsFunc(strings.ToLower(attr), func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9')
	}) {
		if boilerplateTokens[tok] {
			return true
		}
	}
	return false
}

// blockElements end a paragraph of the extracted text. A table row is one
// paragraph.
var blockElements = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Blockquote: true, atom.Br: true,
	atom.Caption: true, atom.Dd: true, atom.Details: true, atom.Div: true, atom.Dl: true,
	atom.Dt: true, atom.Figcaption: true, atom.Figure: true, atom.H1: true, atom.H2: true,
	atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true, atom.Hr: true, atom.Li: true,
	atom.Main: true, atom.Ol: true, atom.P: true, atom.Pre: true, atom.Section: true,
	atom.Summary: true, atom.Table: true, atom.Tr: true,
	atom.Ul: true, atom.Body: true, atom.Html: true,
}

// blockText returns the text of sel, one paragraph per block element,
// paragraphs separated by a blank line.
func blockText(sel *goquery.Selection) string {
	w := &textWalker{}
	for _, n := range sel.Nodes {
		w.walk(n, 0)
	}
	w.flush()
	return strings.Join(w.paras, "\n\n")
}

type textWalker struct {
	paras []string
	cur   strings.Builder
}

func (w *textWalker) flush() {
	if p := cleanParagraph(w.cur.String()); p != "" {
		w.paras = append(w.paras, p)
	}
	w.cur.Reset()
}

func (w *textWalker) walk(n *html.Node, depth int) {
	if depth > maxHTMLDepth {
		return
	}
	switch n.Type {
	case html.TextNode:
		w.cur.WriteString(n.Data)
		return
	case html.ElementNode, html.DocumentNode:
	default:
		return
	}
	block := blockElements[n.DataAtom]
	if block {
		w.flush()
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.walk(c, depth+1)
	}
	if n.DataAtom == atom.Td || n.DataAtom == atom.Th {
		// Cells of a row stay one paragraph, apart.
		w.cur.WriteByte(' ')
	}
	if block {
		w.flush()
	}
}
