package nli

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestResolvePronouns(t *testing.T) {
	got := resolvePronouns([]string{
		"Marie Curie was a physicist.", "She won two Nobel Prizes.", "Her husband was Pierre.",
		"The Golden Gate Bridge opened in 1937.", "It spans the strait.", "Records are scarce.", "They say little.",
	})
	want := []string{
		"Marie Curie was a physicist.", "Marie Curie won two Nobel Prizes.", "Marie Curie's husband was Pierre.",
		"The Golden Gate Bridge opened in 1937.", "The Golden Gate Bridge spans the strait.", "Records are scarce.", "They say little.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resolvePronouns (-want +got):\n%s", diff)
	}
}

func TestStripAttribution(t *testing.T) {
	for in, want := range map[string]string{
		"Actually the regulator's report says full-fibre broadband was available to 57 percent of homes.": "full-fibre broadband was available to 57 percent of homes.",
		"According to the census, the town has 4,000 inhabitants.":                                        "the town has 4,000 inhabitants.",
		"The study found that coffee lowers blood pressure.":                                              "coffee lowers blood pressure.",
		"The company reported a loss in 2023.":                                                            "The company reported a loss in 2023.",
		"Columbus found America.":                                                                         "Columbus found America.",
		"The report says so.":                                                                             "The report says so.",
	} {
		if got := stripAttribution(in); got != want {
			t.Errorf("stripAttribution(%q) = %q, want %q", in, got, want)
		}
	}
}
