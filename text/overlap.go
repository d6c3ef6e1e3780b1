package text

import "strings"

// Overlap is the fraction of the distinct stems of claim found in
// passage; 0 for a claim without stems.
func Overlap(claim []string, passage map[string]bool) float64 {
	seen := make(map[string]bool, len(claim))
	for _, s := range claim {
		seen[s] = true
	}
	return SetOverlap(seen, passage)
}

// SetOverlap is the fraction of the terms of claim found in passage, in
// [0,1]; 0 for an empty claim. It is the word overlap of retrieval's
// re-ranking, the citation checker and the NLI judge.
func SetOverlap(claim, passage map[string]bool) float64 {
	if len(claim) == 0 {
		return 0
	}
	n := 0
	for s := range claim {
		if passage[s] {
			n++
		}
	}
	return float64(n) / float64(len(claim))
}

// BestWindow returns the window of minN to maxN consecutive sentences
// with the highest score: its start and length. Ties go to the shorter
// and then the earlier window. With fewer than minN sentences it returns
// all of them.
func BestWindow(sents []string, minN, maxN int, score func(window string) float64) (start, n int) {
	if len(sents) <= minN {
		return 0, len(sents)
	}
	best := -1.0
	for k := minN; k <= min(maxN, len(sents)); k++ {
		for i := 0; i+k <= len(sents); i++ {
			if s := score(strings.Join(sents[i:i+k], " ")); s > best+1e-9 {
				best, start, n = s, i, k
			}
		}
	}
	return start, n
}

// Set returns the set of words, for SetOverlap and lookups.
func Set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
