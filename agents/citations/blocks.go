package citations

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The readers (Markdown and plain text in markdown.go, HTML in html.go)
// turn a document into blocks: paragraphs, list items, table rows and
// headings, each as plain text with its citation markers taken out and
// kept beside it as marks at byte offsets, and with the source line of
// every piece of text, so that each sentence can be given its line and its
// citations.

type blockKind uint8

const (
	proseBlock blockKind = iota
	headingBlock
	// definitionBlock is a Markdown link reference definition
	// ("[2]: https://...") or footnote definition ("[^1]: ..."): always a
	// reference entry, never a claim.
	definitionBlock
)

// block is one paragraph, list item, table row, heading or definition.
type block struct {
	kind  blockKind
	level int // heading level, 1-6
	text  string
	lines []lineMark
	marks []mark
	// listNum is an ordered list item's number (written, or its position
	// in an HTML <ol>), 0 otherwise.
	listNum int
	// label is a definition's reference key: "2", "^1", "smith2020".
	label string
	// anchors are the HTML ids of the elements that open in the block.
	anchors []string
}

// lineMark says that the block's text from byte off on came from line.
type lineMark struct{ off, line int }

type markKind uint8

const (
	// linkMark is an inline link or bare URL: the URL is known.
	linkMark markKind = iota
	// refMark is a marker to look up among the reference entries by
	// label: "[2]", "[^1]", "[text][label]".
	refMark
	// anchorMark is a link to "#id" inside the document.
	anchorMark
	// softRefMark is a marker that may be something else: "(2)" and
	// superscript numbers ("²", "<sup>2</sup>") also enumerate, count or
	// raise to a power. It cites only when the reference list has an
	// entry with its label.
	softRefMark
	// noURLMark is a work named without a link (HTML "<cite>Title</cite>").
	noURLMark
)

// mark is a citation marker taken out of a block's text.
type mark struct {
	kind markKind
	off  int
	// afterStop is set when the marker follows a sentence's final
	// punctuation ("gains. [2]"): it belongs to the sentence before.
	afterStop bool
	// id is the citation as the report names it: "[2]", "[^1]",
	// "[link text]" or the bare URL.
	id    string
	label string // reference key for refMark and anchorMark
	url   string // for linkMark
	// textLen is the length of the link's text, which ends at off; 0 for
	// markers and bare URLs.
	textLen int
}

// builder accumulates one block's text with collapsed whitespace.
type builder struct {
	b     strings.Builder
	lines []lineMark
	marks []mark
}

func (b *builder) empty() bool { return strings.TrimSpace(b.b.String()) == "" && len(b.marks) == 0 }

// text appends s, read from line, collapsing whitespace to single spaces.
func (b *builder) text(s string, line int) {
	if s == "" {
		return
	}
	first, _ := utf8.DecodeRuneInString(s)
	last, _ := utf8.DecodeLastRuneInString(s)
	body := strings.Join(strings.Fields(s), " ")
	if unicode.IsSpace(first) {
		b.space()
	}
	if body != "" {
		cur := b.b.String()
		if strings.HasPrefix(body, ")") && len(b.marks) > 0 && b.marks[len(b.marks)-1].off == len(cur) {
			// "gains (doi:10.1/x)." reads "gains." once the marker is
			// out: drop the parentheses left empty.
			if open := strings.TrimRight(cur, " "); strings.HasSuffix(open, "(") {
				b.truncate(len(strings.TrimRight(open[:len(open)-1], " ")))
				body = body[1:]
				cur = b.b.String()
				if body == "" {
					return
				}
			}
		}
		if r, _ := utf8.DecodeRuneInString(body); strings.ContainsRune(".,;:!?)", r) && strings.HasSuffix(cur, " ") {
			// "gains [2]." reads "gains." once the marker is out.
			b.truncate(len(cur) - 1)
		}
		b.lines = append(b.lines, lineMark{off: b.b.Len(), line: line})
		b.b.WriteString(body)
		if unicode.IsSpace(last) {
			b.space()
		}
	}
}

// space appends one space unless the text is empty or already ends in one.
func (b *builder) space() {
	if cur := b.b.String(); cur != "" && !strings.HasSuffix(cur, " ") {
		b.b.WriteByte(' ')
	}
}

// truncate cuts the text to n bytes, pulling marks and line marks that lay
// beyond back to n.
func (b *builder) truncate(n int) {
	cur := b.b.String()[:n]
	b.b.Reset()
	b.b.WriteString(cur)
	for i := range b.marks {
		b.marks[i].off = min(b.marks[i].off, n)
	}
	for i := range b.lines {
		b.lines[i].off = min(b.lines[i].off, n)
	}
}

// closesQuote reports a closing quote or bracket, which may stand after a
// sentence's final punctuation.
func closesQuote(r rune) bool { return strings.ContainsRune("\"')]}\u201d\u2019\u00bb", r) }

// mark records m at the current end of the text.
func (b *builder) mark(m mark) {
	cur := strings.TrimRight(b.b.String(), " ")
	m.off = b.b.Len()
	m.textLen = min(m.textLen, m.off)
	trimmed := strings.TrimRightFunc(cur, closesQuote)
	m.afterStop = strings.HasSuffix(trimmed, ".") || strings.HasSuffix(trimmed, "!") || strings.HasSuffix(trimmed, "?")
	b.marks = append(b.marks, m)
}

// finish returns the block built so far and resets the builder.
func (b *builder) finish(kind blockKind) block {
	text := strings.TrimRight(b.b.String(), " ")
	bl := block{kind: kind, text: text, lines: b.lines, marks: b.marks}
	for i := range bl.marks {
		bl.marks[i].off = min(bl.marks[i].off, len(text))
	}
	*b = builder{}
	return bl
}

// lineAt returns the source line of the text at byte off.
func (bl block) lineAt(off int) int {
	i := sort.Search(len(bl.lines), func(i int) bool { return bl.lines[i].off > off })
	if i == 0 {
		if len(bl.lines) > 0 {
			return bl.lines[0].line
		}
		return 0
	}
	return bl.lines[i-1].line
}
