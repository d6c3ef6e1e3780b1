package nli

import "testing"

func TestOtherFirst(t *testing.T) {
	const arpanet = "On 29 October 1969 a student at UCLA sent the first message over the ARPANET to a computer at the Stanford Research Institute."
	checkPairs(t, "otherFirst", otherFirst, []pairCase[bool]{
		{"The first email was sent over the ARPANET in 1971.", arpanet, true},
		{"Her first novel was published in 1990.", "Her first poem was published in 1985.", true},
		// The same thing, or a synonym or a kind of it.
		{"The first message was sent over the ARPANET in 1971.", arpanet, false},
		{"Her first film was released in 1990.", "Her first movie was released in 1990.", false},
		{"The first car was built in 1886.", "The first vehicle was built in 1769.", false},
		// "First" as an adverb, or in a name.
		{"The moon was first touched by mankind in 1969.", "Armstrong took humanity's first small step on the moon in 1969.", false},
		{"Ram Charan was the first choice for the role.", "The director first approached Ram Charan for the role.", false},
		{"First Knight scored 46% on Rotten Tomatoes.", "Based on 43 reviews, First Knight is rated at 47% on Rotten Tomatoes.", false},
		// The passage has the claim's word as well.
		{"The first email was sent in 1971.", "The first message was sent in 1969, and email followed in 1971.", false},
	})
}
