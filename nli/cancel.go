package nli

import (
	"strings"

	"github.com/verity-fc/verity/evidence"
)

// The cancellation rule: "The president visited Japan last week." against
// "The president's planned visit to Japan was called off last week." was
// entailment 0.90: every word of the claim is in the passage, and the
// networks do not read that the visit never happened. A passage that
// says the claim's event was cancelled, called off or postponed says it
// did not take place as the claim says.

// cancellations are the verbs that call an event off ("abandoned" is
// left out: "an abandoned park" is more often a place than a plan).
var cancellations = set(strings.Fields(`cancelled canceled cancels cancel scrapped axed postponed shelved
	aborted`)...)

// cancelParticles are the particles that make "called" or "put" a
// cancellation: "called off", "put off".
var cancelParticles = map[string]string{"called": "off", "call": "off", "put": "off"}

// plannedWords make a claim one of a plan, which a cancellation does not
// deny: "The president planned to visit Japan." ("May" is left out: it is
// as often the month, and a hedged claim is the modal rule's.)
var plannedWords = set("plan", "planned", "plans", "planning", "scheduled", "expected", "proposed", "intended",
	"announced", "will", "would", "could", "might")

// occurrences are the words by which a claim says its event took place,
// which a passage that calls it off need not have: "The concert took
// place on Saturday." against "The concert was cancelled on Saturday."
var occurrences = set("took", "take", "place", "happened", "happen", "occurred", "occur", "held", "went", "ahead")

// cancelWindow is how many words from the word of cancellation the
// claim's event must stand: "visit to Japan was called off".
const cancelWindow = 5

// cancelledAt returns the index of t's word of cancellation, -1 when it
// has none.
func cancelledAt(t *text) int {
	for i, tk := range t.toks {
		if cancellations[tk.Lower] {
			return i
		}
		if p, ok := cancelParticles[tk.Lower]; ok && i+1 < len(t.toks) && t.toks[i+1].Lower == p {
			return i
		}
	}
	return -1
}

// cancelledEvent reports whether the passage says the claim's event was
// called off: the passage has a word of cancellation within cancelWindow
// words of one of the claim's content words, every content word of the
// claim but its words of occurrence, and no negation ("was not
// cancelled"); the claim has no cancellation, negation or word of a plan
// of its own.
func cancelledEvent(c, p *text) bool {
	if c.negs > 0 || p.negs > 0 || cancelledAt(c) >= 0 || mentions(c, plannedWords) {
		return false
	}
	at := cancelledAt(p)
	if at < 0 || !coversBut(c, p.stems, stemsWhere(c, func(w string) bool { return occurrences[w] })) {
		return false
	}
	claimed := set(c.content...)
	for k := max(0, at-cancelWindow); k < min(len(p.toks), at+cancelWindow+2); k++ {
		if k != at && claimed[p.toks[k].Stem] && !stopwords[p.toks[k].Lower] {
			return true
		}
	}
	return false
}

// cancelRule moves all but negKeep of the entailment of a claim whose
// event the passage says was called off to contradiction.
func cancelRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	if cancelledEvent(c, p) {
		return toContradiction(j)
	}
	return j
}
