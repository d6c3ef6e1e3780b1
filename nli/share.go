package nli

import (
	"maps"
	"regexp"
	"strconv"

	"github.com/verity-fc/verity/evidence"
)

// The share rule: "Most residents voted for the plan." against "Only 30%
// of residents voted for the plan." The networks read "most" against a
// figure they cannot compare with it (entailment 0.47 there), and the
// quantifier rule needs a quantifier on both sides. A claim's quantifier
// of a noun bounds the share of that noun, and a passage's percentage of
// it gives the share, so the two can be compared.

// shareBounds are the shares, in percent, a claim's quantifier allows:
// more than lo and less than hi, or exactly lo when lo equals hi.
var shareBounds = map[string][2]float64{
	"most": {50, 100}, "majority": {50, 100}, "minority": {0, 50},
	"all": {100, 100}, "every": {100, 100}, "each": {100, 100},
}

// percentOfRe finds a percentage of a noun: "30% of residents", "62
// percent of the voters".
var percentOfRe = regexp.MustCompile(`(?i)\b(\d{1,3}(?:\.\d+)?)\s*(?:%|per\s?cent\b)\s+of\s+(?:the\s+|all\s+|its\s+|their\s+|our\s+)?([a-z]+)`)

// shareWindow is how many words after its noun a claim's or passage's
// share statement is read in.
const shareWindow = 8

// polarWords are the function words that decide which way a share counts
// ("voted for" against "voted against").
var polarWords = set("for", "against", "with", "without", "in", "out", "favour", "favor", "support", "oppose", "opposed")

// claimShare returns the noun stem a claim quantifies ("most residents",
// "a majority of the voters", "all members"), the bounds of its
// share, and the index of the noun. "The most populous" is a superlative,
// not a share.
func claimShare(c *text) (noun string, bounds [2]float64, at int, ok bool) {
	for i, tk := range c.toks {
		b, is := shareBounds[tk.Lower]
		if !is || quantIdiom(c.toks, i) || (tk.Lower == "most" && i > 0 && c.toks[i-1].Lower == "the") {
			continue
		}
		for k := i + 1; k < min(len(c.toks), i+4); k++ {
			w := c.toks[k]
			if w.Lower == "of" || w.Lower == "the" || w.Lower == "its" || w.Lower == "their" {
				continue
			}
			if stopwords[w.Lower] || w.Num {
				break
			}
			return w.Stem, b, k, true
		}
	}
	return "", [2]float64{}, 0, false
}

// polarity returns the polar words among the n words after toks[at].
func polarity(toks []token, at, n int) map[string]bool {
	m := map[string]bool{}
	for _, tk := range toks[at+1 : min(len(toks), at+1+n)] {
		if polarWords[tk.Lower] {
			m[tk.Lower] = true
		}
	}
	return m
}

// shareVerdict compares a claim's quantified share with the passage's
// percentage of the same noun: +1 when the percentage is within the
// claim's bounds, -1 when it is outside them, 0 when the rule does not
// apply. It applies when neither text is negated, the passage has every
// content word of the claim (the quantifier aside) and both say the same
// thing of the noun by their polar words ("voted for" against "voted
// for", not "voted against").
func shareVerdict(c, p *text) int {
	if c.negs > 0 || p.negs > 0 {
		return 0
	}
	noun, b, at, ok := claimShare(c)
	if !ok {
		return 0
	}
	// The quantifier is the claim's and the percentage the passage's:
	// "a majority of voters" against "48% of voters".
	quantifiers := stemsWhere(c, func(w string) bool { _, is := shareBounds[w]; return is })
	share, ok := passageShare(c, p, noun, at)
	if ok && !coversBut(c, p.stems, quantifiers) {
		return 0
	}
	if !ok {
		// A count out of a total may say the claim's verb by its
		// opposite ("died" for "survived"), which the passage need not
		// have.
		var flipped bool
		share, flipped, ok = countShare(c, p, noun, at)
		if flipped {
			quantifiers[wordAfter(c.toks, at)] = true
		}
		if !ok || !coversBut(c, p.stems, quantifiers) {
			return 0
		}
	}
	lo, hi := b[0], b[1]
	if lo == hi && share == lo || lo < hi && share > lo && share < hi {
		return 1
	}
	return -1
}

