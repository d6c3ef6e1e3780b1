package nli

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/sentences"
	"github.com/verity-fc/verity/wordvec"
)

// The opening-name rule: "Picasso painted the Mona Lisa." against "The
// Mona Lisa is a portrait painted by Leonardo da Vinci." A word that opens
// a sentence carries no capital the tokenizer can count, so a name there
// reaches the networks as an unknown word rather than a name in the
// passage's slot, and they read the pair as entailed (0.72 there; "Apple
// acquired GitHub in 2018." against "Microsoft acquired GitHub in 2018
// ..." 0.77). Reading such words as names inside the networks moved many
// pairs the wrong way (docs/nli-development.md, "Names that open a
// sentence"); this rule acts after them, on the pairs where the passage
// says everything the claim says but who.

// openingName returns the name that opens the claim: its first word and
// the capitalised words after it, when the first word is a name by
// WordNet (written with a capital in every sense it keeps: "Picasso",
// "Edison"), unknown to it ("Microsoft", "GitHub") or a common word that
// reads as a name (bareName: "Apple acquired", where "apple" is also the
// fruit); nil otherwise ("Exports rose", "Two men", "Kids pose").
func openingName(c *text, wn *wordvec.WordNet) []token {
	if len(c.toks) < 2 {
		return nil
	}
	first := c.toks[0]
	if first.Num || stopwords[first.Lower] || len(first.Lower) < 3 || numberWords[first.Lower] != "" {
		return nil
	}
	if !wn.Name(first.Lower) && wn.Info(first.Lower).Known() && !bareName(c.toks) {
		return nil
	}
	end := 1
	for end < len(c.toks) && c.toks[end].Cap {
		end++
	}
	return c.toks[:end]
}

// bareName reports whether a claim opening with a common word reads as a
// name: one word, singular, with no determiner, before a verb that is no
// participle ("Apple acquired GitHub", not "Kids pose", "Man racing").
func bareName(toks []token) bool {
	first, next := toks[0], toks[1]
	return !strings.HasSuffix(first.Lower, "s") && !next.Cap && !next.Num && !strings.HasSuffix(next.Lower, "ing")
}

// passageNames reports whether the passage names something the claim does
// not: a capitalised word inside a sentence, or a name by WordNet or an
// unknown word opening it.
func passageNames(c, p *text, wn *wordvec.WordNet) bool {
	for i, tk := range p.toks {
		if c.stems[tk.Stem] || stopwords[tk.Lower] || tk.Num {
			continue
		}
		if tk.Cap || i == 0 && len(tk.Lower) > 2 && (wn.Name(tk.Lower) || !wn.Info(tk.Lower).Known()) {
			return true
		}
	}
	return false
}

// demonstratives point back to something named before the passage ("this
// movie was dubbed into Korean").
var demonstratives = set("this", "these", "such")

// acronymRe finds a word of two to six capitals.
var acronymRe = regexp.MustCompile(`\b[A-Z]{2,6}s?\b`)

// abbreviates reports whether the passage has an acronym that begins with
// the name's first letter, which may stand for it ("Pyridostatin induces
// checkpoint activation." against "PDS reduces proliferation ... by
// inducing ... checkpoint activation"; a drug, a gene or a body is often
// named so).
func abbreviates(first token, raw string) bool {
	for _, a := range acronymRe.FindAllString(raw, -1) {
		if strings.EqualFold(a[:1], first.Lower[:1]) {
			return true
		}
	}
	return false
}

// describes reports whether a sentence of the passage opens with a
// description, "The NOUN" ("The company was founded in 2010", "The city
// is one of the safest in Pakistan"), which may stand for the claim's
// name as a pronoun does.
func describes(p *text) bool {
	for _, sent := range sentences.Texts(p.raw) {
		toks := tokenize(sent)
		if len(toks) > 1 && (toks[0].Lower == "the" || demonstratives[toks[0].Lower]) && !toks[1].Cap &&
			!stopwords[toks[1].Lower] {
			return true
		}
	}
	return false
}

// fragment reports whether the passage opens in the middle of a sentence,
// with a lower-case word ("is an American rock band formed in 1997"), as
// passages cut from a page may: its subject, perhaps the claim's name, is
// left out.
func fragment(p *text) bool {
	for _, r := range p.raw {
		if unicode.IsLetter(r) {
			return unicode.IsLower(r)
		}
	}
	return false
}

// otherOpeningName reports whether the claim opens with a name the passage
// lacks, every word of it, while the passage has every other content word
// of the claim, names something else, and has no third-person pronoun
// (but one that opens a sentence after a name, unresolvedPronoun),
// demonstrative or description that may stand for the claim's name ("He
// painted it in 1503.", "this movie", "The company was founded ..."),
// nor opens in the middle of a sentence.
func otherOpeningName(c, p *text) bool {
	wn := wordvec.DefaultWordNet()
	name := openingName(c, wn)
	if name == nil {
		return false
	}
	if abbreviates(name[0], p.raw) {
		return false
	}
	inName := map[string]bool{}
	for _, tk := range name {
		if p.stems[tk.Stem] || fuzzyIn(tk.Stem, p.stems) || nearSpelled(tk.Lower, p.toks) {
			return false
		}
		inName[tk.Stem] = true
	}
	if !coversBut(c, p.stems, inName) || mentions(p, demonstratives) || fragment(p) || describes(p) || !passageNames(c, p, wn) {
		return false
	}
	return !mentions(p, pronouns) || !unresolvedPronoun(p)
}

// unresolvedPronoun reports whether a pronoun of the passage is left when
// those that open a sentence are given the name before them
// (resolvePronouns): "Ada Lovelace was an English mathematician. She died
// in 1852." has none, so "She" does not stand for the claim's "Charles
// Babbage".
func unresolvedPronoun(p *text) bool {
	return mentions(analyse(strings.Join(resolvePronouns(sentences.Texts(p.raw)), " ")), pronouns)
}

// openingNameRule moves all but offTopicKeep of the entailment of a claim
// whose opening name the passage lacks to neutral (otherOpeningName): the
// passage tells of the claim's event with someone else in it, which need
// not be the claim's slot ("Jones attended the meeting." against "Smith
// attended the meeting."), so the claim is not settled, not denied.
func openingNameRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	if otherOpeningName(c, p) {
		return entailToNeutral(j, offTopicKeep)
	}
	return j
}
