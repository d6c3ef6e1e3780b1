// Package train trains verity's built-in NLI model (package nli, network
// in nli/align) from the labelled data in ../shared/data and
// ../shared/data/train. It is used by 'verity train nli' only; the server
// carries inference alone.
package train

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/verity-fc/verity/nli"
	"github.com/verity-fc/verity/text"
)

// Target bits: the labels an example allows (align.Loss).
const (
	tEntail     = 1 << nli.Entail
	tContradict = 1 << nli.Contradict
	tNeutral    = 1 << nli.Neutral
	// tNotSupported is "not entailed": contradiction or neutral, from
	// binary sets and Citation-Integrity's NOT_ACCURATE.
	tNotSupported = tContradict | tNeutral
)

// Example is one labelled (claim, passage) pair.
type Example struct {
	Set     string
	Claim   string
	Passage string
	Target  uint8
	Group   string
	Split   Split
}

// Label returns the example's single label, or false for NOT_SUPPORTED.
func (e Example) Label() (nli.Label, bool) {
	switch e.Target {
	case tEntail:
		return nli.Entail, true
	case tContradict:
		return nli.Contradict, true
	case tNeutral:
		return nli.Neutral, true
	}
	return 0, false
}

// ExtraFile is one file of ../shared/data/train with how it is used.
type ExtraFile struct {
	Name string
	// Weight of its examples in the loss; 0 keeps it out of training (it
	// is then reported on as a whole).
	Weight float64
	// Licence as the data README states it, for the model's README.
	Licence string
	// File is the file's path under the train directory; empty for
	// Name + ".jsonl.gz".
	File string
	// GroupWith names an earlier file whose groups this file's pairs
	// join: a premise or claim found in both files puts all its pairs in
	// one split, and the earlier file's splits stay as they were.
	GroupWith string
	// Noisy marks labels that were not checked against the gold labels:
	// the file's training pairs are trained on, and its calibration and
	// development pairs are left out, so that no figure and no
	// temperature rests on them.
	Noisy bool
	// WikiTitles marks a file whose rows' title is the Wikipedia page of
	// the evidence: with titles (LoadWith) it goes before the passage.
	WikiTitles bool
}

// path returns the file's path under trainDir.
func (f ExtraFile) path(trainDir string) string {
	if f.File != "" {
		return filepath.Join(trainDir, filepath.FromSlash(f.File))
	}
	return filepath.Join(trainDir, f.Name+".jsonl.gz")
}

// ExtraFiles are the files of ../shared/data/train the model is trained
// on. Breaking NLI was built as a test set: it is never trained on and
// is reported whole.
var ExtraFiles = []ExtraFile{
	{Name: "fm2_dev", Weight: 2, WikiTitles: true, Licence: "Apache-2.0; evidence Wikipedia CC BY-SA"},
	{Name: "check_covid_train", Weight: 1.5, Licence: "MIT"},
	{Name: "covidfact", Weight: 0.5, Licence: "unspecified"},
	{Name: "healthver", Weight: 1, Licence: "unspecified"},
	{Name: "citint", Weight: 0.5, Licence: "MIT copy; upstream unspecified"},
	{Name: "fnc1", Weight: 0.5, Licence: "unspecified"},
	{Name: "mnli_dev", Weight: 1, Licence: "MIT copy; MultiNLI terms; labels C-UDA 1.0"},
	// The rest of MultiNLI dev with the copy's labels, about 12% of which
	// differ from gold; it shares mnli_dev's premises, hence its groups.
	{Name: "mnli_dev_unverified", Weight: 0.5, Licence: "MIT copy; MultiNLI terms", File: "unverified/mnli_dev_unverified.jsonl.gz", GroupWith: "mnli_dev", Noisy: true},
	{Name: "cad_snli", Weight: 1, Licence: "Apache-2.0; premises CC BY-SA 4.0"},
	{Name: "taxinli", Weight: 1, Licence: "C-UDA 1.0"},
	{Name: "joci", Weight: 0.5, Licence: "unspecified"},
	{Name: "mpe", Weight: 0.5, Licence: "unspecified"},
	{Name: "rte", Weight: 1, Licence: "unspecified"},
	{Name: "add_one_rte", Weight: 0.5, Licence: "unspecified"},
	{Name: "scitail_dev", Weight: 1, Licence: "unspecified"},
	{Name: "commitment_bank", Weight: 1, Licence: "unspecified"},
	{Name: "fracas", Weight: 1, Licence: "unspecified"},
	{Name: "breaking_nli", Weight: 0, Licence: "CC BY-SA 4.0"},
}

// BaseWeights weigh the sets built from ../shared/data.
var BaseWeights = map[string]float64{
	SetFEVER: 2, SetVitaminC: 1, SetVitaminSyn: 0.5, SetSNLI: 1, SetSciFact: 3,
	SetRandom: 0.5, SetSamePage: 1, SetOtherSubject: 1,
}

// SetOtherSubject is the development set for "evidence about another
// subject is neutral": each FEVER claim with the passage of another
// Wikipedia page that shares the most content words with it.
const SetOtherSubject = "fever_other_subject"

