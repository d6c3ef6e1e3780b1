package citations

import (
	"sort"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The HTML reader walks the tokenizer of golang.org/x/net/html rather than
// the parsed tree, because only the tokenizer tells where in the source a
// piece of text stands, and the report locates claims by line. HTML is
// read, never run: scripts, styles and templates are skipped.

// blockTags start and end a block.
var blockTags = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Li: true, atom.Dt: true, atom.Dd: true, atom.Tr: true,
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Blockquote: true, atom.Section: true, atom.Article: true, atom.Header: true, atom.Footer: true,
	atom.Main: true, atom.Aside: true, atom.Nav: true, atom.Table: true, atom.Ul: true, atom.Ol: true,
	atom.Dl: true, atom.Figure: true, atom.Figcaption: true, atom.Body: true, atom.Caption: true,
	atom.Hr: true, atom.Form: true, atom.Address: true, atom.Details: true, atom.Summary: true,
}

// skipTags hide their content.
var skipTags = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true, atom.Head: true,
	atom.Svg: true, atom.Math: true, atom.Iframe: true, atom.Object: true, atom.Pre: true,
	atom.Select: true, atom.Textarea: true, atom.Button: true, atom.Title: true,
}

var headingLevel = map[atom.Atom]int{atom.H1: 1, atom.H2: 2, atom.H3: 3, atom.H4: 4, atom.H5: 5, atom.H6: 6}

// maxHTMLDepth bounds the skip and list stacks against pathological input.
const maxHTMLDepth = 512

type htmlReader struct {
	src        string
	lineStarts []int
	blocks     []block
	b          builder
	kind       blockKind
	level      int
	listNum    int
	anchors    []string
	// skip counts open elements whose content is hidden.
	skip int
	// lists holds the next item number of each open list (0 for <ul>).
	lists []int
	// link is the open <a>, if any.
	link *htmlLink
	// sup holds the text of an open <sup> without a link: a number there
	// is a superscript citation marker.
	sup     *strings.Builder
	supLine int
	// cite holds the text of an open <cite>, the title of a cited work;
	// citeLinked is set when the work is linked.
	cite       *strings.Builder
	citeLinked bool
	// quoteSources are the cite attributes of the open <q> elements and
	// blockQuotes those of the open <blockquote> elements: the URL the
	// quotation comes from, "" for none.
	quoteSources, blockQuotes []string
}

type htmlLink struct {
	href string
	line int
	text strings.Builder
}

// readHTML splits an HTML document into blocks.
func readHTML(src string) []block {
	r := &htmlReader{src: src, lineStarts: []int{0}}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			r.lineStarts = append(r.lineStarts, i+1)
		}
	}
	z := html.NewTokenizer(strings.NewReader(src))
	off := 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		raw := z.Raw()
		start := off
		off += len(raw)
		switch tt {
		case html.TextToken:
			if r.skip == 0 {
				r.textToken(string(raw), start)
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			r.startTag(tok, tt == html.SelfClosingTagToken, start)
		case html.EndTagToken:
			tok := z.Token()
			r.endTag(tok)
		}
	}
	r.closeLink()
	r.flush()
	return r.blocks
}

func (r *htmlReader) lineOf(off int) int {
	return sort.SearchInts(r.lineStarts, off+1)
}

// textToken adds raw text (entities not yet decoded) that starts at byte
// off, line by line so that each piece keeps its line.
func (r *htmlReader) textToken(raw string, off int) {
	line := r.lineOf(off)
	for i, piece := range strings.Split(raw, "\n") {
		if i > 0 {
			r.addText(" ", line+i)
		}
		r.addText(html.UnescapeString(piece), line+i)
	}
}

func (r *htmlReader) addText(s string, line int) {
	if r.cite != nil {
		r.cite.WriteString(s)
	}
	if r.link != nil {
		r.link.text.WriteString(s)
		return
	}
	if r.sup != nil {
		r.sup.WriteString(s)
		return
	}
	plainMarkers(&r.b, s, line)
}

// closeSup adds the open <sup>'s text: soft markers when it is a
// reference number ("2", "[2]", "2,5"), plain text otherwise.
func (r *htmlReader) closeSup() {
	s := r.sup
	if s == nil {
		return
	}
	r.sup = nil
	inner := strings.Trim(strings.TrimSpace(s.String()), "[]")
	if numberedRe.MatchString("["+inner+"]") && numberedRe.FindString("["+inner+"]") == "["+inner+"]" {
		softMarks(&r.b, inner, false)
		return
	}
	plainMarkers(&r.b, s.String(), r.supLine)
}

