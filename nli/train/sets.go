package train

import (
	"bufio"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/verity-fc/verity/nli"
	txt "github.com/verity-fc/verity/text"
)

// Pair is one labeled (claim, passage) pair.
type Pair struct {
	Claim   string
	Passage string
	Label   nli.Label
	// Group keeps related pairs (the same Wikipedia page, premise or claim)
	// in the same split.
	Group string
}

// Split is the part of the data a pair belongs to.
type Split int

// Pairs are split by a hash of their group: 70% train, 10% calibration
// (temperature), 20% development. SNLI test is development as a whole.
const (
	SplitTrain Split = iota
	SplitCalib
	SplitDev
)

func splitOf(group string) Split {
	h := fnv.New32a()
	h.Write([]byte(group))
	switch v := h.Sum32() % 100; {
	case v < 20:
		return SplitDev
	case v < 30:
		return SplitCalib
	}
	return SplitTrain
}

// Sets are the named sets of labeled pairs read from the data directory,
// each split three ways.
type Sets map[string][3][]Pair

// Development set names, as reported by 'verity train nli' and the README.
const (
	SetFEVER      = "fever"
	SetVitaminC   = "vitaminc_real_a"
	SetVitaminSyn = "vitaminc_synthetic"
	SetSNLI       = "snli"
	SetSciFact    = "scifact"
	SetRandom     = "fever_random_neutral"
	SetSamePage   = "fever_same_page_neutral"
)

type row struct {
	ID          json.RawMessage `json:"id"`
	Claim       string          `json:"claim"`
	Evidence    []string        `json:"evidence"`
	Label       string          `json:"label"`
	Page        string          `json:"page"`
	EvidenceIDs [][]any         `json:"evidence_ids"`
	ClaimID     json.RawMessage `json:"claim_id"`
	Abstract    []string        `json:"abstract"`
}

func labelOf(s string) (nli.Label, error) {
	switch s {
	case "SUPPORTS":
		return nli.Entail, nil
	case "REFUTES":
		return nli.Contradict, nil
	case "NOT_ENOUGH_INFO":
		return nli.Neutral, nil
	}
	return 0, fmt.Errorf("unknown label %q", s)
}

