package verify

import (
	"strings"

	"github.com/verity-fc/verity/claim"
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/sentences"
	"github.com/verity-fc/verity/wordvec"
	"github.com/viterin/vek/vek32"
)

// Conflicts: a sentence that states the claim's event about the claim's
// subject, with another figure or another name in one of the claim's
// roles, contradicts the claim whatever the judge makes of the paragraph
// around it. NLI judges read a changed year or a swapped name as a small
// difference ("The Golden Gate Bridge opened in 1947." against "... opened
// in 1937": contradiction 0.5-0.65 from a paragraph) and a name swap often
// as entailment; the conflict rules are exact but narrow, so they only ever
// raise a contradiction. Both demand that the sentence holds every content
// word of the claim (figures aside) - the same subject and the same event -
// which a sentence about a neighbouring fact does not: "Work on a net
// beneath the Golden Gate Bridge was completed in 2024" lacks "opened", so
// its 2024 does not dispute "The Golden Gate Bridge opened in 1937".

// DefaultConflict is the contradiction a passage with a conflict counts
// with: as much as a clear contradiction from the judge, enough for
// Refuted under the seed's policy (0.70) when nothing entails the claim.
const DefaultConflict = 0.9

// conflict returns the first figure or name conflict of passage text with
// the claim, or nil. nc is the passage's numeric check after [sameSlot].
func conflict(claimText string, terms []term, text string, nc evidence.NumCheck) *evidence.Conflict {
	sents := resolvedSentences(text)
	for _, m := range nc.Mismatches {
		for _, sent := range sents {
			if strings.Contains(sent, m.Source) && bestWindow(terms, sent).about >= 1-1e-9 {
				return &evidence.Conflict{Kind: evidence.ConflictFigure, Claim: m.Claim, Source: m.Source, Sentence: sent}
			}
		}
	}
	if len(nc.Mismatches) > 0 {
		return nil
	}
	cw := tokens(claimText)
	for _, sent := range sents {
		if c := oppositeConflict(terms, cw, sent); c != nil {
			return c
		}
	}
	names := entities(cw)
	if len(names) < 2 {
		// One name is the subject itself: "The Brooklyn Bridge opened in
		// 1883." against the Golden Gate is another subject, not a swap.
		return nil
	}
	for _, sent := range sents {
		if c := nameConflict(terms, cw, names, sent); c != nil {
			return c
		}
	}
	return nil
}

// oppositeConflict reports a sentence that holds every content word of the
// claim but one, which is no name, and in its place a word WordNet gives
// as its antonym: "The price of solar modules fell by around 90 percent
// between 2010 and 2020" against "The price of solar modules rose between
// 2010 and 2020.".
func oppositeConflict(terms []term, cw []word, sent string) *evidence.Conflict {
	ws := tokens(sent)
	has := map[string]bool{}
	for _, w := range ws {
		has[w.stem] = true
	}
	var missing []term
	for _, t := range terms {
		if !has[t.stem] {
			missing = append(missing, t)
		}
	}
	if len(missing) != 1 || missing[0].weight > 1 || len(terms) < 3 {
		return nil
	}
	var word string
	for _, w := range cw {
		if w.stem == missing[0].stem {
			word = strings.ToLower(w.surface)
			break
		}
	}
	wn, vecs := wordvec.DefaultWordNet(), wordvec.Default()
	for _, w := range ws {
		if w.skip || w.part {
			continue
		}
		other := strings.ToLower(w.surface)
		// WordNet pairs rare senses too ("open" and "walk", of a batter);
		// an antonym that fills the same slot is also used like the
		// word, so its vector is close: rise/fall 0.88, begin/end 0.67,
		// open/walk 0.42 in the shipped GloVe vectors.
		if wn.Relate(word, other)&wordvec.Antonym != 0 && similarity(vecs, word, other) >= minOppositeSimilarity {
			return &evidence.Conflict{Kind: evidence.ConflictOpposite, Claim: word, Source: w.surface, Sentence: sent}
		}
	}
	return nil
}

