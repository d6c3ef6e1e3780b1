// Package storetest is the conformance suite of retrieval.Store: the
// embedded store and Qdrant run [Run] against a fresh, empty store.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/retrieval"
)

// Dim is the dimension of the suite's vectors.
const Dim = 8

// Run runs the suite. open returns a new, empty store for each subtest and
// arranges its cleanup with t.Cleanup.
//
// Publication times are compared at microsecond precision.
func Run(t *testing.T, open func(t *testing.T) retrieval.Store) {
	tests := []struct {
		name string
		run  func(t *testing.T, s retrieval.Store)
	}{
		{"EmptyStore", testEmpty},
		{"RoundTrip", testRoundTrip},
		{"Lexical", testLexical},
		{"Dense", testDense},
		{"HybridFindsLexicalOnlyAndSemanticOnly", testHybrid},
		{"UpsertReplaces", testReplace},
		{"DeleteSource", testDeleteSource},
		{"FilterDomains", testFilterDomains},
		{"FilterSince", testFilterSince},
		{"KBounds", testKBounds},
		{"BadInput", testBadInput},
		{"ZeroVector", testZeroVector},
		{"UntrustedQueryText", testUntrustedText},
		{"CanceledContext", testCanceled},
		{"ConcurrentReadersAndWriter", testConcurrent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, open(t)) })
	}
}

var day = time.Date(2024, 2, 15, 0, 0, 0, 0, time.UTC)

// axis returns the unit vector along dimension i plus a small component
// along the next one, so that vectors are not all orthogonal.
func axis(i int) []float32 {
	v := make([]float32, Dim)
	v[i%Dim] = 1
	v[(i+1)%Dim] = 0.1
	return v
}

func passage(id, source, text string) evidence.Passage {
	return evidence.Passage{
		ID: id, SourceID: source, Text: text, Ordinal: 0,
		URL: "https://" + source + ".example/page", Domain: source + ".example", Title: "Title of " + source,
		PublishedAt: day, Reliability: 0.7,
	}
}

// corpus is a small store: each passage speaks of one subject and lies
// along its own axis.
var corpus = []evidence.Passage{
	passage("sat", "space", "Operational satellites numbered 9,210 at the start of 2024 according to the orbital debris report."),
	passage("whale", "ocean", "The blue whale is the largest animal known to have lived, reaching thirty metres in length."),
	passage("wheat", "farm", "Wheat harvests in the plains fell sharply during the drought years of the last decade."),
	passage("volcano", "geo", "The volcano erupted twice, sending ash clouds across the northern airports for a week."),
	passage("chess", "games", "The chess grandmaster defended the title in a tiebreak of rapid games."),
}

func corpusVectors() [][]float32 {
	vecs := make([][]float32, len(corpus))
	for i := range corpus {
		vecs[i] = axis(i)
	}
	return vecs
}

func upsert(t *testing.T, s retrieval.Store, ps []evidence.Passage, vecs [][]float32) {
	t.Helper()
	if err := s.Upsert(context.Background(), ps, vecs); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
}

func loadCorpus(t *testing.T, s retrieval.Store) {
	t.Helper()
	upsert(t, s, corpus, corpusVectors())
}

func search(t *testing.T, s retrieval.Store, q retrieval.Query) []retrieval.Hit {
	t.Helper()
	hits, err := s.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("Search(%+v): %v", q, err)
	}
	if len(hits) > q.K {
		t.Errorf("Search returned %d hits for K=%d", len(hits), q.K)
	}
	for i := 1; i < len(hits); i++ {
		if hits[i].Score > hits[i-1].Score {
			t.Errorf("hits not best first: %v at %d after %v", hits[i].Score, i, hits[i-1].Score)
		}
	}
	return hits
}

func hitIDs(hits []retrieval.Hit) []string {
	out := []string{}
	for _, h := range hits {
		out = append(out, h.Passage.ID)
	}
	return out
}

