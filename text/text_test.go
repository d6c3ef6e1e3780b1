package text

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTokenize(t *testing.T) {
	got := Tokenize("The -LRB-new-RRB- bridge didn't open, Paris has 9,210 people and 3.5 km.", 100)
	var lowers []string
	var caps, nums []bool
	for _, tk := range got {
		lowers = append(lowers, tk.Lower)
		caps = append(caps, tk.Cap)
		nums = append(nums, tk.Num)
	}
	want := []string{"the", "new", "bridge", "did", "not", "open", "paris", "has", "9210", "people", "and", "3.5", "km"}
	if diff := cmp.Diff(want, lowers); diff != "" {
		t.Errorf("Tokenize words (-want +got):\n%s", diff)
	}
	if caps[0] || !caps[6] {
		t.Errorf("capitals %v: want the sentence's first word not marked and Paris (after a comma) marked", caps)
	}
	if !nums[8] || !got[8].Sep || !nums[11] || got[11].Sep {
		t.Errorf("numbers %v: want 9210 (with separator) and 3.5 (without)", got)
	}
	if n := len(Tokenize("a b c d e", 3)); n != 3 {
		t.Errorf("Tokenize with max 3 gave %d tokens", n)
	}
}

func TestStem(t *testing.T) {
	for w, want := range map[string]string{"running": "run", "won": "win", "children": "child", "opened": "open"} {
		if got := Stem(w); got != want {
			t.Errorf("Stem(%q) = %q, want %q", w, got, want)
		}
	}
}

func TestOverlap(t *testing.T) {
	p := Set("bridg", "open", "1937")
	if got := Overlap([]string{"bridg", "open", "open", "1932"}, p); got != 2.0/3 {
		t.Errorf("Overlap = %g, want 2/3 (distinct stems)", got)
	}
	if got := Overlap(nil, p); got != 0 {
		t.Errorf("Overlap of no stems = %g, want 0", got)
	}
	if got := SetOverlap(Set("bridg", "open", "1932"), p); got != 2.0/3 {
		t.Errorf("SetOverlap = %g, want 2/3", got)
	}
	if got := SetOverlap(nil, p); got != 0 {
		t.Errorf("SetOverlap of no terms = %g, want 0", got)
	}
}

func TestBestWindow(t *testing.T) {
	sents := []string{"a x", "b y", "c y", "d"}
	score := func(w string) float64 {
		n := 0.0
		for _, r := range w {
			if r == 'y' {
				n++
			}
		}
		return n
	}
	if i, n := BestWindow(sents, 1, 2, score); i != 1 || n != 2 {
		t.Errorf("BestWindow = %d, %d; want the two y sentences (1, 2)", i, n)
	}
	if i, n := BestWindow(sents, 1, 1, score); i != 1 || n != 1 {
		t.Errorf("BestWindow of one sentence = %d, %d; want the first y sentence (1, 1)", i, n)
	}
	if i, n := BestWindow(sents[:1], 2, 2, score); i != 0 || n != 1 {
		t.Errorf("BestWindow of too few sentences = %d, %d; want all (0, 1)", i, n)
	}
}

func TestFoldPlural(t *testing.T) {
	for w, want := range map[string]string{"Satellites": "satellite", "countries": "country", "glass": "glass", "bus": "bus", "ties": "tie", "this": "thi"} {
		if got := FoldPlural(w); got != want {
			t.Errorf("FoldPlural(%q) = %q, want %q", w, got, want)
		}
	}
}
