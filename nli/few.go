package nli

import "github.com/verity-fc/verity/evidence"

// The few rule: "Few people attended the concert." against "More than
// 50,000 people attended the concert." was entailment 0.80: the networks
// align the words and read no conflict between "few" and a count, and the
// quantifier rule compares quantifiers with quantifiers only. A vague
// amount bounds the count of its noun loosely, but tens of thousands are
// not few, and three are not many.

// vagueAmounts are the quantifiers of an amount without a figure: -1 for a
// small one ("few", "a handful of"), +1 for a large one.
var vagueAmounts = map[string]int8{"few": -1, "handful": -1, "many": 1, "numerous": 1}

// Counts beyond which a vague amount is settled: a count of at least
// notFew is not few, one of at most notMany is not many; and so with
// shares, in percent: half or more of residents are not few of them, and
// 5% or fewer not many ("Few residents voted for the plan." against
// "85% of residents voted for the plan." was entailment 0.64).
const (
	notFew       = 1000
	notMany      = 5
	notFewShare  = 50
	notManyShare = 5
)

// countScales multiply the figure before them ("2 million people").
var countScales = map[string]float64{"thousand": 1e3, "million": 1e6, "billion": 1e9}

// vagueAmount returns the vague amount of claim c, its sign, the stem of
// the noun it counts ("few people"), that noun's index and the stem of the
// quantifier.
func vagueAmount(c *text) (sign int8, noun string, at int, quant string, ok bool) {
	for i, tk := range c.toks {
		s := vagueAmounts[tk.Lower]
		if s == 0 || i > 0 && c.toks[i-1].Lower == "how" { // "how many"
			continue
		}
		for k := i + 1; k < min(len(c.toks), i+3); k++ {
			w := c.toks[k]
			if w.Lower == "of" {
				continue
			}
			if stopwords[w.Lower] || w.Num {
				break
			}
			return s, w.Stem, k, tk.Stem, true
		}
	}
	return 0, "", 0, "", false
}

// passageCount returns the figure the passage gives right before noun
// ("50,000 people", "2 million people"), if any; a figure of four digits
// from 1000 to 2100 written without a separator is a year ("the 2019
// attendees"), not a count.
func passageCount(p *text, noun string) (float64, bool) {
	for i, tk := range p.toks {
		if tk.Stem != noun {
			continue
		}
		k := i - 1
		scale := 1.0
		if k >= 0 && countScales[p.toks[k].Lower] > 0 {
			scale = countScales[p.toks[k].Lower]
			k--
		}
		if k < 0 || !p.toks[k].Num {
			continue
		}
		v, ok := numberValue(p.toks[k])
		if !ok || scale == 1 && isYear(p.toks[k]) {
			continue
		}
		return v * scale, true
	}
	return 0, false
}

// fewVerdict is -1 when the passage counts the noun of the claim's vague
// amount beyond it (at least notFew against a small amount, at most
// notMany against a large one), or, giving no count, a share of it beyond
// it (passageShare: at least notFewShare, at most notManyShare percent,
// said the same way), provided neither text is negated and
// the passage has every other content word of the claim; 0 otherwise. A
// count within the amount is left to the networks: how many are few
// depends on what is counted.
func fewVerdict(c, p *text) int {
	if c.negs > 0 || p.negs > 0 {
		return 0
	}
	sign, noun, at, quant, ok := vagueAmount(c)
	if !ok || !coversBut(c, p.stems, set(quant)) {
		return 0
	}
	if n, ok := passageCount(p, noun); ok {
		if sign < 0 && n >= notFew || sign > 0 && n <= notMany {
			return -1
		}
		return 0
	}
	if share, ok := passageShare(c, p, noun, at); ok && (sign < 0 && share >= notFewShare || sign > 0 && share <= notManyShare) {
		return -1
	}
	return 0
}

// fewRule applies fewVerdict (see byVerdict).
func fewRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	return byVerdict(fewVerdict(c, p), j)
}