func readRows(path string, fn func(row) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for n := 1; sc.Scan(); n++ {
		var r row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return fmt.Errorf("%s line %d: %w", path, n, err)
		}
		if err := fn(r); err != nil {
			return fmt.Errorf("%s line %d: %w", path, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

// LoadSets reads the labeled data in dir (the layout of ../shared/data)
// into pairs:
//
//   - FEVER paper_dev SUPPORTS/REFUTES claims with their evidence sentences
//     joined, grouped by the first evidence page;
//   - VitaminC real_a and synthetic, grouped by page, so that contrastive
//     pairs sharing evidence stay together;
//   - SNLI: dev for training and calibration (grouped by premise), test
//     entirely for development;
//   - SciFact claim x cited-abstract pairs, grouped by claim: rationale
//     sentences for SUPPORTS/REFUTES, and for NOT_ENOUGH_INFO the two
//     consecutive abstract sentences that share the most words with the
//     claim (a hard neutral, like a retrieved passage);
//   - neutral pairs of the same subject but another fact: each FEVER claim
//     with the evidence of another claim on the same page, unless that
//     passage shares three quarters of the claim's content words;
//   - neutral pairs of "evidence about something else": every FEVER claim
//     (NOT_ENOUGH_INFO claims too) paired with the passage of another page,
//     of the same split, that shares the most words among 20 drawn with
//     seed.
//
// A missing file is an error naming it.
func LoadSets(dir string, seed int64) (Sets, error) {
	sets, _, _, err := loadSets(dir, seed, true, false)
	return sets, err
}

// pageTitle turns a Wikipedia page name of the data ("Soul_Food_-LRB-film-RRB-")
// into its title ("Soul Food (film)").
func pageTitle(page string) string {
	return strings.TrimSpace(ptbBrackets.Replace(strings.ReplaceAll(page, "_", " ")))
}

var ptbBrackets = strings.NewReplacer("-LRB-", "(", "-RRB-", ")", "-LSB-", "[", "-RSB-", "]", "-LCB-", "{", "-RCB-", "}", "-COLON-", ":")

// titled puts the title of a passage's Wikipedia page before it as a
// sentence of its own ("Damon Albarn. His debut solo studio album ..."):
// FEVER's and VitaminC's evidence sentences often name their subject only
// in the page's title (a pronoun, or nothing), as a retrieved passage
// carries its document's title.
func titled(title, passage string) string {
	if title = pageTitle(title); title == "" {
		return passage
	}
	return title + ". " + passage
}

// feverPassage joins a FEVER claim's evidence sentences; with titles,
// the titles of their pages come first, each once. (The data lists the
// sentences' pages in another order than the sentences, so a title cannot
// be put before its own sentence.)
func feverPassage(r row, titles bool) string {
	passage := strings.Join(r.Evidence, " ")
	if !titles {
		return passage
	}
	pages := evidencePages(r)
	for i := len(pages) - 1; i >= 0; i-- {
		passage = titled(pages[i], passage)
	}
	return passage
}

// evidencePages returns the Wikipedia pages of a FEVER row's evidence,
// each once, in the data's order.
func evidencePages(r row) []string {
	var pages []string
	for _, id := range r.EvidenceIDs {
		if len(id) == 0 {
			continue
		}
		if page, _ := id[0].(string); page != "" && !slices.Contains(pages, page) {
			pages = append(pages, page)
		}
	}
	return pages
}

// claimRow is a FEVER claim with its group, split and evidence pages.
type claimRow struct {
	claim, group string
	s            Split
	pages        []string
}

// subjects tells whether a FEVER passage may be about a FEVER claim's own
// subject, so that the builders of neutral pairs pass over it. Grouping a
// claim by its first evidence page is not enough: a claim whose evidence
// spans pages, or that has rows of its own under other pages, would get a
// passage about its own subject labelled neutral ("Veeru Devgan is a
// director." against "Veeru Devgan is an Indian stunt and action
// choreographer and film director").
type subjects struct {
	claimPages   map[string]map[string]bool // claim → the pages of the evidence of any of its rows
	passagePages map[string][]string        // passage → the pages of its evidence
	claimWords   map[string]map[string]bool // claim → its words (text.PairWords)
	nameWords    map[string]map[string]bool // page → the words of its name (pageName)
}

func newSubjects(claims []claimRow, passagePages map[string][]string) *subjects {
	s := &subjects{claimPages: map[string]map[string]bool{}, passagePages: passagePages, claimWords: map[string]map[string]bool{}, nameWords: map[string]map[string]bool{}}
	for _, c := range claims {
		pages := s.claimPages[c.claim]
		if pages == nil {
			pages = map[string]bool{}
			s.claimPages[c.claim] = pages
			s.claimWords[c.claim] = txt.Set(txt.PairWords(c.claim)...)
		}
		for _, p := range c.pages {
			pages[p] = true
		}
	}
	for _, pages := range passagePages {
		for _, p := range pages {
			if s.nameWords[p] == nil {
				s.nameWords[p] = txt.Set(txt.PairWords(pageName(p))...)
			}
		}
	}
	return s
}

// same reports whether passage's evidence shares a page with claim's, or
// comes from a page the claim names: every word of the page's name,
// brackets aside ("Soul Food (film)" is "Soul Food"), is a word of the
// claim.
func (s *subjects) same(claim, passage string) bool {
	for _, page := range s.passagePages[passage] {
		// SetOverlap is 0 for a name without words.
		if s.claimPages[claim][page] || txt.SetOverlap(s.nameWords[page], s.claimWords[claim]) == 1 {
			return true
		}
	}
	return false
}

// pageName is a page's title without its bracketed part: "Soul Food" for
// "Soul_Food_-LRB-film-RRB-".
func pageName(page string) string {
	title := pageTitle(page)
	if i := strings.IndexByte(title, '('); i >= 0 {
		title = title[:i]
	}
	return strings.TrimSpace(title)
}

// loadSets is LoadSets; it also returns every FEVER claim with its split,
// and without neutrals it leaves out the neutral pairs built from FEVER
// claims (SetSamePage, SetRandom), the costly part. Its subjects tell
// which FEVER passages may be about a claim's own subject.
// With titles, FEVER's and VitaminC's passages get their Wikipedia page's
// title first (titled).
func loadSets(dir string, seed int64, neutrals, titles bool) (Sets, []claimRow, *subjects, error) {
	sets := Sets{}
	add := func(name string, p Pair, s Split) {
		v := sets[name]
		v[s] = append(v[s], p)
		sets[name] = v
	}

	var feverClaims []claimRow
	passagePages := map[string][]string{}
	ownPassage := map[string]bool{}
	err := readRows(filepath.Join(dir, "fever", "paper_dev.jsonl"), func(r row) error {
		l, err := labelOf(r.Label)
		if err != nil {
			return err
		}
		group := "fever:" + string(r.ID)
		if len(r.EvidenceIDs) > 0 && len(r.EvidenceIDs[0]) > 0 {
			group = fmt.Sprint("wiki:", r.EvidenceIDs[0][0])
		}
		s := splitOf(group)
		pages := evidencePages(r)
		feverClaims = append(feverClaims, claimRow{r.Claim, group, s, pages})
		if l == nli.Neutral || len(r.Evidence) == 0 {
			return nil
		}
		passage := feverPassage(r, titles)
		for _, p := range pages {
			if !slices.Contains(passagePages[passage], p) {
				passagePages[passage] = append(passagePages[passage], p)
			}
		}
		ownPassage[r.Claim+"\x00"+passage] = true
		add(SetFEVER, Pair{Claim: r.Claim, Passage: passage, Label: l, Group: group}, s)
		return nil
	})
	if err != nil {
		return nil, nil, nil, err
	}
	for _, f := range []struct{ name, file string }{{SetVitaminC, "real_a.jsonl"}, {SetVitaminSyn, "synthetic.jsonl"}} {
		err := readRows(filepath.Join(dir, "vitaminc", f.file), func(r row) error {
			l, err := labelOf(r.Label)
			if err != nil {
				return err
			}
			if len(r.Evidence) == 0 {
				return nil
			}
			group := "wiki:" + strings.ReplaceAll(r.Page, " ", "_")
			passage := strings.Join(r.Evidence, " ")
			if titles {
				passage = titled(r.Page, passage)
			}
			add(f.name, Pair{Claim: r.Claim, Passage: passage, Label: l, Group: group}, splitOf(group))
			return nil
		})
		if err != nil {
			return nil, nil, nil, err
		}
	}
	for _, f := range []string{"dev.jsonl", "test.jsonl"} {
		err := readRows(filepath.Join(dir, "snli", f), func(r row) error {
			l, err := labelOf(r.Label)
			if err != nil {
				return err
			}
			if len(r.Evidence) == 0 {
				return nil
			}
			group := "snli:" + r.Evidence[0]
			s := SplitDev
			if f == "dev.jsonl" {
				// SNLI test is the development set; its dev file trains.
				s = SplitTrain
				if splitOf(group) != SplitTrain {
					s = SplitCalib
				}
			}
			add(SetSNLI, Pair{Claim: r.Claim, Passage: r.Evidence[0], Label: l, Group: group}, s)
			return nil
		})
		if err != nil {
			return nil, nil, nil, err
		}
	}
	err = readRows(filepath.Join(dir, "scifact", "train_claim_doc_pairs.jsonl"), func(r row) error {
		l, err := labelOf(r.Label)
		if err != nil {
			return err
		}
		group := "scifact:" + string(r.ClaimID)
		passage := strings.Join(r.Evidence, " ")
		if len(r.Evidence) == 0 {
			if l != nli.Neutral || len(r.Abstract) == 0 {
				return nil
			}
			passage = bestWindow(r.Claim, r.Abstract, 2)
		}
		add(SetSciFact, Pair{Claim: r.Claim, Passage: passage, Label: l, Group: group}, splitOf(group))
		return nil
	})
	if err != nil {
		return nil, nil, nil, err
	}

	subj := newSubjects(feverClaims, passagePages)
	if !neutrals {
		return sets, feverClaims, subj, nil
	}

	// Evidence about the same subject but another fact: FEVER claims with
	// the evidence of another claim on the same page. A passage that shares
	// three quarters of the claim's content words may well say the same
	// thing and is skipped.
	for s := SplitTrain; s <= SplitDev; s++ {
		byGroup := map[string][]string{}
		for _, p := range sets[SetFEVER][s] {
			if !slices.Contains(byGroup[p.Group], p.Passage) {
				byGroup[p.Group] = append(byGroup[p.Group], p.Passage)
			}
		}
		for _, c := range feverClaims {
			if c.s != s {
				continue
			}
			for _, passage := range byGroup[c.group] {
				if ownPassage[c.claim+"\x00"+passage] || nli.ContentOverlap(c.claim, passage) >= 0.75 {
					continue
				}
				add(SetSamePage, Pair{Claim: c.claim, Passage: passage, Label: nli.Neutral, Group: c.group}, s)
				break
			}
		}
	}

	// Evidence about something else: FEVER claims with other pages' passages.
	rng := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
	for s := SplitTrain; s <= SplitDev; s++ {
		pool := sets[SetFEVER][s]
		if len(pool) == 0 {
			continue
		}
		for _, c := range feverClaims {
			if c.s != s {
				continue
			}
			best, bestOverlap := -1, -1.0
			for range 20 {
				i := rng.IntN(len(pool))
				if pool[i].Group == c.group || subj.same(c.claim, pool[i].Passage) {
					continue
				}
				if o := nli.ContentOverlap(c.claim, pool[i].Passage); o > bestOverlap {
					best, bestOverlap = i, o
				}
			}
			if best >= 0 {
				add(SetRandom, Pair{Claim: c.claim, Passage: pool[best].Passage, Label: nli.Neutral, Group: c.group}, s)
			}
		}
	}
	return sets, feverClaims, subj, nil
}

// bestWindow returns the n consecutive sentences sharing the most content
// stems with the claim, the first such window on ties.
func bestWindow(claim string, sentences []string, n int) string {
	i, k := txt.BestWindow(sentences, n, n, func(w string) float64 { return nli.ContentOverlap(claim, w) })
	return strings.Join(sentences[i:i+k], " ")
}

// Names returns the set names in order.
func (s Sets) Names() []string {
	names := make([]string, 0, len(s))
	for k := range s {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
