package nli

import (
	"slices"
	"strings"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/wordvec"
)

// swapRule: a passage that says what the claim says with one of its words
// turned into an antonym contradicts it ("The minister admitted the
// allegations." against "The minister rejected the accusations as
// false."; "The shop opened on Monday." against "The shop closed on
// Monday."). The networks weigh such a pair by everything else the two
// share, and a claim said again but for one word reads to them as a
// paraphrase (entailment 0.44 and more). The rule holds when every
// content word of the claim but one is in the passage, as written or as
// a WordNet synonym, hypernym or hyponym, that one is an antonym of a
// passage word the claim lacks (WordNet's antonyms, the encoder's lists,
// prefixOpposed), the passage has at most maxSwapExtra other words, and
// neither text has a negation but the antonym itself ("denied" against
// "admitted"; other negations are plainNegation's). A birth against a death is
// left to otherEndOfLife, and converses ("sold" against "bought") to the
// encoder, which reads their voices.
func swapRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	if swapped(c, p) || stanceSwapped(c, p) {
		return toContradiction(j)
	}
	return j
}

// swapped reports whether the passage says the claim with one word
// turned into an antonym (swapRule).
func swapped(c, p *text) bool {
	if len(c.content) < 2 {
		return false
	}
	missing := 0
	for _, tk := range c.toks {
		if !swapIgnored(c, p, tk) {
			missing++
		}
	}
	var ptoks []token
	for _, tk := range p.toks {
		if !stopwords[tk.Lower] && !tk.Num && !c.stems[tk.Stem] {
			ptoks = append(ptoks, tk)
		}
	}
	// Each missing claim word says, or opposes, one or two passage
	// words; a passage with more words than that beyond the claim's is
	// no claim said again, and is passed over before WordNet is asked
	// (this runs for every judgment).
	if missing == 0 || len(ptoks) > maxSwapExtra+2*missing {
		return false
	}
	// No claim word that may have an antonym among the passage's words:
	// WordNet's senses are not asked.
	wn := wordvec.DefaultWordNet()
	var plemmas [][]int32 // the passage words' lemmas, read once when needed
	if !slices.ContainsFunc(c.toks, func(tk token) bool {
		if swapIgnored(c, p, tk) {
			return false
		}
		lemmas := wn.Lemmas(tk.Lower)
		if !listedAntonym(tk.Stem) && !wn.HasAntonym(lemmas) {
			return slices.ContainsFunc(ptoks, func(pt token) bool { return negativelyPrefixed(tk.Lower, pt.Lower) })
		}
		if plemmas == nil {
			plemmas = make([][]int32, len(ptoks))
			for k, pt := range ptoks {
				plemmas[k] = wn.Lemmas(pt.Lower)
			}
		}
		for k, pt := range ptoks {
			if mayOppose(wn, tk, pt, lemmas, plemmas[k]) {
				return true
			}
		}
		return false
	}) {
		return false
	}
	pinfos := make([]*wordvec.WordInfo, len(ptoks))
	for k, tk := range ptoks {
		pinfos[k] = wn.Info(tk.Lower)
	}
	swaps, cneg := 0, c.negs
	said := make([]bool, len(ptoks))     // passage words that say a claim word, or its antonym
	opposite := make([]bool, len(ptoks)) // passage words that are the antonym
	for _, tk := range c.toks {
		if swapIgnored(c, p, tk) {
			continue
		}
		ci := wn.Info(tk.Lower)
		synonym, antonym := false, false
		for k, pt := range ptoks {
			if birthWords[tk.Lower] || deathWords[tk.Lower] || birthWords[pt.Lower] || deathWords[pt.Lower] {
				continue
			}
			r := wn.RelateInfo(ci, pinfos[k])
			syn := r&sameOrKind != 0
			// Converses ("was sold" against "bought") are the
			// encoder's to read by their voices.
			ant := (r&wordvec.Antonym != 0 || listedOpposed(tk.Stem, pt.Stem) ||
				prefixOpposed(wn, tk.Lower, pt.Lower, ci, pinfos[k])) && !converses[tk.Stem][pt.Stem]
			synonym, antonym = synonym || syn, antonym || ant
			said[k] = said[k] || syn || ant
			opposite[k] = opposite[k] || ant && !syn
		}
		switch {
		case antonym && !synonym:
			swaps++
			if negations[tk.Lower] {
				cneg-- // "denied" against "admitted"
			}
		case !synonym:
			return false
		}
	}
	extra, pneg := 0, p.negs
	for k, pt := range ptoks {
		if !said[k] {
			extra++
		}
		if opposite[k] && negations[pt.Lower] {
			pneg--
		}
	}
	// A negation beside the antonym is plainNegation's, or a double one.
	return swaps == 1 && extra <= maxSwapExtra && cneg == 0 && pneg == 0
}

