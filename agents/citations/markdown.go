package citations

import (
	"regexp"
	"strconv"
	"strings"
)

// The Markdown reader is line-based and written here rather than built on
// goldmark (which ingest uses for pages): goldmark resolves "[2]" against a
// "[2]: url" definition into a plain link and drops the marker as written,
// leaves a numbered reference list as ordinary paragraphs, and gives no
// line for inline text; the checker needs all three. Plain text is read by
// the same reader: the Markdown it knows (headings, lists, links) is what
// plain-text analyses write too.

var (
	atxHeadingRe  = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$`)
	setextRe      = regexp.MustCompile(`^ {0,3}(=+|-+)[ \t]*$`)
	thematicRe    = regexp.MustCompile(`^ {0,3}([-*_])(?:[ \t]*[-*_]){2,}[ \t]*$`)
	footnoteDefRe = regexp.MustCompile(`^ {0,3}\[\^([^\]\s]{1,64})\]:[ \t]?(.*)$`)
	linkDefRe     = regexp.MustCompile(`^ {0,3}\[([^\]^][^\]]{0,200})\]:[ \t]*<?([^\s>]+)>?(?:[ \t]+["'(](.*)["')])?[ \t]*$`)
	listItemRe    = regexp.MustCompile(`^[ \t]*(?:[-*+•]|(\d{1,9})[.)])[ \t]+(.*)$`)
	// bracketItemRe is a reference list line "[2] Author, Title, URL".
	bracketItemRe = regexp.MustCompile(`^[ \t]*(?:[-*+•][ \t]+)?(?:\[\d{1,4}\]|\(\d{1,4}\))[ \t]`)
	// parenItemRe is a reference list line "(2) Author, Title, URL".
	parenItemRe = regexp.MustCompile(`^\((\d{1,4})\)`)
	// supRe is an HTML superscript marker: "<sup>2</sup>", "<sup>[2]</sup>".
	supRe          = regexp.MustCompile(`(?i)^<sup>\s*\[?(\d{1,3}(?:\s*[,\-–]\s*\d{1,3})*)\]?\s*</sup>`)
	tableSepRe     = regexp.MustCompile(`^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$`)
	quoteRe        = regexp.MustCompile(`^[ \t]{0,3}(?:>[ \t]?)+`)
	htmlLinkRe     = regexp.MustCompile(`(?is)^<a\s[^>]*?href\s*=\s*["']([^"']*)["'][^>]*>(.*?)</a\s*>`)
	htmlTagRe      = regexp.MustCompile(`^</?[a-zA-Z][a-zA-Z0-9-]*(?:\s[^<>]*)?/?>`)
	anyTagRe       = regexp.MustCompile(`<[^<>]*>`)
	fenceRe        = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")
	frontMatterEnd = regexp.MustCompile(`^(?:---|\.\.\.)[ \t]*$`)
)

// mdReader holds the state of readMarkdown.
type mdReader struct {
	// defs holds the labels of the document's link reference
	// definitions: "[label]" alone is a citation only for those.
	defs   map[string]bool
	blocks []block
	b      builder
	// cur describes the block being built.
	kind    blockKind
	listNum int
	label   string
	open    bool
}

func (r *mdReader) flush() {
	if r.open && !r.b.empty() {
		bl := r.b.finish(r.kind)
		bl.listNum, bl.label = r.listNum, r.label
		r.blocks = append(r.blocks, bl)
	}
	r.b = builder{}
	r.kind, r.listNum, r.label, r.open = proseBlock, 0, "", false
}

// flushHeading ends a heading block of the given level. An empty heading
// ("#" alone) writes no block, and then no level is set: the block before
// it is not the heading's.
func (r *mdReader) flushHeading(level int) {
	n := len(r.blocks)
	r.flush()
	if len(r.blocks) > n {
		r.blocks[len(r.blocks)-1].level = level
	}
}

func (r *mdReader) start(kind blockKind, listNum int, label string) {
	r.flush()
	r.kind, r.listNum, r.label, r.open = kind, listNum, label, true
}

// readMarkdown splits a Markdown or plain-text document into blocks.
func readMarkdown(src string) []block {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	r := &mdReader{defs: map[string]bool{}}
	for _, l := range lines {
		if m := linkDefRe.FindStringSubmatch(l); m != nil {
			r.defs[strings.ToLower(strings.TrimSpace(m[1]))] = true
		}
	}
	var fence string
	var header []string
	inComment := false
	for i := 0; i < len(lines); i++ {
		line, n := lines[i], i+1
		switch {
		case fence != "":
			if strings.HasPrefix(strings.TrimSpace(line), fence) {
				fence = ""
			}
			continue
		case inComment:
			inComment = !strings.Contains(line, "-->")
			continue
		case i == 0 && strings.TrimSpace(line) == "---":
			// Front matter is metadata, not prose.
			for i++; i < len(lines) && !frontMatterEnd.MatchString(lines[i]); i++ {
			}
			continue
		}
		trimmed := strings.TrimSpace(line)
		if m := fenceRe.FindStringSubmatch(line); m != nil {
			r.flush()
			fence = m[1][:3]
			continue
		}
		if strings.HasPrefix(trimmed, "<!--") {
			r.flush()
			inComment = !strings.Contains(trimmed, "-->")
			continue
		}
		if trimmed == "" {
			r.flush()
			continue
		}
		if m := setextRe.FindStringSubmatch(line); m != nil && r.open && r.kind == proseBlock && r.listNum == 0 && !r.b.empty() {
			r.kind = headingBlock
			level := 2
			if m[1][0] == '=' {
				level = 1
			}
			r.flushHeading(level)
			continue
		}
		if thematicRe.MatchString(line) {
			r.flush()
			continue
		}
		if m := atxHeadingRe.FindStringSubmatch(line); m != nil {
			r.start(headingBlock, 0, "")
			r.inline(&r.b, m[2], n)
			r.flushHeading(len(m[1]))
			continue
		}
		if m := footnoteDefRe.FindStringSubmatch(line); m != nil {
			r.start(definitionBlock, 0, "^"+strings.ToLower(m[1]))
			r.inline(&r.b, m[2], n)
			continue
		}
		if m := linkDefRe.FindStringSubmatch(line); m != nil {
			r.start(definitionBlock, 0, strings.ToLower(strings.TrimSpace(m[1])))
			r.b.text(m[3], n)
			dest := m[2]
			if isWebURL(dest) {
				r.b.mark(mark{kind: linkMark, id: "[" + m[1] + "]", url: absoluteURL(dest)})
			}
			r.flush()
			continue
		}
		if strings.HasPrefix(trimmed, "|") {
			r.flush()
			cells := tableCells(trimmed)
			switch {
			case tableSepRe.MatchString(line):
			case i+1 < len(lines) && tableSepRe.MatchString(lines[i+1]) && strings.Contains(lines[i+1], "-"):
				// A header row labels the cells below it.
				header = cells
			default:
				r.start(proseBlock, 0, "")
				r.tableRow(&r.b, header, cells, n)
				r.flush()
			}
			continue
		}
		header = nil
		if m := quoteRe.FindString(line); m != "" {
			line = line[len(m):]
			if strings.TrimSpace(line) == "" {
				r.flush()
				continue
			}
		}
		if bracketItemRe.MatchString(line) {
			r.start(proseBlock, 0, "")
			item := strings.TrimLeft(strings.TrimSpace(line), "-*+• \t")
			r.inline(&r.b, parenItemRe.ReplaceAllString(item, "[$1]"), n)
			continue
		}
		if m := listItemRe.FindStringSubmatch(line); m != nil {
			num, _ := strconv.Atoi(m[1])
			r.start(proseBlock, num, "")
			r.inline(&r.b, m[2], n)
			continue
		}
		if !r.open {
			r.start(proseBlock, 0, "")
		}
		r.b.space()
		r.inline(&r.b, line, n)
	}
	r.flush()
	return r.blocks
}

// tableCells splits a table row into its cells.
func tableCells(row string) []string {
	row = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(row), "|"), "|")
	var cells []string
	var cell strings.Builder
	for i := 0; i < len(row); i++ {
		switch {
		case row[i] == '\\' && i+1 < len(row) && row[i+1] == '|':
			cell.WriteByte('|')
			i++
		case row[i] == '|':
			cells = append(cells, strings.TrimSpace(cell.String()))
			cell.Reset()
		default:
			cell.WriteByte(row[i])
		}
	}
	return append(cells, strings.TrimSpace(cell.String()))
}

