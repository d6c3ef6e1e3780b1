package wordvec

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestBuildWordNetFromDatabase builds a relation file from a small
// database in WordNet's format and checks that verbs of two words are kept
// with their senses, take the antonyms of their commonest sense's words,
// and are found through an inflection of their verb; and that a lemma
// written with a capital in every sense is a name.
func TestBuildWordNetFromDatabase(t *testing.T) {
	files := map[string]string{
		"index.verb": "accept v 1 1 ! 1 0 00000200\n" +
			"reject v 1 1 ! 1 0 00000300\n" +
			"resign v 1 0 1 0 00000100\n" +
			"step v 1 0 1 0 00000400\n" +
			"step_down v 1 0 1 0 00000100\n" +
			"turn v 1 0 1 0 00000500\n" +
			"turn_down v 1 0 1 0 00000300\n" +
			"walk v 1 0 1 0 00000600\n" +
			"take_care v 1 0 1 0 00000700\n",
		"data.verb": "00000100 41 v 02 resign 0 step_down 0 000 | leave office\n" +
			"00000200 31 v 01 accept 0 001 ! 00000300 v 0101 | consider right\n" +
			"00000300 31 v 02 reject 0 turn_down 0 001 ! 00000200 v 0101 | refuse to accept\n" +
			"00000400 38 v 01 step 0 000 | put down a foot\n" +
			"00000500 38 v 01 turn 0 000 | change orientation\n" +
			"00000600 38 v 01 walk 0 000 | use one's feet\n" +
			"00000700 41 v 01 take_care 0 000 | be careful\n",
		"verb.exc": "stepped step\n",
		"index.noun": "apple n 2 0 2 0 00000800 00000900\n" +
			"picasso n 1 0 1 0 00001000\n",
		"data.noun": "00000800 13 n 01 apple 0 000 | fruit\n" +
			"00000900 14 n 01 Apple 0 000 | a company\n" +
			"00001000 18 n 01 Picasso 0 000 | a painter\n",
	}
	wn := buildFromFiles(t, files)
	cases := []struct {
		word, verb, particle string
		want                 Rel
		ok                   bool
	}{
		{"resigned", "stepped", "down", Synonym, true}, // through verb.exc
		{"rejects", "turning", "down", Synonym, true},
		{"accepted", "turned", "down", Antonym, true}, // reject's antonym
		{"stepped", "stepped", "down", Synonym, true}, // still the verb alone
		{"resigned", "walked", "down", 0, false},      // no such verb of two words
		{"resigned", "took", "care", 0, false},        // "care" is no particle
	}
	for _, c := range cases {
		info, ok := wn.PhrasalInfo(c.verb, c.particle)
		if ok != c.ok {
			t.Errorf("PhrasalInfo(%q, %q) ok = %t, want %t", c.verb, c.particle, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		if got := wn.RelateInfo(wn.Info(c.word), info); got != c.want {
			t.Errorf("%q against %q %q = %05b, want %05b", c.word, c.verb, c.particle, got, c.want)
		}
	}
	for word, want := range map[string]bool{"picasso": true, "apple": false, "resign": false, "unknown": false} {
		if got := wn.Name(word); got != want {
			t.Errorf("Name(%q) = %t, want %t", word, got, want)
		}
	}
	if wn.Relate("resign", "step") != 0 {
		t.Errorf("the verb alone took the senses of its verb of two words")
	}
	for _, c := range []struct {
		verb, particle string
		want           []string
	}{
		{"stepped", "down", []string{"resign"}},
		{"turns", "down", []string{"reject"}},
		{"walked", "down", nil},
	} {
		if got := wn.PhrasalSynonyms(c.verb, c.particle); !slices.Equal(got, c.want) {
			t.Errorf("PhrasalSynonyms(%q, %q) = %q, want %q", c.verb, c.particle, got, c.want)
		}
	}
	for word, want := range map[string]bool{"reject": true, "rejected": false, "step_down": true} {
		if got := wn.IsLemma(word); got != want {
			t.Errorf("IsLemma(%q) = %t, want %t", word, got, want)
		}
	}
}

func TestPhrasalVerb(t *testing.T) {
	for lemma, want := range map[string]string{"step_down": "step", "put_off": "put", "take_care": "", "new_york": "",
		"down": "", "_down": "", "kick_the_bucket": ""} {
		got, ok := PhrasalVerb(lemma)
		if got != want || ok != (want != "") {
			t.Errorf("PhrasalVerb(%q) = %q, %t; want %q", lemma, got, ok, want)
		}
	}
}

// TestBuildWordNetUntaggedPlaces builds a database whose nouns "ottawa",
// "vancouver" and "hamlet" name a person first: a noun none of whose
// senses is tagged names its first place when its places agree, not when
// they lie in different countries, and a noun whose commonest (tagged)
// sense is a person names none, nor does a place WordNet writes without a
// capital.
func TestBuildWordNetUntaggedPlaces(t *testing.T) {
	files := map[string]string{
		"index.noun": "canada n 1 1 #m 1 1 00000100\n" +
			"hamlet n 2 1 #p 2 1 00000900 00001000\n" +
			"offing n 2 1 #p 2 0 00001300 00001400\n" +
			"ontario n 1 1 #p 1 1 00000200\n" +
			"ottawa n 3 1 #p 3 0 00000300 00000400 00000500\n" +
			"usa n 1 1 #m 1 1 00000600\n" +
			"vancouver n 3 1 #p 3 0 00001100 00000800 00001200\n" +
			"washington n 1 1 #p 1 1 00000700\n",
		"data.noun": "00000100 15 n 01 Canada 0 000 | a country\n" +
			"00000200 15 n 01 Ontario 0 001 #p 00000100 n 0000 | a province\n" +
			"00000300 18 n 01 Ottawa 0 000 | a member of a people\n" +
			"00000400 17 n 01 Ottawa 0 001 #p 00000100 n 0000 | a river\n" +
			"00000500 15 n 01 Ottawa 0 001 #p 00000200 n 0000 | a capital\n" +
			"00000600 15 n 01 USA 0 000 | a country\n" +
			"00000700 15 n 01 Washington 0 001 #p 00000600 n 0000 | a state\n" +
			"00000800 15 n 01 Vancouver 0 001 #p 00000700 n 0000 | a city in Washington\n" +
			"00000900 18 n 01 Hamlet 0 000 | a prince\n" +
			"00001000 15 n 01 Hamlet 0 001 #p 00000100 n 0000 | a town\n" +
			"00001100 18 n 01 Vancouver 0 000 | a navigator\n" +
			"00001200 15 n 01 Vancouver 0 001 #p 00000200 n 0000 | a city in Ontario, here\n" +
			"00001300 04 n 01 offing 0 000 | the near future\n" +
			"00001400 15 n 01 offing 0 001 #p 00000100 n 0000 | the sea seen from the shore, here\n",
	}
	wn := buildFromFiles(t, files)
	for _, c := range []struct {
		a, b string
		want Rel
	}{
		{"canada", "ottawa", Whole}, // the river and the capital agree
		{"ontario", "ottawa", Whole},
		{"ottawa", "canada", Part},
		{"canada", "vancouver", 0}, // one city in each country
		{"usa", "vancouver", 0},
		{"canada", "hamlet", 0}, // first a prince, by the tagged count
		{"canada", "offing", 0}, // a place written without a capital
		{"usa", "washington", Whole},
	} {
		if got := wn.RelatePlaces(wn.Info(c.a), wn.Info(c.b)); got != c.want {
			t.Errorf("RelatePlaces(%q, %q) = %08b, want %08b", c.a, c.b, got, c.want)
		}
	}
}

// buildFromFiles writes a WordNet database of the given files (the
// others empty) and reads back the relation file BuildWordNet makes of it.
func buildFromFiles(t *testing.T, files map[string]string) *WordNet {
	t.Helper()
	dir := t.TempDir()
	for _, pos := range []string{"noun", "verb", "adj", "adv"} {
		for _, f := range []string{"index." + pos, "data." + pos, pos + ".exc"} {
			if err := os.WriteFile(filepath.Join(dir, f), []byte(files[f]), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var buf bytes.Buffer
	if err := BuildWordNet(&buf, dir, nil); err != nil {
		t.Fatal(err)
	}
	wn, err := ReadWordNet(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return wn
}

// TestBuildWordNetPhrasalSenses builds a verb of two words with five
// senses, four of them tagged: it keeps the fourth ("quit"), past the
// three a word keeps, and not the untagged fifth ("lower").
func TestBuildWordNetPhrasalSenses(t *testing.T) {
	wn := buildFromFiles(t, map[string]string{
		"index.verb": "abandon v 1 0 1 1 00000100\n" +
			"give v 1 0 1 1 00000600\n" +
			"give_up v 5 0 5 4 00000100 00000200 00000300 00000400 00000500\n" +
			"lower v 1 0 1 1 00000500\n" +
			"quit v 1 0 1 1 00000400\n" +
			"relinquish v 1 0 1 1 00000200\n" +
			"surrender v 1 0 1 1 00000300\n",
		"data.verb": "00000100 40 v 02 abandon 0 give_up 0 000 | leave behind\n" +
			"00000200 40 v 02 relinquish 0 give_up 0 000 | part with\n" +
			"00000300 40 v 02 surrender 0 give_up 0 000 | yield\n" +
			"00000400 42 v 02 quit 0 give_up 0 000 | stop an activity\n" +
			"00000500 30 v 02 lower 0 give_up 0 000 | make lower, here\n" +
			"00000600 40 v 01 give 0 000 | transfer\n",
		"verb.exc": "gave give\n",
	})
	got := wn.PhrasalSynonyms("gave", "up")
	if want := []string{"abandon", "quit", "relinquish", "surrender"}; !slices.Equal(got, want) {
		t.Errorf("PhrasalSynonyms(gave, up) = %q, want %q", got, want)
	}
	info, ok := wn.PhrasalInfo("gave", "up")
	if !ok {
		t.Fatal("give_up was not kept")
	}
	if r := wn.RelateInfo(wn.Info("quit"), info); r&Synonym == 0 {
		t.Errorf("quit against gave up = %05b, want a synonym", r)
	}
	if r := wn.RelateInfo(wn.Info("lower"), info); r&Synonym != 0 {
		t.Errorf("lower against gave up = %05b, want no synonym", r)
	}
}

// TestBuildWordNetClusters builds an adjective cluster, "toxic" its head
// and "poisonous" a satellite: the satellite is the head's hyponym, and a
// word outside the cluster relates to neither.
func TestBuildWordNetClusters(t *testing.T) {
	wn := buildFromFiles(t, map[string]string{
		"index.adj": "poisonous a 1 1 & 1 0 00000200\n" +
			"safe a 1 1 ! 1 1 00000300\n" +
			"toxic a 1 2 ! & 1 1 00000100\n",
		"data.adj": "00000100 00 a 01 toxic 0 002 & 00000200 a 0000 ! 00000300 a 0101 | of a poison\n" +
			"00000200 00 s 01 poisonous 0 001 & 00000100 a 0000 | able to kill\n" +
			"00000300 00 a 01 safe 0 001 ! 00000100 a 0101 | free from danger\n",
	})
	checkRel(t, wn, "RelateSimilar", wn.RelateSimilar, []relCase{
		{"toxic", "poisonous", Hypernym},
		{"poisonous", "toxic", Hyponym},
		{"safe", "poisonous", 0},
		{"toxic", "toxic", 0},
	})
	if got := wn.RelateInfo(wn.Info("toxic"), wn.Info("poisonous")); got != 0 {
		t.Errorf("RelateInfo(toxic, poisonous) = %08b, want 0: clusters are RelateSimilar's alone", got)
	}
}

// TestBuildWordNetNouns builds adjectives with a pertainym (\) and a
// derivation ("+") pointer to nouns: each is read as its noun's synonym
// (RelateNouns), and a noun no pointer reaches relates to neither.
func TestBuildWordNetNouns(t *testing.T) {
	wn := buildFromFiles(t, map[string]string{
		"index.noun": "drama n 1 0 1 0 00000100\n" +
			"efficacy n 1 0 1 0 00000200\n" +
			"comedy n 1 0 1 0 00000300\n",
		"data.noun": "00000100 10 n 01 drama 0 000 | a play\n" +
			"00000200 07 n 01 efficacy 0 000 | capacity to produce an effect\n" +
			"00000300 10 n 01 comedy 0 000 | a light play\n",
		"index.adj": "dramatic a 1 1 \\ 1 0 00000400\n" +
			"efficacious a 1 1 + 1 0 00000500\n",
		"data.adj": "00000400 01 a 01 dramatic 0 001 \\ 00000100 n 0101 | of drama\n" +
			"00000500 00 a 01 efficacious 0 001 + 00000200 n 0101 | producing an effect\n",
	})
	checkRel(t, wn, "RelateNouns", wn.RelateNouns, []relCase{
		{"dramatic", "drama", Synonym},
		{"efficacy", "efficacious", Synonym},
		{"dramatic", "comedy", 0},
		{"efficacious", "drama", 0},
	})
	if got := wn.RelatePlaces(wn.Info("dramatic"), wn.Info("drama")); got != 0 {
		t.Errorf("RelatePlaces(dramatic, drama) = %08b, want 0: drama is no place", got)
	}
}