// fncUnrelated is how many FNC-1 "unrelated" pairs are kept (drawn with
// the seed): they are 60% of FNC-1 and easy.
const fncUnrelated = 3000

type extraRow struct {
	ID        string   `json:"id"`
	Claim     string   `json:"claim"`
	Evidence  []string `json:"evidence"`
	Label     string   `json:"label"`
	OrigLabel string   `json:"orig_label"`
	BodyID    *int     `json:"body_id"`
	Title     string   `json:"title"`
}

func target(label string) (uint8, error) {
	switch label {
	case "SUPPORTS":
		return tEntail, nil
	case "REFUTES":
		return tContradict, nil
	case "NOT_ENOUGH_INFO":
		return tNeutral, nil
	case "NOT_SUPPORTED":
		return tNotSupported, nil
	}
	return 0, fmt.Errorf("unknown label %q", label)
}

// Load reads every set: the base sets of dir (nli.LoadSets, plus the
// other-subject pairs) and, when dir/train exists, the extra files.
func Load(dir string, seed int64) ([]Example, error) { return LoadWith(dir, seed, false) }

// LoadWith is Load; with titles, the passages of the sets drawn from
// Wikipedia (FEVER and the pairs built from it, VitaminC, FoolMeTwice)
// open with their page's title ('verity train nli --titles').
func LoadWith(dir string, seed int64, titles bool) ([]Example, error) {
	sets, _, subj, err := loadSets(dir, seed, true, titles)
	if err != nil {
		return nil, err
	}
	var out []Example
	for _, name := range sets.Names() {
		for s, pairs := range sets[name] {
			for _, p := range pairs {
				out = append(out, Example{Set: name, Claim: p.Claim, Passage: p.Passage, Target: 1 << p.Label, Group: p.Group, Split: Split(s)})
			}
		}
	}
	out = append(out, otherSubject(sets, subj)...)
	trainDir := filepath.Join(dir, "train")
	if st, err := os.Stat(trainDir); err != nil || !st.IsDir() {
		return out, nil
	}
	ex, err := loadExtras(trainDir, seed, titles)
	if err != nil {
		return nil, err
	}
	return append(out, ex...), nil
}

// loadExtras reads the ExtraFiles of trainDir, in their order, and groups
// each file's pairs with those of the file it names in GroupWith.
func loadExtras(trainDir string, seed int64, titles bool) ([]Example, error) {
	byName := map[string]ExtraFile{}
	for _, f := range ExtraFiles {
		if g, ok := byName[f.GroupWith]; f.GroupWith != "" && (!ok || g.GroupWith != "") {
			return nil, fmt.Errorf("%s groups with %q, which is not an earlier file that groups on its own", f.Name, f.GroupWith)
		}
		byName[f.Name] = f
	}
	rows := make([][]extraRow, len(ExtraFiles))
	for i, f := range ExtraFiles {
		r, err := readExtra(f.path(trainDir), f.Name, seed)
		if err != nil {
			return nil, err
		}
		if titles && f.WikiTitles {
			for k := range r {
				r[k] = titledExtra(r[k])
			}
		}
		rows[i] = r
	}
	var out []Example
	for i, f := range ExtraFiles {
		if f.GroupWith != "" {
			continue // grouped with its file below
		}
		files := []int{i}
		for j, g := range ExtraFiles {
			if g.GroupWith == f.Name {
				files = append(files, j)
			}
		}
		groups := groupExtra(f.Name, files, rows)
		for k, j := range files {
			out = append(out, extraExamples(ExtraFiles[j], rows[j], groups[k])...)
		}
	}
	return out, nil
}

