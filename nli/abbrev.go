package nli

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Abbreviations: a claim and its evidence often name one thing in two
// ways, one of them its initials ("Induced hepatic stem cells possess the
// potential to differentiate into hepatocytic cells." against "iHepSCs
// ... possess the potential of bidirectional differentiation into both
// hepatocytic and cholangiocytic lineages", a tie between entailment and
// contradiction), and the word vectors know neither the abbreviation nor
// that it stands for the words. The judge reads the passage with the
// abbreviation written out as the claim writes it (or the words the claim
// abbreviates written as the claim's abbreviation), and an abbreviation a
// passage defines ("pyridostatin (PDS) ... PDS reduces proliferation")
// written out where it is used again. Abbreviation detection in the
// manner of Schwartz and Hearst (2003), by hand: the libraries that do it
// are Python or Java, and the matching is a few lines.
//
// The networks were trained on passages as written; only the judge reads
// them so (like the readings set in Aligner.init).

// shortFormRe finds the tokens that may be abbreviations: a letter, then
// letters and digits, and an optional hyphenated number ("PAI-1").
var shortFormRe = regexp.MustCompile(`[\p{L}][\p{L}\p{N}]*(?:-\p{N}+)?`)

// longWordRe finds the words an abbreviation may stand for; a hyphenated
// word is two words ("double-strand breaks", DSB).
var longWordRe = regexp.MustCompile(`[\p{L}\p{N}]+`)

// inLongForm are the function words a long form may hold without a
// letter of its abbreviation ("Department of Energy", DOE; "Centers for
// Disease Control and Prevention", CDC).
var inLongForm = set("of", "and", "the", "for", "in", "on", "to", "with")

// notShortForms are written like abbreviations but read otherwise: eras
// and times of day ("Augustus died in AD 14." is no abbreviation of
// "Augustus died"). A function word in capitals ("THE", "IT") is none
// either (readShortForm).
var notShortForms = set("AD", "BC", "BCE", "CE", "AM", "PM")

// maxShortForm bounds an abbreviation's length in bytes.
const maxShortForm = 12

// shortForm is an abbreviation read into the runs of letters that each
// begin a word of its long form: "iHepSCs" is i, Hep, S, C and a plural;
// "PAI-1" is P, A, I, 1.
type shortForm struct {
	parts  []string // lower case
	plural bool
}

