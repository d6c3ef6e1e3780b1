package nli

import (
	"strings"

	"github.com/verity-fc/verity/evidence"
)

// The cessation rule: "The factory is no longer in operation." against
// "The factory closed in 2015 after 80 years." The networks read the
// claim's negation against a passage without one as a contradiction
// (0.81 there), and "The factory is still in operation." against it as
// a near tie (0.40). A passage that says its subject ended (closed,
// ceased, was abolished, broke up) entails that it no longer goes on and
// contradicts that it still does.

// endings are the verbs that tell that something ended.
var endings = set(strings.Fields(`closed closes ceased ceases ended ends stopped stops abolished scrapped repealed
	disbanded dissolved discontinued demolished folded shut defunct collapsed terminated retired withdrew withdrawn`)...)

// ended reports whether t tells that something ended: a verb of ending, or
// "broke up" / "split up".
func ended(t *text) bool {
	if mentions(t, endings) {
		return true
	}
	for i := 0; i+1 < len(t.toks); i++ {
		if (t.toks[i].Lower == "broke" || t.toks[i].Lower == "split") && t.toks[i+1].Lower == "up" {
			return true
		}
	}
	return false
}

// restarts are the words that tell that something ended went on again.
var restarts = set("reopened", "reopen", "reopens", "resumed", "reformed", "reunited", "revived", "relaunched",
	"restarted", "reinstated", "again")

// cessation reads a claim that its subject still goes on (+1: "still",
// "has been ... since")
// or no longer does (-1: "no longer", "not ... any longer", "not ...
// anymore") against a passage that says the subject ended: -1 (the
// passage contradicts the claim) for the first, +1 (it entails it) for
// the second, 0 when the rule does not apply. The subject is the claim's
// words before "still" or the negation, every content word of which the
// passage must have; the passage must have a verb of ending and no
// negation, and tell of no new start ("reopened").
func cessation(c, p *text) int {
	if p.negs > 0 || !ended(p) || mentions(p, restarts) || ended(c) {
		return 0 // a claim of the ending itself ("is still closed") is not read
	}
	at, verdict := -1, 0
	for i, tk := range c.toks {
		switch {
		case tk.Lower == "still" && c.negs == 0:
			at, verdict = i, -1
		case (tk.Lower == "has" || tk.Lower == "have") && c.negs == 0 && c.lowers["since"] && i+1 < len(c.toks) && c.toks[i+1].Lower == "been":
			// "has been open since 1990" says it still is.
			at, verdict = i, -1
		case c.negs == 1 && (tk.Lower == "no" || tk.Lower == "not") && (c.lowers["longer"] || c.lowers["anymore"]):
			at, verdict = i, 1
		default:
			continue
		}
		break
	}
	if at < 1 {
		return 0
	}
	subject := 0
	for _, tk := range c.toks[:at] {
		if stopwords[tk.Lower] || tk.Num || len(tk.Lower) < 2 {
			continue
		}
		if !p.stems[tk.Stem] {
			return 0
		}
		subject++
	}
	if subject == 0 {
		return 0
	}
	return verdict
}

// cessationRule applies cessation: all but negKeep of the contradiction
// of a claim the passage's ending entails goes to entailment, and all but
// negKeep of the entailment of one it contradicts to contradiction.
func cessationRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	return byVerdict(cessation(c, p), j)
}
