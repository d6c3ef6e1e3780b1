package nli

import (
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/quantity"
)

// The age rule: "She was 45 when she died." against "She was born in
// 1920 and died in 1965." The networks read the claim's 45 against the
// passage's two years as figures in conflict (contradiction 0.61);
// quantity.AgeAtDeath reads the age the two years allow (44 or 45).

// ageFrame are the claim's words that frame an age at death, which the
// passage need not repeat ("Mozart died at 35." against "Mozart (1756 –
// 1791) was a composer.").
var ageFrame = set("died", "dies", "die", "death", "age", "aged", "old", "years", "when")

// ageRule moves the judgment to entailment when the claim's age at death
// is one the passage's life allows, to contradiction when it is none
// (see byVerdict), and both to neutral when the passage gives no life nor
// age (lifeWords), provided the passage has every other content word of
// the claim (the age and its frame aside) or the claim has none ("She
// died at 45.").
func ageRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	// quantity.AgeAtDeath reads an age only in a claim that says "died"
	// or "death"; the claim's figures are no content words.
	if !c.lowers["died"] && !c.lowers["death"] {
		return j
	}
	frame := stemsWhere(c, func(w string) bool { return ageFrame[w] })
	if !coversBut(c, p.stems, frame) && !onlyWords(c, frame) {
		return j
	}
	switch out, aged := quantity.AgeAtDeath(c.raw, p.raw); {
	case out == quantity.Agrees:
		return byVerdict(1, j)
	case out == quantity.Conflicts:
		return byVerdict(-1, j)
	case out == quantity.NotCompared && aged && !mentions(p, lifeWords):
		return entailToNeutral(toNeutral(j), offTopicKeep)
	}
	return j
}

// onlyWords reports whether every content word of c is one of stems: "She
// died at 45." has no word but its frame, and its pronoun may stand for
// anyone the passage speaks of.
func onlyWords(c *text, stems map[string]bool) bool {
	for _, s := range c.content {
		if !stems[s] {
			return false
		}
	}
	return true
}

// lifeWords are the words with which a passage may give an age or a
// birth. A passage with none of them and no life that AgeAtDeath reads
// neither gives nor denies the claim's age at death: "She died at 45."
// against "She died in 1965 in Paris." was contradiction 0.65, the
// networks reading 45 against 1965 as figures in conflict.
var lifeWords = set("born", "birth", "age", "aged", "old", "ages")
