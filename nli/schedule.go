package nli

import (
	"regexp"

	"github.com/verity-fc/verity/evidence"
)

// The schedule rule: "The project was completed on time." against "The
// project was completed two years behind schedule." The networks align
// the shared words and read an entailment (0.70); "on time" and "behind
// schedule" are opposites that no word of either says alone.

var (
	// timelyRe and lateRe find the phrases of keeping to a schedule and
	// of missing it.
	timelyRe = regexp.MustCompile(`(?i)\b(?:on\s+time|on\s+schedule|ahead\s+of\s+schedule|as\s+scheduled|as\s+planned)\b`)
	lateRe   = regexp.MustCompile(`(?i)\b(?:behind\s+schedule|late|delayed|overdue)\b`)
	// scheduleWords are the words of those phrases, which the passage
	// need not share with the claim.
	scheduleWords = set("on", "time", "schedule", "ahead", "of", "as", "scheduled", "planned", "behind", "late", "delayed", "overdue")
)

// timeliness reads a text as keeping to a schedule (+1), missing it (-1),
// or neither or both (0).
func timeliness(t *text) int {
	on, late := timelyRe.MatchString(t.raw), lateRe.MatchString(t.raw)
	switch {
	case on && !late:
		return 1
	case late && !on:
		return -1
	}
	return 0
}

// scheduleRule moves all but negKeep of the entailment to contradiction
// when the claim keeps to a schedule the passage says was missed, or the
// reverse, neither negated, and the passage has every content word of
// the claim but those of the phrases.
func scheduleRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	if c.negs > 0 || p.negs > 0 {
		return j
	}
	tc, tp := timeliness(c), timeliness(p)
	if tc == 0 || tp != -tc || !coversBut(c, p.stems, stemsWhere(c, func(w string) bool { return scheduleWords[w] })) {
		return j
	}
	return toContradiction(j)
}
