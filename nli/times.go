package nli

import (
	"strconv"

	"github.com/verity-fc/verity/evidence"
)

// The times rule: "The team has won the league four times." against "The
// team won the league in 1998, 2004 and 2011." The networks read the
// claim's count as a figure with nothing to compare it to and the rest as
// said (entailment 0.56), and the exact reading of figures has no count
// in the passage. The passage's list of years after the claim's verb is
// the count: the same number of years bears the claim out, another
// refutes it.

// onceWords are counts of times written as one word.
var onceWords = map[string]int{"once": 1, "twice": 2, "thrice": 3}

// timesCount returns how many times the claim says its verb happened
// ("four times", "twice") and the index of that verb, the last content
// word before the count that is no stop word; ok is false when the claim
// has no such count, hedges it ("at least three times", "more than
// twice") or negates.
func timesCount(c *text) (n, verb int, ok bool) {
	if c.negs > 0 {
		return 0, 0, false
	}
	for i, tk := range c.toks {
		at := i // the first word of the count
		if k, once := onceWords[tk.Lower]; once {
			n = k
		} else if tk.Lower == "times" && i > 0 {
			v, num := numberValue(c.toks[i-1])
			if !num || v != float64(int(v)) || v < 1 {
				continue
			}
			n, at = int(v), i-1
		} else {
			continue
		}
		if at > 0 && (multipleHedges[c.toks[at-1].Lower] || c.toks[at-1].Lower == "least") {
			return 0, 0, false
		}
		for j := at - 1; j >= 0; j-- {
			if !stopwords[c.toks[j].Lower] && !c.toks[j].Num {
				return n, j, true
			}
		}
		return 0, 0, false
	}
	return 0, 0, false
}

// listGlue are the words a list of years may have between its years.
var listGlue = set("and", "in", "of")

// partialLists mark a list that names only some of the times ("including
// 1998 and 2004").
var partialLists = set("including", "include", "includes", "among", "such", "e.g")

// yearList returns how many years the passage lists after its first use
// of the verb stem: a run of at least two years with only listGlue
// between them. ok is false when there is none or the passage marks the
// list as partial.
func yearList(p *text, stem string) (n int, ok bool) {
	if p.negs > 0 {
		return 0, false
	}
	for _, tk := range p.toks {
		if partialLists[tk.Lower] {
			return 0, false
		}
	}
	for i, tk := range p.toks {
		if tk.Stem != stem {
			continue
		}
		for j := i + 1; j < len(p.toks); j++ {
			if !isYear(p.toks[j]) {
				continue
			}
			// The run of years that opens at j.
			n = 0
			for k := j; k < len(p.toks); k++ {
				switch t := p.toks[k]; {
				case isYear(t):
					n++
					continue
				case listGlue[t.Lower]:
					continue
				}
				break
			}
			return n, n >= 2
		}
		return 0, false
	}
	return 0, false
}

// timesVerdict is +1 when the passage lists as many years after the
// claim's verb as the claim counts times, -1 when it lists another
// number, 0 when the rule does not apply. The passage must have every
// content word of the claim but its count.
func timesVerdict(c, p *text) int {
	n, verb, ok := timesCount(c)
	if !ok {
		return 0
	}
	count := stemsWhere(c, func(w string) bool {
		_, err := strconv.Atoi(w)
		return w == "times" || onceWords[w] > 0 || numberWords[w] != "" || err == nil
	})
	if !coversBut(c, p.stems, count) {
		return 0
	}
	k, ok := yearList(p, c.toks[verb].Stem)
	switch {
	case !ok:
		return 0
	case k == n:
		return 1
	default:
		return -1
	}
}

// timesRule applies timesVerdict (see byVerdict).
func timesRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	return byVerdict(timesVerdict(c, p), j)
}
