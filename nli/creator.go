package nli

import (
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/wordvec"
)

// The maker rule: "Shakespeare wrote Don Quixote." against "Don Quixote
// is a Spanish novel by Miguel de Cervantes.", and "Brazil won the 2010
// World Cup." against "Spain won the 2010 FIFA World Cup." The passage fills the slot
// of the work's maker with another name, so it contradicts the claim
// (the "same slot of the same event"), where the networks read
// the shared title as entailment (0.68) and the opening-name rule, which
// asks the passage for the claim's verb, does not apply.

// makerVerbs maps the forms of the verbs whose agent made a work to one
// form each ("wrote" and "written" are both write).
var makerVerbs = map[string]string{
	"wrote": "write", "written": "write", "writes": "write", "write": "write",
	"authored": "author", "author": "author", "composed": "compose", "compose": "compose",
	"painted": "paint", "paint": "paint", "sculpted": "sculpt", "sculpt": "sculpt",
	"directed": "direct", "direct": "direct", "created": "create", "create": "create",
	"designed": "design", "design": "design", "produced": "produce", "produce": "produce",
	"founded": "found", "invented": "invent", "invent": "invent",
	"illustrated": "illustrate", "illustrate": "illustrate", "developed": "develop", "develop": "develop",
	"won": "win", "win": "win", "hosted": "host", "host": "host",
}

// yearSlots are the verbs whose agent is one for an event of a year: one
// winner of "the 2010 World Cup", one host of "the 2012 Summer Olympics".
// The claim's work must name its year ("Brazil won the World Cup" is
// true of other years), and the passage may name the other agent before
// the verb ("Spain won the 2010 FIFA World Cup").
var yearSlots = set("win", "host")

// firstMakers are the verbs whose agent a work's "by" names with no verb
// ("a novel by Cervantes", "a song by Linkin Park", "a 1960 film by
// Fellini"); the others ("produced by", "designed by") must be written.
var firstMakers = set("write", "author", "compose", "paint", "sculpt", "direct", "create")

// workNouns are the kinds of work whose "by" names their maker.
var workNouns = set("novel", "novels", "book", "books", "song", "songs", "single", "poem", "poems", "play",
	"plays", "painting", "paintings", "portrait", "album", "opera", "symphony", "story", "stories", "film",
	"films", "movie", "essay", "sculpture", "musical", "memoir", "sonata", "concerto", "ballad", "novella")

// passiveMarks are the auxiliaries before a passive maker verb.
var passiveMarks = set("was", "were", "is", "are", "been", "be")

// makerDenials are the words that deny a maker verb: "did not write",
// "was never painted by".
var makerDenials = set("not", "never", "n't", "did", "does", "do")

// making is a claim that someone made a work, as makerOf reads it.
type making struct {
	maker  []token // the maker's name
	verb   string  // the verb's one form (makerVerbs)
	work   []token
	denied bool // "did not write", "was never painted by"
	// passive tells that the work opens the claim ("Veeram was directed
	// by ..."), where its first word has no capital to tell a title by.
	passive bool
}

// makerOf reads a claim that someone made a work, or did not: active
// ("Shakespeare wrote Hamlet.", "Picasso did not paint the Mona Lisa.",
// the name opening the claim) or passive ("Hamlet was written by
// Shakespeare."). It reports false for anything else, for a maker that
// is no name ("by a Belgian director") and for a claim with a negation
// elsewhere.
func makerOf(c *text, wn *wordvec.WordNet) (making, bool) {
	for v, tk := range c.toks {
		form, ok := makerVerbs[tk.Lower]
		if !ok || v == 0 {
			continue
		}
		aux := v - 1 // the word before the verb and its denial
		for aux > 0 && makerDenials[c.toks[aux].Lower] {
			aux--
		}
		m := making{verb: form, denied: c.negs > 0}
		if m.denied && (c.negs > 1 || aux == v-1) {
			return making{}, false // a negation that is not the verb's
		}
		if passiveMarks[c.toks[aux].Lower] && v+2 < len(c.toks) && c.toks[v+1].Lower == "by" {
			end := v + 2
			for end < len(c.toks) && c.toks[end].Cap {
				end++
			}
			m.maker, m.work, m.passive = c.toks[v+2:end], c.toks[:aux], true
			return m, end > v+2
		}
		if name := openingName(c, wn); len(name) == aux+1 {
			m.maker, m.work = name, c.toks[v+1:]
			return m, true
		}
		return making{}, false
	}
	return making{}, false
}

