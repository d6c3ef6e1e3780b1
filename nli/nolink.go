package nli

import (
	"slices"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/sentences"
)

// The no-link rule: "Coffee consumption causes cancer." against "A large
// review found no link between moderate coffee consumption and cancer."
// The networks see every word of the claim but its verb in the passage,
// and "no" denies "link", a word the claim lacks, so neither they
// (entailment 0.52 there) nor the plain-negation rule read the passage as
// the denial of a cause that it is. A health claim and its debunking are
// the commonest pair of this shape.

// causalWords are the words of a claim that say one thing causes or goes
// with another.
var causalWords = set("cause", "causes", "caused", "causing", "lead", "leads", "led", "linked", "link", "links",
	"associated", "trigger", "triggers", "triggered", "produce", "produces", "increase", "increases", "raise",
	"raises", "result", "results", "resulted")

// linkNouns are what a passage denies when it denies that one thing
// causes or goes with another ("no link between", "no evidence that").
var linkNouns = set("link", "links", "association", "associations", "connection", "connections", "correlation",
	"relationship", "evidence", "causal", "effect")

// linkVerbs are the participles a negation denies a link with: "was not
// associated with", "is not linked to".
var linkVerbs = set("associated", "linked", "correlated", "related", "tied")

// deniesLink reports whether the passage denies a link that the claim
// asserts: the claim, not negated, has a causal word, and a sentence of
// the passage has "no" before a link noun within three words ("no link",
// "no significant association", "no evidence that"), or "not" before a
// link verb ("was not associated with"), holds every content word of the
// claim but its causal words and the words of time, and has the claim's
// last content word (most often what is caused) after the denial. What
// comes before the denial may be something else ("Smoking causes cancer;
// there is no evidence that vaping does.").
func deniesLink(c, p *text) bool {
	if c.negs > 0 || len(c.content) == 0 || !mentions(c, causalWords) || !p.lowers["no"] && !p.lowers["not"] {
		return false
	}
	except := stemsWhere(c, func(w string) bool { return causalWords[w] || timeWords[w] })
	last := c.content[len(c.content)-1]
	for _, sent := range sentences.Texts(p.raw) {
		toks := tokenize(sent)
		at := -1
		for i, tk := range toks {
			if tk.Lower == "no" && slices.ContainsFunc(toks[i+1:min(len(toks), i+4)], func(w token) bool { return linkNouns[w.Lower] }) ||
				tk.Lower == "not" && i+1 < len(toks) && linkVerbs[toks[i+1].Lower] {
				at = i
				break
			}
		}
		if at < 0 || except[last] {
			continue
		}
		stems, after := map[string]bool{}, false
		for i, tk := range toks {
			stems[tk.Stem] = true
			after = after || i > at && tk.Stem == last
		}
		if after && coversBut(c, stems, except) {
			return true
		}
	}
	return false
}

// noLinkRule moves all but negKeep of the entailment of a claim whose link
// the passage denies to contradiction.
func noLinkRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	if deniesLink(c, p) {
		return toContradiction(j)
	}
	return j
}
