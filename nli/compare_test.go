package nli

import (
	"testing"

	"github.com/verity-fc/verity/evidence"
)

func TestComparisonVerdict(t *testing.T) {
	const rivers = "The river is 1,200 km long, while the Danube is 2,850 km long."
	checkPairs(t, "comparisonVerdict", comparisonVerdict, []pairCase[int]{
		{"The river is shorter than the Danube.", rivers, 1},
		{"The river is longer than the Danube.", rivers, -1},
		{"The Danube is much longer than the river.", rivers, 1},
		{"The Nile is longer than the Amazon.", "The Nile (6,650 km) and the Amazon (6,400 km) are the two longest rivers.", 1},
		{"The Amazon is longer than the Nile.", "The Nile (6,650 km) and the Amazon (6,400 km) are the two longest rivers.", -1},
		// A superlative held by one of the two things, or its opposite.
		{"Russia is larger than Canada.", "Russia is the largest country in the world, followed by Canada.", 1},
		{"Canada is larger than Russia.", "Russia is the largest country in the world, followed by Canada.", -1},
		{"Canada is smaller than Russia.", "Russia is the largest country in the world, followed by Canada.", 1},
		{"Mercury is larger than Mars.", "Mercury, the smallest planet in the Solar System, is closer to the Sun than Mars.", -1},
		// A rank's holder has less than the one named after "after".
		{"Canada is larger than Russia.", "Canada is the second largest country in the world, after Russia.", -1},
		{"Russia is larger than Canada.", "Canada is the second largest country in the world, after Russia.", 1},
		{"Canada is larger than Russia.", "Canada is the second largest country in the world; Russia is in Europe.", 0},
		// Counts of one noun and of none compare.
		{"Lyon is larger than Paris.", "Paris has 2.1 million residents and Lyon 0.5 million.", -1},
		// Figures in other units, one figure, no comparison, a negation.
		{"The river is longer than the Danube.", "The river is 1,200 km long, while the Danube carries 6,500 m3 a second.", 0},
		{"The tower is taller than the cathedral.", "The tower is 330 metres tall.", 0},
		{"The river is 1,200 km long.", rivers, 0},
		{"The river is not longer than the Danube.", rivers, 0},
		// A comparison the passage states of the same two things, in
		// either order, with the claim's comparative or its opposite.
		{"The Nile is longer than the Amazon.", "The Amazon is shorter than the Nile.", 1},
		{"The Nile is shorter than the Amazon.", "The Amazon is shorter than the Nile.", -1},
		{"The dog is larger than the cat.", "The cat is bigger than the dog.", -1},
		{"The cat is larger than the dog.", "The cat is bigger than the dog.", 1},
		{"The Nile is longer than the Amazon.", "The Nile is longer than the Amazon by some 250 km.", 1},
		{"The Nile is shorter than the Amazon.", "The Nile is longer than the Amazon by some 250 km.", -1},
		{"Abu Dhabi has bigger oil reserves than Dubai.", "Dubai has far smaller oil reserves than Abu Dhabi.", 1},
		{"Tom is older than Anna.", "Tom is faster than Anna.", 0},                   // another dimension
		{"Tom is older than Anna.", "Tom is older than his brother.", 0},             // another thing compared
		{"Tom is older than Anna.", "Tom is not older than Anna.", 0},                // negated
		{"Tom is older than Anna.", "Anna and Tom are older than their cousins.", 0}, // both before the comparative
		// The same figure: neither is longer, and equal is left to the networks.
		{"The river is longer than the Danube.", "The river is 2,850 km long, as is the Danube at 2,850 km.", 0},
	})
}

func TestRankRule(t *testing.T) {
	const bridge = "The bridge is the third-longest suspension bridge in the world."
	for _, tt := range []struct {
		claim, passage string
		want           bool // the rule applies
	}{
		{"The bridge is the longest in the world.", bridge, true},
		{"The bridge is the third longest in the world.", bridge, false}, // the same rank
		{"The bridge is not the longest in the world.", bridge, false},   // negated: the networks'
		{"The tunnel is the longest in the world.", bridge, false},       // "tunnel" is not in the passage
		{"Stadio Giuseppe Meazza is the largest football stadium in Italy.", "Stadio San Paolo is a stadium in Naples, Italy, and is the third largest football stadium in Italy.", false}, // another stadium
		{"The element hydrogen is the most abundant in the universe.", "Helium is the second most abundant element in the known universe, after hydrogen.", false},
	} {
		j := evidence.Judgment{Entail: 0.8, Neutral: 0.1, Contradict: 0.1}
		if got := rankRule(analyse(tt.claim), analyse(tt.passage), j) != j; got != tt.want {
			t.Errorf("rankRule(%q, %q) applied %t, want %t", tt.claim, tt.passage, got, tt.want)
		}
	}
}
