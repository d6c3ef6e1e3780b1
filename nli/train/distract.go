package train

import (
	"hash/fnv"

	"github.com/verity-fc/verity/sentences"
)

// SetDistractor holds the pairs DistractorSentences makes.
const SetDistractor = "fever_distractor"

// DistractorSentences returns FEVER's pairs with a sentence about another
// subject added to their passage, before it or after it (by a hash of the
// claim), and their label: a sentence about another subject that shares
// words with the claim does not change what the passage says about it.
// verity judges chunks of several sentences of which one may bear on the
// claim; FEVER's passages are the evidence sentences alone. The pairs of
// FEVER and of its same-page neutrals (SetSamePage) get the first sentence
// of the claim's other-subject passage (SetOtherSubject), and the
// other-subject pairs the first sentence of the claim's random passage
// (SetRandom), so that a second sentence about something else comes with
// every label. A claim without such a passage in its split gets none.
// The pairs keep their original's group and split, so the training split
// teaches the network to look past such a sentence and the other splits
// measure whether it does ('verity train nli --distractors'). Passages
// must be untitled.
func DistractorSentences(exs []Example) []Example {
	type key struct {
		set   string
		split Split
		claim string
	}
	first := map[key]string{} // the first sentence of a claim's built neutral passage
	for _, e := range exs {
		if e.Set != SetOtherSubject && e.Set != SetRandom {
			continue
		}
		if s := sentences.Texts(e.Passage); len(s) > 0 {
			first[key{e.Set, e.Split, e.Claim}] = s[0]
		}
	}
	from := map[string]string{SetFEVER: SetOtherSubject, SetSamePage: SetOtherSubject, SetOtherSubject: SetRandom}
	var out []Example
	for _, e := range exs {
		src, ok := from[e.Set]
		if !ok {
			continue
		}
		d, ok := first[key{src, e.Split, e.Claim}]
		if !ok {
			continue
		}
		p := e.Passage + " " + d
		if before(e.Claim) {
			p = d + " " + e.Passage
		}
		out = append(out, Example{Set: SetDistractor, Claim: e.Claim, Passage: p, Target: e.Target, Group: e.Group, Split: e.Split})
	}
	return out
}

// before tells whether a claim's distractor goes before its passage: half
// of them do, fixed by the claim so that every run builds the same pairs.
func before(claim string) bool {
	h := fnv.New32a()
	h.Write([]byte(claim))
	return h.Sum32()&1 == 1
}