func testEmpty(t *testing.T, s retrieval.Store) {
	hits := search(t, s, retrieval.Query{Text: "satellites in orbit", Vector: axis(0), K: 20})
	if len(hits) != 0 {
		t.Errorf("empty store returned %v", hitIDs(hits))
	}
	if err := s.DeleteSource(context.Background(), "nothing"); err != nil {
		t.Errorf("DeleteSource on an empty store: %v", err)
	}
}

func testRoundTrip(t *testing.T, s retrieval.Store) {
	want := passage("p", "src", "A passage about lighthouses and their keepers on the northern coast.")
	want.Ordinal, want.PublishedAt, want.Reliability = 3, time.Date(2021, 6, 1, 12, 30, 15, 123456000, time.UTC), 0.95
	undated := passage("u", "file", "Another passage about lighthouses, from a file without a date or URL.")
	undated.PublishedAt, undated.URL, undated.Domain = time.Time{}, "", ""
	upsert(t, s, []evidence.Passage{want, undated}, [][]float32{axis(0), axis(1)})
	hits := search(t, s, retrieval.Query{Text: "lighthouses", K: 5})
	got := map[string]evidence.Passage{}
	for _, h := range hits {
		got[h.Passage.ID] = h.Passage
	}
	if diff := cmp.Diff(map[string]evidence.Passage{"p": want, "u": undated}, got); diff != "" {
		t.Errorf("passages read back (-want +got):\n%s", diff)
	}
}

func testLexical(t *testing.T, s retrieval.Store) {
	loadCorpus(t, s)
	tests := []struct {
		text string
		want string
	}{
		{"How many satellites were operational in 2024?", "sat"},
		{"largest animal ever: the blue whale", "whale"},
		{"drought and wheat harvests", "wheat"},
		{"ash from the volcano closed airports", "volcano"},
		// Stemming: "erupting" finds "erupted".
		{"erupting", "volcano"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			hits := search(t, s, retrieval.Query{Text: tt.text, K: 3})
			if len(hits) == 0 || hits[0].Passage.ID != tt.want {
				t.Errorf("first hit of %v, want %q", hitIDs(hits), tt.want)
			}
		})
	}
	if hits := search(t, s, retrieval.Query{Text: "the of and to in", K: 5}); len(hits) != 0 {
		t.Errorf("a query of stopwords matched %v", hitIDs(hits))
	}
	if hits := search(t, s, retrieval.Query{Text: "zeppelin", K: 5}); len(hits) != 0 {
		t.Errorf("a word in no passage matched %v", hitIDs(hits))
	}
}

func testDense(t *testing.T, s retrieval.Store) {
	loadCorpus(t, s)
	for i, p := range corpus {
		t.Run(p.ID, func(t *testing.T) {
			// Scaled: similarity is cosine, whatever the norm.
			q := axis(i)
			for j := range q {
				q[j] *= 3
			}
			hits := search(t, s, retrieval.Query{Vector: q, K: 2})
			if len(hits) == 0 || hits[0].Passage.ID != p.ID {
				t.Errorf("nearest of axis %d: %v, want %q first", i, hitIDs(hits), p.ID)
			}
		})
	}
}

func testHybrid(t *testing.T, s retrieval.Store) {
	loadCorpus(t, s)
	// The text names only the chess passage; the vector points only at the
	// whale passage. Both must come back, ahead of the rest.
	hits := search(t, s, retrieval.Query{Text: "grandmaster tiebreak", Vector: axis(1), K: 2})
	got := hitIDs(hits)
	slices.Sort(got)
	if diff := cmp.Diff([]string{"chess", "whale"}, got); diff != "" {
		t.Errorf("hybrid hits (-want +got):\n%s", diff)
	}
	// A passage both lists rank first beats one only a single list has.
	hits = search(t, s, retrieval.Query{Text: "volcano ash", Vector: axis(3), K: 5})
	if len(hits) == 0 || hits[0].Passage.ID != "volcano" {
		t.Errorf("hits %v, want volcano first", hitIDs(hits))
	}
}