// readExtra reads one file's rows, keeping fncUnrelated of FNC-1's
// "unrelated" pairs.
func readExtra(path, set string, seed int64) ([]extraRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var rows []extraRow
	for n := 1; sc.Scan(); n++ {
		var r extraRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", path, n, err)
		}
		if strings.TrimSpace(r.Claim) == "" || len(r.Evidence) == 0 {
			continue
		}
		if _, err := target(r.Label); err != nil {
			return nil, fmt.Errorf("%s line %d (%s): %w", path, n, r.ID, err)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if set == "fnc1" {
		var unrelated []int
		for i, r := range rows {
			if r.OrigLabel == "unrelated" {
				unrelated = append(unrelated, i)
			}
		}
		rng := rand.New(rand.NewPCG(uint64(seed), 0xf0c1))
		rng.Shuffle(len(unrelated), func(i, j int) { unrelated[i], unrelated[j] = unrelated[j], unrelated[i] })
		drop := map[int]bool{}
		for _, i := range unrelated[min(len(unrelated), fncUnrelated):] {
			drop[i] = true
		}
		kept := rows[:0]
		for i, r := range rows {
			if !drop[i] {
				kept = append(kept, r)
			}
		}
		rows = kept
	}
	return rows, nil
}

// groupExtra names the group of every row of the files (indexes into
// rows; the first is the file the others group with). Pairs sharing a
// claim or a passage are one group (contrastive edits, counterfactual
// variants, one claim against several passages); FNC-1 pairs group by
// article body. A group is named by the smallest key of the first file's
// rows in it, so that joining other files' rows does not rename (and so
// re-split) the first file's groups unless those rows bridge two of them.
func groupExtra(set string, files []int, rows [][]extraRow) [][]string {
	uf := newUnionFind()
	for _, i := range files {
		for _, r := range rows[i] {
			if set == "fnc1" && r.BodyID != nil {
				continue
			}
			uf.union("c:"+r.Claim, "e:"+r.Evidence[0])
		}
	}
	name := map[string]string{}
	for _, r := range rows[files[0]] {
		for _, k := range []string{"c:" + r.Claim, "e:" + r.Evidence[0]} {
			root := uf.find(k)
			if n, ok := name[root]; !ok || k < n {
				name[root] = k
			}
		}
	}
	out := make([][]string, len(files))
	for k, i := range files {
		out[k] = make([]string, len(rows[i]))
		for j, r := range rows[i] {
			if set == "fnc1" && r.BodyID != nil {
				out[k][j] = fmt.Sprint("fnc1:body:", *r.BodyID)
				continue
			}
			root := uf.find("c:" + r.Claim)
			n, ok := name[root]
			if !ok {
				n = root
			}
			out[k][j] = set + ":" + n
		}
	}
	return out
}

// extraExamples turns one file's rows into examples in the given groups.
func extraExamples(f ExtraFile, rows []extraRow, groups []string) []Example {
	out := make([]Example, 0, len(rows))
	sep := " "
	if f.Name == "mpe" {
		sep = ". "
	}
	for i, r := range rows {
		t, _ := target(r.Label) // readExtra checked it
		s := splitOf(groups[i])
		if f.Noisy && s != SplitTrain {
			continue
		}
		out = append(out, Example{Set: f.Name, Claim: r.Claim, Passage: strings.Join(r.Evidence, sep), Target: t, Group: groups[i], Split: s})
	}
	return out
}

type unionFind struct{ parent map[string]string }

func newUnionFind() *unionFind { return &unionFind{parent: map[string]string{}} }

func (u *unionFind) find(x string) string {
	p, ok := u.parent[x]
	if !ok || p == x {
		return x
	}
	r := u.find(p)
	u.parent[x] = r
	return r
}

// union joins the groups of a and b; the smaller key becomes the root so
// that groups do not depend on the order of the rows.
func (u *unionFind) union(a, b string) {
	ra, rb := u.find(a), u.find(b)
	if ra == rb {
		return
	}
	if rb < ra {
		ra, rb = rb, ra
	}
	u.parent[rb] = ra
	if _, ok := u.parent[ra]; !ok {
		u.parent[ra] = ra
	}
}

// otherSubject pairs each FEVER claim of a split with the passage of
// another page of the same split that shares the most content words with
// it: same topic, another subject, neutral. A passage that may be about
// the claim's own subject (subjects.same) is passed over.
func otherSubject(sets Sets, subj *subjects) []Example {
	var out []Example
	for s := SplitTrain; s <= SplitDev; s++ {
		pool := sets[SetFEVER][s]
		index := map[string][]int{}
		words := make([][]string, len(pool))
		for i, p := range pool {
			words[i] = text.PairWords(p.Passage)
			for _, w := range words[i] {
				index[w] = append(index[w], i)
			}
		}
		seen := map[string]bool{}
		for _, c := range pool {
			if seen[c.Claim] {
				continue
			}
			seen[c.Claim] = true
			score := map[int]int{}
			for _, w := range text.PairWords(c.Claim) {
				for _, i := range index[w] {
					if pool[i].Group != c.Group {
						score[i]++
					}
				}
			}
			best, bestN := -1, 1
			for i, n := range score {
				if n < bestN || subj.same(c.Claim, pool[i].Passage) {
					continue
				}
				if n > bestN || (n == bestN && best >= 0 && i < best) {
					best, bestN = i, n
				}
			}
			if best < 0 {
				continue
			}
			out = append(out, Example{Set: SetOtherSubject, Claim: c.Claim, Passage: pool[best].Passage, Target: tNeutral, Group: c.Group, Split: s})
		}
	}
	return out
}

// Reduce keeps maxTrain training pairs, maxCalib calibration pairs and
// maxDev development pairs of each set (drawn with the seed), for a
// reduced training budget such as the ablation study's.
func Reduce(exs []Example, maxTrain, maxCalib, maxDev int, seed int64) []Example {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x4ed))
	idx := rng.Perm(len(exs))
	var out []Example
	nTrain, nCalib := 0, 0
	nDev := map[string]int{}
	for _, i := range idx {
		e := exs[i]
		switch {
		case e.Split == SplitTrain && nTrain < maxTrain:
			nTrain++
		case e.Split == SplitCalib && nCalib < maxCalib:
			nCalib++
		case e.Split == SplitDev && nDev[e.Set] < maxDev:
			nDev[e.Set]++
		default:
			continue
		}
		out = append(out, e)
	}
	return out
}