// tableRow appends a table row's cells, separated by "; ", each labelled
// with its column's header when the table has one ("Users: 500 million").
func (r *mdReader) tableRow(b *builder, header, cells []string, line int) {
	first := true
	for k, c := range cells {
		if c == "" {
			continue
		}
		if !first {
			b.text("; ", line)
		}
		first = false
		if k < len(header) && header[k] != "" && len(header) == len(cells) {
			r.inline(b, header[k]+": ", line)
		}
		r.inline(b, c, line)
	}
}

// inline appends one line of Markdown inline text to b: links become
// their text plus a mark, images, raw HTML tags and emphasis markers are
// dropped, code spans are kept as text without looking for markers in
// them.
func (r *mdReader) inline(b *builder, s string, line int) {
	start := 0
	plain := func(end int) {
		plainMarkers(b, s[start:end], line)
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			if i+1 < len(s) && strings.IndexByte("\\`*_{}[]()#+-.!<>|~^", s[i+1]) >= 0 {
				plain(i)
				b.text(s[i+1:i+2], line)
				i++
				start = i + 1
			}
		case '`':
			run := 1
			for i+run < len(s) && s[i+run] == '`' {
				run++
			}
			closing := strings.Index(s[i+run:], strings.Repeat("`", run))
			if closing < 0 {
				i += run - 1
				continue
			}
			plain(i)
			b.text(s[i+run:i+run+closing], line)
			i += run + closing + run - 1
			start = i + 1
		case '!':
			if i+1 < len(s) && s[i+1] == '[' {
				if _, _, end, ok := inlineLink(s, i+1); ok {
					plain(i)
					i = end - 1
					start = end
				}
			}
		case '[':
			if numberedRe.MatchString(s[i:]) || footnoteRe.MatchString(s[i:]) {
				// A marker, unless it is the text of a link ("[2](url)").
				if _, _, _, ok := inlineLink(s, i); !ok {
					continue
				}
			}
			text, dest, end, ok := inlineLink(s, i)
			if !ok {
				// "[label]" alone cites a link reference definition.
				j := strings.IndexByte(s[i:], ']')
				if j < 0 || !r.defs[strings.ToLower(strings.TrimSpace(s[i+1:i+j]))] {
					continue
				}
				text, dest, end = s[i+1:i+j], "[]", i+j+1
			}
			plain(i)
			linkMarkFor(b, text, dest, line)
			i = end - 1
			start = end
		case '<':
			if m := bareURLRe.FindString(s[i+1:]); m != "" && strings.HasPrefix(s[i+1+len(m):], ">") {
				plain(i)
				b.mark(mark{kind: linkMark, id: m, url: absoluteURL(m)})
				i += len(m) + 1
				start = i + 1
			} else if m := supRe.FindStringSubmatch(s[i:]); m != nil {
				plain(i)
				softMarks(b, m[1], false)
				i += len(m[0]) - 1
				start = i + 1
			} else if m := htmlLinkRe.FindStringSubmatch(s[i:]); m != nil {
				plain(i)
				linkMarkFor(b, anyTagRe.ReplaceAllString(m[2], ""), "("+m[1]+")", line)
				i += len(m[0]) - 1
				start = i + 1
			} else if m := htmlTagRe.FindString(s[i:]); m != "" {
				plain(i)
				i += len(m) - 1
				start = i + 1
			}
		case '*', '~':
			plain(i)
			start = i + 1
		case '_':
			if wordStart(s, i) || i+1 == len(s) || !isWordByte(s[i+1]) {
				plain(i)
				start = i + 1
			}
		}
	}
	plain(len(s))
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// inlineLink parses "[text](dest)" or "[text][label]" (or "[text][]") at
// s[i] == '['. dest is "(url)" for the first form and "[label]" for the
// second, brackets kept; end is the index after the link.
func inlineLink(s string, i int) (text, dest string, end int, ok bool) {
	depth := 0
	j := i
	for ; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
			continue
		case '[':
			depth++
		case ']':
			depth--
		}
		if depth == 0 {
			break
		}
	}
	if j >= len(s) || j+1 >= len(s) {
		return "", "", 0, false
	}
	text = s[i+1 : j]
	open, closeCh := s[j+1], byte(')')
	switch open {
	case '(':
	case '[':
		closeCh = ']'
	default:
		return "", "", 0, false
	}
	depth = 0
	k := j + 1
	for ; k < len(s); k++ {
		switch s[k] {
		case '\\':
			k++
			continue
		case open:
			depth++
		case closeCh:
			depth--
		}
		if depth == 0 {
			break
		}
	}
	if k >= len(s) {
		return "", "", 0, false
	}
	return text, s[j+1 : k+1], k + 1, true
}

