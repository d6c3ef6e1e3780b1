package nli

import "github.com/verity-fc/verity/evidence"

// The bid rule: "The senator was re-elected in 2018." against "The
// senator lost her re-election bid in 2018." was entailment 0.89: the
// passage has every word of the claim, and nothing the networks read as
// a negation. A bid, attempt or campaign that was lost, failed or was
// abandoned did not achieve what it was for: when the claim's word stands
// by such a bid ("her re-election bid", "its bid to acquire the
// company"), the passage contradicts the claim.

// bidFailures are the words that say a bid did not succeed.
var bidFailures = set("lost", "loses", "lose", "losing", "failed", "unsuccessful", "abandoned", "abandons", "dropped",
	"withdrew", "withdrawn", "ended", "scrapped")

// bidNouns are the nouns of an attempt at something.
var bidNouns = set("bid", "bids", "attempt", "attempts", "campaign", "effort", "efforts", "offer", "proposal", "pursuit")

// bidClauses open another clause, which a bid's purpose does not cross.
var bidClauses = set("and", "but", "while", "which", "who", "after", "before", "because", "although", "though", "when", "as")

// bidReach is how many words after a word of failure its bid may stand,
// and how many after the bid the word it was for ("bid to acquire").
const bidReach = 4

// failedBid returns the stems of the words a failed bid of t was for:
// those between the word of failure and its bid noun ("lost her
// re-election bid": re, elect), and those just after the noun before
// another clause ("abandoned its bid to acquire the company": acquir,
// compani). nil when t has no failed bid.
func failedBid(t *text) map[string]bool {
	var out map[string]bool
	add := func(tk token) {
		if stopwords[tk.Lower] || tk.Num {
			return
		}
		if out == nil {
			out = map[string]bool{}
		}
		out[tk.Stem] = true
	}
	for i, tk := range t.toks {
		if !bidFailures[tk.Lower] {
			continue
		}
		for j := i + 1; j < min(len(t.toks), i+1+bidReach); j++ {
			if !bidNouns[t.toks[j].Lower] {
				continue
			}
			for _, w := range t.toks[i+1 : j] {
				add(w)
			}
			for _, w := range t.toks[j+1 : min(len(t.toks), j+1+bidReach)] {
				if bidClauses[w.Lower] {
					break
				}
				add(w)
			}
			break
		}
	}
	return out
}

// tries are the verbs of an attempt.
var tries = set("tried", "tries", "try", "sought", "seeks", "seek", "attempted", "attempts", "attempt", "bid", "bids")

// bidFailed reports whether the passage has every content word of the
// claim and a failed bid for one of them, the claim stating it (no
// negation, no failed bid of its own, no bid or attempt at all: "The
// city bid to host the Olympics." is true of a city that lost its bid)
// and the passage having no negation but its word of failure.
func bidFailed(c, p *text) bool {
	if c.negs > 0 || failedBid(c) != nil || mentions(c, bidNouns) || mentions(c, tries) || !coversAll(c, p) {
		return false
	}
	negs := 0
	for _, tk := range p.toks {
		if negations[tk.Lower] && !bidFailures[tk.Lower] {
			negs++
		}
	}
	if negs > 0 {
		return false
	}
	for s := range failedBid(p) {
		if c.stems[s] {
			return true
		}
	}
	return false
}

// bidRule moves all but negKeep of the entailment of a claim whose
// passage tells of a failed bid for it to contradiction.
func bidRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	if bidFailed(c, p) {
		return toContradiction(j)
	}
	return j
}
