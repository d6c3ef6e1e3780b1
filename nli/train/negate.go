package train

import (
	"strings"
)

// SetNegated holds the negated claims Negations makes.
const SetNegated = "negated"

// negatedWeight is the loss weight of a negated claim: rule-made, so
// below the weight of a labelled pair.
const negatedWeight = 0.5

// Negations returns, for each training-split pair of a trained set that is
// labelled entailment or neutral, the pair with its claim negated by
// negateClaim: an entailed claim negated is a contradiction, a neutral one
// stays neutral (so that "not" alone does not mean contradiction). A
// negated pair keeps its original's group and is trained on only.
func Negations(exs []Example) []Example {
	weights := setWeights()
	var out []Example
	for _, e := range exs {
		if e.Split != SplitTrain || (e.Target != tEntail && e.Target != tNeutral) {
			continue
		}
		if w, ok := weights[e.Set]; ok && w == 0 {
			continue
		}
		neg, ok := negateClaim(e.Claim)
		if !ok {
			continue
		}
		t := uint8(tNeutral)
		if e.Target == tEntail {
			t = tContradict
		}
		out = append(out, Example{Set: SetNegated, Claim: neg, Passage: e.Passage, Target: t, Group: e.Group, Split: SplitTrain})
	}
	return out
}

// negatable are the auxiliaries and copulas after which "not" negates a
// clause; perfect marks those that need a participle after them ("has
// not won", never "has not a sister").
var negatable = map[string]bool{
	"is": false, "are": false, "was": false, "were": false,
	"can": false, "could": false, "will": false, "would": false, "should": false,
	"may": false, "might": false, "must": false,
	"has": true, "have": true, "had": true,
}

// negators make a claim already negative: negateClaim leaves it alone.
var negators = map[string]bool{
	"not": true, "no": true, "never": true, "none": true, "nobody": true, "nothing": true,
	"neither": true, "nor": true, "without": true, "cannot": true,
}

// negateClaim inserts "not" after the claim's first auxiliary or copula
// ("The film was released in 2009." -> "The film was not released in
// 2009."). It declines claims that are already negative or have no such
// word.
func negateClaim(claim string) (string, bool) {
	words := strings.Fields(claim)
	for _, w := range words {
		lw := strings.ToLower(strings.Trim(w, ".,;:!?\"'()"))
		if negators[lw] || strings.HasSuffix(lw, "n't") {
			return "", false
		}
	}
	for i, w := range words[:max(len(words)-1, 0)] {
		perfect, ok := negatable[strings.ToLower(w)]
		if !ok || i == 0 {
			continue
		}
		if perfect {
			next := strings.ToLower(words[i+1])
			if !participle(next) {
				return "", false
			}
		}
		out := make([]string, 0, len(words)+1)
		out = append(out, words[:i+1]...)
		out = append(out, "not")
		out = append(out, words[i+1:]...)
		return strings.Join(out, " "), true
	}
	return "", false
}

// irregularParticiples are common past participles without a regular
// ending.
var irregularParticiples = map[string]bool{
	"won": true, "made": true, "held": true, "built": true, "led": true, "sold": true, "become": true,
	"begun": true, "run": true, "told": true, "found": true, "had": true, "lost": true, "left": true,
	"met": true, "paid": true, "said": true, "sent": true, "spent": true, "taught": true, "brought": true,
	"bought": true, "kept": true, "heard": true, "read": true, "set": true, "put": true, "got": true, "come": true,
	"done": true, "gone": true, "sung": true,
}

// participle reports whether a lower-case word looks like a past
// participle.
func participle(w string) bool {
	return irregularParticiples[w] || (strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "en") || strings.HasSuffix(w, "wn")) && !numberWords[w]
}

// numberWords end like participles ("seven", "ten") but are not.
var numberWords = map[string]bool{"seven": true, "ten": true, "eleven": true, "fifteen": true, "seventeen": true, "eighteen": true}
