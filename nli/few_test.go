package nli

import "testing"

func TestFewVerdict(t *testing.T) {
	checkPairs(t, "fewVerdict", fewVerdict, []pairCase[int]{
		{"Few people attended the concert.", "More than 50,000 people attended the concert.", -1},
		{"Only a handful of people attended the concert.", "About 2 million people attended the concert.", -1},
		{"Many people attended the concert.", "Only 3 people attended the concert.", -1},
		// A count within the amount is left to the networks, and so are
		// a count of something else, a passage about another event, a
		// negated text and a question.
		{"Few people attended the concert.", "Only 12 people attended the concert.", 0},
		{"Many people attended the concert.", "More than 50,000 people attended the concert.", 0},
		{"Few people attended the concert.", "More than 50,000 tickets were sold for the concert.", 0},
		{"Few people attended the concert.", "More than 50,000 people attended the festival.", 0},
		{"Few people attended the concert.", "No fewer than 50,000 people attended the concert.", 0},
		{"Not many people attended the concert.", "Only 3 people attended the concert.", 0},
		{"How many people attended the concert?", "Only 3 people attended the concert.", 0},
		{"Few attendees liked the concert.", "The 2019 attendees liked the concert.", 0}, // a year
		{"Few attendees liked the concert.", "The 2,019 attendees liked the concert.", -1},
		// A share of the noun, said the same way, when no count is given.
		{"Few residents voted for the plan.", "In the referendum, 85% of residents voted for the plan.", -1},
		{"Few residents voted for the plan.", "In the referendum, 50 percent of residents voted for the plan.", -1},
		{"Many residents voted for the plan.", "In the referendum, 2% of residents voted for the plan.", -1},
		{"Few residents voted for the plan.", "In the referendum, 12% of residents voted for the plan.", 0},
		{"Many residents voted for the plan.", "In the referendum, 40% of residents voted for the plan.", 0},
		{"Few residents voted for the plan.", "In the referendum, 85% of residents voted against the plan.", 0},
		{"Few residents voted for the plan.", "In the referendum, 85% of voters voted for the plan.", 0},
	})
}
