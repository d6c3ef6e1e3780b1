package nli

import "testing"

func TestMultipleVerdict(t *testing.T) {
	const revenue = "Revenue rose from $2 billion in 2020 to $4.1 billion in 2021."
	checkPairs(t, "multipleVerdict", multipleVerdict, []pairCase[int]{
		{"The company's revenue doubled in 2021.", revenue, 1},
		{"The company's revenue tripled in 2021.", revenue, -1},
		{"The town's population doubled between 2000 and 2020.", "The population grew from 12,000 in 2000 to 15,500 in 2020.", -1},
		{"The town's population halved.", "The population fell from 12,000 in 2000 to 6,100 in 2020.", 1},
		{"Prices doubled.", "Prices rose from 3 euros to 4 euros.", -1},
		// A percentage after a verb of change.
		{"Sales doubled in 2022.", "Sales rose by 110% in 2022, the company said.", 1},
		{"Sales doubled in 2022.", "Sales rose by 12% in 2022, the company said.", -1},
		{"Sales halved in 2022.", "Sales fell 48% in 2022.", 1},
		// Between the two bounds: unsettled.
		{"Prices doubled.", "Prices rose from 3 euros to 4.7 euros.", 0},
		// A hedged factor, a claim's own figure, a negation, another
		// subject, or no factor in the passage: the rule does not apply.
		{"Sales nearly doubled in 2022.", "Sales rose by 12% in 2022.", 0},
		{"Sales doubled to $4 billion.", revenue, 0},
		{"Sales have not doubled.", "Sales rose by 12% in 2022.", 0},
		{"Profits doubled in 2021.", revenue, 0},
		{"Revenue doubled in 2021.", "Revenue rose sharply in 2021.", 0},
		// Two figures of different units are no factor.
		{"Revenue doubled.", "Revenue rose from $2 billion to 4.1 billion euros.", 0},
	})
}