func testReplace(t *testing.T, s retrieval.Store) {
	loadCorpus(t, s)
	repl := corpus[0]
	repl.Text, repl.Title = "Penguins huddle together through the antarctic winter.", "Penguins"
	upsert(t, s, []evidence.Passage{repl}, [][]float32{axis(6)})
	if hits := search(t, s, retrieval.Query{Text: "satellites operational", K: 5}); slices.Contains(hitIDs(hits), "sat") {
		t.Errorf("old text of a replaced passage still matches: %v", hitIDs(hits))
	}
	hits := search(t, s, retrieval.Query{Text: "penguins antarctic", K: 5})
	if len(hits) != 1 || hits[0].Passage.ID != "sat" || hits[0].Passage.Text != repl.Text {
		t.Errorf("new text of a replaced passage: %+v", hits)
	}
	hits = search(t, s, retrieval.Query{Vector: axis(6), K: 1})
	if len(hits) != 1 || hits[0].Passage.ID != "sat" {
		t.Errorf("new vector of a replaced passage: nearest %v, want sat", hitIDs(hits))
	}
	if all := search(t, s, retrieval.Query{Vector: axis(0), K: 50}); len(all) != len(corpus) {
		t.Errorf("store holds %d passages after a replace, want %d", len(all), len(corpus))
	}
}

func testDeleteSource(t *testing.T, s retrieval.Store) {
	loadCorpus(t, s)
	second := passage("sat2", "space", "A second page on satellites from the same source.")
	upsert(t, s, []evidence.Passage{second}, [][]float32{axis(0)})
	if err := s.DeleteSource(context.Background(), "space"); err != nil {
		t.Fatal(err)
	}
	for _, q := range []retrieval.Query{{Text: "satellites", K: 10}, {Vector: axis(0), K: 10}} {
		hits := search(t, s, q)
		if ids := hitIDs(hits); slices.Contains(ids, "sat") || slices.Contains(ids, "sat2") {
			t.Errorf("deleted source's passages still found: %v", ids)
		}
	}
	if all := search(t, s, retrieval.Query{Vector: axis(0), K: 50}); len(all) != len(corpus)-1 {
		t.Errorf("store holds %d passages, want %d", len(all), len(corpus)-1)
	}
}

// Every passage of this corpus matches the text and the vector, so a filter
// alone decides what comes back, through both the lexical and dense paths.
func filterCorpus(t *testing.T, s retrieval.Store) {
	t.Helper()
	mk := func(id, domain string, published time.Time) evidence.Passage {
		p := passage(id, id, "Report on the census of satellites "+id)
		p.Domain, p.PublishedAt = domain, published
		return p
	}
	ps := []evidence.Passage{
		mk("a", "nasa.gov", day),
		mk("b", "esa.int", day.AddDate(-3, 0, 0)),
		mk("c", "esa.int", day.AddDate(1, 0, 0)),
		mk("d", "blog.example", time.Time{}),
	}
	upsert(t, s, ps, [][]float32{axis(0), axis(0), axis(0), axis(0)})
}

// checkFilter runs f with a text query and a vector query that match every
// passage of filterCorpus and compares the IDs found, in any order.
func checkFilter(t *testing.T, s retrieval.Store, f retrieval.Filter, want []string) {
	t.Helper()
	for _, q := range []retrieval.Query{{Text: "census satellites", K: 10}, {Vector: axis(0), K: 10}} {
		q.Filter = f
		got := hitIDs(search(t, s, q))
		slices.Sort(got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("filter %+v, text %q (-want +got):\n%s", f, q.Text, diff)
		}
	}
}

func testFilterDomains(t *testing.T, s retrieval.Store) {
	filterCorpus(t, s)
	checkFilter(t, s, retrieval.Filter{}, []string{"a", "b", "c", "d"})
	checkFilter(t, s, retrieval.Filter{Domains: []string{"esa.int"}}, []string{"b", "c"})
	checkFilter(t, s, retrieval.Filter{Domains: []string{"nasa.gov", "blog.example"}}, []string{"a", "d"})
	checkFilter(t, s, retrieval.Filter{Domains: []string{"nowhere.example"}}, []string{})
}

