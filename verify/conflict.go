package verify

import (
	"regexp"
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
func conflict(claimText string, terms []term, text string, nc evidence.NumCheck, minAbout float64) *evidence.Conflict {
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
	for _, sent := range sents {
		if c := negationConflict(terms, cw, sent, minAbout); c != nil {
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

// negationConflict reports a sentence that says the opposite of the claim
// by a negation the other lacks. Of an affirmative claim: a sentence about
// the claim (aboutness >= minAbout) that negates one of the claim's words,
// no name: "not", "never", "no" or "n't" before it, with at most articles
// and other stop words between ("The Great Pacific Garbage Patch is not an
// island" against "... is a solid island of plastic"; "vitamin D
// supplements do not reduce the risk of heart attacks" against "...
// reduce the risk of heart attacks and strokes"). Of a negated claim: a
// sentence that holds every content word of the claim and no negation
// ("The Soviet Union launched Sputnik 1 ..., the first artificial
// satellite" against "Sputnik 1 was not the first artificial satellite").
// A negation before a word the claim lacks says nothing about the claim's
// words: "I do not expect solar to matter" negates the expectation.
func negationConflict(terms []term, cw []word, sent string, minAbout float64) *evidence.Conflict {
	if len(terms) < 2 {
		return nil
	}
	ws := tokens(sent)
	if neg, ok := negatedPhrase(cw, nil); ok {
		if _, sentNeg := negatedPhrase(ws, nil); sentNeg || bestWindow(terms, sent).about < 1-1e-9 {
			return nil
		}
		return &evidence.Conflict{Kind: evidence.ConflictNegation, Claim: neg.phrase, Source: "no negation", Sentence: sent}
	}
	if bestWindow(terms, sent).about < minAbout {
		return nil
	}
	claimWords := map[string]string{}
	for _, w := range cw {
		if !w.skip && !w.name {
			claimWords[w.stem] = w.surface
		}
	}
	if neg, ok := negatedPhrase(ws, claimWords); ok {
		return &evidence.Conflict{Kind: evidence.ConflictNegation, Claim: claimWords[neg.stem], Source: neg.phrase, Sentence: sent}
	}
	return nil
}

// negation is a negated phrase of a text: the phrase as written, from the
// negation to the first content word after it, and that word's stem.
type negation struct{ phrase, stem string }

// negatedPhrase finds the first negation in ws whose first content word is
// one of want (by stem; any word when want is nil). "not only" and "not
// just" add rather than negate.
func negatedPhrase(ws []word, want map[string]string) (negation, bool) {
	for i, w := range ws {
		if !negationWord(strings.ToLower(w.surface)) {
			continue
		}
		for k := i + 1; k < len(ws) && k <= i+4; k++ {
			low := strings.ToLower(ws[k].surface)
			if low == "only" || low == "just" {
				break
			}
			if ws[k].skip {
				continue
			}
			if want == nil || want[ws[k].stem] != "" {
				return negation{phrase: surface(ws[i : k+1]), stem: ws[k].stem}, true
			}
			break
		}
	}
	return negation{}, false
}

func negationWord(w string) bool {
	switch w {
	case "not", "never", "no", "cannot", "nor", "neither":
		return true
	}
	return strings.HasSuffix(w, "n't") || strings.HasSuffix(w, "n’t")
}

// resolvedSentences returns the sentences of text, each that leans on the
// ones before for its subject ("Its main span of 1,280 metres ...") with
// the subject resolved (see [claim.Decontextualise]), in order: a sentence
// whose subject was resolved lends that subject to the next, so that "It
// was decommissioned in 1990." after "The ARPANET was a network. Its first
// link, between UCLA and SRI, ..." is the ARPANET's, not UCLA's. A person
// ("He", "She") is looked for in the sentences as written: "It opened in
// 1937 with Joseph Strauss as chief engineer. He died in 1938." is
// Strauss's death, not the bridge's.
func resolvedSentences(text string) []string {
	sents := sentences.Texts(text)
	out := make([]string, len(sents))
	for i, s := range sents {
		prev := out[:i]
		if personRe.MatchString(s) {
			prev = sents[:i]
		}
		out[i] = claim.Decontextualise(prev, s)
	}
	return out
}

// personRe matches a sentence that opens with a pronoun for a person.
var personRe = regexp.MustCompile(`^\s*(?:He|She|His|Her)\b`)

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