// countShare returns the share, in percent, that the passage's count out
// of a total of the noun of stem noun gives ("two of the 150 passengers
// died": 1.3), read as the claim says it: when the word after the noun
// in the passage is the opposite of the claim's ("died" against
// "survived", the judge's antonyms), the share of the rest (98.7), and
// flipped; ok is false when the passage has no such count, or says
// something else of the noun than the claim.
func countShare(c, p *text, noun string, at int) (share float64, flipped, ok bool) {
	cverb := wordAfter(c.toks, at)
	for i := 0; i+3 < len(p.toks); i++ {
		x, okx := numberValue(p.toks[i])
		if !okx || p.toks[i+1].Lower != "of" {
			continue
		}
		k := i + 2
		if ownerWords[p.toks[k].Lower] {
			k++
		}
		if k+1 >= len(p.toks) || p.toks[k+1].Stem != noun {
			continue
		}
		n, okn := numberValue(p.toks[k])
		if !okn || n <= 0 || x > n {
			continue
		}
		share = 100 * x / n
		switch pverb := wordAfter(p.toks, k+1); {
		case cverb == "" || pverb == "":
			return 0, false, false
		case pverb == cverb:
			return share, false, true
		case listedOpposed(cverb, pverb):
			return 100 - share, true, true
		}
		return 0, false, false
	}
	return 0, false, false
}

// ownerWords may stand between "of" and a total: "of the 150", "of its
// 40".
var ownerWords = set("the", "its", "their", "our", "all")

// wordAfter returns the stem of the first content word after toks[at],
// "" when there is none.
func wordAfter(toks []token, at int) string {
	for _, tk := range toks[at+1:] {
		if !stopwords[tk.Lower] && !tk.Num {
			return tk.Stem
		}
	}
	return ""
}

// passageShare returns the passage's first percentage of the noun of stem
// noun that claim c quantifies at token at ("30% of residents"), when the
// two say the same of it by their polar words ("voted for" against "voted
// for", not "voted against"); ok is false when there is none, or when the
// first one says otherwise.
func passageShare(c, p *text, noun string, at int) (share float64, ok bool) {
	for _, m := range percentOfRe.FindAllStringSubmatch(p.raw, -1) {
		nt := tokenize(m[2])
		if len(nt) != 1 || nt[0].Stem != noun {
			continue
		}
		share, err := strconv.ParseFloat(m[1], 64)
		if err != nil || share > 100 {
			continue
		}
		pat := -1
		for k, tk := range p.toks {
			if tk.Stem == noun {
				pat = k
				break
			}
		}
		// Both are read over as many words as the claim has after its
		// noun, at most shareWindow: "supported the plan." against
		// "supported the plan in the referendum".
		n := min(shareWindow, len(c.toks)-at-1)
		if pat < 0 || !maps.Equal(polarity(c.toks, at, n), polarity(p.toks, pat, n)) {
			return 0, false
		}
		return share, true
	}
	return 0, false
}

// shareRule applies shareVerdict (see byVerdict).
func shareRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	return byVerdict(shareVerdict(c, p), j)
}

// byVerdict applies a rule's verdict on a judgment: +1, the passage bears
// the claim out, moves all but negKeep of the contradiction to
// entailment; -1, it refutes the claim, all but negKeep of the entailment
// to contradiction; 0 leaves the judgment alone.
func byVerdict(v int, j evidence.Judgment) evidence.Judgment {
	switch v {
	case 1:
		return contradictToEntail(j, negKeep)
	case -1:
		return toContradiction(j)
	}
	return j
}
