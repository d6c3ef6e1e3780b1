package nli

import (
	"regexp"
	"strconv"
	"time"

	"github.com/verity-fc/verity/evidence"
)

// The tenure rule: "Bloomberg is the current mayor of New York." against
// "Michael Bloomberg served as mayor of New York City from 2002 to 2013."
// The networks align every word of the claim but "current" and read the
// pair as entailed (0.75 there; "Obama is the president of the United
// States." against "... served as the 44th president ... from 2009 to
// 2017." 0.91). A passage that says someone held a role over a span of
// years now past tells that the role ended: a claim that they hold it
// now is contradicted, one that they held it formerly entailed.

// tenureRe finds a role held over a closed span of years in the past
// tense: "served as mayor ... from 2002 to 2013", "held the post between
// 1993 and 2001", "reigned (1837–1901)". "Was" is left out: "was a battle
// fought between 2003 and 2011" tells of no role.
var tenureRe = regexp.MustCompile(`(?i)\b(?:served|held|reigned|ruled|presided)\b[^.;]{0,120}?(?:\bfrom\s+\d{3,4}\s+(?:to|until)\s+\d{3,4}\b|\bbetween\s+\d{3,4}\s+and\s+\d{3,4}\b|\buntil\s+\d{3,4}\b|\(\d{3,4}\s*[–—-]\s*\d{3,4}\))`)

// endedRe finds a state that held until a year: "was the tallest
// building in the world until 2010", "were banned until 1998". A year
// not yet past ("was licensed until 2040") ends nothing (roleEnded).
var endedRe = regexp.MustCompile(`(?i)\b(?:was|were)\b[^.;]{0,120}?\buntil\s+(\d{4})\b`)

// roleEnded reports whether the passage says a state or role ended: a
// tenure over a closed span of years, or a state that held until a
// year now past.
func roleEnded(passage string) bool {
	if tenureRe.MatchString(passage) {
		return true
	}
	for _, m := range endedRe.FindAllStringSubmatch(passage, -1) {
		if y, err := strconv.Atoi(m[1]); err == nil && y < time.Now().Year() {
			return true
		}
	}
	return false
}

// presentRole are the claim words that hold a role now, formerRole those
// that held it before.
var (
	presentRole = set("current", "currently", "now", "still", "incumbent", "sitting")
	formerRole  = set("former", "formerly", "ex", "previous", "previously", "once", "past")
	// presentVerbs put a claim in the present tense.
	presentVerbs = set("is", "are", "remains", "remain", "serves", "serve", "holds")
)

// tenure reads a claim about a role against a passage that says the role
// was held over a span now closed: -1 for a claim in the present tense
// ("is the mayor", "is the current mayor"), +1 for one that calls it
// former ("is the former mayor"), 0 when the rule does not apply (no
// such passage, a negation on either side, a claim in the past tense, or
// a passage that lacks a content word of the claim but the words of
// time).
func tenure(c, p *text) int {
	verdict := 0
	switch {
	case mentions(c, formerRole):
		verdict = 1
	case mentions(c, presentVerbs) && !c.lowers["was"] && !c.lowers["were"]:
		verdict = -1
	}
	if verdict == 0 || c.negs > 0 || p.negs > 0 {
		return 0
	}
	except := stemsWhere(c, func(w string) bool { return presentRole[w] || formerRole[w] || timeWords[w] })
	if !coversBut(c, p.stems, except) || !roleEnded(p.raw) {
		return 0
	}
	return verdict
}

// tenureRule applies tenure (see byVerdict).
func tenureRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	return byVerdict(tenure(c, p), j)
}
