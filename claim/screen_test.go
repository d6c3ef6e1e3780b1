package claim

import (
	"errors"
	"testing"
)

func TestScreen(t *testing.T) {
	for _, tc := range []struct {
		text, want string
	}{
		// Checkable claims pass.
		{"The Golden Gate Bridge opened in 1937.", ""},
		{"More than 9,000 active spacecraft orbited Earth at the start of 2024.", ""},
		{"Solar power supplies about 1 percent of the world's electricity.", ""},
		{"Trams run on rails.", ""},
		{"Vitamin D supplements reduce the risk of heart attacks and strokes.", ""},
		{"The Great Pacific Garbage Patch is not an island.", ""},
		{"Construction began in 1933.", ""},
		{"Tim Berners-Lee proposed the World Wide Web in March 1989.", ""},
		{"The best-selling car of 2023 sold 1.2 million units.", ""},
		{"How the bridge was built is well documented.", ""},
		{"Sputnik 1 weighed about 84 kilograms.", ""},
		// Real claims from FEVER and SciFact that word lists alone refused.
		{"Macrophages regulate mature osteoblast maintenance.", ""},
		{"DRD1 proteins enable Pol V transcription in vivo.", ""},
		{"BCL-2 promotes the apoptotic effects of c-Myc.", ""},
		{"Helminths interfere with immune system control of coinfections.", ""},
		{"Steven Spielberg co-wrote the 1974 crime film The Sugarland Express.", ""},
		{"Make It or Break It is a movie.", ""},
		{"Google Play Music has a free storage of over 60,000 files.", ""},
		{"In The Amazing Spider-Man, the relationship between Gwen and Peter is based on the comics.", ""},
		{"Bad Romance was one of the worst-selling singles of all time.", ""},
		{"Blade Runner 2049 stars Ryan Gosling.", ""},
		{"Boateng apologised to Ballack personally.", ""},
		// Questions in several forms.
		{"When did the Golden Gate Bridge open?", Question},
		{"When did the Golden Gate Bridge open", Question},
		{"Did the Golden Gate Bridge open in 1937", Question},
		{"Is the Golden Gate Bridge longer than 2 kilometres", Question},
		{"Is it true that the bridge opened in 1937.", Question},
		{"The bridge opened in 1937?", Question},
		{"How long is the main span?", Question},
		{"Who proposed the World Wide Web", Question},
		{"What year did the bridge open", Question},
		{"Can you tell me when Sputnik was launched", Question},
		// Imperatives.
		{"Check whether the bridge opened in 1937.", Imperative},
		{"Tell me about the Golden Gate Bridge.", Imperative},
		{"Please verify that solar power is cheap.", Imperative},
		{"Find the year the ARPANET was shut down.", Imperative},
		// Opinions.
		{"I think trams are lovely.", Opinion},
		{"San Francisco is the most beautiful city in the world.", Opinion},
		{"In my opinion the bridge is ugly.", Opinion},
		{"I love the Golden Gate Bridge.", Opinion},
		{"The fog over the bay is gorgeous.", Opinion},
		{"Personally, the bridge is the best in the world.", Opinion},
		// No verb.
		{"Golden Gate Bridge, 1937.", NoVerb},
		{"The tallest bridges in the world", NoVerb},
		{"Solar capacity in 2022", NoVerb},
		{"   ", NoVerb},
	} {
		err := Screen(tc.text)
		var nc *NotCheckable
		got := ""
		if errors.As(err, &nc) {
			got = nc.Reason
			if nc.Message == "" {
				t.Errorf("Screen(%q): empty message", tc.text)
			}
		} else if err != nil {
			t.Errorf("Screen(%q) = %v, not a *NotCheckable", tc.text, err)
		}
		if got != tc.want {
			t.Errorf("Screen(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
