package nli

import "testing"

func TestTenure(t *testing.T) {
	const mayor = "Michael Bloomberg served as mayor of New York City from 2002 to 2013."
	checkPairs(t, "tenure", tenure, []pairCase[int]{
		{"Bloomberg is the current mayor of New York.", mayor, -1},
		{"Bloomberg is the mayor of New York.", mayor, -1},
		{"Bloomberg is the former mayor of New York.", mayor, 1},
		{"Obama is the president of the United States.", "Barack Obama served as the 44th president of the United States from 2009 to 2017.", -1},
		{"Victoria is the queen.", "Victoria reigned as queen (1837–1901).", -1},
		// A state that held until a year now past.
		{"The tower is the tallest building in the world.", "The tower was the tallest building in the world until 2010.", -1},
		{"The tower is formerly the tallest building in the world.", "The tower was the tallest building in the world until 2010.", 1},
		{"The drug is banned in France.", "The drug was banned in France until 1998.", -1},
		{"The tower is the tallest building in the world.", "The tower was the tallest building in the world until 2090.", 0}, // not yet past
		// The past tense, a negation, an open span, a claim the passage
		// does not cover, or no role held: the rule does not apply.
		{"Bloomberg was mayor of New York.", mayor, 0},
		{"Bloomberg is not the mayor of New York.", mayor, 0},
		{"Bloomberg is the mayor of New York.", "Michael Bloomberg has served as mayor of New York City since 2002.", 0},
		{"Bloomberg is the governor of New York.", mayor, 0},
		{"The Premier League Asia Trophy is a battle.", "The Premier League Asia Trophy was a battle fought in Asia between 2003 and 2011.", 0},
	})
}
