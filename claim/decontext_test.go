package claim

import "testing"

func TestDecontextualise(t *testing.T) {
	for _, tc := range []struct {
		preceding []string
		sentence  string
		want      string
	}{
		{[]string{"The Golden Gate Bridge spans the Golden Gate strait."}, "It opened in 1937.", "The Golden Gate Bridge opened in 1937."},
		{[]string{"The Golden Gate Bridge spans the strait."}, "Its main span is 1,280 metres long.", "The Golden Gate Bridge's main span is 1,280 metres long."},
		{[]string{"The Golden Gate Bridge spans the strait."}, "The bridge opened in 1937.", "The Golden Gate Bridge opened in 1937."},
		{[]string{"The Golden Gate Bridge spans the strait."}, "Construction began in 1933.", "Construction of the Golden Gate Bridge began in 1933."},
		{[]string{"Tim Berners-Lee worked at CERN.", "The web changed everything."}, "He proposed it in 1989.", "Tim Berners-Lee proposed it in 1989."},
		// Nothing to resolve: unchanged.
		{[]string{"The Golden Gate Bridge spans the strait."}, "The Golden Gate Bridge opened in 1937.", "The Golden Gate Bridge opened in 1937."},
		{nil, "It opened in 1937.", "It opened in 1937."},
		{[]string{"the bridge is long."}, "It opened in 1937.", "It opened in 1937."},
		// A description whose noun does not end the name stays.
		{[]string{"The Golden Gate Bridge spans the strait."}, "The station opened in 2000.", "The station opened in 2000."},
		// An event noun with its object stays.
		{[]string{"The Golden Gate Bridge spans the strait."}, "Construction of the towers began in 1933.", "Construction of the towers began in 1933."},
	} {
		if got := Decontextualise(tc.preceding, tc.sentence); got != tc.want {
			t.Errorf("Decontextualise(%q, %q) = %q, want %q", tc.preceding, tc.sentence, got, tc.want)
		}
	}
}
