package wordvec

import (
	"bytes"
	"compress/gzip"
	"slices"
	"strings"
	"testing"
)

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
	for word, want := range map[string]bool{"picasso": true, "edison": true, "sydney": true, "apple": false, "china": false, "painter": false} {
		if got := wn.Name(word); got != want {
			t.Errorf("Name(%q) = %t, want %t", word, got, want)
		}
	}
	// Verbs of two words, read through their verb's inflection.
	for _, c := range []struct {
		word, verb, particle string
		want                 Rel
	}{
		{"resigned", "stepped", "down", Synonym},
		{"died", "passed", "away", Synonym},
		{"founded", "set", "up", Synonym},
		{"accepted", "turned", "down", Antonym},
	} {
		info, ok := wn.PhrasalInfo(c.verb, c.particle)
		if got := wn.RelateInfo(wn.Info(c.word), info); !ok || got&c.want == 0 {
			t.Errorf("%q against %q %q = %05b (%t), want bit %05b", c.word, c.verb, c.particle, got, ok, c.want)
		}
	}
	// The one-word verbs that a verb of two words shares a sense with.
	for _, c := range [][3]string{{"turned", "down", "reject"}, {"called", "off", "cancel"}, {"put", "off", "postpone"}, {"stepped", "down", "resign"}} {
		if got := wn.PhrasalSynonyms(c[0], c[1]); !slices.Contains(got, c[2]) {
			t.Errorf("PhrasalSynonyms(%q, %q) = %q, want %q among them", c[0], c[1], got, c[2])
		}
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

// TestRelatePlaces: a place and a place within it, at any depth up to
// maxWholeDepth, are Whole one way and Part the other; places apart,
// synonyms and words that are no places are neither.
func TestRelatePlaces(t *testing.T) {
	wn := DefaultWordNet()
	for _, c := range []struct {
		a, b string
		want Rel
	}{
		{"england", "liverpool", Whole},
		{"liverpool", "england", Part},
		{"europe", "paris", Whole}, // Paris, France, Europe
		{"france", "paris", Whole},
		{"asia", "japan", Whole},
		{"africa", "nairobi", Whole}, // Nairobi, Kenya, Africa
		{"uk", "liverpool", Whole},
		{"england", "english", Synonym}, // an adjective of a place
		{"polish", "poland", Synonym},
		{"german", "munich", Whole},
		{"munich", "german", Part},
		{"french", "germany", 0},
		{"california", "san_francisco", Whole}, // a name of two words
		{"america", "new_york", Whole},
		{"american", "united_states", Synonym}, // first of the United States, then of the Americas
		{"american", "toronto", 0},             // the Americas hold Toronto; the United States do not
		{"canadian", "american", 0},            // the Canadian River, in the United States, is the noun's
		{"canadian", "toronto", Whole},
		{"japan", "asia", Part},           // the islands are in the Pacific, the country in Asia
		{"canada", "ottawa", Whole},       // untagged senses: a people, a river in Canada, the capital
		{"africa", "chad", Whole},         // untagged: paper, a lake, the country
		{"united_states", "vancouver", 0}, // untagged: a city in Washington, one in Canada
		{"canada", "vancouver", 0},
		{"united_kingdom", "london", Whole},
		{"texas", "san_francisco", 0},
		{"u_s", "chicago", Whole}, // "U.S.", as the tokenizer splits it
		{"u_k", "chicago", 0},
		{"germany", "paris", 0},
		{"paris", "london", 0},
		{"britain", "uk", 0}, // one synset
		{"england", "england", 0},
		{"building", "kitchen", 0}, // a part, but of no place
		{"animal", "dog", 0},
		{"qwertyx", "england", 0},
		// A place named by another sense: WordNet names the lake first,
		// the province second; the city first, the state second; but
		// the Americas, the second sense of "America", hold the first.
		{"ontario", "toronto", Whole},
		{"toronto", "ontario", Part},
		{"washington", "seattle", Whole},
		{"america", "toronto", 0},
		// A place's adjective holds what the other places of its place's
		// names hold: "British" is of Great Britain the island, whose
		// name also names the United Kingdom; "Chinese" of the China
		// WordNet names second.
		{"british", "london", Whole},
		{"chinese", "shanghai", Whole},
		{"british", "paris", 0},
		{"american", "toronto", 0},
	} {
		if got := wn.RelatePlaces(wn.Info(c.a), wn.Info(c.b)); got != c.want {
			t.Errorf("RelatePlaces(%q, %q) = %08b, want %08b", c.a, c.b, got, c.want)
		}
	}
}

// TestBeside reads two places named one after the other in the senses
// in which the first lies within the second, and leaves names that do
// not so lie as they were.
func TestBeside(t *testing.T) {
	wn := DefaultWordNet()
	us := wn.Info("united_states")
	if wn.RelatePlaces(us, wn.Info("ontario")) == 0 {
		t.Fatal("the premise fails: Ontario alone (first the lake) should lie within the United States")
	}
	part, whole := wn.Beside(wn.Info("toronto"), wn.Info("ontario"))
	if got := wn.RelatePlaces(us, whole); got != 0 {
		t.Errorf("Ontario of Toronto, Ontario against the United States: %08b, want 0 (the province)", got)
	}
	if got := wn.RelatePlaces(wn.Info("canada"), whole); got != Whole {
		t.Errorf("Canada against Ontario of Toronto, Ontario: %08b, want Whole", got)
	}
	if got := wn.RelatePlaces(whole, part); got != Whole {
		t.Errorf("Ontario against Toronto, both of Toronto, Ontario: %08b, want Whole", got)
	}
	for _, c := range [][2]string{{"france", "germany"}, {"paris", "london"}, {"london", "ontario"}, {"dog", "ontario"}} {
		a, b := wn.Info(c[0]), wn.Info(c[1])
		if pa, pb := wn.Beside(a, b); pa != a || pb != b {
			t.Errorf("Beside(%s, %s) changed a reading; neither lies within the other", c[0], c[1])
		}
	}
}

func TestIndirectAntonyms(t *testing.T) {
	wn := DefaultWordNet()
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"safe", "unsafe", true}, // "unsafe" shares the synset of "dangerous", the antonym of "safe"
		{"unsafe", "safe", true},
		{"safe", "dangerous", true}, // direct
		{"hot", "cold", true},
		{"safe", "secure", false},
		{"dog", "cat", false},
		{"qwertyx", "safe", false},
	} {
		if got := wn.IndirectAntonyms(wn.Info(tt.a), wn.Info(tt.b)); got != tt.want {
			t.Errorf("IndirectAntonyms(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	if wn.RelateInfo(wn.Info("safe"), wn.Info("unsafe"))&Antonym != 0 {
		t.Error("the premise fails: RelateInfo now opposes safe and unsafe directly")
	}
	// Antonyms is RelateInfo's Antonym on lemmas alone.
	for _, pair := range [][2]string{{"hot", "cold"}, {"safe", "unsafe"}, {"won", "lost"}, {"dog", "cat"}} {
		a, b := pair[0], pair[1]
		want := wn.RelateInfo(wn.Info(a), wn.Info(b))&Antonym != 0
		if got := wn.Antonyms(wn.Lemmas(a), wn.Lemmas(b)); got != want {
			t.Errorf("Antonyms(%q, %q) = %v, RelateInfo says %v", a, b, got, want)
		}
	}
	if !wn.Antonyms(wn.Lemmas("hot"), wn.Lemmas("cold")) {
		t.Error("Antonyms(hot, cold) = false")
	}
}

func TestRelateSimilar(t *testing.T) {
	wn := DefaultWordNet()
	checkRel(t, wn, "RelateSimilar", wn.RelateSimilar, []relCase{
		{"toxic", "poisonous", Hypernym},
		{"poisonous", "toxic", Hyponym},
		{"large", "huge", Hypernym},
		{"easy", "simple", Hypernym},
		{"large", "small", 0}, // antonyms, no cluster of one
		{"large", "large", 0},
		{"dog", "animal", 0}, // nouns: RelateInfo's
	})
}

func TestRelateNouns(t *testing.T) {
	wn := DefaultWordNet()
	checkRel(t, wn, "RelateNouns", wn.RelateNouns, []relCase{
		{"dramatic", "drama", Synonym},
		{"drama", "dramatic", Synonym},
		{"tragic", "tragedy", Synonym},
		{"effective", "efficacy", Synonym}, // "efficacious", a sense of "effective"
		{"happy", "happiness", Synonym},
		{"dead", "death", 0}, // no pointer between them
		{"dramatic", "tragedy", 0},
		{"drama", "drama", 0},
		{"dog", "animal", 0}, // nouns: RelateInfo's
	})
}

// TestReadWordNetPlaces reads hand-made relation files: one written before
// the places sections existed reads with no places, one with them relates
// its places and its adjective of a place, one with the first places
// relates a word as the place it names first, and damaged sections are
// refused.
func TestReadWordNetPlaces(t *testing.T) {
	// Three synsets without hypernyms: the nouns "england" (0) and
	// "liverpool" (1) and the adjective "english" (2); no antonyms, no
	// inflections.
	base := []byte(wordnetMagic)
	base = append(base, 3, 0, 0, 0, 3)
	for _, l := range []struct {
		word string
		id   byte
	}{{"england", 0}, {"english", 2}, {"liverpool", 1}} {
		base = append(base, byte(len(l.word)))
		base = append(base, l.word...)
		base = append(base, 1, l.id)
	}
	base = append(base, 0, 0)
	read := func(raw []byte) (*WordNet, error) {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(raw)
		zw.Close()
		return ReadWordNet(&buf)
	}
	const (
		wholes   = "\x01\x01\x01\x00" // liverpool (1) lies within england (0)
		pertains = "\x01\x02\x01\x00" // english (2) is of england (0)
	)
	cases := []struct {
		name    string
		places  string
		want    [4]Rel // england~liverpool, liverpool~england, english~england, english~liverpool
		wantErr string
	}{
		{"no places sections", "", [4]Rel{}, ""},
		{"places", wholes + pertains, [4]Rel{Whole, Part, Synonym, Whole}, ""},
		{"no adjectives", wholes + "\x00", [4]Rel{Whole, Part, 0, 0}, ""},
		{"the adjectives' section missing", wholes, [4]Rel{}, "truncated"},
		{"place out of range", "\x01\x03\x01\x00\x00", [4]Rel{}, "synset out of range"},
		{"whole out of range", "\x01\x01\x01\x05\x00", [4]Rel{}, "id out of range"},
		{"truncated", "\x02\x01\x01\x00", [4]Rel{}, "truncated"},
		// The first places: england (lemma 0) and liverpool (lemma 2)
		// name theirs; english (lemma 1) names none first, so it holds
		// nothing, though it stays England's adjective.
		{"first places", wholes + pertains + "\x03\x00\x00\x01\x00\x01\x01", [4]Rel{Whole, Part, Synonym, Whole}, ""},
		{"no first place for the adjective", wholes + pertains + "\x02\x00\x00\x02\x01", [4]Rel{Whole, Part, Synonym, 0}, ""},
		{"first place's lemma out of range", wholes + pertains + "\x01\x05\x00", [4]Rel{}, "first place out of range"},
		{"first place out of range", wholes + pertains + "\x01\x00\x07", [4]Rel{}, "first place out of range"},
		{"first places truncated", wholes + pertains + "\x02\x00\x00", [4]Rel{}, "truncated"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wn, err := read(append(slices.Clone(base), c.places...))
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range [][2]string{{"england", "liverpool"}, {"liverpool", "england"}, {"english", "england"}, {"english", "liverpool"}} {
				if got := wn.RelatePlaces(wn.Info(p[0]), wn.Info(p[1])); got != c.want[i] {
					t.Errorf("RelatePlaces(%q, %q) = %08b, want %08b", p[0], p[1], got, c.want[i])
				}
			}
		})
	}
}

// relCase is a pair of words and the relation wanted between them.
type relCase struct {
	a, b string
	want Rel
}

// checkRel checks relate, a relation of wn named name, on each case.
func checkRel(t *testing.T, wn *WordNet, name string, relate func(a, b *WordInfo) Rel, cases []relCase) {
	t.Helper()
	for _, c := range cases {
		if got := relate(wn.Info(c.a), wn.Info(c.b)); got != c.want {
			t.Errorf("%s(%q, %q) = %08b, want %08b", name, c.a, c.b, got, c.want)
		}
	}
}
