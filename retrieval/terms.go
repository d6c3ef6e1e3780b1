package retrieval

import (
	"strings"
	"unicode"
)

// Limits on the terms taken from query text.
const (
	// maxQueryTerms bounds the distinct terms of one full-text query.
	maxQueryTerms = 64
	// maxTermBytes drops longer "words" (hashes, base64) from queries.
	maxTermBytes = 64
)

// words splits s into lower-case runs of letters and digits, the way FTS5's
// unicode61 tokenizer does; everything else separates words.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	})
}

// contentTerms returns the distinct words of s that carry meaning: not
// stopwords, not single letters, not longer than maxTermBytes; at most max
// of them, in order of first appearance.
func contentTerms(s string, max int) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range words(s) {
		if len(out) == max {
			break
		}
		if seen[w] || stopwords[w] || len(w) > maxTermBytes || (len(w) == 1 && !unicode.IsDigit(rune(w[0]))) {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// stems returns the set of English stems of the content terms of s.
func stems(s string, max int) map[string]bool {
	out := map[string]bool{}
	for _, t := range contentTerms(s, max) {
		out[stemWord(t)] = true
	}
	return out
}

// overlap is the share of the claim's stems that the passage's stems hold,
// in [0,1]; 0 when the claim has no content term.
func overlap(claim map[string]bool, passage map[string]bool) float64 {
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

// stopwords are English function words, dropped from queries and from the
// lexical overlap: they match nearly every passage and say nothing of its
// subject. The list is the common core of the Lucene and NLTK lists.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		a about above after again against all am an and any are as at be because been before being below
		between both but by can could did do does doing down during each few for from further had has have
		having he her here hers herself him himself his how i if in into is it its itself just me more most
		my myself no nor not now of off on once only or other our ours ourselves out over own same she
		should so some such than that the their theirs them themselves then there these they this those
		through to too under until up very was we were what when where which while who whom why will with
		would you your yours yourself yourselves s t don also may might must shall upon whether`) {
		m[w] = true
	}
	return m
}()