func (r *htmlReader) startTag(tok html.Token, selfClosing bool, off int) {
	a := tok.DataAtom
	if skipTags[a] {
		if !selfClosing && r.skip < maxHTMLDepth {
			r.skip++
		}
		return
	}
	if r.skip > 0 {
		return
	}
	switch {
	case a == atom.Br:
		r.addText(" ", r.lineOf(off))
	case a == atom.Td || a == atom.Th:
		if !r.b.empty() {
			r.addText("; ", r.lineOf(off))
		}
	case blockTags[a]:
		r.closeLink()
		r.flush()
		if lvl, ok := headingLevel[a]; ok {
			r.kind, r.level = headingBlock, lvl
		}
		switch a {
		case atom.Blockquote:
			if !selfClosing && len(r.blockQuotes) < maxHTMLDepth {
				r.blockQuotes = append(r.blockQuotes, quoteSource(tok))
			}
		case atom.Ol:
			if !selfClosing && len(r.lists) < maxHTMLDepth {
				r.lists = append(r.lists, max(1, atoiAttr(tok, "start")))
			}
		case atom.Ul:
			if !selfClosing && len(r.lists) < maxHTMLDepth {
				r.lists = append(r.lists, 0)
			}
		case atom.Li:
			if n := len(r.lists); n > 0 && r.lists[n-1] > 0 {
				if v := atoiAttr(tok, "value"); v > 0 {
					r.lists[n-1] = v
				}
				r.listNum = r.lists[n-1]
				r.lists[n-1]++
			}
		}
	case a == atom.Sup && !selfClosing && r.link == nil:
		r.closeSup()
		r.sup, r.supLine = &strings.Builder{}, r.lineOf(off)
	case a == atom.Cite && !selfClosing && r.cite == nil:
		r.cite, r.citeLinked = &strings.Builder{}, false
	case a == atom.Q && !selfClosing && len(r.quoteSources) < maxHTMLDepth:
		r.quoteSources = append(r.quoteSources, quoteSource(tok))
	case a == atom.A:
		r.closeLink()
		r.closeSup()
		if r.cite != nil {
			r.citeLinked = true
		}
		if href, ok := attr(tok, "href"); ok && !selfClosing {
			r.link = &htmlLink{href: strings.TrimSpace(href), line: r.lineOf(off)}
		}
	}
	if id, ok := attr(tok, "id"); ok && id != "" && len(r.anchors) < 64 {
		r.anchors = append(r.anchors, id)
	}
	if id, ok := attr(tok, "name"); ok && a == atom.A && id != "" && len(r.anchors) < 64 {
		r.anchors = append(r.anchors, id)
	}
}

func (r *htmlReader) endTag(tok html.Token) {
	a := tok.DataAtom
	if skipTags[a] {
		if r.skip > 0 {
			r.skip--
		}
		return
	}
	if r.skip > 0 {
		return
	}
	switch {
	case a == atom.A:
		r.closeLink()
	case a == atom.Sup:
		r.closeSup()
	case a == atom.Cite && r.cite != nil:
		title := strings.Join(strings.Fields(r.cite.String()), " ")
		r.cite = nil
		if !r.citeLinked && title != "" {
			r.closeLink()
			r.b.mark(mark{kind: noURLMark, id: "[" + clip(title, 80) + "]"})
		}
	case a == atom.Q:
		r.closeQuote()
	case blockTags[a]:
		r.closeLink()
		r.closeSup()
		r.flush()
		if n := len(r.blockQuotes); a == atom.Blockquote && n > 0 {
			r.blockQuotes = r.blockQuotes[:n-1]
		}
		if (a == atom.Ol || a == atom.Ul) && len(r.lists) > 0 {
			r.lists = r.lists[:len(r.lists)-1]
		}
	}
}

// closeLink adds the open link's text and its mark.
func (r *htmlReader) closeLink() {
	l := r.link
	if l == nil {
		return
	}
	r.link = nil
	linkMarkFor(&r.b, l.text.String(), "("+l.href+")", l.line)
}

func (r *htmlReader) flush() {
	if n := len(r.blockQuotes); n > 0 && r.blockQuotes[n-1] != "" && !r.b.empty() {
		// Each paragraph of a quotation cites the quotation's source.
		u := r.blockQuotes[n-1]
		r.b.mark(mark{kind: linkMark, id: u, url: u})
	}
	if !r.b.empty() {
		bl := r.b.finish(r.kind)
		bl.level, bl.listNum, bl.anchors = r.level, r.listNum, r.anchors
		r.blocks = append(r.blocks, bl)
	} else {
		// Nothing was written: an id or list number seen so far ("<li
		// id=r2><p>...") belongs to the block that follows.
		r.b = builder{}
		r.kind, r.level = proseBlock, 0
		return
	}
	r.b = builder{}
	r.kind, r.level, r.listNum, r.anchors = proseBlock, 0, 0, nil
}

// quoteSource is a <blockquote> or <q>'s cite attribute when it is a web
// URL, "" otherwise.
func quoteSource(tok html.Token) string {
	if u, ok := attr(tok, "cite"); ok && isWebURL(strings.TrimSpace(u)) {
		return absoluteURL(strings.TrimSpace(u))
	}
	return ""
}

// closeQuote cites the closing <q>'s source, if it names one.
func (r *htmlReader) closeQuote() {
	n := len(r.quoteSources)
	if n == 0 {
		return
	}
	u := r.quoteSources[n-1]
	r.quoteSources = r.quoteSources[:n-1]
	if u != "" {
		r.closeLink()
		r.b.mark(mark{kind: linkMark, id: u, url: u})
	}
}

func attr(tok html.Token, key string) (string, bool) {
	for _, a := range tok.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func atoiAttr(tok html.Token, key string) int {
	v, _ := attr(tok, key)
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 || n > 1_000_000 {
		return 0
	}
	return n
}
