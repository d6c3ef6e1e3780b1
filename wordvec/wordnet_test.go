package wordvec

import "testing"

func TestShippedWordNet(t *testing.T) {
	wn := DefaultWordNet()
	cases := []struct {
		a, b string
		want Rel
	}{
		{"big", "large", Synonym},
		{"rose", "fell", 0},
		{"increase", "decrease", Antonym},
		{"hot", "cold", Antonym},
		{"animal", "dog", Hypernym},
		{"dogs", "animals", Hyponym},
		{"paris", "london", CoHyponym},
		{"dog", "cat", 0},
		{"bought", "purchased", Synonym},
	}
	for _, c := range cases {
		got := wn.Relate(c.a, c.b)
		if c.want == 0 {
			t.Logf("%s/%s: %05b", c.a, c.b, got)
			continue
		}
		if got&c.want == 0 {
			t.Errorf("Relate(%q, %q) = %05b, want bit %05b", c.a, c.b, got, c.want)
		}
	}
}
