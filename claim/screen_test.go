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