// otherMaker reads whether the passage names another maker of the
// claim's work: -1 when it does (the passage contradicts the claim), +1
// when it does and the claim denies its maker made it ("Picasso did not
// paint the Mona Lisa."), 0 when the rule does not apply. The work must
// have a title (a capitalised word, or the word opening the claim: not
// "writes about science"), the passage every content word of it, and a
// "by" after the claim's verb ("produced by") or, for a work's first
// maker, after a kind of work ("a novel by"). The maker is another when
// the names after the claim's verb and "by" ("directed by Siva and
// produced by Vijaya Productions") leave out the claim's, or when the
// passage lacks the claim's maker altogether and a capitalised word the
// claim lacks follows "by" within three words ("a song by American rock
// band Linkin Park"). A "by" that names the claim's maker settles it.
func otherMaker(c, p *text) int {
	m, ok := makerOf(c, wordvec.DefaultWordNet())
	if !ok {
		return 0
	}
	titled, dated := false, false
	for i, tk := range m.work {
		if tk.Num && len(tk.Lower) == 4 && p.stems[tk.Stem] {
			dated = true
		}
		if stopwords[tk.Lower] || tk.Num {
			continue
		}
		if !p.stems[tk.Stem] {
			return 0
		}
		titled = titled || tk.Cap || i == 0 && m.passive
	}
	if yearSlots[m.verb] {
		// "the 2012 presidential election" names its event by the year;
		// "won a Grammy in 2009" names one of many.
		titled = dated && len(m.work) > 0 && m.work[0].Lower == "the"
	}
	if !titled {
		return 0
	}
	absent := true
	for _, tk := range m.maker {
		if p.stems[tk.Stem] || (len(tk.Lower) >= 3 && nearSpelled(tk.Lower, p.toks)) {
			absent = false
		}
	}
	other := false
	for b, tk := range p.toks {
		if yearSlots[m.verb] && makerVerbs[tk.Lower] == m.verb {
			// The other agent before the verb: "Spain won the 2010
			// FIFA World Cup".
			names := namesBefore(p.toks, b)
			if sharesStem(names, m.maker) {
				return 0
			}
			other = other || len(names) > 0
		}
		if tk.Lower != "by" || b == 0 {
			continue
		}
		before := p.toks[b-1].Lower
		same := makerVerbs[before] == m.verb
		if !same && !(firstMakers[m.verb] && workNouns[before]) {
			continue
		}
		names := namesAfter(p.toks, b+1)
		if sharesStem(names, m.maker) {
			return 0
		}
		if same && len(names) > 0 {
			other = true
		}
		for _, n := range p.toks[b+1 : min(b+4, len(p.toks))] {
			if absent && n.Cap && !c.stems[n.Stem] {
				other = true
			}
		}
	}
	switch {
	case !other:
		return 0
	case m.denied:
		return 1
	}
	return -1
}

// nameLinks join the names of a list of agents ("Sonny Digital, West and
// Mike Dean", the commas gone) or the words of one ("Miguel de
// Cervantes").
var nameLinks = set("and", "de", "da", "di", "van", "von", "del", "der", "la", "le", "du", "bin", "al")

// namesAfter returns the capitalised words from toks[i] on, through the
// words that join names, up to the first other word.
func namesAfter(toks []token, i int) []token {
	var names []token
	for ; i < len(toks) && (toks[i].Cap || nameLinks[toks[i].Lower]); i++ {
		if toks[i].Cap {
			names = append(names, toks[i])
		}
	}
	return names
}

// makerRule applies otherMaker: all but negKeep of both the entailment
// and the neutral go to contradiction, or for a denied claim of both the
// contradiction and the neutral to entailment. A passage that names
// another maker settles the claim's slot, where the networks often read
// a claim's unknown name as neutral ("In the End was written by Lorde."
// against "... a song by American rock band Linkin Park", 0.69) and a
// denial as a contradiction (0.86). It reports whether it applied.
func makerRule(c, p *text, j evidence.Judgment) (evidence.Judgment, bool) {
	switch otherMaker(c, p) {
	case -1:
		shift(&j.Entail, &j.Contradict, negKeep)
		shift(&j.Neutral, &j.Contradict, negKeep)
	case 1:
		shift(&j.Contradict, &j.Entail, negKeep)
		shift(&j.Neutral, &j.Entail, negKeep)
	default:
		return j, false
	}
	return j, true
}

// namesBefore returns the capitalised words, and the words that join
// names, right before toks[i], back to the first other word; the word
// that opens the text counts as capitalised unless it is a function word
// ("London hosted ..."), and a pronoun is no name ("Biography She won").
func namesBefore(toks []token, i int) []token {
	named := func(k int) bool {
		return !pronouns[toks[k].Lower] && (toks[k].Cap || k == 0 && !stopwords[toks[k].Lower] && !toks[k].Num)
	}
	k := i
	for k > 0 && (named(k-1) || nameLinks[toks[k-1].Lower]) {
		k--
	}
	var names []token
	for j := k; j < i; j++ {
		if named(j) {
			names = append(names, toks[j])
		}
	}
	return names
}

// sharesStem reports whether a word of a has the stem of a word of b.
func sharesStem(a, b []token) bool {
	for _, x := range a {
		for _, y := range b {
			if x.Stem == y.Stem {
				return true
			}
		}
	}
	return false
}
