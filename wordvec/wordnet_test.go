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

func TestRelateCousins(t *testing.T) {
	wn := DefaultWordNet()
	cases := []struct {
		a, b          string
		plain, cousin Rel
	}{
		// Cousins: a shared hypernym two steps up becomes a co-hyponym.
		{"dog", "cat", 0, CoHyponym},
		{"guitar", "violin", 0, CoHyponym},
		{"walk", "run", 0, CoHyponym},
		// Relations that hold already are left as they are.
		{"paris", "london", CoHyponym, CoHyponym},
		{"animal", "dog", Hypernym, Hypernym},
		{"big", "large", Synonym, Synonym},
		{"hot", "cold", Antonym, Antonym},
		// Nothing shared near: still unrelated.
		{"dog", "democracy", 0, 0},
		{"car", "bus", 0, 0},
		{"qwertyx", "cat", 0, 0},
	}
	for _, c := range cases {
		a, b := wn.Info(c.a), wn.Info(c.b)
		if got := wn.RelateInfo(a, b); got != c.plain {
			t.Errorf("RelateInfo(%q, %q) = %05b, want %05b", c.a, c.b, got, c.plain)
		}
		if got := wn.RelateCousins(a, b); got != c.cousin {
			t.Errorf("RelateCousins(%q, %q) = %05b, want %05b", c.a, c.b, got, c.cousin)
		}
		if got := wn.RelateCousins(b, a); got&CoHyponym != c.cousin&CoHyponym {
			t.Errorf("RelateCousins(%q, %q) = %05b: not symmetric in the co-hyponym", c.b, c.a, got)
		}
		// RelateWide keeps the two kinds apart: a cousin is Cousin, not
		// CoHyponym, and every other relation is RelateInfo's.
		wide := c.plain
		if c.cousin != c.plain {
			wide |= Cousin
		}
		if got := wn.RelateWide(a, b); got != wide {
			t.Errorf("RelateWide(%q, %q) = %06b, want %06b", c.a, c.b, got, wide)
		}
	}
}
