package nli

import (
	"regexp"
	"slices"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/sentences"
)

// The debunking rule: "Bulls are enraged by the colour red." against "It
// is a myth that bulls are enraged by the colour red." A passage that
// quotes a claim to call it false has every word of the claim, in order,
// and no negation of them, so the networks read it as entailed (0.90
// there; "The idea that Napoleon was short is a misconception." 0.89).
// Fact-checks and encyclopaedias debunk so; the frame, not the words,
// carries the verdict.

// debunkRes find a claim quoted to be called false; the first group is
// the claim as quoted.
var debunkRes = []*regexp.Regexp{
	// "It is a myth that ...", "It is not true that ..."
	regexp.MustCompile(`(?i)\bit(?:\s+is|'s|\s+was)\s+(?:a\s+)?(?:common\s+|popular\s+|widespread\s+|persistent\s+)?(?:myth|false|untrue|not\s+true|misconception|falsehood|hoax|fiction|untruth)\s+that\s+([^;]+)`),
	// "The claim that ... is false", "Reports that ... are a
	// 19th-century invention"
	regexp.MustCompile(`(?i)\b(?:common\s+|popular\s+|widespread\s+|persistent\s+)?(?:claims?|ideas?|notions?|beliefs?|myths?|rumou?rs?|assertions?|stories|story|reports?|suggestions?|theory|theories|allegations?)\s+that\s+(.+?)\s+(?:is|are|was|were|has\s+been|have\s+been)\s+(?:(?:a|an|entirely|completely|simply|largely|widely|wholly|demonstrably)\s+)?(?:[\w-]+\s+)?(?:false|untrue|myth|misconception|wrong|incorrect|baseless|unfounded|hoax|debunked|fabricated|fabrication|invention|fiction|fake|misleading|inaccurate|groundless|discredited|refuted|disproven|disproved)\b`),
	// "There is no evidence that ..."
	regexp.MustCompile(`(?i)\bno\s+(?:scientific\s+|credible\s+|reliable\s+|historical\s+)?evidence\s+(?:to\s+(?:suggest|support\s+the\s+claim|show)\s+)?that\s+([^;]+)`),
}

// debunkWords are the words of debunkRes's verdicts; a passage without
// one is not read further.
var debunkWords = set("myth", "myths", "false", "untrue", "true", "misconception", "falsehood", "hoax", "fiction",
	"untruth", "wrong", "incorrect", "baseless", "unfounded", "debunked", "fabricated", "fabrication", "invention",
	"fake", "misleading", "inaccurate", "groundless", "discredited", "refuted", "disproven", "disproved", "evidence")

// debunked reads a passage sentence that quotes a claim to call it
// false (debunkRes) against the claim: -1 when the quoted text holds
// every content word of the claim and the same negations ("failed" is
// one), +1 when the claim denies the quoted text with one more
// grammatical negation ("Napoleon was not short." against "The idea that
// Napoleon was short is a misconception."), 0 otherwise. The quoted text
// may not be longer than the claim by more than debunkSlack content
// words (a quote of something larger is not the claim's).
func debunked(c, p *text) int {
	if len(c.content) == 0 || !mentions(p, debunkWords) {
		return 0
	}
	for _, sent := range sentences.Texts(p.raw) {
		for _, re := range debunkRes {
			m := re.FindStringSubmatch(sent)
			if m == nil {
				continue
			}
			q := analyse(m[1])
			if !coversAll(c, q) || len(q.content) > len(c.content)+debunkSlack {
				continue
			}
			switch {
			case sameNegations(c, q):
				return -1
			case c.negs == q.negs+1 && slices.ContainsFunc(c.toks, func(tk token) bool {
				return grammaticalNegations[tk.Lower] && !q.lowers[tk.Lower]
			}):
				return 1
			}
		}
	}
	return 0
}

// sameNegations reports whether two texts have the same words of
// negation.
func sameNegations(a, b *text) bool {
	if a.negs != b.negs {
		return false
	}
	for w := range negations {
		if a.lowers[w] != b.lowers[w] {
			return false
		}
	}
	return true
}

// debunkSlack is how many more content words than the claim a quoted
// claim may have ("that Vikings wore horned helmets in battle" against
// "Vikings wore horned helmets.").
const debunkSlack = 4

// debunkRule applies debunked (see byVerdict).
func debunkRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	return byVerdict(debunked(c, p), j)
}
