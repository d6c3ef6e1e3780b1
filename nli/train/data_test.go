package train

import (
	"fmt"
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
