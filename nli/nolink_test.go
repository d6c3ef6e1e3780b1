package nli

import "testing"

func TestDeniesLink(t *testing.T) {
	checkPairs(t, "deniesLink", deniesLink, []pairCase[bool]{
		{"Coffee consumption causes cancer.", "A large review found no link between moderate coffee consumption and cancer.", true},
		{"Vaccines cause autism.", "There is no evidence that vaccines cause autism.", true},
		{"Vaccines are linked to autism.", "Numerous studies have found no significant association between vaccines and autism.", true},
		{"ADHD medications increase the risk of serious cardiovascular events.", "Among adults, use of ADHD medications was not associated with an increased risk of serious cardiovascular events.", true},
		// The denial is of something else, after the claim's words.
		{"Smoking causes cancer.", "Smoking causes cancer; there is no evidence that vaping does.", false},
		// The passage lacks a word of the claim after its denial.
		{"Coffee causes heart disease.", "There is no link between coffee and cancer.", false},
		// No causal word in the claim, a negated claim, no denial.
		{"Coffee contains caffeine.", "There is no evidence that coffee contains caffeine.", false},
		{"Vaccines do not cause autism.", "There is no evidence that vaccines cause autism.", false},
		{"Coffee consumption is linked to cancer.", "Several studies have linked heavy coffee consumption to cancer.", false},
	})
}
