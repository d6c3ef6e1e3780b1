package nli

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/verity-fc/verity/evidence"
)

// The ratio rule: "In young and middle-aged adults, current or remote uses
// of ADHD medications increase the risk of serious cardiovascular events."
// against "The multivariable-adjusted rate ratio (RR) of serious
// cardiovascular events for current use vs nonuse of ADHD medications
// was 0.83 (95% CI, 0.72-0.96)." A ratio of risks below one, with its
// confidence interval below one too, says the risk fell; the networks
// read the passage's words, which are the claim's, as entailment. Medical
// abstracts give their findings so, and health claims are what users
// check against them.

// ratioRe finds a ratio of risks, its estimate and its confidence
// interval: "hazard ratio, 1.27; 95% CI, 1.10 to 1.46", "odds ratio 1.24
// [95% CI 1.02–1.50]", "risk ratio 0.21 (95% confidence interval 0.10 to
// 0.43)". Between the name and the estimate it allows a short
// parenthesis or "of NOUN ... was", not "for recovery" (a ratio of rates
// of recovery above one is a gain).
var ratioRe = regexp.MustCompile(`(?i)\b(?:hazard|odds|risk|rate)\s+ratio\b([^0-9;]{0,120}?)(\d+(?:[.·]\d+)?)\s*[(\[;,]?\s*(?:95\s*%\s*)?(?:ci|confidence interval)?[^0-9]{0,10}?(\d+(?:[.·]\d+)?)\s*(?:-|–|—|to|,)\s*(\d+(?:[.·]\d+)?)`)

// riskWords name an outcome whose ratio the claim's direction is about.
var riskWords = set("risk", "risks", "odds", "hazard", "incidence", "mortality", "death", "deaths", "events")

// ratioVerdict compares the direction a claim gives a risk ("increase the
// risk", "lower mortality") with the one the passage's ratio of risks and
// its confidence interval give: +1 when they agree, -1 when they differ,
// 0 when the rule does not apply (no such claim or ratio, a negated
// claim, an interval that holds one, a ratio of recovery, or a passage
// that shares fewer than half the claim's content words).
func ratioVerdict(c, p *text) int {
	if c.negs > 0 || !mentions(c, riskWords) || overlap(c, p) < 0.5 {
		return 0
	}
	claimed := int8(0)
	for _, tk := range c.toks {
		if d := direction[tk.Lower]; d != 0 {
			if claimed != 0 && d != claimed {
				return 0
			}
			claimed = d
		}
	}
	if claimed == 0 {
		return 0
	}
	m := ratioRe.FindStringSubmatch(p.raw)
	if m == nil || strings.Contains(strings.ToLower(m[1]), "recovery") {
		return 0
	}
	est, err0 := parseDecimal(m[2])
	lo, err1 := parseDecimal(m[3])
	hi, err2 := parseDecimal(m[4])
	if err0 != nil || err1 != nil || err2 != nil || est < lo || est > hi {
		return 0 // not an estimate within its interval: misread
	}
	var found int8
	switch {
	case hi < 1:
		found = -1
	case lo > 1:
		found = 1
	default:
		return 0
	}
	if found == claimed {
		return 1
	}
	return -1
}

// parseDecimal reads a figure written with a point or a middle dot
// ("0·96", as The Lancet writes it).
func parseDecimal(s string) (float64, error) {
	return strconv.ParseFloat(strings.ReplaceAll(s, "·", "."), 64)
}

// ratioRule applies ratioVerdict, or else likelihoodVerdict (see
// byVerdict).
func ratioRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	v := ratioVerdict(c, p)
	if v == 0 {
		v = likelihoodVerdict(c, p)
	}
	return byVerdict(v, j)
}

// likelihoodRe finds a comparison of chances with its direction: "15 to
// 30 times more likely to get lung cancer", "less likely to develop".
var likelihoodRe = regexp.MustCompile(`(?i)\b(more|less)\s+likely\s+to\b`)

// likelihoodVerdict is the ratio rule for a comparison of chances: "Smoking
// increases the risk of lung cancer." against "Smokers are 15 to 30 times
// more likely to get lung cancer than non-smokers." was a tie, the
// networks reading neither "likely" nor "more" as the claim's rise in
// risk. It compares the direction the claim gives a risk (a risk word
// and a direction word, as ratioVerdict) with that of the passage's one
// comparison of chances, provided the claim is not negated, the passage
// negates nothing before the comparison (so "Non-smokers are less likely
// ..." is not read as the smokers' chances; "... than people who never
// smoked" is its baseline) and holds, at least by a shared prefix
// ("smoking", "smokers"; fuzzyIn), at least half of the claim's other
// content words, and one of them before the comparison (its subject).
func likelihoodVerdict(c, p *text) int {
	if c.negs > 0 || !mentions(c, riskWords) {
		return 0
	}
	ms := likelihoodRe.FindAllStringSubmatchIndex(p.raw, 2)
	if len(ms) != 1 {
		return 0
	}
	before := analyse(p.raw[:ms[0][0]])
	if before.negs > 0 || strings.Contains(strings.ToLower(before.raw), "non-") {
		return 0
	}
	var claimed int8
	other, held, subject := 0, 0, false
	for _, tk := range c.toks {
		if d := judgeDir(tk.Lower); d != 0 {
			if claimed != 0 && d != claimed {
				return 0
			}
			claimed = d
			continue
		}
		if stopwords[tk.Lower] || riskWords[tk.Lower] || tk.Num {
			continue
		}
		other++
		if p.stems[tk.Stem] || fuzzyIn(tk.Stem, p.stems) {
			held++
		}
		if before.stems[tk.Stem] || fuzzyIn(tk.Stem, before.stems) {
			subject = true
		}
	}
	if claimed == 0 || other == 0 {
		return 0
	}
	if 2*held < other || !subject {
		return 0
	}
	found := int8(1)
	if strings.EqualFold(p.raw[ms[0][2]:ms[0][3]], "less") {
		found = -1
	}
	if found == claimed {
		return 1
	}
	return -1
}
