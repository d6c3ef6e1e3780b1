package lexicon

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	txt "github.com/verity-fc/verity/text"
)

// ContentWords returns the words of text that carry content: text.PhraseWords without
// function words (text.LexiconStop), in order, without repeats.
func ContentWords(text string) []string {
	var out []string
	for _, w := range txt.PhraseWords(text) {
		if !txt.LexiconStop.Has(w) && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// Overlap is the share of the Porter2 stems (text.Porter2) of a's content
// words that b's content words have too, in [0,1]; 0 when a has none:
// "reduces" meets "reduced", "studies" meets "study".
func Overlap(a, b string) float64 {
	var sa []string
	for _, w := range ContentWords(a) {
		sa = append(sa, txt.Porter2(w))
	}
	sb := map[string]bool{}
	for _, w := range ContentWords(b) {
		sb[txt.Porter2(w)] = true
	}
	return txt.Overlap(sa, sb)
}

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// Phrases finds which of phrases occur in text as whole words, case
// ignored, in the order of phrases.
func Phrases(text string, phrases []string) []string {
	ws := " " + strings.Join(txt.PhraseWords(maskMonthMay(text)), " ") + " "
	var out []string
	for _, p := range phrases {
		if strings.Contains(ws, " "+p+" ") {
			out = append(out, p)
		}
	}
	return out
}

// monthMay matches "May" the month: capitalised beside a day or year
// ("May 27", "27 May", "May 2023") or after a preposition of time ("in May").
var monthMay = regexp.MustCompile(`\b(?:May\s+\d|\d{1,2}(?:st|nd|rd|th)?\s+May\b|(?i:in|of|on|since|until|by|from|early|late|mid|during)[\s-]+May\b)`)

// maskMonthMay hides the month May from the hedge word "may".
func maskMonthMay(text string) string {
	return monthMay.ReplaceAllStringFunc(text, func(m string) string {
		return strings.Replace(m, "May", "Maymonth", 1)
	})
}

// Hedges are the modal and hedging words that make a statement less than
// definitive (seed 000 edge rule 6: "may", "could", "suggests", "likely").
var Hedges = []string{
	"may", "might", "could", "can be", "suggests", "suggest", "suggested", "likely", "unlikely",
	"possibly", "possible", "perhaps", "probably", "appears", "appear", "appeared", "seems",
	"seem", "potentially", "potential", "preliminary", "reportedly", "allegedly", "indicates",
	"indicate", "is thought", "are thought", "is believed", "are believed", "tentative",
	"uncertain", "unclear", "expected to", "hypothesized", "speculated",
}

// Certainty are the words that assert more certainty than a plain
// statement does.
var Certainty = []string{
	"proves", "proved", "proven", "prove", "confirms", "confirmed", "definitely", "certainly",
	"undoubtedly", "always", "never", "guarantees", "guaranteed", "will", "establishes",
	"established", "demonstrates", "demonstrated",
}

// Approximations mark a figure as approximate.
var Approximations = []string{"approximately", "roughly", "nearly", "almost", "an estimated", "circa", "up to", "more than", "less than", "at least"}

// CausalPhrases assert outright that one thing brings about another.
var CausalPhrases = []string{
	"causes", "caused", "cause", "causing", "leads to", "led to", "lead to", "leading to",
	"results in", "resulted in", "result in", "due to", "because of", "because", "triggers",
	"triggered", "drives", "drove", "driven by", "responsible for", "thanks to", "prevents",
	"prevented", "cures", "cured", "kills", "killed", "makes people", "made people",
}

// EffectVerbs name a change that may be read as an effect ("X reduces
// Y") or as a plain description ("prices increased"); they count as causal
// only against a truth that speaks of an association.
var EffectVerbs = []string{
	"increases", "increased", "reduces", "reduced", "lowers", "lowered", "raises", "raised",
	"boosts", "boosted", "improves", "improved", "protects", "protected", "cuts", "worsens",
	"worsened", "halves", "halved", "doubles", "doubled",
}

// CorrelationPhrases assert an association without a cause.
var CorrelationPhrases = []string{
	"associated with", "association", "associations", "linked to", "linked with", "link between",
	"correlated", "correlation", "correlates", "tied to", "related to", "relationship between",
	"connected to", "connected with", "coincided with", "tends to",
}

// Caveats are words that limit a statement to part of its domain or to
// conditions.
var Caveats = []string{
	"only", "except", "excluding", "unless", "if", "when", "among", "in mice", "in rats",
	"in vitro", "in animals", "in some", "in certain", "small", "sample", "preliminary",
	"limited", "subset", "partially", "partly", "under", "provided that", "assuming",
	"not yet", "so far", "per", "relative to", "compared with", "compared to", "on average",
	"at least", "up to", "as many as", "as few as", "pilot",
}

// Quantifier is a quantifying word with its strength on the scale none (0)
// < few (1) < some (2) < many (3) < most (4) < all (5).
type Quantifier struct {
	Word     string
	Strength int
}

var quantifiers = []Quantifier{
	{"none", 0}, {"no one", 0}, {"nobody", 0}, {"never", 0},
	{"few", 1}, {"rarely", 1}, {"seldom", 1}, {"a minority", 1},
	{"some", 2}, {"several", 2}, {"sometimes", 2}, {"occasionally", 2},
	{"many", 3}, {"often", 3}, {"frequently", 3}, {"numerous", 3},
	{"most", 4}, {"mostly", 4}, {"majority", 4}, {"usually", 4}, {"generally", 4}, {"typically", 4},
	{"all", 5}, {"every", 5}, {"everyone", 5}, {"each", 5}, {"always", 5}, {"entire", 5}, {"universally", 5},
}

// Quantifiers returns the quantifiers text uses, in the order of the
// scale. "some" before a number ("some 40 people") is an approximation,
// not a quantifier, and is left out.
func Quantifiers(text string) []Quantifier {
	ws := txt.PhraseWords(text)
	var out []Quantifier
	joined := " " + strings.Join(ws, " ") + " "
	for _, q := range quantifiers {
		if !strings.Contains(joined, " "+q.Word+" ") {
			continue
		}
		if q.Word == "some" && !someIsQuantifier(ws) {
			continue
		}
		out = append(out, q)
	}
	return out
}

func someIsQuantifier(ws []string) bool {
	for i, w := range ws {
		if w == "some" && (i+1 == len(ws) || !unicode.IsDigit([]rune(ws[i+1])[0])) {
			return true
		}
	}
	return false
}

// pronouns open a sentence that leans on an earlier one for its subject.
var pronouns = set("it they he she this these those its their his her such that there")

// StartsWithPronoun reports whether sentence's first word is a pronoun or
// a demonstrative that refers back ("It", "They", "This"), so that its
// subject is only known from elsewhere.
func StartsWithPronoun(sentence string) bool {
	ws := txt.PhraseWords(sentence)
	return len(ws) > 0 && pronouns[ws[0]]
}

// Negations are the words that deny what follows them.
var Negations = []string{"not", "no", "never", "none", "neither", "nor", "cannot", "can't", "don't", "doesn't", "didn't", "isn't", "aren't", "wasn't", "weren't", "won't", "without", "fails to", "failed to"}
