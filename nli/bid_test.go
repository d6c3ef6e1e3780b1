package nli

import "testing"

func TestBidFailed(t *testing.T) {
	const olympics = "The city lost its bid to host the Olympics."
	checkPairs(t, "bidFailed", bidFailed, []pairCase[bool]{
		{"The senator was re-elected in 2018.", "The senator lost her re-election bid in 2018.", true},
		{"The company acquired the newspaper.", "The company abandoned its bid to acquire the newspaper.", true},
		{"The city hosted the Olympics.", olympics, true},
		// A bid won or succeeded, a claim about the bid itself, a claim
		// word the passage lacks, a failed attempt at something else, a
		// negation beside the failure.
		{"The senator was re-elected in 2018.", "The senator won her re-election bid in 2018.", false},
		{"The company acquired the newspaper.", "The company's bid to acquire the newspaper succeeded in May.", false},
		{"The city bid to host the Olympics.", olympics, false},
		{"The city hosted the World Cup.", olympics, false},
		{"The team lost the final.", "The team lost the final after a failed comeback attempt.", false},
		{"The city hosted the Olympics.", "The city never lost its bid to host the Olympics.", false},
	})
}