// resolvedSentences returns the sentences of text, each that leans on the
// ones before for its subject ("Its main span of 1,280 metres ...") with
// the subject resolved (see [claim.Decontextualise]).
func resolvedSentences(text string) []string {
	sents := sentences.Texts(text)
	out := make([]string, len(sents))
	for i, s := range sents {
		out[i] = claim.Decontextualise(sents[:i], s)
	}
	return out
}

// minOppositeSimilarity is the cosine of word vectors from which a
// WordNet antonym counts as the opposite of a claim's word.
const minOppositeSimilarity = 0.6

// similarity returns the cosine of the vectors of a and b, or 0 when
// either has none.
func similarity(t *wordvec.Table, a, b string) float64 {
	x, ok := t.Vector(a)
	y, ok2 := t.Vector(b)
	if !ok || !ok2 || len(x) != len(y) || vek32.Dot(x, x) == 0 || vek32.Dot(y, y) == 0 {
		return 0
	}
	return float64(vek32.CosineSimilarity(x, y))
}

// span is a run of words, [start, end).
type span struct{ start, end int }

// nameConflict reports a sentence that holds every content word of the
// claim but those of one of its names, none of which it holds, with at
// least one other name of the claim whole and, on the same side of the
// claim's first other content word (its event, in the claims verity
// sees: "proposed", "launched"), a name the claim does not have: "Tim
// Berners-Lee proposed the World Wide Web in March 1989." against "Vint
// Cerf proposed the World Wide Web in 1989.". The side keeps a name in
// another role out: "Tim Berners-Lee handed his manager at CERN a
// proposal" names no one else as the proposer of the Web.
func nameConflict(terms []term, cw []word, names []span, sent string) *evidence.Conflict {
	ws := tokens(sent)
	has := map[string]bool{}
	for _, w := range ws {
		has[w.stem] = true
	}
	inName := map[string]bool{}
	for _, n := range names {
		for _, w := range cw[n.start:n.end] {
			inName[w.stem] = true
		}
	}
	for _, t := range terms {
		if !inName[t.stem] && !has[t.stem] {
			return nil // the sentence lacks part of the claim's event
		}
	}
	pivot := -1
	for i, w := range cw {
		if !w.skip && !inName[w.stem] {
			pivot = i
			break
		}
	}
	if pivot < 0 {
		return nil
	}
	var missing *span
	whole := 0
	for i, n := range names {
		found := 0
		for _, w := range cw[n.start:n.end] {
			if has[w.stem] {
				found++
			}
		}
		switch {
		case found == n.end-n.start:
			whole++
		case found == 0 && missing == nil:
			missing = &names[i]
		default:
			return nil // a name half there, or two names missing
		}
	}
	if missing == nil || whole == 0 {
		return nil
	}
	before := missing.start < pivot
	at := -1 // the pivot's place in the sentence, as a word of its own
	for i, w := range ws {
		if w.stem == cw[pivot].stem && !w.part {
			at = i
			break
		}
	}
	if at < 0 {
		return nil // only inside a compound: "packet-switching" is no switch
	}
	claimStems := map[string]bool{}
	for _, t := range terms {
		claimStems[t.stem] = true
	}
	for _, other := range entities(ws) {
		if (other.start < at) != before {
			continue
		}
		foreign := true
		for _, w := range ws[other.start:other.end] {
			if claimStems[w.stem] {
				foreign = false
				break
			}
		}
		if foreign {
			return &evidence.Conflict{Kind: evidence.ConflictName, Claim: surface(cw[missing.start:missing.end]), Source: surface(ws[other.start:other.end]), Sentence: sent}
		}
	}
	return nil
}

// entities returns the names of a text: runs of capitalised content words
// that hold a word capitalised inside its sentence ("the World Wide Web",
// "Earth") or are two words or more ("Vint Cerf" opening a sentence). A
// lone capitalised word at the start of a sentence ("Construction") is no
// name.
func entities(ws []word) []span {
	var out []span
	start := -1
	named := false
	flush := func(end int) {
		if start >= 0 && (named || end-start > 1) {
			out = append(out, span{start, end})
		}
		start, named = -1, false
	}
	for i, w := range ws {
		if !w.upper || w.skip {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
		}
		named = named || w.name
	}
	flush(len(ws))
	return out
}

func surface(ws []word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.surface
	}
	return strings.Join(parts, " ")
}
