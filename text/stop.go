package text

import (
	"slices"
	"strings"
)

// A StopList is a set of lower-case function words that an analysis leaves
// out. Every stop-word list of verity is defined in this file: the
// Snowball list, and the lists of the consumers that must keep or drop
// other words, each written as the words it adds to or removes from
// another list where that is shorter than the list itself. A list is
// fixed once defined; its test pins each one, because changing a list
// changes what its consumer stores (retrieval's index, the embedder's
// vectors) or what its model was trained on (the NLI judge).
type StopList struct {
	set map[string]bool
}

// Has reports whether the lower-case word w is on the list.
func (l StopList) Has(w string) bool { return l.set[w] }

// Len is the number of words on the list.
func (l StopList) Len() int { return len(l.set) }

// Words returns the list's words, sorted.
func (l StopList) Words() []string {
	out := make([]string, 0, len(l.set))
	for w := range l.set {
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}

// Set returns a copy of the list as a set.
func (l StopList) Set() map[string]bool {
	m := make(map[string]bool, len(l.set))
	for w := range l.set {
		m[w] = true
	}
	return m
}

// stopList returns the words of base (nil for none) with add's words
// added and remove's words removed; add and remove are space-separated.
func stopList(base *StopList, add, remove string) StopList {
	m := map[string]bool{}
	if base != nil {
		for w := range base.set {
			m[w] = true
		}
	}
	for _, w := range strings.Fields(add) {
		m[w] = true
	}
	for _, w := range strings.Fields(remove) {
		delete(m, w)
	}
	return StopList{set: m}
}

// modals are the modal verbs the Snowball list lacks (it has "can",
// "will" and "should").
const modals = "could would may might must shall"

// SnowballStop is Snowball's English stop-word list, the words Porter2
// leaves unstemmed, and the base of the search, embedding and citation
// lists.
var SnowballStop = stopList(nil, `a about above after again against all am an
	and any are as at be because been before being below between both but by
	can did do does doing don down during each few for from further had has
	have having he her here hers herself him himself his how i if in into is
	it its itself just me more most my myself no nor not now of off on once
	only or other our ours ourselves out over own s same she should so some
	such t than that the their theirs them themselves then there these they
	this those through to too under until up very was we were what when where
	which while who whom why will with you your yours yourself yourselves`, "")

// SearchStop is what full-text search leaves out of queries, of the
// passages it indexes (BM25) and of the re-ranking's word overlap: the
// Snowball list with the modals and "also", "upon", "whether", words that
// match nearly every passage and say nothing of its subject.
var SearchStop = stopList(&SnowballStop, modals+" also upon whether", "")

// EmbedStop is what the built-in embedder skips: the Snowball list with
// the modals and the clitics GloVe's tokenisation splits off ("'s",
// "'re"), but keeping the negations ("no", "nor", "not": frequent, so SIF
// already weighs them lightly, and still content) and "now", and without
// "don", "s" and "t": the list the embedder's settings were measured with,
// which its stored vectors depend on.
var EmbedStop = stopList(&SnowballStop, "could might must shall would 's 're 've 'll 'd 'm", "don no nor not now s t")

// CitationStop is what the citation checker leaves out of the word
// overlap between a cited claim and the page: SearchStop with the words of
// attribution ("according", "said", "reported", "per"), which a claim and
// its source use about different speakers. (The checker had a list of its
// own, Snowball's with 20 words' difference; this one left its golden
// fixtures and its SciFact claim-in-source figures on all 919 pairs
// unchanged.)
var CitationStop = stopList(&SearchStop, "according per reported reports said says", "")

// AlignStop is what the NLI judge leaves out of alignment and overlap
// (Tokenize's words), and what its features count as function words; the
// shipped model was trained with it. Negations, quantifiers and modals
// are on it too: the judge reads them through features and input channels
// of their own.
var AlignStop = stopList(nil, `a about all also an and any are as at be been being both but by called
	can could did do does each for from had has have he her here him his how i if in into is it its just
	known less many may me might more most my named no not of on one only or other our out over s shall
	she should so some such than that the their them then there these they this those to up very was we
	were what when where which while who whom whose will with would you your`, "")

// AboutStop is what verify's aboutness leaves out: AlignStop and, as
// aboutness weighs only what a claim is about, the other function words.
var AboutStop = stopList(&AlignStop, `above after am another before below between doing during either ever
	every having it's must neither nor ones onto own same since still through too under until us why
	within without yet`, "")

// LexiconStop is what the built-in agent roles (agents/internal/lexicon)
// leave out of their content words. SearchStop and AboutStop in its place
// were measured on the roles' labelled samples (go test -run
// TestLabeledData ./agents/entail ./agents/jury) and each lost a claim
// somewhere, so it stays.
var LexiconStop = stopList(nil, `a an the and or but nor of to in on at by for with from as into onto
	over under about than then that this these those there their its it it's is are was were be been being
	am has have had do does did not no so such very can will would should shall must may might could he
	she they them his her hers our ours we you your i me my mine us who whom whose which what when where
	why how also just only more most some any all each every other both either neither one per via if
	while after before during since until up down out off again further once here own same too s t`, "")

// ContextStop is what package quantity leaves out of the words around a
// figure that pair a claim's figure with a source's: function words and
// the approximators ("about", "nearly", "least") that qualify a figure
// rather than say what it counts. The NLI judge's features use those
// pairings, so the list is part of what the model was trained on.
var ContextStop = stopList(nil, `the a an of in on at to for by and or as is was were are be been has
	had have it its this that these those with from than more less about over under some which who their
	there they he she his her into since per all also but not around nearly almost least most up s`, "")

// PairStop is what the NLI training data (nli/train) leaves out when it
// pairs a FEVER claim with the passage of another page that shares the
// most words with it, for the other-subject set: a short list, so that
// sharing "all" or "some" still counts.
var PairStop = stopList(nil, `a an the of in on at to for by with from as and or but is are was were
	be been it its this that he she they his her their which who has have had also not no`, "")