func testFilterSince(t *testing.T, s retrieval.Store) {
	filterCorpus(t, s)
	// The undated passage d is dropped by any Since.
	checkFilter(t, s, retrieval.Filter{Since: day.AddDate(-10, 0, 0)}, []string{"a", "b", "c"})
	checkFilter(t, s, retrieval.Filter{Since: day}, []string{"a", "c"}) // inclusive
	checkFilter(t, s, retrieval.Filter{Since: day.Add(time.Microsecond)}, []string{"c"})
	checkFilter(t, s, retrieval.Filter{Since: day.AddDate(5, 0, 0)}, []string{})
	checkFilter(t, s, retrieval.Filter{Since: day, Domains: []string{"esa.int"}}, []string{"c"})
}

func testKBounds(t *testing.T, s retrieval.Store) {
	const n = retrieval.MaxK + 20
	ps := make([]evidence.Passage, n)
	vecs := make([][]float32, n)
	for i := range ps {
		ps[i] = passage(fmt.Sprintf("p%03d", i), fmt.Sprintf("s%03d", i), fmt.Sprintf("Common words in passage number %d.", i))
		vecs[i] = axis(i)
		vecs[i][(i+2)%Dim] = float32(i%7) / 10
	}
	upsert(t, s, ps, vecs)
	tests := []struct {
		k, want int
	}{
		{1, 1},
		{7, 7},
		{retrieval.MaxK, retrieval.MaxK},
		{retrieval.MaxK + 1000, retrieval.MaxK},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.k), func(t *testing.T) {
			hits, err := s.Search(context.Background(), retrieval.Query{Text: "common words passage", Vector: axis(0), K: tt.k})
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) != tt.want {
				t.Errorf("K=%d: %d hits, want %d", tt.k, len(hits), tt.want)
			}
		})
	}
	for _, k := range []int{0, -1} {
		if _, err := s.Search(context.Background(), retrieval.Query{Text: "common", K: k}); err == nil {
			t.Errorf("K=%d accepted", k)
		}
	}
}

func testBadInput(t *testing.T, s retrieval.Store) {
	ctx := context.Background()
	loadCorpus(t, s)
	p := passage("new", "src", "Some text.")
	tests := []struct {
		name string
		ps   []evidence.Passage
		vecs [][]float32
	}{
		{"fewer vectors", []evidence.Passage{p}, nil},
		{"not a number", []evidence.Passage{p}, [][]float32{{1, float32(math.NaN()), 0, 0, 0, 0, 0, 0}}},
		{"infinite", []evidence.Passage{p}, [][]float32{{float32(math.Inf(1)), 0, 0, 0, 0, 0, 0, 0}}},
		{"empty vector", []evidence.Passage{p}, [][]float32{{}}},
		{"other dimension", []evidence.Passage{p}, [][]float32{{1, 0, 0}}},
		{"no id", []evidence.Passage{{SourceID: "s", Text: "x"}}, [][]float32{axis(0)}},
		{"no source", []evidence.Passage{{ID: "x", Text: "x"}}, [][]float32{axis(0)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := s.Upsert(ctx, tt.ps, tt.vecs); err == nil {
				t.Error("Upsert accepted it")
			}
		})
	}
	if all := search(t, s, retrieval.Query{Vector: axis(0), K: 50}); len(all) != len(corpus) {
		t.Errorf("store holds %d passages after rejected upserts, want %d", len(all), len(corpus))
	}
	if _, err := s.Search(ctx, retrieval.Query{Vector: []float32{1, 0, 0}, K: 5}); err == nil {
		t.Error("Search accepted a vector of another dimension")
	}
}

