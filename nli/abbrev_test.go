package nli

import (
	"slices"
	"testing"
)

func TestReadShortForm(t *testing.T) {
	tests := []struct {
		in     string
		ok     bool
		parts  []string
		plural bool
	}{
		{"DSB", true, []string{"d", "s", "b"}, false},
		{"iHepSCs", true, []string{"i", "hep", "s", "c"}, true},
		{"PAI-1", true, []string{"p", "a", "i", "1"}, false},
		{"mRNA", true, []string{"m", "r", "n", "a"}, false},
		{"IgG", true, []string{"ig", "g"}, false},
		{"SmackDown", false, nil, false}, // a name: a run of small letters
		{"SuperLiga", false, nil, false},
		{"Paris", false, nil, false}, // one capital
		{"ABCDEFGHIJKLM", false, nil, false},
	}
	for _, tt := range tests {
		sf, ok := readShortForm(tt.in)
		if ok != tt.ok || (ok && (!slices.Equal(sf.parts, tt.parts) || sf.plural != tt.plural)) {
			t.Errorf("readShortForm(%q) = %+v, %v; want parts %q plural %v, %v", tt.in, sf, ok, tt.parts, tt.plural, tt.ok)
		}
	}
}

func TestExpandAbbreviations(t *testing.T) {
	tests := []struct{ name, claim, passage, want string }{
		{"the passage abbreviates the claim's words",
			"Induced hepatic stem cells differentiate.", "iHepSCs can differentiate.",
			"Induced hepatic stem cells can differentiate."},
		{"hyphenated words, and a plural kept apart",
			"Pyridostatin induces double-strand breaks.", "PDS induces DSB accumulation.",
			"PDS induces double-strand breaks accumulation."},
		{"function words inside the long form",
			"The Department of Energy funded the study.", "The DOE funded the study.",
			"The Department of Energy funded the study."},
		{"a long form with a word its abbreviation leaves out ends before it",
			"The Centers for Disease Control and Prevention issued guidance.", "The CDC issued guidance.",
			"The Centers for Disease Control issued guidance."},
		{"a number in the abbreviation",
			"Plasminogen activator inhibitor-1 levels rose.", "PAI-1 levels rose in patients.",
			"Plasminogen activator inhibitor-1 levels rose in patients."},
		{"the claim abbreviates the passage's words",
			"The UN was founded in 1945.", "The United Nations was founded in 1945.",
			"The UN was founded in 1945."},
		{"a definition in the passage written out where it is used again",
			"Pyridostatin halts growth.", "We studied pyridostatin (PDS), a ligand. PDS halts growth.",
			"We studied pyridostatin (PDS), a ligand. pyridostatin halts growth."},
		{"a long form of two words in two cases is no long form",
			"Later Sarah died in Rome.", "SD was buried in Rome.", "SD was buried in Rome."},
		{"a long form of three words or more may open with capitals",
			"Later Middle East respiratory syndrome spread.", "MERS spread.", "Middle East respiratory syndrome spread."},
		{"but not close with them",
			"Later the respiratory Syndrome Nation spread.", "RSN spread.", "RSN spread."},
		{"an era is no abbreviation",
			"Augustus died in 14.", "Augustus died in AD 14.", "Augustus died in AD 14."},
		{"a long form does not open on a function word",
			"The song was written by an artist.", "BoA wrote the song.", "BoA wrote the song."},
		{"a small letter of the abbreviation continues its word",
			"Coronavirus infections rose.", "The CrI was wide.", "The CrI was wide."},
		{"one word is no long form unless the passage defines it",
			"Nebraska won the game.", "The NBA game was won.", "The NBA game was won."},
		{"single letters are no long form",
			"Growth in the U.S. slowed.", "US growth slowed.", "US growth slowed."},
		{"a name in capitals is no abbreviation of it",
			"SmackDown aired on Tuesday.", "Smack Down aired on Tuesday.", "Smack Down aired on Tuesday."},
		{"a long form that holds its abbreviation is left alone",
			"AB Bank opened.", "AB Bank (AB) opened. AB grew.", "AB Bank (AB) opened. AB grew."},
		{"a claim that writes the long form too keeps the passage's",
			"The rankings are published by Times Higher Education (THE).", "The rankings are published by Times Higher Education magazine.",
			"The rankings are published by Times Higher Education magazine."},
		{"a function word in capitals is no abbreviation",
			"IT is the theme.", "Information technology is the theme.", "Information technology is the theme."},
		{"two letters in a compound are no abbreviation",
			"Cats reportedly tested positive.", "No cat tested positive by RT-PCR.", "No cat tested positive by RT-PCR."},
		{"a longer abbreviation in a compound is one",
			"The Middle East respiratory syndrome spread.", "The MERS-CoV outbreak spread.", "The Middle East respiratory syndrome-CoV outbreak spread."},
		{"no capitals", "the cat sat.", "the cat sat on the mat.", "the cat sat on the mat."},
	}
	for _, tt := range tests {
		if got := expandAbbreviations(tt.claim, tt.passage); got != tt.want {
			t.Errorf("%s: expandAbbreviations(%q, %q) = %q, want %q", tt.name, tt.claim, tt.passage, got, tt.want)
		}
	}
}

func TestReplaceWord(t *testing.T) {
	if got := replaceWord("UN, UNESCO and the UN.", "UN", "United Nations"); got != "United Nations, UNESCO and the United Nations." {
		t.Errorf("replaceWord = %q", got)
	}
}
