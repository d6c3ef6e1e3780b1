package train

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
)

// TitledPassages maps the untitled passages of the Wikipedia sets of dir
// (FEVER, VitaminC, and FoolMeTwice when dir/train has it) to the same
// passages opened by their page's title, as LoadWith with titles builds
// them. Passages the data does not give a page for are left out.
func TitledPassages(dir string) (map[string]string, error) {
	out := map[string]string{}
	err := readRows(filepath.Join(dir, "fever", "paper_dev.jsonl"), func(r row) error {
		if len(r.Evidence) > 0 {
			if t := feverPassage(r, true); t != strings.Join(r.Evidence, " ") {
				out[strings.Join(r.Evidence, " ")] = t
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, f := range []string{"real_a.jsonl", "synthetic.jsonl"} {
		err := readRows(filepath.Join(dir, "vitaminc", f), func(r row) error {
			if p := strings.Join(r.Evidence, " "); p != "" && r.Page != "" {
				out[p] = titled(r.Page, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	trainDir := filepath.Join(dir, "train")
	if st, err := os.Stat(trainDir); err != nil || !st.IsDir() {
		return out, nil
	}
	for _, f := range ExtraFiles {
		if !f.WikiTitles {
			continue
		}
		rows, err := readExtra(f.path(trainDir), f.Name, 1)
		if err != nil {
			return nil, fmt.Errorf("titles: %w", err)
		}
		for _, r := range rows {
			if t := titledExtra(r); t.Evidence[0] != r.Evidence[0] {
				out[r.Evidence[0]] = t.Evidence[0]
			}
		}
	}
	return out, nil
}

// titledExtra returns r with its page's title before its first evidence
// sentence (the rows of ExtraFiles marked WikiTitles).
func titledExtra(r extraRow) extraRow {
	if len(r.Evidence) > 0 {
		r.Evidence = append([]string{titled(r.Title, r.Evidence[0])}, r.Evidence[1:]...)
	}
	return r
}

// TitleSome gives a share of the training split's pairs whose passage
// titled maps the titled passage instead ('verity train nli --title-share'):
// each pair by a hash of its claim, passage and the seed, so the same data
// give the same choice. Calibration and development pairs keep their
// passages as the data gives them, so that the networks are chosen and
// measured on untitled passages, as verity's own passages reach the judge;
// a network that sees titles on part of its pairs cannot learn to expect
// them. It returns how many pairs it changed.
func TitleSome(exs []Example, titled map[string]string, share float64, seed int64) int {
	n := 0
	for i := range exs {
		e := &exs[i]
		t, ok := titled[e.Passage]
		if !ok || e.Split != SplitTrain {
			continue
		}
		h := fnv.New64a()
		fmt.Fprintf(h, "%d\x00%s\x00%s", seed, e.Claim, e.Passage)
		if float64(h.Sum64()%10000) < share*10000 {
			e.Passage = t
			n++
		}
	}
	return n
}
