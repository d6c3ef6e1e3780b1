package nli

import "github.com/verity-fc/verity/evidence"

// The order rule: "The novel was published before the author's death."
// against "The novel was published in 1925, two years after the author
// died." was entailment 0.69. "Before" and "after" reach the networks as
// opposite directions, but every other word of the claim is in the
// passage, and the networks let the agreement of the rest outweigh them.
// When the passage says all the claim says but orders the same event the
// other way ("after the author died" for "before the author's death"), it
// contradicts the claim.

// orderOpposites pairs the words that put one event before or after
// another.
var orderOpposites = map[string]string{"before": "after", "after": "before"}

// orderObjectWords is how many words after "before" or "after" its event
// is read in: "before the author's death", "after the author died".
const orderObjectWords = 4

// orderAt returns the index of t's one word of order, -1 when it has
// none or more than one.
func orderAt(t *text) int {
	at := -1
	for i, tk := range t.toks {
		if _, ok := orderOpposites[tk.Lower]; ok {
			if at >= 0 {
				return -1
			}
			at = i
		}
	}
	return at
}

// orderObject returns the stems of the content words in the
// orderObjectWords words after token at.
func orderObject(t *text, at int) map[string]bool {
	out := map[string]bool{}
	for _, tk := range t.toks[at+1 : min(len(t.toks), at+1+orderObjectWords)] {
		if !stopwords[tk.Lower] && !tk.Num {
			out[tk.Stem] = true
		}
	}
	return out
}

// orderVerdict is -1 when the passage orders the claim's event the other
// way round against the same event: neither text is negated, each has
// one word of order, the passage's is the opposite of the claim's, the
// content words after the claim's are all among those after the
// passage's, and the passage has every content word of the claim but
// the word of order. 0 otherwise ("published after the author's death"
// against "the author died before it was published" orders two events
// the same way by other words, and is left to the networks).
func orderVerdict(c, p *text) int {
	if c.negs > 0 || p.negs > 0 {
		return 0
	}
	ca, pa := orderAt(c), orderAt(p)
	if ca < 0 || pa < 0 || orderOpposites[c.toks[ca].Lower] != p.toks[pa].Lower {
		return 0
	}
	co, po := orderObject(c, ca), orderObject(p, pa)
	if len(co) == 0 {
		return 0
	}
	for s := range co {
		if !po[s] {
			return 0
		}
	}
	if !coversBut(c, p.stems, set(c.toks[ca].Stem)) {
		return 0
	}
	return -1
}

// orderRule applies orderVerdict (see byVerdict).
func orderRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	return byVerdict(orderVerdict(c, p), j)
}
