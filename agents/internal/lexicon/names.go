package lexicon

import (
	"slices"
	"strings"
	"unicode"

	"github.com/verity-fc/verity/sentences"
	txt "github.com/verity-fc/verity/text"
)

// nameJoiners may stand inside a proper name ("Bank of England").
var nameJoiners = set("of the and for de la van von")

// months and days are capitalised but name no one.
var calendar = set(`january february march april may june july august september october november december
monday tuesday wednesday thursday friday saturday sunday`)

// ProperNames returns the capitalised spans of text that name someone or
// something ("World Health Organization", "Paris", "NASA", "COVID-19"), in
// order, without repeats. A single capitalised word that opens a sentence
// is left out unless it is an acronym: it is capitalised because it comes
// first. Months and days are left out.
func ProperNames(text string) []string {
	var out []string
	for _, s := range sentences.Split(text) {
		fields := strings.Fields(s.Text)
		for i := 0; i < len(fields); {
			w := trimPunct(fields[i])
			if !capitalised(w) || calendar[strings.ToLower(w)] {
				i++
				continue
			}
			j := i + 1
			span := []string{w}
			for j < len(fields) && !endsClause(fields[j-1]) {
				next := trimPunct(fields[j])
				if capitalised(next) && !calendar[strings.ToLower(next)] {
					span = append(span, next)
					j++
					continue
				}
				if nameJoiners[strings.ToLower(next)] && j+1 < len(fields) && capitalised(trimPunct(fields[j+1])) && !endsClause(fields[j]) {
					span = append(span, next)
					j++
					continue
				}
				break
			}
			first := i == 0
			i = j
			if first && len(span) == 1 && !acronym(w) {
				continue
			}
			if first && txt.LexiconStop.Has(strings.ToLower(span[0])) {
				span = span[1:]
			}
			name := strings.Join(span, " ")
			if name != "" && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

func trimPunct(w string) string {
	return strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func endsClause(w string) bool { return strings.ContainsAny(w[len(w)-1:], ",;:.!?)") }

func capitalised(w string) bool {
	for _, r := range w {
		return unicode.IsUpper(r)
	}
	return false
}

// acronym reports a word of two or more letters written all in capitals
// ("NASA", "COVID-19").
func acronym(w string) bool {
	letters := 0
	for _, r := range w {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return letters >= 2
}
