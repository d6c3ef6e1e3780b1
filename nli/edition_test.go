package nli

import "testing"

func TestOtherEdition(t *testing.T) {
	const london = "The 2012 Summer Olympics were held in London."
	checkPairs(t, "otherEdition", otherEdition, []pairCase[bool]{
		{"The 2016 Olympics were held in Rio de Janeiro.", london, true},
		{"The 2016 Olympics were held in London.", london, true},
		{"Brazil won the 2014 World Cup.", "Spain won the 2010 FIFA World Cup.", true},
		// The same edition (the slot rules'), the claim's year in the
		// passage, another event, a year that opens a sentence rather
		// than names an edition.
		{"The 2012 Olympics were held in Beijing.", london, false},
		{"The 2016 Olympics were held in Rio.", "Rio hosted the 2016 Olympics after London hosted the 2012 Summer Olympics.", false},
		{"The 2016 World Cup was held in Rio.", london, false},
		{"In 1977 Wood and Price formed Wizzo Band.", "Following the band's split in 1975, Wood and Price formed the short-lived Wizzo Band.", false},
	})
}
