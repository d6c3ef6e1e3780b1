package retrieval

import (
	txt "github.com/verity-fc/verity/text"
)

// maxQueryTerms bounds the distinct terms of one full-text query.
const maxQueryTerms = 64

// Full-text search reads text through package text: its words are
// text.Words (split as FTS5's unicode61 tokenizer splits), its terms the
// words text.SearchTerm accepts (text.SearchStop left out, no single
// letters, none longer than text.MaxTermBytes), stemmed by text.Porter2
// (through stemWord's cache).

// stems returns the set of English stems of the search terms of s, at
// most max terms taken.
func stems(s string, max int) map[string]bool {
	out := map[string]bool{}
	for _, t := range txt.SearchTerms(s, max) {
		out[txt.Porter2(t)] = true
	}
	return out
}
