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
