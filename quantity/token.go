package quantity

import txt "github.com/verity-fc/verity/text"

// A token is one span of the text (text.Spans): a word, a number or a
// symbol with its offsets.
type token = txt.Span

type tokKind = txt.SpanKind

const (
	tWord = txt.SpanWord   // a run of letters
	tNum  = txt.SpanNumber // ASCII digits with inner ',' or '.' between digits
	tSym  = txt.SpanSymbol // any other single rune
)

// tokenize appends the spans of text to toks (text.Spans).
func tokenize(text string, toks []token) []token { return txt.Spans(text, toks) }