// mayOppose reports whether two words, of lemmas la and lb, may be
// antonyms for swapped, by their lemmas and spellings alone: WordNet's antonym pairs, the
// encoder's lists, or one the other behind a negative prefix
// (prefixOpposed then asks WordNet).
func mayOppose(wn *wordvec.WordNet, a, b token, la, lb []int32) bool {
	return wn.Antonyms(la, lb) || listedOpposed(a.Stem, b.Stem) || negativelyPrefixed(a.Lower, b.Lower)
}

// swapIgnored reports whether swapped passes over the claim word tk: a
// stop word, a figure, a word the passage has, a word that is not
// content (but a negation, which may be the antonym: "denied").
func swapIgnored(c, p *text, tk token) bool {
	return stopwords[tk.Lower] || tk.Num || p.stems[tk.Stem] || !slices.Contains(c.content, tk.Stem) && !negations[tk.Lower]
}

// maxSwapExtra is how many content words the passage may have beyond
// those that say the claim's, or the antonym, for swapRule: a passage
// that is the claim said again, not a scene described at length in
// which some word is the antonym of one of the claim's.
const maxSwapExtra = 2

// stanceVerbs are the stems of verbs whose "for" and "against" take
// opposite sides: "voted for the bill" against "voted against the bill",
// which the networks, reading neither word (both are stop words), call
// entailment (0.90).
var stanceVerbs = set("vote", "argu", "campaign", "lobbi", "testifi", "rule", "spoke", "speak", "protest", "fought", "fight")

// The sides a stance verb takes (stance).
const (
	sideFor = 1 << iota
	sideAgainst
)

// sideWords are the words of each side, sideStems their stems.
var (
	sideWords = map[int]string{sideFor: "for", sideAgainst: "against"}
	sideStems = set("for", "against")
)

// stance returns, per stance verb of t followed by "for" or "against",
// the sides it takes.
func stance(t *text) map[string]int {
	out := map[string]int{}
	for i := 0; i+1 < len(t.toks); i++ {
		if !stanceVerbs[t.toks[i].Stem] {
			continue
		}
		switch t.toks[i+1].Lower {
		case "for":
			out[t.toks[i].Stem] |= sideFor
		case "against":
			out[t.toks[i].Stem] |= sideAgainst
		}
	}
	return out
}

// stanceSwapped reports whether the passage has every content word of
// the claim and takes the other side with one of its stance verbs
// ("voted for" against "voted against") and not the claim's, neither
// text having a negation. A passage that has the verb take both sides
// or has the claim's word of side anywhere ("voted against the amendment
// and for the bill") is left alone.
func stanceSwapped(c, p *text) bool {
	if c.negs > 0 || p.negs > 0 || !coversBut(c, p.stems, sideStems) {
		return false
	}
	ps := stance(p)
	for v, side := range stance(c) {
		if side != sideFor|sideAgainst && ps[v] == side^(sideFor|sideAgainst) && !p.lowers[sideWords[side]] {
			return true
		}
	}
	return false
}

// negativePrefixes turn a word into its opposite: "unsafe", "illegal",
// "dishonest", "nontoxic".
var negativePrefixes = []string{"un", "in", "im", "il", "ir", "dis", "non"}

// minPrefixedRoot is the fewest letters the word after a negative
// prefix may have.
const minPrefixedRoot = 3

// prefixOpposed reports whether one of two words is the other behind a
// negative prefix and WordNet opposes them, directly or through a word
// that shares a sense with one's antonym (wordvec.WordNet.IndirectAntonyms):
// WordNet opposes "safe" to "dangerous", whose synset "unsafe" shares.
// The prefix alone is not enough ("union" and "ion", "discover" and
// "cover").
func prefixOpposed(wn *wordvec.WordNet, a, b string, ai, bi *wordvec.WordInfo) bool {
	return negativelyPrefixed(a, b) && wn.IndirectAntonyms(ai, bi)
}

// negativelyPrefixed reports whether one of two words is the other
// behind a negative prefix ("unsafe", "safe").
func negativelyPrefixed(a, b string) bool {
	if len(b) > len(a) {
		a, b = b, a
	}
	for _, pre := range negativePrefixes {
		if len(b) >= minPrefixedRoot && len(a) == len(pre)+len(b) && strings.HasPrefix(a, pre) && a[len(pre):] == b {
			return true
		}
	}
	return false
}
