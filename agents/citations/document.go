package citations

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/verity-fc/verity/sentences"
)

// Reference problems found without fetching anything.
const (
	// StatusReferenceMissing: the marker ("[7]") has no entry in the
	// document's reference list.
	StatusReferenceMissing = "reference_missing"
	// StatusNoURL: the reference entry exists but gives no URL to check.
	StatusNoURL = "no_url"
)

// refHeadingRe matches the heading of a reference section.
var refHeadingRe = regexp.MustCompile(`(?i)^(?:[\dIVX]+[.)]?\s+)?(?:references?|sources?(?: cited)?|citations?|bibliography|works cited|notes|footnotes|endnotes|further reading|reading list|literature|resources|links|related links)\s*:?$`)

// sentence is a sentence of the document's prose with the citations
// attached to it.
type sentence struct {
	text  string
	line  int
	cites []cite
	// linkOnly: the whole sentence is a link's text ("- [Annual report
	// 2023](https://...)"), a listing rather than a claim.
	linkOnly bool
}

// cite is one citation of a sentence.
type cite struct {
	// id is the citation as written: "[2]", "[^1]", "[link text]" or a
	// bare URL.
	id string
	// url is the cited URL, "" when problem is set.
	url string
	// problem is StatusReferenceMissing or StatusNoURL, "" otherwise.
	problem string
}

type entry struct {
	url   string
	title string
}

// parseDocument reads a document of the given format ("markdown", "html"
// or "text") into sentences with their citations and lines. Reference
// lists, link and footnote definitions and headings yield no sentences.
func parseDocument(text, format string) []sentence {
	var blocks []block
	if format == FormatHTML {
		blocks = readHTML(text)
	} else {
		blocks = readMarkdown(text)
	}

	// Reference sections run from their heading to the next heading of the
	// same or a higher level.
	inRefs := make([]bool, len(blocks))
	refLevel := 0
	for i, bl := range blocks {
		if bl.kind == headingBlock {
			switch {
			case refHeadingRe.MatchString(strings.TrimSpace(bl.text)):
				refLevel = max(bl.level, 1)
			case refLevel > 0 && bl.level <= refLevel:
				refLevel = 0
			}
			continue
		}
		inRefs[i] = refLevel > 0
	}

	// Reference entries, by label, and HTML anchors that hold a link.
	entries := map[string]entry{}
	anchors := map[string]string{}
	isEntry := make([]bool, len(blocks))
	for i, bl := range blocks {
		link := firstLink(bl)
		for _, id := range bl.anchors {
			// An entry of a reference section without a link is known
			// too: a citation of it has no URL to check.
			if link != "" || inRefs[i] {
				if u, ok := anchors[id]; !ok || u == "" {
					anchors[id] = link
				}
			}
		}
		switch {
		case bl.kind == definitionBlock:
			addEntry(entries, bl.label, entry{url: link, title: bl.text})
			isEntry[i] = true
		case bl.kind != proseBlock:
		case len(bl.marks) > 0 && bl.marks[0].off == 0 && (bl.marks[0].kind == refMark || bl.marks[0].kind == softRefMark) && isNumber(bl.marks[0].label) && (inRefs[i] || link != ""):
			// "[2] Author, Title, https://..."
			addEntry(entries, bl.marks[0].label, entry{url: linkAfter(bl, 1), title: bl.text})
			isEntry[i] = true
		case inRefs[i] && bl.listNum > 0:
			addEntry(entries, strconv.Itoa(bl.listNum), entry{url: link, title: bl.text})
			isEntry[i] = true
		}
	}

	// Ids that in-document links point to.
	linkedIDs := map[string]bool{}
	for _, bl := range blocks {
		for _, m := range bl.marks {
			if m.kind == anchorMark {
				linkedIDs[m.label] = true
			}
		}
	}

	var out []sentence
	for i, bl := range blocks {
		if bl.kind != proseBlock || inRefs[i] || isEntry[i] || anchorTarget(bl, anchors, linkedIDs) {
			continue
		}
		spans := sentences.Split(bl.text)
		if len(spans) == 0 {
			continue
		}
		ss := make([]sentence, len(spans))
		for k, sp := range spans {
			ss[k] = sentence{text: sp.Text, line: bl.lineAt(sp.Start)}
		}
		for _, m := range bl.marks {
			k := sentenceOf(spans, m)
			if m.textLen > 0 && m.off-m.textLen <= spans[k].Start &&
				m.off >= spans[k].Start+len(strings.TrimRight(ss[k].text, " .,;:!?")) {
				ss[k].linkOnly = true
			}
			if c, ok := resolve(m, entries, anchors); ok && !hasCite(ss[k].cites, c) {
				ss[k].cites = append(ss[k].cites, c)
			}
		}
		out = append(out, ss...)
	}
	return out
}

func addEntry(entries map[string]entry, label string, e entry) {
	if _, ok := entries[label]; !ok && label != "" {
		entries[label] = e
	}
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// firstLink returns the block's first linked URL, or "".
func firstLink(bl block) string { return linkAfter(bl, 0) }

func linkAfter(bl block, from int) string {
	for _, m := range bl.marks[min(from, len(bl.marks)):] {
		if m.kind == linkMark {
			return m.url
		}
	}
	return ""
}

// anchorTarget reports whether a block is the target of an in-document
// link ("<a href="#ref2">") and holds a link itself, which makes it a
// reference entry.
func anchorTarget(bl block, anchors map[string]string, linked map[string]bool) bool {
	for _, id := range bl.anchors {
		if _, ok := anchors[id]; ok && linked[id] {
			return true
		}
	}
	return false
}

// sentenceOf returns the index of the sentence a mark belongs to: the one
// it stands in, or the one before when it follows a sentence's final
// punctuation.
func sentenceOf(spans []sentences.Span, m mark) int {
	if m.afterStop {
		for k := len(spans) - 1; k >= 0; k-- {
			if spans[k].End <= m.off {
				return k
			}
		}
	}
	for k := len(spans) - 1; k >= 0; k-- {
		if spans[k].Start <= m.off {
			return k
		}
	}
	return 0
}

// resolve turns a mark into a citation. Links to anchors that name no
// reference, and unresolved "[label]" shortcuts, are not citations.
func resolve(m mark, entries map[string]entry, anchors map[string]string) (cite, bool) {
	switch m.kind {
	case linkMark:
		return cite{id: m.id, url: m.url}, true
	case anchorMark:
		if u, ok := anchors[m.label]; ok {
			if u == "" {
				return cite{id: m.id, problem: StatusNoURL}, true
			}
			return cite{id: m.id, url: u}, true
		}
		if e, ok := entries[m.label]; ok && e.url != "" {
			return cite{id: m.id, url: e.url}, true
		}
		return cite{}, false
	case softRefMark:
		e, ok := entries[m.label]
		switch {
		case !ok:
			return cite{}, false
		case e.url == "":
			return cite{id: m.id, problem: StatusNoURL}, true
		}
		return cite{id: m.id, url: e.url}, true
	case noURLMark:
		return cite{id: m.id, problem: StatusNoURL}, true
	case refMark:
		e, ok := entries[m.label]
		switch {
		case !ok:
			return cite{id: m.id, problem: StatusReferenceMissing}, true
		case e.url == "":
			return cite{id: m.id, problem: StatusNoURL}, true
		}
		return cite{id: m.id, url: e.url}, true
	}
	return cite{}, false
}

func hasCite(cs []cite, c cite) bool {
	for _, x := range cs {
		if x.id == c.id && x.url == c.url {
			return true
		}
	}
	return false
}
