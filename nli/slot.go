package nli

import "github.com/verity-fc/verity/evidence"

// The same-slot rule: evidence that fills a slot of the claim's event with
// another name contradicts it (issue "another subject is neutral ...
// unless the claim and the passage fill the same slot of the same event").

// sameSlotRule moves all but negKeep of the entailment to contradiction
// when the passage fills a slot of the claim with another name
// (slotClash).
func sameSlotRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	if !slotClash(c, p) {
		return j
	}
	return toContradiction(j)
}

// nameRuns returns the runs of two or more capitalised words of t.
func nameRuns(t *text) [][]token {
	var runs [][]token
	for i := 0; i < len(t.toks); {
		j := i
		for j < len(t.toks) && t.toks[j].Cap {
			j++
		}
		if j-i >= 2 {
			runs = append(runs, t.toks[i:j])
		}
		if j == i {
			j++
		}
		i = j
	}
	return runs
}

// slotClash reports whether the passage fills a slot of the claim with
// another name: a name of two words or more of the claim and one of the
// passage share their first or last word (not a function word), and each
// has a word of three letters or more that the other text lacks, not even
// spelled within an edit or two ("Ratman" for "Ratnam"), while the passage
// has at least half of the claim's content words, so that both tell of the
// same event. "Kalabhavan Mani died at Rishi Hospital." against "...
// died on 6 March 2016 at Amrita Hospital" names another hospital, and
// "... a United Kingdom federal government complex" another country. A
// claim written as a headline, every word capitalised, has no names to
// tell apart, and a passage about another named subject
// (otherNamedSubject: "The Harbour Bridge opened in 1932." against "The
// Golden Gate Bridge opened in 1937.") fills no slot of the claim's.
func slotClash(c, p *text) bool {
	if overlap(c, p) < 0.5 || titleCase(c) || otherNamedSubject(c, p) {
		return false
	}
	for _, cr := range nameRuns(c) {
		for _, pr := range nameRuns(p) {
			first := cr[0].Stem == pr[0].Stem && !stopwords[cr[0].Lower]
			last := cr[len(cr)-1].Stem == pr[len(pr)-1].Stem && !stopwords[cr[len(cr)-1].Lower]
			if !first && !last {
				continue
			}
			if lacksWord(p, cr) && lacksWord(c, pr) {
				return true
			}
		}
	}
	return false
}

// lacksWord reports whether t lacks a word of three letters or more of
// run, not even spelled within an edit or two (nearSpelled).
func lacksWord(t *text, run []token) bool {
	for _, tk := range run {
		if !t.stems[tk.Stem] && len(tk.Lower) >= 3 && !nearSpelled(tk.Lower, t.toks) {
			return true
		}
	}
	return false
}

// titleCase reports whether every content word of t after its first is
// capitalised, as in a headline.
func titleCase(t *text) bool {
	for i, tk := range t.toks {
		if i > 0 && !tk.Num && !stopwords[tk.Lower] && !negations[tk.Lower] && !tk.Cap {
			return false
		}
	}
	return true
}

// nearSpelled reports whether a word of toks is w spelled within one edit,
// two for words of five letters or more.
func nearSpelled(w string, toks []token) bool {
	edits := 1
	if len(w) >= 5 {
		edits = 2
	}
	for _, t := range toks {
		if t.Lower != w && editWithin(w, t.Lower, edits) {
			return true
		}
	}
	return false
}

// editWithin reports whether a and b are at most limit edits (insertions,
// deletions, substitutions) apart, byte by byte. Written here rather than
// taken from a Levenshtein package: the length test turns most pairs away
// before any row is built, and the names it compares are lower-cased
// words of a few letters; github.com/agnivade/levenshtein would compute
// every full distance by rune, which reads "é" as one edit where this
// reads two, and so changes which names count as the same.
func editWithin(a, b string, limit int) bool {
	if d := len(a) - len(b); d > limit || -d > limit {
		return false
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)] <= limit
}
