package quantity

import "testing"

func TestLengthUnit(t *testing.T) {
	for _, tt := range []struct {
		word string
		want bool
	}{
		{"metres", true}, {"Meters", true}, {"foot", true}, {"ft", true}, {"m", true}, {"km", true},
		{"inches", true}, {"miles", true},
		{"M", false}, // a million, not metres
		{"kg", false}, {"litres", false}, {"years", false}, {"tall", false}, {"", false},
	} {
		if got := LengthUnit(tt.word); got != tt.want {
			t.Errorf("LengthUnit(%q) = %t, want %t", tt.word, got, tt.want)
		}
	}
}

func TestDimension(t *testing.T) {
	for _, tt := range []struct {
		word, noun string
		adjective  bool
	}{
		{"tall", "height", true}, {"high", "height", true}, {"deep", "depth", true}, {"broad", "width", true},
		{"height", "height", false}, {"thickness", "thickness", false},
		{"elevation", "", false}, {"short", "", false}, {"", "", false},
	} {
		if noun, adjective := Dimension(tt.word); noun != tt.noun || adjective != tt.adjective {
			t.Errorf("Dimension(%q) = %q, %t, want %q, %t", tt.word, noun, adjective, tt.noun, tt.adjective)
		}
	}
}

func TestWordUnit(t *testing.T) {
	for _, tt := range []struct {
		word   string
		factor float64
		base   string
		ok     bool
	}{
		{"million", 1e6, "", true}, {"crores", 1e7, "", true}, {"grams", 0.001, "kg", true}, {"kg", 1, "kg", true},
		{"feet", 0.3048, "m", true}, {"kilometres", 1000, "m", true}, {"years", 365.25, "day", true},
		{"degrees", 0, "", false}, // no base: a temperature is not scaled
		{"people", 0, "", false}, {"tall", 0, "", false}, {"", 0, "", false},
	} {
		if f, base, ok := WordUnit(tt.word); f != tt.factor || base != tt.base || ok != tt.ok {
			t.Errorf("WordUnit(%q) = %v, %q, %t, want %v, %q, %t", tt.word, f, base, ok, tt.factor, tt.base, tt.ok)
		}
	}
}
