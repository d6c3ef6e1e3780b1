// Package lexicon holds the word lists and text rules that the built-in
// agent roles share: word and content-word tokens, and the hedges,
// quantifiers, causal phrases, caveats and proper names those roles look
// for. Sentences come from package sentences, which keeps a text's exact
// wording.
//
// It is pure and safe for concurrent use. Text is data only: nothing in it
// changes how it is read.
package lexicon
