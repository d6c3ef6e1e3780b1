package nli

import (
	"math"
	"testing"
)

// FuzzPredict judges arbitrary pairs with the shipped judge, its readings
// and rules: no input may panic, and every judgment is three finite
// probabilities that sum to one.
func FuzzPredict(f *testing.F) {
	for _, seed := range [][2]string{
		{"The company makes cars.", "The company does not make cars."},
		{"The museum is open on Mondays.", "The museum is open every day except for Mondays and holidays."},
		{"Most residents voted for the plan.", "Only 30% of residents voted for the plan."},
		{"The river is longer than the Danube.", "The river is 1,200 km long, while the Danube is 2,850 km long."},
		{"The war lasted six years.", "The war lasted from 1939 to 1945."},
		{"The company was sold for $2.5 billion.", "Microsoft bought the company in 2014 for $2.5 billion."},
		{"Obama was the president.", "Biden is the president."},
		{"Building work started in 1933.", "Work was completed at the start of 2024. It opened (1937 – 1990) to traffic."},
		{"Induced hepatic stem cells differentiate.", "iHepSCs (iHepSCs) differentiate. AB Bank (AB) grew; AB fell."},
		{"The UN DOE PAI-1 of of", "United Nations Department of Energy (DOE) plasminogen activator inhibitor-1 (PAI-1) DOE"},
		{"x is longer than than", "except except, 100% of of"},
		{"", ""},
	} {
		f.Add(seed[0], seed[1])
	}
	a := loadAligner(f)
	f.Fuzz(func(t *testing.T, claim, passage string) {
		j := a.Predict(claim, passage)
		sum := 0.0
		for _, p := range []float64{j.Entail, j.Neutral, j.Contradict} {
			if math.IsNaN(p) || p < 0 || p > 1 {
				t.Fatalf("%q | %q: probability %g in %+v", claim, passage, p, j)
			}
			sum += p
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("%q | %q: probabilities sum to %g (%+v)", claim, passage, sum, j)
		}
	})
}
