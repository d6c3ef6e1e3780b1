package retrieval

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/internal/shareddata"
	txt "github.com/verity-fc/verity/text"
)

// sortDoc sorts the terms of d, with their frequencies.
func sortDoc(d lexDoc) {
	order := make([]int, len(d.terms))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(d.terms[a], d.terms[b]) })
	terms, tfs := slices.Clone(d.terms), slices.Clone(d.tfs)
	for i, j := range order {
		d.terms[i], d.tfs[i] = terms[j], tfs[j]
	}
}

// analyzeReference is the analysis as first written, words split by text.Words
// and counted in a fresh map, terms sorted: the analyzer must give exactly
// what it gives but for the order of the terms, or snapshots and searches
// would disagree with what the index held before.
func analyzeReference(body, title string) lexDoc {
	counts := map[string]int{}
	length := 0
	add := func(s string, w int) {
		for _, word := range txt.Words(s) {
			length += 2
			if txt.SearchTerm(word) {
				counts[txt.Porter2(word)] += w
			}
		}
	}
	add(body, 2)
	add(title, 1)
	d := lexDoc{terms: make([]string, 0, len(counts)), tfs: make([]uint8, 0, len(counts)), length: uint32(min(length, math.MaxUint32))}
	for t := range counts {
		d.terms = append(d.terms, t)
	}
	slices.Sort(d.terms)
	for _, t := range d.terms {
		d.tfs = append(d.tfs, uint8(min(counts[t], math.MaxUint8)))
	}
	return d
}

func TestAnalyzerMatchesReference(t *testing.T) {
	texts := [][2]string{
		{"", ""},
		{"The Quick brown fox's 2 jumps, over 3.5 dogs_and CATS!", "A Title: of 10 Words"},
		{"Über café naïve résumé İstanbul ǅemal ΣΊΣΥΦΟΣ straße ﬁne Ⅻ ２０２０ 北京 ٣", "Naïve Ünïcode"},
		{"x y z 1 2 3 a I", "I"},
		{strings.Repeat("word ", 300) + strings.Repeat("abcdefghij", 8), "word word"},
		{"don't won't it's rock'n'roll e-mail U.S.A. 1,000,000 3rd 10th", ""},
		{"tab\tnew\nline\r\nend\u00a0nbsp\u2009thin", "mixed ASCII and\u00e9"},
	}
	texts = append(texts, sciFactTexts(t)...)
	a := getAnalyzer()
	defer putAnalyzer(a)
	for i, tx := range texts {
		want := analyzeReference(tx[0], tx[1])
		got := a.analyze(tx[0], tx[1])
		sortDoc(got)
		if !cmp.Equal(got, want, cmp.AllowUnexported(lexDoc{})) {
			t.Fatalf("text %d %.60q: analyzer differs from the reference:\n%s", i, tx[0], cmp.Diff(want, got, cmp.AllowUnexported(lexDoc{})))
		}
	}
}

func BenchmarkAnalyze(b *testing.B) {
	texts := sciFactTexts(b)
	b.Run("reference", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			tx := texts[i%len(texts)]
			analyzeReference(tx[0], tx[1])
		}
	})
	b.Run("analyzer", func(b *testing.B) {
		a := getAnalyzer()
		for i := 0; b.Loop(); i++ {
			tx := texts[i%len(texts)]
			a.analyze(tx[0], tx[1])
		}
	})
}

// sciFactTexts returns the text and title of every SciFact abstract.
func sciFactTexts(t testing.TB) [][2]string {
	raw, err := os.ReadFile(filepath.Join(shareddata.Dir(t, "scifact"), "corpus.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var texts [][2]string
	for line := range strings.Lines(string(raw)) {
		var d struct {
			Title    string   `json:"title"`
			Abstract []string `json:"abstract"`
		}
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatal(err)
		}
		texts = append(texts, [2]string{strings.Join(d.Abstract, " "), d.Title})
	}
	return texts
}