// An embedder gives an all-zero vector for a text without content words.
// Such a passage is stored and found by its text, never by similarity; a
// zero query vector leaves the ranking to the text.
func testZeroVector(t *testing.T, s retrieval.Store) {
	loadCorpus(t, s)
	p := passage("zero", "zero", "Zebras graze on the savanna at dawn.")
	upsert(t, s, []evidence.Passage{p}, [][]float32{make([]float32, Dim)})
	if hits := search(t, s, retrieval.Query{Text: "zebras savanna", K: 5}); len(hits) != 1 || hits[0].Passage.ID != "zero" {
		t.Errorf("text search for the zero-vector passage: %v", hitIDs(hits))
	}
	for i := range Dim {
		if hits := search(t, s, retrieval.Query{Vector: axis(i), K: 50}); slices.Contains(hitIDs(hits), "zero") {
			t.Errorf("a zero vector was found by similarity to axis %d", i)
		}
	}
	hits := search(t, s, retrieval.Query{Text: "whale", Vector: make([]float32, Dim), K: 5})
	if len(hits) != 1 || hits[0].Passage.ID != "whale" {
		t.Errorf("zero query vector with text: %v, want the text's match only", hitIDs(hits))
	}
	// Replacing it with a real vector makes it findable by similarity.
	upsert(t, s, []evidence.Passage{p}, [][]float32{axis(7)})
	if hits := search(t, s, retrieval.Query{Vector: axis(7), K: 1}); len(hits) != 1 || hits[0].Passage.ID != "zero" {
		t.Errorf("after a real vector replaced the zero one: %v", hitIDs(hits))
	}
}

func testUntrustedText(t *testing.T, s retrieval.Store) {
	loadCorpus(t, s)
	for _, text := range []string{
		`"unbalanced quote`, `satellites AND OR NOT`, `NEAR(satellites whale)`, `sat*`, `text:whale`,
		`{col1 col2}: x`, `^whale`, `( ) " ' - + * : ;`, "whale\x00\u202e", `satellites"; DROP TABLE passages; --`,
	} {
		t.Run(text, func(t *testing.T) {
			if _, err := s.Search(context.Background(), retrieval.Query{Text: text, K: 5}); err != nil {
				t.Errorf("Search: %v", err)
			}
		})
	}
	if all := search(t, s, retrieval.Query{Vector: axis(0), K: 50}); len(all) != len(corpus) {
		t.Errorf("store holds %d passages, want %d", len(all), len(corpus))
	}
}

func testCanceled(t *testing.T, s retrieval.Store) {
	loadCorpus(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Search(ctx, retrieval.Query{Text: "whale", Vector: axis(1), K: 5}); !errors.Is(err, context.Canceled) {
		t.Errorf("Search: error = %v, want context.Canceled", err)
	}
	p := passage("new", "src", "Some text.")
	if err := s.Upsert(ctx, []evidence.Passage{p}, [][]float32{axis(0)}); !errors.Is(err, context.Canceled) {
		t.Errorf("Upsert: error = %v, want context.Canceled", err)
	}
	if err := s.DeleteSource(ctx, "space"); !errors.Is(err, context.Canceled) {
		t.Errorf("DeleteSource: error = %v, want context.Canceled", err)
	}
	if all := search(t, s, retrieval.Query{Vector: axis(0), K: 50}); len(all) != len(corpus) {
		t.Errorf("store holds %d passages after canceled writes, want %d", len(all), len(corpus))
	}
}

func testConcurrent(t *testing.T, s retrieval.Store) {
	loadCorpus(t, s)
	ctx := context.Background()
	const batches = 10
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	wg.Go(func() {
		for b := range batches {
			p := passage(fmt.Sprintf("w%d", b), fmt.Sprintf("w%d", b), "Whales sing in the ocean.")
			if err := s.Upsert(ctx, []evidence.Passage{p}, [][]float32{axis(1)}); err != nil {
				errs <- err
				return
			}
		}
	})
	for range 3 {
		wg.Go(func() {
			for range batches {
				hits, err := s.Search(ctx, retrieval.Query{Text: "whale ocean", Vector: axis(1), K: 20})
				if err != nil {
					errs <- err
					return
				}
				if !slices.Contains(hitIDs(hits), "whale") {
					errs <- fmt.Errorf("a search during writes lost the whale passage: %v", hitIDs(hits))
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if all := search(t, s, retrieval.Query{Vector: axis(1), K: 50}); len(all) != len(corpus)+batches {
		t.Errorf("store holds %d passages, want %d", len(all), len(corpus)+batches)
	}
}
