package nli

import "github.com/verity-fc/verity/wordvec"

// The other-first rule: "The first email was sent over the ARPANET in
// 1971." against "... sent the first message over the ARPANET to a
// computer at the Stanford Research Institute" on 29 October 1969. What
// came first among messages says nothing of what came first among emails,
// but the passage has the claim's other words and a date of its own, and
// the networks and the reading of dates called the pair a contradiction
// (0.79).

// sameOrKind are the WordNet relations by which one word says what
// another does or more: synonyms, or one a kind of the other.
const sameOrKind = wordvec.Synonym | wordvec.Hypernym | wordvec.Hyponym

// determiners are the words before a "first" that counts a noun ("the
// first message", "its first link"); "was first touched" and "first
// approached" are adverbs.
var determiners = set("the", "a", "an", "its", "his", "her", "their", "our", "my", "your", "s")

// firstOf returns the stem and lower-case form of the word a text's
// "first" counts, after a determiner: the first lower-case content word
// within three words after it, names skipped ("the first ARPANET message":
// message), or "" when there is none, the text has no such "first", or
// its "first" is part of a name ("First Knight"). An adjective may stand
// for its noun ("the first fatal case": fatal); telling the two apart
// would take a tagger, and the rule errs towards neutral.
func firstOf(t *text) (stem, lower string) {
	for i, tk := range t.toks {
		if tk.Lower != "first" || tk.Cap || i == 0 || !determiners[t.toks[i-1].Lower] {
			continue
		}
		for _, w := range t.toks[i+1 : min(len(t.toks), i+4)] {
			if w.Cap || w.Num || stopwords[w.Lower] || len(w.Lower) < 3 {
				continue
			}
			return w.Stem, w.Lower
		}
		return "", ""
	}
	return "", ""
}

// otherFirst reports whether claim and passage each tell of the first of
// different kinds of thing: the passage lacks the claim's noun, the claim
// lacks the passage's, and WordNet makes them neither synonyms nor one a
// kind of the other ("email" and "message"; not "film" and "movie", nor
// "woman" and "female").
func otherFirst(c, p *text) bool {
	cs, cl := firstOf(c)
	ps, pl := firstOf(p)
	if cs == "" || ps == "" || p.stems[cs] || c.stems[ps] {
		return false
	}
	return wordvec.DefaultWordNet().Relate(cl, pl)&sameOrKind == 0
}
