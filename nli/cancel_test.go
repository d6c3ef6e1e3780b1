package nli

import "testing"

func TestCancelledEvent(t *testing.T) {
	const visit = "The president's planned visit to Japan was called off last week."
	checkPairs(t, "cancelledEvent", cancelledEvent, []pairCase[bool]{
		{"The president visited Japan last week.", visit, true},
		{"The concert took place on Saturday.", "The concert was cancelled on Saturday because of the storm.", true},
		{"The launch happened in May.", "The launch, set for May, was postponed to July.", true},
		// A plan, the cancellation itself, a negated cancellation, a
		// cancellation of something else, a claim word the passage lacks
		// and an abandoned place are not read.
		{"The president planned to visit Japan.", visit, false},
		{"The concert was cancelled.", "The concert was cancelled on Saturday because of the storm.", false},
		{"The concert took place on Saturday.", "The concert was not cancelled on Saturday despite the storm.", false},
		{"The concert took place on Saturday.", "The concert took place on Saturday after an earlier date was cancelled.", false},
		{"The president visited China last week.", visit, false},
		{"A man is standing in Chinatown.", "A man stands in front of an abandoned Chinatown storefront.", false},
	})
}
