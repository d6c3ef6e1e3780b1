package nli

import "testing"

func TestOppositeChange(t *testing.T) {
	checkPairs(t, "oppositeChange", oppositeChange, []pairCase[bool]{
		{"Sales declined in 2022.", "Sales increased by 12% in 2022, the company said.", true},
		{"The town's population decreased between 2010 and 2020.", "The town's population grew from 12,000 in 2010 to 15,500 in 2020.", true},
		{"The company lost market share.", "The company gained market share in 2022.", true},
		// The same way.
		{"Sales grew in 2022.", "Sales increased by 12% in 2022.", false},
		// The passage tells of changes both ways.
		{"Imports rose in 2022.", "Exports rose in 2022 while imports fell.", false},
		// The passage lacks a word of the claim.
		{"The drug reduced mortality.", "The drug increased survival.", false},
		// A negation on either side is the negation rules'.
		{"Sales did not decline in 2022.", "Sales increased in 2022.", false},
		// Growing up is no change, nor is a fall of a body.
		{"The singer grew up in Ohio.", "The singer lost weight in Ohio.", false},
		{"A man jumped from the bridge.", "A man fell from the bridge.", false},
		// A prevention is a change down.
		{"Mice lacking the gene were protected from tumours.", "Mice lacking the gene showed increased tumour formation.", true},
		{"The sea wall protected the town from flooding.", "Flooding in the town rose after the sea wall was built.", true},
		{"Exercise protects against heart disease.", "Exercise increases the risk of heart disease in older adults.", true},
		{"The vaccine prevented deaths among the elderly.", "Deaths among the elderly increased after the vaccine was introduced.", true},
		// Every form of a verb of change.
		{"The population of the city is growing.", "The city's population has been shrinking for a decade.", true},
		// Protection with no "from" near it is none.
		{"The law protected the forest.", "The forest area increased after the law.", false},
	})
}

func TestPreventionAgrees(t *testing.T) {
	checkPairs(t, "preventionAgrees", preventionAgrees, []pairCase[bool]{
		{"Exercise protects against heart disease.", "Exercise lowers the risk of heart disease.", true},
		{"The vaccine prevented deaths among the elderly.", "The vaccine reduced deaths among the elderly by half.", true},
		// The other way (oppositeChange's), a claim that prevents
		// nothing, a negation, a word of the claim the passage lacks.
		{"Exercise protects against heart disease.", "Exercise increases the risk of heart disease.", false},
		{"Exercise lowers the risk of heart disease.", "Exercise reduces heart disease.", false},
		{"Exercise protects against heart disease.", "Exercise does not lower the risk of heart disease.", false},
		{"Exercise protects against heart disease.", "Diet lowers the risk of heart disease.", false},
	})
}

func TestOtherWindow(t *testing.T) {
	const obesity = "Obesity rates have nearly tripled worldwide since 1975."
	checkPairs(t, "otherWindow", otherWindow, []pairCase[bool]{
		{"Obesity rates have increased since 1980.", obesity, true},
		{"Crime has risen since 2010.", "Crime has risen by 20% since 2008, police figures show.", true},
		// The same window, a change the other way (the change rule's), a
		// state since a year, no window in the passage, a word of the
		// claim the passage lacks.
		{"Obesity rates have increased since 1975.", obesity, false},
		{"Obesity rates have decreased since 1980.", obesity, false},
		{"He has lived in Paris since 2001.", "He has lived in Paris since 1999.", false},
		{"Obesity rates have increased since 1980.", "Obesity rates have nearly tripled worldwide.", false},
		{"Diabetes rates have increased since 1980.", obesity, false},
	})
}

// TestChangeVerbsHaveDirections: changeSign reads every verb of change
// by its direction, so each must have one.
func TestChangeVerbsHaveDirections(t *testing.T) {
	for w := range changeVerbs {
		if judgeDir(w) == 0 {
			t.Errorf("verb of change %q has no direction (judgeDirections)", w)
		}
	}
}
