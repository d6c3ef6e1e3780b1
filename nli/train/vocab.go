package train

import (
	"cmp"
	"slices"

	"github.com/verity-fc/verity/nli"
)

// MinWordCount is how often a word must occur in the training split's
// claims and passages to be tuned: a correction learned from fewer
// tokens would fit those pairs and nothing else.
const MinWordCount = 10

// Vocabulary returns at most k words to tune (Config.TuneWords): the
// words the model reads as tokens that occur most often in the training
// split's claims and passages, at least MinWordCount times, most frequent
// first (ties in byte order), so the same examples give the same list.
// Development and calibration pairs are not read.
func Vocabulary(exs []Example, k int) []string {
	if k <= 0 {
		return nil
	}
	enc := nli.NewEncoder(nli.EncoderOptions{})
	counts := map[string]int{}
	count := func(w string) { counts[w]++ }
	for _, e := range exs {
		if e.Split != SplitTrain {
			continue
		}
		enc.Words(e.Claim, count)
		enc.Words(e.Passage, count)
	}
	var words []string
	for w, n := range counts {
		if n >= MinWordCount {
			words = append(words, w)
		}
	}
	slices.SortFunc(words, func(a, b string) int {
		if c := cmp.Compare(counts[b], counts[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return words[:min(k, len(words))]
}
