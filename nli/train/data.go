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
}

// ExtraFiles are the files of ../shared/data/train the model is trained
// on. Breaking NLI was built as a test set: it is never trained on and
// is reported whole.
var ExtraFiles = []ExtraFile{
	{"fm2_dev", 2, "Apache-2.0; evidence Wikipedia CC BY-SA"},
	{"check_covid_train", 1.5, "MIT"},
	{"covidfact", 0.5, "unspecified"},
	{"healthver", 1, "unspecified"},
	{"citint", 0.5, "MIT copy; upstream unspecified"},
	{"fnc1", 0.5, "unspecified"},
	{"mnli_dev", 1, "MIT copy; MultiNLI terms; labels C-UDA 1.0"},
	{"cad_snli", 1, "Apache-2.0; premises CC BY-SA 4.0"},
	{"taxinli", 1, "C-UDA 1.0"},
	{"joci", 0.5, "unspecified"},
	{"mpe", 0.5, "unspecified"},
	{"rte", 1, "unspecified"},
	{"add_one_rte", 0.5, "unspecified"},
	{"scitail_dev", 1, "unspecified"},
	{"commitment_bank", 1, "unspecified"},
	{"fracas", 1, "unspecified"},
	{"breaking_nli", 0, "CC BY-SA 4.0"},
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
func Load(dir string, seed int64) ([]Example, error) {
	sets, err := LoadSets(dir, seed)
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
	out = append(out, otherSubject(sets)...)
	trainDir := filepath.Join(dir, "train")
	if st, err := os.Stat(trainDir); err != nil || !st.IsDir() {
		return out, nil
	}
	for _, f := range ExtraFiles {
		ex, err := loadExtra(filepath.Join(trainDir, f.Name+".jsonl.gz"), f.Name, seed)
		if err != nil {
			return nil, err
		}
		out = append(out, ex...)
	}
	return out, nil
}

func loadExtra(path, set string, seed int64) ([]Example, error) {
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
	// Groups: pairs sharing a claim or a passage are one group (contrastive
	// edits, counterfactual variants, one claim against several
	// passages); FNC-1 pairs group by article body.
	uf := newUnionFind()
	for _, r := range rows {
		if set == "fnc1" && r.BodyID != nil {
			continue
		}
		uf.union("c:"+r.Claim, "e:"+r.Evidence[0])
	}
	out := make([]Example, 0, len(rows))
	for _, r := range rows {
		t, err := target(r.Label)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", path, r.ID, err)
		}
		group := set + ":" + uf.find("c:"+r.Claim)
		if set == "fnc1" && r.BodyID != nil {
			group = fmt.Sprint("fnc1:body:", *r.BodyID)
		}
		sep := " "
		if set == "mpe" {
			sep = ". "
		}
		out = append(out, Example{Set: set, Claim: r.Claim, Passage: strings.Join(r.Evidence, sep), Target: t, Group: group, Split: splitOf(group)})
	}
	return out, nil
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
// it: same topic, another subject, neutral.
func otherSubject(sets Sets) []Example {
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
