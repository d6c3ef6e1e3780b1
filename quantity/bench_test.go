package quantity

import (
	"strings"
	"testing"
)

// passage1000 is a 1,000-word passage mixing prose, figures, dates and
// units, the size of a long retrieved passage.
var passage1000 = func() string {
	const para = "Our database recorded 9,210 operational satellites as of January 1, 2024, confirming the growth trend. " +
		"Global emissions rose about 1.1% in 2023 to 36.8 Gt, while warming reached 1.1 degrees Celsius above " +
		"pre-industrial levels. The company reported revenue of $4.2 billion, up from $3.9bn in the 1990s, " +
		"and employs more than 12,000 people in 42 countries. Nearly half of the respondents said the " +
		"policy, adopted on 15 March 2023 by a vote of 196 to 3, would cost between 10 and 20 percent more. "
	words := len(strings.Fields(para))
	var b strings.Builder
	for n := 0; n < 1000; n += words {
		b.WriteString(para)
	}
	return b.String()
}()

func BenchmarkExtract(b *testing.B) {
	b.SetBytes(int64(len(passage1000)))
	for b.Loop() {
		Extract(passage1000)
	}
}

func BenchmarkHasQuantity(b *testing.B) {
	const sentence = "The committee met on Tuesday and agreed that the report should be published soon."
	for b.Loop() {
		HasQuantity(sentence)
	}
}

func BenchmarkCompare(b *testing.B) {
	const claim = "The official number of active spacecraft orbiting Earth, as of the beginning of 2024, exceeded 9,000."
	for b.Loop() {
		Compare(claim, passage1000)
	}
}