// readShortForm reads s as an abbreviation: at least two capitals, no run
// of more than two small letters (so "SmackDown" and "SuperLiga" are
// names, not abbreviations), each letter run beginning with a capital
// except the first, which may be small ("iHepSCs", "mRNA").
func readShortForm(s string) (shortForm, bool) {
	var sf shortForm
	if len(s) > maxShortForm || notShortForms[s] || stopwords[strings.ToLower(s)] {
		return sf, false
	}
	caps, small := 0, 0
	for _, r := range s {
		switch {
		case unicode.IsUpper(r):
			caps++
			small = 0
		case unicode.IsLower(r):
			if small++; small > 2 {
				return sf, false
			}
		default:
			small = 0
		}
	}
	if caps < 2 {
		return sf, false
	}
	body := s
	if last, _ := utf8.DecodeLastRuneInString(s); last == 's' && len(s) > 2 {
		if prev, _ := utf8.DecodeLastRuneInString(s[:len(s)-1]); unicode.IsUpper(prev) {
			body, sf.plural = s[:len(s)-1], true
		}
	}
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			sf.parts = append(sf.parts, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prevDigit := false
	for _, r := range body {
		switch {
		case r == '-':
			flush()
			prevDigit = false
			continue
		case unicode.IsDigit(r):
			if !prevDigit {
				flush()
			}
			prevDigit = true
		case unicode.IsUpper(r):
			flush()
			prevDigit = false
		default:
			if prevDigit {
				flush()
			}
			prevDigit = false
		}
		cur = append(cur, r)
	}
	flush()
	return sf, len(sf.parts) >= 2
}

// span is a word of a text and where it is.
type span struct {
	word       string
	start, end int
}

func wordSpans(s string) []span {
	idx := longWordRe.FindAllStringIndex(s, -1)
	out := make([]span, len(idx))
	for i, ix := range idx {
		out[i] = span{s[ix[0]:ix[1]], ix[0], ix[1]}
	}
	return out
}

// longFormIn returns the run of words of src (ws, its words) that sf
// abbreviates: each part of sf begins a word of the run, in order, with
// only inLongForm words between; the run is at least two words of at
// least two letters, opens and closes on a word a part begins, ends in
// "s" when sf is plural, and is written as oneCase says. When at is not
// negative, the run must end at word at (a definition "long form (SF)").
func longFormIn(sf shortForm, ws []span, src string, at int) (string, bool) {
	for i := range ws {
		if at >= 0 && i > at {
			break
		}
		j, ok := matchParts(sf, ws, i)
		if !ok || (at >= 0 && j != at) {
			continue
		}
		if sf.plural && !strings.HasSuffix(ws[j].word, "s") {
			continue
		}
		if !oneCase(ws[i:j+1], i == 0, len(sf.parts)) {
			continue
		}
		return src[ws[i].start:ws[j].end], true
	}
	return "", false
}

// matchParts matches the parts of sf to the words of ws from i on and
// returns the index of the last word matched.
func matchParts(sf shortForm, ws []span, i int) (int, bool) {
	j := i
	for k, part := range sf.parts {
		for k > 0 && j < len(ws) && inLongForm[strings.ToLower(ws[j].word)] && !strings.HasPrefix(strings.ToLower(ws[j].word), part) {
			j++
		}
		if j >= len(ws) {
			return 0, false
		}
		w := strings.ToLower(ws[j].word)
		inner := k > 0 && k < len(sf.parts)-1 && inLongForm[w] // the O of DOE
		if !strings.HasPrefix(w, part) || (stopwords[w] && !inner) || (utf8.RuneCountInString(w) < 2 && !unicode.IsDigit(rune(w[0]))) {
			return 0, false
		}
		j++
	}
	return j - 1, j-1 > i
}

// oneCase reports whether the words of a long form are written in one
// case (by their first letters), the first aside when it opens its text;
// or, for an abbreviation of three letters or more, capitals and then
// small letters ("Middle East respiratory syndrome", MERS). Two words
// that begin with two given letters are easily found by chance, so a
// long form of two is held to one case ("Sarah died" is no long form of
// "SD").
func oneCase(ws []span, opens bool, parts int) bool {
	caps, small, capAfterSmall := 0, 0, false
	for k, w := range ws {
		r, _ := utf8.DecodeRuneInString(w.word)
		if (k == 0 && opens) || inLongForm[strings.ToLower(w.word)] || unicode.IsDigit(r) {
			continue
		}
		if unicode.IsUpper(r) {
			caps++
			capAfterSmall = capAfterSmall || small > 0
		} else {
			small++
		}
	}
	if parts >= 3 {
		return !capAfterSmall
	}
	return caps == 0 || small == 0
}

// replaceWord replaces the whole-word occurrences of old in s with new.
func replaceWord(s, old, new string) string {
	var b strings.Builder
	last := 0
	for i := 0; ; {
		k := strings.Index(s[i:], old)
		if k < 0 {
			break
		}
		k += i
		end := k + len(old)
		if wordEdge(s, k, true) && wordEdge(s, end, false) {
			b.WriteString(s[last:k])
			b.WriteString(new)
			last = end
		}
		i = end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// wordEdge reports whether position i of s is a word's edge: no letter or
// digit before it (before) or at it (after).
func wordEdge(s string, i int, before bool) bool {
	var r rune
	if before {
		if i == 0 {
			return true
		}
		r, _ = utf8.DecodeLastRuneInString(s[:i])
	} else {
		if i >= len(s) {
			return true
		}
		r, _ = utf8.DecodeRuneInString(s[i:])
	}
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// hasShortForm is a quick test that s may hold an abbreviation: two
// capitals in a row, or a capital after a small letter within a word.
func hasShortForm(s string) bool {
	var prev rune
	for _, r := range s {
		if unicode.IsUpper(r) && (unicode.IsUpper(prev) || unicode.IsLower(prev)) {
			return true
		}
		prev = r
	}
	return false
}

// inCompound reports whether s[i:j] is hyphenated to a word. An
// abbreviation of two letters there is none of the claim's words: "RT" in
// "RT-PCR" names a method, not "reportedly tested" (the chance that two
// words begin with two given letters is high); "MERS" in "MERS-CoV" still
// abbreviates "Middle East respiratory syndrome".
func inCompound(s string, i, j int) bool {
	if j+1 < len(s) && s[j] == '-' {
		if r, _ := utf8.DecodeRuneInString(s[j+1:]); unicode.IsLetter(r) {
			return true
		}
	}
	if i >= 2 && s[i-1] == '-' {
		if r, _ := utf8.DecodeLastRuneInString(s[:i-1]); unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// expandAbbreviations returns passage as the judge reads it against
// claim: an abbreviation of the passage that abbreviates words of the
// claim written as those words, words of the passage that an abbreviation
// of the claim abbreviates written as that abbreviation, and an
// abbreviation the passage defines ("pyridostatin (PDS)") written out
// where it is used again.
func expandAbbreviations(claim, passage string) string {
	inPassage, inClaim := hasShortForm(passage), hasShortForm(claim)
	if !inPassage && !inClaim {
		return passage
	}
	claimTokens := map[string]bool{}
	for _, t := range shortFormRe.FindAllString(claim, -1) {
		claimTokens[t] = true
	}
	if inPassage {
		claimWords := wordSpans(claim)
		passage = passageDefinitions(passage, claimTokens)
		seen := map[string]bool{}
		for _, ix := range shortFormRe.FindAllStringIndex(passage, -1) {
			t := passage[ix[0]:ix[1]]
			if seen[t] || claimTokens[t] {
				continue
			}
			seen[t] = true
			sf, ok := readShortForm(t)
			if !ok || (len(sf.parts) < 3 && inCompound(passage, ix[0], ix[1])) {
				continue
			}
			if lf, ok := longFormIn(sf, claimWords, claim, -1); ok {
				passage = replaceWord(passage, t, lf)
			}
		}
	}
	if inClaim {
		passageWords := wordSpans(passage)
		// In order, so that the reading does not depend on the map's.
		for _, t := range slices.Sorted(maps.Keys(claimTokens)) {
			sf, ok := readShortForm(t)
			if !ok || strings.Contains(passage, t) {
				continue
			}
			// A claim that writes the long form too ("Times Higher
			// Education (THE)") keeps the passage's.
			if lf, ok := longFormIn(sf, passageWords, passage, -1); ok && !strings.Contains(strings.ToLower(claim), strings.ToLower(lf)) {
				passage = replaceWord(passage, lf, t)
				passageWords = wordSpans(passage)
			}
		}
	}
	return passage
}

// definitionRe finds an abbreviation defined in brackets after its long
// form: "pyridostatin (PDS)".
var definitionRe = regexp.MustCompile(`\(\s*([\p{L}][\p{L}\p{N}]*(?:-\p{N}+)?)\s*\)`)

// passageDefinitions writes out, after its definition, each abbreviation
// the passage defines in brackets and the claim does not use: the words
// before the brackets are its long form when its parts begin them
// (longFormIn), or, for one word, when its letters are that word's in
// order and its first letter opens it ("pyridostatin (PDS)").
func passageDefinitions(passage string, claimTokens map[string]bool) string {
	// Each pass writes out one abbreviation and starts again, since the
	// offsets move; maxDefinitions bounds the passes.
	for range maxDefinitions {
		changed := false
		for _, m := range definitionRe.FindAllStringSubmatchIndex(passage, -1) {
			t := passage[m[2]:m[3]]
			sf, ok := readShortForm(t)
			if !ok || claimTokens[t] {
				continue
			}
			before := wordSpans(passage[:m[0]])
			if len(before) == 0 {
				continue
			}
			lf, ok := longFormIn(sf, before, passage, len(before)-1)
			if last := before[len(before)-1].word; !ok && oneWordLongForm(sf, last) {
				lf, ok = last, true
			}
			if !ok || replaceWord(lf, t, "") != lf {
				continue
			}
			rest := passage[m[1]:]
			if r := replaceWord(rest, t, lf); r != rest {
				passage, changed = passage[:m[1]]+r, true
				break
			}
		}
		if !changed {
			break
		}
	}
	return passage
}

// maxDefinitions bounds the abbreviations a passage has written out.
const maxDefinitions = 8

// oneWordLongForm reports whether the letters of sf are, in order, letters
// of word, its first letter opening it: "PDS" in "pyridostatin".
func oneWordLongForm(sf shortForm, word string) bool {
	w := strings.ToLower(word)
	letters := strings.Join(sf.parts, "") // lower case already
	if len(w) <= len(letters) || stopwords[w] || !strings.HasPrefix(w, letters[:1]) {
		return false
	}
	i := 0
	for _, r := range letters {
		k := strings.IndexRune(w[i:], r)
		if k < 0 {
			return false
		}
		i += k + utf8.RuneLen(r)
	}
	return true
}
