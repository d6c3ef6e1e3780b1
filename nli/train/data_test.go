package train

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestGroupExtraAcrossFiles groups a second file with a first one: a
// premise found in both puts its pairs in the first file's group, the
// first file's groups keep their names, and a pair of the second file
// that bridges two of the first file's groups joins them.
func TestGroupExtraAcrossFiles(t *testing.T) {
	row := func(claim, premise string) extraRow {
		return extraRow{Claim: claim, Evidence: []string{premise}, Label: "SUPPORTS"}
	}
	var first []extraRow
	for i := range 40 {
		first = append(first, row(fmt.Sprint("claim ", i), fmt.Sprint("premise ", i)))
	}
	second := []extraRow{
		row("another claim", "premise 3"),                 // shares premise 3
		row("a claim of its own", "a premise of its own"), // its own group
		row("claim 10", "premise 20"),                     // bridges 10 and 20
	}
	rows := [][]extraRow{first, second}
	alone := groupExtra("a", []int{0}, rows)
	both := groupExtra("a", []int{0, 1}, rows)
	for i := range first {
		if i == 10 || i == 20 {
			continue
		}
		if alone[0][i] != both[0][i] {
			t.Errorf("first file's pair %d: group %q alone, %q with the second file", i, alone[0][i], both[0][i])
		}
	}
	if both[1][0] != both[0][3] {
		t.Errorf("a shared premise: group %q, want the first file's %q", both[1][0], both[0][3])
	}
	if both[1][1] != "a:c:a claim of its own" {
		t.Errorf("a pair of its own: group %q", both[1][1])
	}
	if both[0][10] != both[0][20] || both[1][2] != both[0][10] {
		t.Errorf("a bridging pair: groups %q, %q and %q, want one", both[0][10], both[0][20], both[1][2])
	}
}

// TestNoisyExtraTrainsOnly keeps a noisy file's training pairs and leaves
// out its calibration and development pairs.
func TestNoisyExtraTrainsOnly(t *testing.T) {
	var rows []extraRow
	var groups []string
	for i := range 200 {
		rows = append(rows, extraRow{Claim: fmt.Sprint("c", i), Evidence: []string{fmt.Sprint("p", i)}, Label: "REFUTES"})
		groups = append(groups, fmt.Sprint("g:", i))
	}
	clean := extraExamples(ExtraFile{Name: "clean"}, rows, groups)
	noisy := extraExamples(ExtraFile{Name: "noisy", Noisy: true}, rows, groups)
	train := 0
	for _, e := range clean {
		if e.Split == SplitTrain {
			train++
		}
	}
	if len(clean) != len(rows) || train == len(rows) || train == 0 {
		t.Fatalf("clean file: %d examples, %d in training, of %d rows", len(clean), train, len(rows))
	}
	if len(noisy) != train {
		t.Fatalf("noisy file: %d examples, want its %d training pairs", len(noisy), train)
	}
	for _, e := range noisy {
		if e.Split != SplitTrain || e.Target != tContradict {
			t.Fatalf("noisy file kept %+v", e)
		}
	}
}

