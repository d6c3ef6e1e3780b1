package nli

import "testing"

func TestRatioVerdict(t *testing.T) {
	const adhd = "The multivariable-adjusted rate ratio (RR) of serious cardiovascular events for current use vs nonuse of ADHD medications was 0.83 (95% CI, 0.72-0.96)."
	checkPairs(t, "ratioVerdict", ratioVerdict, []pairCase[int]{
		{"ADHD medications increase the risk of serious cardiovascular events.", adhd, -1},
		{"ADHD medications lower the risk of serious cardiovascular events.", adhd, 1},
		{"Statins increase the risk of dementia.", "Statin use was associated with a lower risk of dementia (hazard ratio 0.82, 95% CI 0.71 to 0.95).", -1},
		{"Smoking increases the risk of stroke.", "Smokers had a higher risk of stroke (odds ratio 2.1, 95% CI 1.6-2.8).", 1},
		{"Exposure raises the odds of asthma.", "Exposure was linked to asthma (odds ratio [OR] 1·95, 95% CI 1·21-3·15).", 1},
		// An interval that holds one settles nothing; nor does a ratio of
		// recovery, a claim without a direction or a risk, a negated
		// claim, or a passage about something else.
		{"The drug reduces mortality.", "Mortality did not differ between groups (hazard ratio 0.97; 95% CI 0.81 to 1.16).", 0},
		{"Remdesivir lowers the risk of death.", "Remdesivir shortened the time to recovery (rate ratio for recovery, 1.29; 95% CI, 1.12 to 1.49).", 0},
		{"ADHD medications affect the risk of serious cardiovascular events.", adhd, 0},
		{"ADHD medications increase blood pressure.", adhd, 0},
		{"ADHD medications do not increase the risk of serious cardiovascular events.", adhd, 0},
		{"Coffee increases the risk of gout.", adhd, 0},
		// An estimate outside its interval is a misreading.
		{"ADHD medications increase the risk of serious cardiovascular events.", "The rate ratio of serious cardiovascular events for ADHD medications was 1.83 (95% CI, 0.72-0.96).", 0},
	})
}

func TestLikelihoodVerdict(t *testing.T) {
	const (
		smokers  = "Smokers are 15 to 30 times more likely to get lung cancer than people who never smoked."
		exercise = "People who exercise regularly are less likely to develop heart disease."
	)
	checkPairs(t, "likelihoodVerdict", likelihoodVerdict, []pairCase[int]{
		{"Smoking increases the risk of lung cancer.", smokers, 1},
		{"Smoking reduces the risk of lung cancer.", smokers, -1},
		{"Smoking increases the risk of lung cancer.", "Smokers are 15 to 30 times more likely to get lung cancer than non-smokers.", 1},
		{"Exercise reduces the risk of heart disease.", exercise, 1},
		{"Exercise increases the risk of heart disease.", exercise, -1},
		// A comparison whose subject is negated, a claim without a
		// direction or a risk, a negated claim, a passage about another
		// outcome or another subject, or two comparisons settle nothing.
		{"Smoking increases the risk of lung cancer.", "Non-smokers are less likely to get lung cancer than smokers.", 0},
		{"Smoking increases the risk of lung cancer.", "Smokers are not more likely to get lung cancer.", 0},
		{"Smoking affects the risk of lung cancer.", smokers, 0},
		{"Smoking causes lung cancer.", smokers, 0},
		{"Smoking does not increase the risk of lung cancer.", smokers, 0},
		{"Exercise reduces the risk of heart disease.", "People who exercise regularly are less likely to develop diabetes.", 0},
		{"Coffee reduces the risk of heart disease.", exercise, 0},
		{"Exercise reduces the risk of heart disease.", "People who exercise are less likely to develop heart disease and more likely to sleep well.", 0},
	})
}
