package nli

import (
	"strings"

	"github.com/verity-fc/verity/evidence"
)

// The change rule: "Sales declined in 2022." against "Sales increased by
// 12% in 2022, the company said." Direction words reach the networks as a
// relation (encoder, relDirOpposite), but when the two verbs of change
// are not aligned with each other, or figures and dates beside them are,
// the networks leave such a pair near a tie (contradiction 0.57 there,
// 0.46 for "The town's population decreased between 2010 and 2020."
// against "... grew from 12,000 in 2010 to 15,500 in 2020."). When the
// passage says everything the claim says but how the thing changed, and
// says it changed the other way, it contradicts the claim.

// changeVerbs are the verbs of direction that tell how an amount changed.
// Verbs of movement that may tell of a body ("jumped", "climbed") are
// left out ("A man jumped from the bridge." against "A man fell from the
// bridge." is no change of amount), as are "raised" (also brought up),
// "cut" (also a noun) and the comparatives and prepositions of direction
// ("more", "over", "after").
var changeVerbs = set(strings.Fields(`rise rises rose risen rising increase increases increased increasing grow grows
	grew growing gain gains gained gaining soar soars soared surge surges surged expand expands expanded expanding
	improve improves improved improving double doubles doubled triple tripled strengthen strengthened boost boosted
	fall falls fell fallen falling decline declines declined declining decrease decreases decreased decreasing drop
	drops dropped dropping shrink shrinks shrank shrunk lose loses lost losing sink sinks sank plunge plunges plunged
	slump slumped worsen worsens worsened weaken weakens weakened halve halved reduce reduces reduced reducing
	lowers lowered lowering lessen lessens lessened diminish diminishes diminished shrinking sinking plunging slumps
	slumping soaring surging boosts boosting doubling tripling triples halves halving strengthens strengthening
	weakening worsening`)...)

// preventions are verbs that keep down what they take: "prevented
// deaths", and "protected from tumours" with "from" or "against" after
// them (protectVerbs). A change of that thing the other way contradicts
// them: "Mice lacking the gene were protected from tumours." against
// "Mice lacking the gene showed increased tumour formation." was
// entailment 0.79.
var (
	preventions  = set("prevent", "prevents", "prevented", "preventing")
	protectVerbs = set("protect", "protects", "protected", "protecting", "shield", "shields", "shielded")
)

// prevention reports whether toks[i] keeps down what it takes: a word
// of preventions, or of protectVerbs with "from" or "against" among the
// protectReach words after it ("protected the town from flooding").
func prevention(toks []token, i int) bool {
	if preventions[toks[i].Lower] {
		return true
	}
	if !protectVerbs[toks[i].Lower] {
		return false
	}
	for _, tk := range toks[i+1 : min(len(toks), i+1+protectReach)] {
		if tk.Lower == "from" || tk.Lower == "against" {
			return true
		}
	}
	return false
}

// protectReach is how many words after a verb of protection its "from"
// may stand.
const protectReach = 4

// prevents reports whether t has a prevention.
func prevents(t *text) bool {
	for i := range t.toks {
		if prevention(t.toks, i) {
			return true
		}
	}
	return false
}

// changeSign returns the direction of t's verbs of change: +1 or -1 when
// they all go one way, 0 when t has none or both ways. "Grew up" is no
// change; a prevention is a change down.
func changeSign(t *text) int8 {
	var sign int8
	for i, tk := range t.toks {
		d := judgeDir(tk.Lower)
		switch {
		case prevention(t.toks, i):
			d = -1
		case !changeVerbs[tk.Lower] || i+1 < len(t.toks) && t.toks[i+1].Lower == "up" && strings.HasPrefix(tk.Lower, "gr"):
			continue
		}
		if sign != 0 && d != sign {
			return 0
		}
		sign = d
	}
	return sign
}

// oppositeChange reports whether the passage says the claim's amount
// changed the other way: neither text has a negation, each tells of a
// change one way only, the two ways differ, and the passage has every
// content word of the claim but its verbs of change and words of time
// ("between 2010 and 2020" against "from 12,000 in 2010 to 15,500 in
// 2020").
func oppositeChange(c, p *text) bool {
	if c.negs > 0 || p.negs > 0 {
		return false
	}
	cs := changeSign(c)
	if cs == 0 || changeSign(p) != -cs {
		return false
	}
	return coversBut(c, p.stems, changeWords(c))
}

// changeWords are the stems of c's words that tell how and when its
// amount changed, which a passage that says the change may say
// otherwise.
func changeWords(c *text) map[string]bool {
	return stemsWhere(c, func(w string) bool {
		return changeVerbs[w] || preventions[w] || protectVerbs[w] || timeWords[w] || w == "between" || w == "against"
	})
}

// preventionAgrees reports whether the passage says that what the claim
// says was prevented went down: "Exercise protects against heart
// disease." against "Exercise lowers the risk of heart disease." (which
// the networks called contradiction 0.52). Neither text has a negation,
// and the passage has every content word of the claim but its words of
// change.
func preventionAgrees(c, p *text) bool {
	if c.negs > 0 || p.negs > 0 || !prevents(c) || changeSign(c) != -1 || changeSign(p) != -1 {
		return false
	}
	return coversBut(c, p.stems, changeWords(c))
}

// changeRule moves all but negKeep of the entailment of a claim whose
// amount the passage says changed the other way to contradiction, and
// all but negKeep of the contradiction of a claim whose prevention the
// passage says went down to entailment.
func changeRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	switch {
	case oppositeChange(c, p):
		return toContradiction(j)
	case preventionAgrees(c, p):
		return contradictToEntail(j, negKeep)
	}
	return j
}

// The window rule: "Obesity rates have increased since 1980." against
// "Obesity rates have nearly tripled worldwide since 1975." was
// contradiction 0.86, "Crime has risen since 2010." against "Crime has
// risen by 20% since 2008" 0.95: the two years differ, and the figures
// and the networks read that as a conflict. But a change "since" a year
// is measured over a window that opens then, and a change over another
// window says nothing of the claim's, either way.

// sinceYear returns the year after t's first "since" ("since 1980"),
// false when it has none.
func sinceYear(t *text) (string, bool) {
	for i, tk := range t.toks[:max(0, len(t.toks)-1)] {
		if next := t.toks[i+1]; tk.Lower == "since" && isYear(next) {
			return next.Lower, true
		}
	}
	return "", false
}

// otherWindow reports whether the passage tells of the claim's change, the
// same way, over a window that opens in another year: neither text has a
// negation, each tells of a change one way only, the ways agree, each
// opens its window with "since" and a year, the years differ, and the
// passage has every content word of the claim but its verbs of change,
// words of time and year.
func otherWindow(c, p *text) bool {
	if c.negs > 0 || p.negs > 0 {
		return false
	}
	cs := changeSign(c)
	if cs == 0 || changeSign(p) != cs {
		return false
	}
	cy, ok := sinceYear(c)
	py, pok := sinceYear(p)
	if !ok || !pok || cy == py {
		return false
	}
	except := stemsWhere(c, func(w string) bool { return changeVerbs[w] || timeWords[w] || w == cy })
	return coversBut(c, p.stems, except)
}

// windowRule moves all but offTopicKeep of the contradiction of a claim
// whose change the passage measures over another window to neutral.
func windowRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	if otherWindow(c, p) {
		return contradictToNeutral(j, offTopicKeep)
	}
	return j
}
