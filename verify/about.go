package verify

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/verity-fc/verity/sentences"
	"github.com/verity-fc/verity/text"
)

// Aboutness: how far a passage speaks of the claim's subject and event.
//
// A claim's terms are its content words (stop words, numbers and number
// words left out: a changed figure or date is what a contradiction is
// about, so it must not make the passage look unrelated), stemmed. A term
// written with a capital inside the sentence names something (a person, a
// place, a bridge) and weighs 2; any other term weighs 1. A passage's
// aboutness is the weighted share of the claim's terms found in its best
// window of one or two consecutive sentences, in [0,1]. "The bridge opened
// in 1937." covers half of "The Brooklyn Bridge opened in 1883." (bridge,
// opened: 2 of 4) and all of "The Golden Gate Bridge opened in 1950.".

// About returns the one or two consecutive sentences of text that speak
// most of claim, and their aboutness in [0,1]: the quote to show for a
// passage.
func About(claim, text string) (string, float64) {
	w := bestWindow(claimTerms(claim), text)
	return w.text, w.about
}

// term is one content word of a claim.
type term struct {
	stem   string
	weight float64
	// acronym: the claim writes the word in capitals ("ISS"); the
	// initials of a passage's name ("International Space Station") match
	// it.
	acronym bool
	// alias is the stem of the initials of the claim's name the term is
	// part of ("iss" for "Space" in "International Space Station"), which
	// a passage may write instead; "" outside a name of two words or more.
	alias string
}

// claimTerms returns the distinct content terms of a claim.
func claimTerms(claim string) []term {
	var out []term
	seen := map[string]int{}
	ws := tokens(claim)
	alias := make([]string, len(ws))
	for _, a := range acronyms(ws) {
		for k := a.start; k < a.end; k++ {
			alias[k] = a.stem
		}
	}
	for k, w := range ws {
		if w.skip {
			continue
		}
		wt := 1.0
		if w.name {
			wt = 2
		}
		if i, ok := seen[w.stem]; ok {
			out[i].weight = max(out[i].weight, wt)
			continue
		}
		seen[w.stem] = len(out)
		out = append(out, term{stem: w.stem, weight: wt, acronym: allCaps(w.surface), alias: alias[k]})
	}
	return out
}

// acronym is the initials of a name of two words or more ("International
// Space Station"), stemmed as a word is, and the name's words, [start,
// end).
type acronym struct {
	stem       string
	start, end int
}

// acronyms returns the initials of the runs of two or more capitalised
// content words of ws.
func acronyms(ws []word) []acronym {
	var out []acronym
	flush := func(start, end int) {
		if end-start < 2 {
			return
		}
		var b strings.Builder
		for _, w := range ws[start:end] {
			r, _ := utf8.DecodeRuneInString(w.surface)
			b.WriteRune(unicode.ToLower(r))
		}
		out = append(out, acronym{stem: text.Stem(b.String()), start: start, end: end})
	}
	start := -1
	for i, w := range ws {
		if w.upper && !w.skip && !allCaps(w.surface) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			flush(start, i)
			start = -1
		}
	}
	if start >= 0 {
		flush(start, len(ws))
	}
	return out
}

// allCaps reports whether w is written in capitals, two letters or more:
// "ISS", "NASA".
func allCaps(w string) bool {
	n := 0
	for _, r := range w {
		if !unicode.IsUpper(r) {
			return false
		}
		n++
	}
	return n >= 2
}

// window is a span of one or two consecutive sentences of a passage and the
// share of the claim's terms it covers.
type window struct {
	text  string
	about float64
}

// bestWindow returns the window of text that covers most of terms. With no
// terms (a claim of numbers only) every passage is about the claim.
func bestWindow(terms []term, passage string) window {
	sents := sentences.Texts(passage)
	if len(sents) == 0 {
		return window{text: passage}
	}
	if len(terms) == 0 {
		return window{text: passage, about: 1}
	}
	var total float64
	for _, t := range terms {
		total += t.weight
	}
	cover := func(w string) float64 {
		stems := map[string]bool{}    // every word's stem
		caps := map[string]bool{}     // the stems of words in capitals
		initials := map[string]bool{} // the stems of names' initials
		ws := tokens(w)
		for _, tok := range ws {
			stems[tok.stem] = true
			if allCaps(tok.surface) {
				caps[tok.stem] = true
			}
		}
		for _, a := range acronyms(ws) {
			initials[a.stem] = true
		}
		var got float64
		for _, t := range terms {
			if stems[t.stem] || t.acronym && initials[t.stem] || t.alias != "" && caps[t.alias] {
				got += t.weight
			}
		}
		return got / total
	}
	// A pair wins only when its second sentence adds a term: the shorter
	// window is the sharper evidence.
	start, n := text.BestWindow(sents, 1, 2, cover)
	w := strings.Join(sents[start:start+n], " ")
	return window{text: w, about: cover(w)}
}

