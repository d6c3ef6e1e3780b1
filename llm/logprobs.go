package llm

import (
	"math"
	"strings"
	"unicode"
)

// TokenLogprob is a candidate token and its natural-log probability.
type TokenLogprob struct {
	Token   string
	Logprob float64
}

// MatchLabels returns, for each label that some alternative spells the
// start of, the natural log of the total probability of those alternatives.
// alts are the candidates for one token position, e.g. the first token's
// top alternatives. An alternative spells a label when, lower-cased and
// stripped of spaces, punctuation and tokenizer word markers, it is a
// prefix of the label: "Ent" and " entail" for "entailment", "Neutral." for
// "neutral", but not "Because" for "B". Alternatives that would match two
// labels are ambiguous and count for neither; duplicate tokens count once.
// Labels no alternative spells are absent from the map.
func MatchLabels(alts []TokenLogprob, labels []string) map[string]float64 {
	norm := make([]string, len(labels))
	for i, l := range labels {
		norm[i] = normToken(l)
	}
	mass := make(map[string]float64, len(labels))
	seen := make(map[string]bool, len(alts))
	for _, a := range alts {
		if seen[a.Token] || math.IsNaN(a.Logprob) {
			continue
		}
		seen[a.Token] = true
		t := normToken(a.Token)
		if t == "" {
			continue
		}
		match := -1
		for i, l := range norm {
			if strings.HasPrefix(l, t) {
				if match >= 0 {
					match = -2
					break
				}
				match = i
			}
		}
		if match >= 0 {
			mass[labels[match]] += math.Exp(a.Logprob)
		}
	}
	out := make(map[string]float64, len(mass))
	for l, p := range mass {
		out[l] = math.Log(p)
	}
	return out
}

// normToken lower-cases s and strips what surrounds a word in a token:
// spaces, punctuation and the word-start markers of SentencePiece (▁) and
// byte-level BPE (Ġ) vocabularies.
func normToken(s string) string {
	s = strings.NewReplacer("▁", "", "Ġ", "").Replace(s)
	s = strings.TrimFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return strings.ToLower(s)
}
