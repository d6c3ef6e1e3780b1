package ingest

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/verity-fc/verity/sentences"
)

// Defaults of [ChunkConfig].
const (
	DefaultMinWords         = 60
	DefaultMaxWords         = 120
	DefaultMaxChunkChars    = 1200
	DefaultOverlapSentences = 1
)

// NoOverlap, as ChunkConfig.OverlapSentences, turns overlap off.
const NoOverlap = -1

// ChunkConfig shapes passages. The zero value gives passages of about
// 60-120 words that overlap by one sentence.
type ChunkConfig struct {
	// MinWords is the size from which a passage is closed at a paragraph
	// break rather than run on into the next paragraph. Default 60.
	MinWords int
	// MaxWords bounds a passage; a sentence longer than this is cut at
	// word boundaries. Default 120.
	MaxWords int
	// MaxChars bounds a passage in bytes, for text with very long words
	// (URLs, formulas, base64). It should stay under the retriever's
	// max_chars (2,000 by default). Default 1,200.
	MaxChars int
	// OverlapSentences is how many sentences of a passage's end open the
	// next passage of the same source, so a sentence that leans on the one
	// before keeps its context. Default 1; [NoOverlap] for none.
	OverlapSentences int
}

func (c ChunkConfig) withDefaults() ChunkConfig {
	if c.MaxWords <= 0 {
		c.MaxWords = DefaultMaxWords
	}
	if c.MinWords <= 0 {
		c.MinWords = DefaultMinWords
	}
	c.MinWords = min(c.MinWords, c.MaxWords)
	if c.MaxChars <= 0 {
		c.MaxChars = DefaultMaxChunkChars
	}
	switch {
	case c.OverlapSentences == 0:
		c.OverlapSentences = DefaultOverlapSentences
	case c.OverlapSentences < 0:
		c.OverlapSentences = 0
	}
	return c
}

// unit is a sentence, or a piece of an over-long one.
type unit struct {
	text      string
	words     int
	paraStart bool
}

// Chunk splits text into passages of whole sentences. Paragraphs are
// separated by blank lines. A passage grows sentence by sentence up to
// MaxWords and MaxChars; it closes early at a paragraph break once it
// holds MinWords. Each passage after the first opens with the last
// OverlapSentences sentences of the one before, as long as they fit, and
// always holds at least one sentence the previous passage did not.
// Chunk never returns an empty passage; it returns nil for text with no
// words.
func Chunk(text string, cfg ChunkConfig) []string {
	cfg = cfg.withDefaults()
	var units []unit
	for _, para := range splitParagraphs(strings.ReplaceAll(text, "\r\n", "\n")) {
		para = joinFields(para)
		first := true
		for _, s := range sentences.Texts(para) {
			for _, piece := range splitLong(s, cfg.MaxWords, cfg.MaxChars) {
				units = append(units, unit{text: piece, words: countFields(piece), paraStart: first})
				first = false
			}
		}
	}

	var chunks []string
	var cur []unit
	words, chars, fresh := 0, 0, 0
	for _, u := range units {
		full := words+u.words > cfg.MaxWords || chars+len(u.text) > cfg.MaxChars
		if fresh > 0 && (full || (u.paraStart && words >= cfg.MinWords)) {
			chunks = append(chunks, joinUnits(cur))
			keep := min(cfg.OverlapSentences, len(cur))
			for keep > 0 {
				w, c := sumUnits(cur[len(cur)-keep:])
				if w+u.words <= cfg.MaxWords && c+len(u.text) <= cfg.MaxChars {
					break
				}
				keep--
			}
			cur = append(cur[:0:0], cur[len(cur)-keep:]...)
			words, chars = sumUnits(cur)
			fresh = 0
		}
		cur = append(cur, u)
		words += u.words
		chars += len(u.text) + 1
		fresh++
	}
	if fresh > 0 {
		chunks = append(chunks, joinUnits(cur))
	}
	return chunks
}

func joinUnits(us []unit) string {
	parts := make([]string, len(us))
	for i, u := range us {
		parts[i] = u.text
	}
	return strings.Join(parts, " ")
}

// sumUnits returns the words of us and their joined length plus one: the
// length of the passage once one more unit is appended, less that unit.
func sumUnits(us []unit) (words, chars int) {
	for _, u := range us {
		words += u.words
		chars += len(u.text) + 1
	}
	return words, chars
}

// splitLong cuts a sentence over maxWords words or maxChars bytes into
// pieces within both, at word boundaries; a single word over maxChars is
// cut at rune boundaries.
func splitLong(s string, maxWords, maxChars int) []string {
	if len(s) <= maxChars && countFields(s) <= maxWords {
		return []string{s}
	}
	fields := strings.Fields(s)
	var pieces []string
	var b strings.Builder
	n := 0
	emit := func() {
		if b.Len() > 0 {
			pieces = append(pieces, b.String())
			b.Reset()
			n = 0
		}
	}
	for _, f := range fields {
		for len(f) > maxChars {
			emit()
			cut := maxChars
			for cut > 0 && !utf8.RuneStart(f[cut]) {
				cut--
			}
			if cut == 0 {
				// maxChars is smaller than one rune; take the rune.
				_, cut = utf8.DecodeRuneInString(f)
			}
			pieces = append(pieces, f[:cut])
			f = f[cut:]
		}
		if f == "" {
			continue
		}
		if n+1 > maxWords || b.Len()+1+len(f) > maxChars {
			emit()
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f)
		n++
	}
	emit()
	return pieces
}

// joinFields is strings.Join(strings.Fields(s), " "): the words of s with
// one space between them. Text that is already so (ASCII without a tab, a
// line break, a leading, trailing or double space) comes back as it is,
// without allocating.
func joinFields(s string) string {
	prev := byte(' ')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || (c == ' ' && prev == ' ') || (c != ' ' && c <= '\r' && c >= '\t') {
			return strings.Join(strings.Fields(s), " ")
		}
		prev = c
	}
	if prev == ' ' {
		return strings.Join(strings.Fields(s), " ")
	}
	return s
}

// countFields is len(strings.Fields(s)), without allocating.
func countFields(s string) int {
	n := 0
	inField := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			inField = false
		} else if !inField {
			inField = true
			n++
		}
	}
	return n
}
