package train

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestPageTitle(t *testing.T) {
	for page, want := range map[string]string{
		"Soul_Food_-LRB-film-RRB-": "Soul Food (film)",
		"Damon_Albarn":             "Damon Albarn",
		"Star_Wars-COLON-_Episode": "Star Wars: Episode",
		"ChuChu TV":                "ChuChu TV",
		"":                         "",
	} {
		if got := pageTitle(page); got != want {
			t.Errorf("pageTitle(%q) = %q, want %q", page, got, want)
		}
	}
	if got := titled("", "A passage."); got != "A passage." {
		t.Errorf("titled without a title = %q, want the passage alone", got)
	}
}

// writeLines writes lines as the file path (slash-separated) under dir.
func writeLines(t *testing.T, dir, path string, lines ...string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoadWithTitles: with titles, FEVER's passages open with each of
// their pages' titles once, in the data's order, and VitaminC's with its
// page; the pairs, labels, groups and splits are those of Load.
func TestLoadWithTitles(t *testing.T) {
	dir := t.TempDir()
	write := func(path string, lines ...string) { writeLines(t, dir, path, lines...) }
	write("fever/paper_dev.jsonl",
		`{"id": 1, "claim": "Damon Albarn's debut album was released in 2011.", "label": "REFUTES", "evidence": ["His debut solo studio album was released on 28 April 2014 ."], "evidence_ids": [["Damon_Albarn", 17]]}`,
		`{"id": 2, "claim": "Telemundo is an English-language network.", "label": "REFUTES", "evidence": ["It is a provider of Spanish content .", "Hispanic Americans are American descendants .", "Telemundo is a Spanish-language network ."], "evidence_ids": [["Hispanic_and_Latino_Americans", 0], ["Telemundo", 0], ["Telemundo", 5]]}`,
		`{"id": 3, "claim": "Tilda Swinton is a vegan.", "label": "NOT_ENOUGH_INFO", "evidence": []}`)
	write("vitaminc/real_a.jsonl", `{"id": "a", "claim": "The channel has 25 million subscribers .", "evidence": ["It has more than 26 million subscribers ."], "label": "SUPPORTS", "page": "ChuChu TV"}`)
	write("vitaminc/synthetic.jsonl", `{"id": "b", "claim": "The channel has 9 million subscribers .", "evidence": ["It has more than 26 million subscribers ."], "label": "REFUTES", "page": "ChuChu TV"}`)
	write("snli/dev.jsonl", `{"claim": "A man sleeps.", "evidence": ["A man is sleeping on a bench."], "label": "SUPPORTS"}`)
	write("snli/test.jsonl", `{"claim": "A dog runs.", "evidence": ["A dog is running in a park."], "label": "SUPPORTS"}`)
	write("scifact/train_claim_doc_pairs.jsonl", `{"claim_id": 1, "claim": "Vitamin D helps.", "evidence": ["Vitamin D helped."], "label": "SUPPORTS"}`)
	plain, err := LoadWith(dir, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	withTitles, err := LoadWith(dir, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(plain) != len(withTitles) {
		t.Fatalf("%d pairs with titles, %d without", len(withTitles), len(plain))
	}
	// Titles on a share of the training split only.
	titledOf, err := TitledPassages(dir)
	if err != nil {
		t.Fatal(err)
	}
	some := slices.Clone(plain)
	for _, share := range []float64{0, 1} {
		copy(some, plain)
		n := TitleSome(some, titledOf, share, 1)
		changed := 0
		for i, e := range some {
			if e.Passage == plain[i].Passage {
				continue
			}
			changed++
			if e.Split != SplitTrain || e.Passage != titledOf[plain[i].Passage] {
				t.Errorf("share %g: a %s pair of the %s split got passage %q", share, e.Set, SplitName(e.Split), e.Passage)
			}
		}
		trainWiki := 0
		for _, e := range plain {
			if _, ok := titledOf[e.Passage]; ok && e.Split == SplitTrain {
				trainWiki++
			}
		}
		if trainWiki == 0 {
			t.Fatal("the toy data has no training-split Wikipedia pair")
		}
		if want := int(share) * trainWiki; n != changed || n != want {
			t.Errorf("share %g: %d pairs reported, %d changed, want %d", share, n, changed, want)
		}
	}
	want := map[string]string{
		"Damon Albarn's debut album was released in 2011.": "Damon Albarn. His debut solo",
		"Telemundo is an English-language network.":        "Hispanic and Latino Americans. Telemundo. It is a provider",
		"The channel has 25 million subscribers .":         "ChuChu TV. It has more",
		"The channel has 9 million subscribers .":          "ChuChu TV. It has more",
		"A man sleeps.": "A man is sleeping",
	}
	for i, e := range withTitles {
		p := plain[i]
		if e.Claim != p.Claim || e.Target != p.Target || e.Group != p.Group || e.Split != p.Split || e.Set != p.Set {
			t.Errorf("pair %d differs beyond its passage: %+v against %+v", i, e, p)
		}
		if !strings.HasSuffix(e.Passage, p.Passage) {
			t.Errorf("pair %d: passage %q does not end with the untitled %q", i, e.Passage, p.Passage)
		}
		if w, ok := want[e.Claim]; ok && e.Set != SetSamePage && e.Set != SetRandom && e.Set != "fever_other_subject" && !strings.HasPrefix(e.Passage, w) {
			t.Errorf("%s %q: passage %q, want it to open %q", e.Set, e.Claim, e.Passage, w)
		}
	}
}
