package text

import (
	"strings"
	"unicode"
)

// PhraseWords returns the lower-case word tokens of text: runs of letters
// and digits, keeping inner apostrophes, hyphens and decimal points and
// thousands commas ("don't", "covid-19", "3.5", "1,000"). The built-in
// agent roles (agents/internal/lexicon) match their phrase lists against
// them.
func PhraseWords(text string) []string {
	var out []string
	rs := []rune(text)
	for i := 0; i < len(rs); {
		if !isPhraseRune(rs[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(rs) {
			if isPhraseRune(rs[j]) {
				j++
				continue
			}
			if j+1 < len(rs) && phraseJoins(rs[j-1], rs[j], rs[j+1]) {
				j += 2
				continue
			}
			break
		}
		out = append(out, strings.ToLower(string(rs[i:j])))
		i = j
	}
	return out
}

func isPhraseRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// phraseJoins reports whether mid, between the word runes before and after,
// keeps one word: an apostrophe or hyphen between word runes, a decimal
// point or thousands comma between digits.
func phraseJoins(before, mid, after rune) bool {
	if !isPhraseRune(after) {
		return false
	}
	switch mid {
	case '\'', '\u2019', '-':
		return true
	case '.', ',':
		return unicode.IsDigit(before) && unicode.IsDigit(after)
	}
	return false
}
