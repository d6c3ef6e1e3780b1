package nli

import (
	"slices"
	"strings"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/quantity"
)

// The multiple rule: "The company's revenue tripled in 2021." against
// "Revenue rose from $2 billion in 2020 to $4.1 billion in 2021." The
// networks read "tripled" as a rise and the passage as one (entailment
// 0.60 there, 0.71 for "doubled"), and the exact reading of figures has
// no figure of the claim to compare. The passage's two figures give the
// factor the claim names.

// multiples are the verbs that name a factor of change.
var multiples = map[string]float64{
	"doubled": 2, "doubles": 2, "doubling": 2, "tripled": 3, "triples": 3, "tripling": 3, "trebled": 3,
	"quadrupled": 4, "quadruples": 4, "halved": 0.5, "halves": 0.5, "halving": 0.5,
}

// multipleHedges before a verb of a factor loosen it ("nearly doubled",
// "more than tripled"); the rule leaves such claims to the networks.
var multipleHedges = set("nearly", "almost", "roughly", "about", "around", "approximately", "more", "over", "less",
	"than", "some", "partly", "effectively", "virtually")

// The factor a passage's figures give bears a claim's factor out within
// multipleAgree of it (doubling from 1.7 to 2.3 times), and refutes it
// beyond multipleRefute (below 1.5 or above 2.5 times).
const (
	multipleAgree  = 0.15
	multipleRefute = 0.25
)

// claimMultiple returns the factor a claim names and the stem of the word
// before its verb, the thing that changed ("revenue" in "revenue
// tripled"); ok is false when the claim names none, hedges it, has a
// figure of its own other than a year, or negates.
func claimMultiple(c *text) (factor float64, subject string, ok bool) {
	i := slices.IndexFunc(c.toks, func(tk token) bool { return multiples[tk.Lower] != 0 })
	if i <= 0 || c.negs > 0 || multipleHedges[c.toks[i-1].Lower] || stopwords[c.toks[i-1].Lower] {
		return 0, "", false
	}
	for _, q := range quantity.ExtractExact(c.raw) {
		if q.Kind != quantity.Year && q.Kind != quantity.Date {
			return 0, "", false
		}
	}
	return multiples[c.toks[i].Lower], c.toks[i-1].Stem, true
}

// passageFactor returns the factor by which the passage says an amount
// changed: the second of two figures of one unit over the first, written
// "from A ... to B", or one plus a percentage written after a verb of
// change ("rose by 150%", "fell 50%"). ok is false when it says neither,
// or both and they differ.
func passageFactor(p *text) (factor float64, ok bool) {
	qs := quantity.ExtractExact(p.raw)
	var figs []quantity.Quantity
	for _, q := range qs {
		if q.Kind != quantity.Year && q.Kind != quantity.Date && q.Kind != quantity.Ordinal {
			figs = append(figs, q)
		}
	}
	for k := 0; k+1 < len(figs); k++ {
		a, b := figs[k], figs[k+1]
		if a.Unit != b.Unit || a.Value <= 0 || a.Bound != quantity.Exact || b.Bound != quantity.Exact {
			continue
		}
		before := strings.ToLower(p.raw[max(0, a.Start-6):a.Start])
		between := strings.ToLower(p.raw[a.End:b.Start])
		if strings.Contains(before, "from") && strings.Contains(" "+between+" ", " to ") && !strings.Contains(between, "from") {
			return b.Value / a.Value, true
		}
	}
	for _, q := range figs {
		if q.Kind != quantity.Percent || q.Unit != "%" || q.Bound != quantity.Exact {
			continue
		}
		words := tokenize(p.raw[max(0, q.Start-24):q.Start])
		for k := len(words) - 1; k >= max(0, len(words)-2); k-- {
			if words[k].Lower == "by" {
				continue
			}
			if changeVerbs[words[k].Lower] {
				return 1 + float64(judgeDir(words[k].Lower))*q.Value/100, true
			}
			break
		}
	}
	return 0, false
}

// multipleVerdict compares the factor a claim names with the one the
// passage's figures give for the same thing: +1 when they agree, -1 when
// they differ, 0 when the rule does not apply (the passage does not
// name the claim's subject, negates, or gives no factor).
func multipleVerdict(c, p *text) int {
	f, subject, ok := claimMultiple(c)
	if !ok || p.negs > 0 || !p.stems[subject] {
		return 0
	}
	got, ok := passageFactor(p)
	if !ok || got <= 0 {
		return 0
	}
	switch r := got / f; {
	case r >= 1-multipleAgree && r <= 1+multipleAgree:
		return 1
	case r < 1-multipleRefute || r > 1+multipleRefute:
		return -1
	}
	return 0
}

// multipleRule applies multipleVerdict (see byVerdict).
func multipleRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	return byVerdict(multipleVerdict(c, p), j)
}