// linkMarkFor appends a link's text and its mark. dest is "(url "title")"
// or "[label]".
func linkMarkFor(b *builder, text, dest string, line int) {
	display := strings.TrimSpace(anyTagRe.ReplaceAllString(text, ""))
	display = strings.NewReplacer("**", "", "__", "", "*", "", "`", "").Replace(display)
	id, isMarker := markerText(display)
	textLen := 0
	if !isMarker {
		b.text(display, line)
		textLen = len(strings.Join(strings.Fields(display), " "))
	}
	if strings.HasPrefix(dest, "[") {
		label := strings.ToLower(strings.TrimSpace(dest[1 : len(dest)-1]))
		if label == "" {
			label = strings.ToLower(display)
		}
		if !isMarker {
			id = "[" + display + "]"
		}
		b.mark(mark{kind: refMark, id: id, label: label, textLen: textLen})
		return
	}
	target := strings.TrimSpace(dest[1 : len(dest)-1])
	if f := strings.Fields(target); len(f) > 0 {
		target = strings.Trim(f[0], "<>")
	}
	switch {
	case strings.HasPrefix(target, "#") && len(target) > 1:
		if !isMarker {
			id = "[" + display + "]"
		}
		b.mark(mark{kind: anchorMark, id: id, label: target[1:], textLen: textLen})
	case isWebURL(target):
		b.mark(mark{kind: linkMark, id: linkID(display, target), url: absoluteURL(target), textLen: textLen})
	}
}