// TestOtherSubjectPassesOverTheClaimsSubject: the other-subject and random
// neutral pairs never give a FEVER claim a passage whose evidence shares a
// page with the claim's own evidence (any of its rows), nor one from a page
// the claim names; a passage about another subject of the same topic is
// still paired. Every page below hashes to the training split.
func TestOtherSubjectPassesOverTheClaimsSubject(t *testing.T) {
	dir := t.TempDir()
	const (
		devgan     = "Ajay Devgn's father was an action film director."
		stunts     = "Veeru Devgan was a stunt choreographer."
		devganP    = "Ajay Devgn is the son of Veeru Devgan . Veeru Devgan was an action film director for decades ."
		stuntsP    = "Veeru Devgan is an Indian stunt and action choreographer and film director ."
		telemundo  = "Telemundo is an English-language network."
		spanish    = "Telemundo broadcasts news in Spanish."
		telemundoP = "Univision competes with other networks ."
		spanishP   = "Telemundo is an American Spanish-language network that broadcasts news ."
		golden     = "The Golden Gate opened in 1937 as a bridge."
		harbour    = "The Sydney Harbour Bridge opened in 1932."
		goldenP    = "The Golden Gate Bridge opened in 1937 ."
		harbourP   = "The Sydney Harbour Bridge opened in 1932 after eight years of work ."
	)
	row := func(id int, claim string, pages []string, evidence ...string) string {
		ids := ""
		for i, p := range pages {
			if i > 0 {
				ids += ", "
			}
			ids += fmt.Sprintf("[%q, %d]", p, i)
		}
		ev, _ := json.Marshal(evidence)
		return fmt.Sprintf(`{"id": %d, "claim": %q, "label": "SUPPORTS", "evidence": %s, "evidence_ids": [%s]}`, id, claim, ev, ids)
	}
	writeLines(t, dir, "fever/paper_dev.jsonl",
		// The claim's evidence spans two pages, the second another claim's;
		// the claim does not name it.
		row(1, devgan, []string{"Ajay_Devgn", "Veeru_Devgan"}, "Ajay Devgn is the son of Veeru Devgan .", "Veeru Devgan was an action film director for decades ."),
		row(2, stunts, []string{"Veeru_Devgan"}, stuntsP),
		// The claim names the page (brackets aside) of another claim's evidence.
		row(3, telemundo, []string{"Univision"}, telemundoP),
		row(4, spanish, []string{"Telemundo_-LRB-TV_network-RRB-"}, spanishP),
		// Another subject of the same topic.
		row(5, golden, []string{"Golden_Gate"}, goldenP),
		row(6, harbour, []string{"Sydney_Harbour_Bridge"}, harbourP))
	writeLines(t, dir, "vitaminc/real_a.jsonl", `{"id": "a", "claim": "The channel has 25 million subscribers .", "evidence": ["It has more than 26 million subscribers ."], "label": "SUPPORTS", "page": "ChuChu TV"}`)
	writeLines(t, dir, "vitaminc/synthetic.jsonl", `{"id": "b", "claim": "The channel has 9 million subscribers .", "evidence": ["It has more than 26 million subscribers ."], "label": "REFUTES", "page": "ChuChu TV"}`)
	writeLines(t, dir, "snli/dev.jsonl", `{"claim": "A man sleeps.", "evidence": ["A man is sleeping on a bench."], "label": "SUPPORTS"}`)
	writeLines(t, dir, "snli/test.jsonl", `{"claim": "A dog runs.", "evidence": ["A dog is running in a park."], "label": "SUPPORTS"}`)
	writeLines(t, dir, "scifact/train_claim_doc_pairs.jsonl", `{"claim_id": 1, "claim": "Vitamin D helps.", "evidence": ["Vitamin D helped."], "label": "SUPPORTS"}`)
	for _, page := range []string{"Ajay_Devgn", "Veeru_Devgan", "Univision", "Telemundo_-LRB-TV_network-RRB-", "Golden_Gate", "Sydney_Harbour_Bridge"} {
		if s := splitOf("wiki:" + page); s != SplitTrain {
			t.Fatalf("page %s hashes to the %s split; the test needs one split", page, SplitName(s))
		}
	}

	exs, err := Load(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	own := map[[2]string]bool{
		{devgan, stuntsP}: true, {stunts, devganP}: true, // a shared page
		{telemundo, spanishP}: true, // a named page
	}
	var other [][2]string
	random := 0
	for _, e := range exs {
		pair := [2]string{e.Claim, e.Passage}
		switch e.Set {
		case SetOtherSubject:
			other = append(other, pair)
		case SetRandom:
			random++
		default:
			continue
		}
		if own[pair] {
			t.Errorf("%s pairs %q with a passage about its own subject, %q", e.Set, e.Claim, e.Passage)
		}
	}
	slices.SortFunc(other, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	want := [][2]string{{golden, harbourP}, {harbour, goldenP}}
	if !slices.Equal(other, want) {
		t.Errorf("other-subject pairs %q, want %q", other, want)
	}
	if random < 4 {
		t.Errorf("%d random neutral pairs, want one for most of the six claims", random)
	}
}
