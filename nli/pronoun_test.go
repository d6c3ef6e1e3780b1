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

// TestClaimRewrites pins the rewrites of a claim before it is judged.
func TestClaimRewrites(t *testing.T) {
	for _, tt := range []struct {
		name    string
		rewrite func(string) string
		cases   map[string]string
	}{
		{"stripAttribution", stripAttribution, map[string]string{
			"Actually the regulator's report says full-fibre broadband was available to 57 percent of homes.": "full-fibre broadband was available to 57 percent of homes.",
			"According to the census, the town has 4,000 inhabitants.":                                        "the town has 4,000 inhabitants.",
			"The study found that coffee lowers blood pressure.":                                              "coffee lowers blood pressure.",
			"The company reported a loss in 2023.":                                                            "The company reported a loss in 2023.",
			"Columbus found America.":                                                                         "Columbus found America.",
			"The report says so.":                                                                             "The report says so.",
		}},
		{"readOutside", readOutside, map[string]string{
			"Ripon College is outside Wisconsin.":                      "Ripon College is not in Wisconsin.",
			"Prescott, Arizona is outside of Yavapai County.":          "Prescott, Arizona is not in Yavapai County.",
			"Palo Alto is located outside of the United States.":       "Palo Alto is located not in the United States.",
			"Mick Thomson was born outside Iowa, in 1973.":             "Mick Thomson was born not in Iowa, in 1973.",
			"The airport is just outside Paris.":                       "The airport is just outside Paris.",
			"The film grossed $154 million outside the United States.": "The film grossed $154 million outside the United States.",
			"Men are fighting outside of European bar.":                "Men are fighting outside of European bar.",
			"It is the largest city outside London.":                   "It is the largest city outside London.",
			"The band played outside.":                                 "The band played outside.",
			"Outside Denmark, Danish is spoken in Norway.":             "Outside Denmark, Danish is spoken in Norway.",
		}},
		{"readOtherThan", readOtherThan, map[string]string{
			"Veeram is something other than an Indian Tamil film.":        "Veeram is not an Indian Tamil film.",
			"The show was adapted by someone other than Roberto Aguirre.": "The show was adapted by not Roberto Aguirre.",
			"It was made by anybody other than DreamWorks.":               "It was made by not DreamWorks.",
			"Other than that, the film is a drama.":                       "Other than that, the film is a drama.",
			"Danish is spoken in countries other than Denmark.":           "Danish is spoken in countries other than Denmark.",
		}},
	} {
		for in, want := range tt.cases {
			if got := tt.rewrite(in); got != want {
				t.Errorf("%s(%q) = %q, want %q", tt.name, in, got, want)
			}
		}
	}
}

func TestLeadingNounPhrase(t *testing.T) {
	for _, tt := range []struct {
		s      string
		plural bool
		want   string
	}{
		{"The mill opened in 1850.", false, "The mill"},
		{"The old mill closed in 1974.", false, "The old mill"},
		{"The mill employs forty weavers.", false, "The mill"},
		{"The company's profits rose.", false, "The company"},
		{"The bridge, which opened in 1937, is orange.", false, "The bridge"},
		{"The building collapsed in 2001.", false, "The building"},
		{"The census counted 4,000 people.", false, "The census"},
		{"The weavers went on strike.", true, "The weavers"},
		{"The new looms arrived in 1900.", true, "The new looms"},
		// The number must be the pronoun's: "It" after "The weavers" is
		// about something else.
		{"The weavers built the mill.", false, ""},
		{"The mill opened in 1850.", true, ""},
		// Not a noun phrase with "The", or nothing after it.
		{"Weavers worked there.", false, ""},
		{"The 1850 mill opened.", false, ""},
		{"The end.", false, ""},
		{"The was.", false, ""},
	} {
		if got := leadingNounPhrase(tt.s, tt.plural); got != tt.want {
			t.Errorf("leadingNounPhrase(%q, %v) = %q, want %q", tt.s, tt.plural, got, tt.want)
		}
	}
}

func TestResolvePronounsLooksBack(t *testing.T) {
	for _, tt := range []struct{ in, want []string }{
		{
			[]string{"The old mill opened in 1850.", "Weavers came from across the county.", "It closed in 1974."},
			[]string{"The old mill opened in 1850.", "Weavers came from across the county.", "The old mill closed in 1974."},
		},
		{
			// A nearer sentence with a subject of its own blocks the search.
			[]string{"The old mill opened in 1850.", "A fire broke out in 1900.", "It burned for days."},
			[]string{"The old mill opened in 1850.", "A fire broke out in 1900.", "It burned for days."},
		},
		{
			// At most two sentences back.
			[]string{"The old mill opened in 1850.", "Weavers came.", "Looms clattered.", "It closed in 1974."},
			[]string{"The old mill opened in 1850.", "Weavers came.", "Looms clattered.", "It closed in 1974."},
		},
		{
			// The number must match: "They" after a singular mill.
			[]string{"The mill opened in 1850.", "They closed it in 1974."},
			[]string{"The mill opened in 1850.", "They closed it in 1974."},
		},
		{
			[]string{"The weavers went on strike.", "They won a rise."},
			[]string{"The weavers went on strike.", "The weavers won a rise."},
		},
	} {
		if diff := cmp.Diff(tt.want, resolvePronouns(tt.in)); diff != "" {
			t.Errorf("resolvePronouns(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}
