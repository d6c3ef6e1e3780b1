package nli

import "github.com/verity-fc/verity/evidence"

// The move rule: "The company is headquartered in Seattle." against "The
// company moved its headquarters from Seattle to Austin in 2021." The
// networks align every word of the claim and read an entailment (0.92);
// the passage says the claim held once and holds no longer.

// moveVerbs tell that something moved from one place to another.
var moveVerbs = set("moved", "relocated", "transferred", "moves", "relocates", "relocating", "moving")

// nowWords tell that a claim speaks of the present; pastWords that it
// speaks of the past, which a move leaves true.
var (
	nowWords  = set("is", "are", "remains", "remain", "still", "now", "currently", "today")
	pastWords = set("was", "were", "until", "before", "formerly", "originally", "once", "used", "had", "moved", "relocated")
)

// movedFrom reports whether the passage tells that its subject moved from
// a place the claim names now to another the claim does not name: a verb
// of moving, then within eight words "from" a capitalised name the claim
// has and "to" one it lacks, and the claim in the present ("is", "still";
// no "was", "until"), not negated, with at least half its content words
// in the passage.
func movedFrom(c, p *text) bool {
	if c.negs > 0 || !mentions(c, nowWords) || mentions(c, pastWords) || overlap(c, p) < 0.5 {
		return false
	}
	for i, tk := range p.toks {
		if !moveVerbs[tk.Lower] {
			continue
		}
		from, to := -1, -1
		for k := i + 1; k < min(len(p.toks), i+9); k++ {
			switch {
			case p.toks[k].Lower == "from" && from < 0:
				from = k
			case p.toks[k].Lower == "to" && from >= 0:
				to = k
			}
			if to >= 0 {
				break
			}
		}
		if from < 0 || to < 0 {
			continue
		}
		old, next := namesAfter(p.toks, from+1), namesAfter(p.toks, to+1)
		if len(old) == 0 || len(next) == 0 || !hasAny(c, old) || hasAny(c, next) {
			continue
		}
		return true
	}
	return false
}

// hasAny reports whether t has one of the stems of names.
func hasAny(t *text, names []token) bool {
	for _, n := range names {
		if t.stems[n.Stem] {
			return true
		}
	}
	return false
}

// movedRule moves all but negKeep of the entailment to contradiction when
// the passage says the claim's place is one its subject left (movedFrom).
func movedRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	if movedFrom(c, p) {
		return toContradiction(j)
	}
	return j
}