// word is one token of a text.
type word struct {
	stem string
	// name: written with a capital not at the start of the sentence.
	name bool
	// skip: a stop word, a number or a number word; not a content term.
	skip bool
	// upper: written with a capital, wherever it stands.
	upper bool
	// surface is the word as written.
	surface string
	// part: one part of a hyphenated word ("switching" in
	// "packet-switching").
	part bool
}

// tokens splits text into words: runs of letters, digits, hyphens and
// apostrophes inside a word. Stems and stop words are package text's; the
// splitting is its own because the conflict rules need what
// text.Tokenize drops: a capital at the start of a sentence ("Vint Cerf
// proposed"), the word as written and the parts of a hyphenated word.
func tokens(in string) []word {
	var out []word
	start := true // at the start of a sentence
	for _, f := range strings.FieldsFunc(in, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '\'' && r != '’' && r != '.' && r != ','
	}) {
		endsSentence := strings.HasSuffix(f, ".")
		f = strings.Trim(f, "-'’.,")
		if f == "" {
			start = start || endsSentence
			continue
		}
		parts := strings.Split(f, "-")
		for _, part := range parts {
			if part == "" {
				continue
			}
			r, _ := utf8.DecodeRuneInString(part)
			lower := strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(part, "'s"), "’s"))
			w := word{stem: text.Stem(lower), name: unicode.IsUpper(r) && !start, upper: unicode.IsUpper(r), surface: part, part: len(parts) > 1}
			w.skip = text.AboutStop.Has(lower) || numberWord(lower) || utf8.RuneCountInString(lower) < 2
			out = append(out, w)
		}
		start = endsSentence
	}
	return out
}

// numberWord reports whether w is a figure or a word for one: "1937",
// "9,000", "twelve", "million", "percent", a month name, or the dimension
// a measure gives ("long" in "1,280 metres long"), which belongs to the
// figure: "Its main span of 1,280 metres" states the length without it.
func numberWord(w string) bool {
	if w == "" {
		return false
	}
	digits := 0
	for _, r := range w {
		switch {
		case unicode.IsDigit(r):
			digits++
		case r == ',' || r == '.':
		default:
			return figureWords[w]
		}
	}
	return digits > 0
}

var figureWords = set(`zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
	sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million
	billion trillion dozen dozens half quarter third percent per cent first second third
	january february march april may june july august september october november december
	about around roughly nearly almost approximately over under more less than fewer least most some
	long tall wide deep thick`)

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// statement returns the window of one or two consecutive sentences of
// sents that states the claim's figures as the claim does and, among
// those, covers most of the claim's terms (at least minAbout), and whether
// there is one. Stating is agreeing (num) and writing every numeral the
// claim writes: "more than 9,000 spacecraft" agrees with "more than 5,000
// satellites" but does not state it. Of "On 1 January 1983 the ARPANET
// switched to TCP/IP. ... The ARPANET was formally shut down in 1990."
// the statement of "The ARPANET was decommissioned in 1990." is the last
// sentence, though the first covers the claim's words as well; of a
// passage whose sentence about Starlink's 5,000 operated satellites covers
// more of "More than 9,000 active spacecraft were operating in Earth
// orbit" than the one that gives the total of 9,400, the latter.
func statement(claim string, terms []term, sents []string, num NumChecker, minAbout float64) (string, bool) {
	figures := numeralRe.FindAllString(claim, -1)
	best, found := "", minAbout-1e-9
	for n := 1; n <= 2; n++ {
		for i := 0; i+n <= len(sents); i++ {
			w := strings.Join(sents[i:i+n], " ")
			a := bestWindow(terms, w).about
			if a <= found || !containsAll(numeralRe.FindAllString(w, -1), figures) {
				continue
			}
			if nc := num(claim, w); nc.Applicable && nc.OK {
				best, found = w, a
			}
		}
	}
	return best, best != ""
}

// numeralRe finds the numerals a text writes: "1990", "9,000", "5.5".
var numeralRe = regexp.MustCompile(`\d+(?:[.,]\d+)*`)

// containsAll reports whether have holds every string of want.
func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}
