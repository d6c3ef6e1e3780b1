package retrieval_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/internal/crashtest"
	"github.com/verity-fc/verity/retrieval"
	"github.com/verity-fc/verity/retrieval/storetest"
)

func openEmbedded(t *testing.T, cfg retrieval.EmbeddedConfig) *retrieval.Embedded {
	t.Helper()
	s, err := retrieval.OpenEmbedded(context.Background(), filepath.Join(t.TempDir(), "passages.db"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// openAt opens the store at path; the caller closes it.
func openAt(t *testing.T, path string) *retrieval.Embedded {
	t.Helper()
	s, err := retrieval.OpenEmbedded(context.Background(), path, retrieval.EmbeddedConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestEmbeddedConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) retrieval.Store { return openEmbedded(t, retrieval.EmbeddedConfig{}) })
}

func passageN(i int) evidence.Passage {
	return evidence.Passage{
		ID: fmt.Sprintf("p%04d", i), SourceID: fmt.Sprintf("s%03d", i/3), Ordinal: i % 3,
		Text: fmt.Sprintf("Passage %d tells of topic%d and of topic%d in some words.", i, i%17, i%5),
		URL:  fmt.Sprintf("https://d%d.example/%d", i%4, i), Domain: fmt.Sprintf("d%d.example", i%4),
		Title: "Title", PublishedAt: time.Date(2020, 1, 1+i%28, 0, 0, 0, 0, time.UTC), Reliability: 0.5,
	}
}

func vectorN(i int) []float32 {
	v := make([]float32, 16)
	v[i%16], v[(i*7+3)%16], v[(i/16)%16] = 1, 0.5, 0.25
	return v
}

func fill(t *testing.T, s retrieval.Store, from, to int) {
	t.Helper()
	var ps []evidence.Passage
	var vs [][]float32
	for i := from; i < to; i++ {
		ps, vs = append(ps, passageN(i)), append(vs, vectorN(i))
	}
	if err := s.Upsert(context.Background(), ps, vs); err != nil {
		t.Fatal(err)
	}
}

// TestEmbeddedPersistence closes and reopens a store and checks that every
// query answers the same.
func TestEmbeddedPersistence(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "passages.db")
	s, err := retrieval.OpenEmbedded(ctx, path, retrieval.EmbeddedConfig{})
	if err != nil {
		t.Fatal(err)
	}
	fill(t, s, 0, 300)
	if err := s.DeleteSource(ctx, "s010"); err != nil {
		t.Fatal(err)
	}
	queries := []retrieval.Query{
		{Text: "topic3 topic4", K: 20},
		{Vector: vectorN(5), K: 20},
		{Text: "topic11", Vector: vectorN(11), K: 20},
		{Text: "passage words", Vector: vectorN(2), K: 20, Filter: retrieval.Filter{Domains: []string{"d1.example"}}},
		{Vector: vectorN(9), K: 50, Filter: retrieval.Filter{Since: time.Date(2020, 1, 20, 0, 0, 0, 0, time.UTC)}},
	}
	before := make([][]retrieval.Hit, len(queries))
	for i, q := range queries {
		if before[i], err = s.Search(ctx, q); err != nil {
			t.Fatal(err)
		}
		if len(before[i]) == 0 {
			t.Fatalf("query %d found nothing", i)
		}
	}
	n := s.Len()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s, err = retrieval.OpenEmbedded(ctx, path, retrieval.EmbeddedConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Len() != n || n != 297 {
		t.Errorf("reopened store holds %d passages, before %d, want 297", s.Len(), n)
	}
	if d := s.Dim(); d != len(vectorN(0)) {
		t.Errorf("reopened store Dim = %d, want %d", d, len(vectorN(0)))
	}
	for i, q := range queries {
		after, err := s.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(before[i], after); diff != "" {
			t.Errorf("query %d after reopening (-before +after):\n%s", i, diff)
		}
	}
}

const crashChildEnv = "VERITY_RETRIEVAL_CRASH_CHILD"

// TestEmbeddedCrashKeepsAcknowledgedUpserts kills (SIGKILL) a process that
// is upserting batches and checks that every batch whose Upsert returned is
// there after reopening, whole: text searchable and vector loaded.
func TestEmbeddedCrashKeepsAcknowledgedUpserts(t *testing.T) {
	if path, ok := crashtest.Child(crashChildEnv); ok {
		crashChild(path)
		return
	}
	path := filepath.Join(t.TempDir(), "passages.db")
	acked := len(crashtest.KillAfter(t, "TestEmbeddedCrashKeepsAcknowledgedUpserts", crashChildEnv, path, 15))

	ctx := context.Background()
	s, err := retrieval.OpenEmbedded(ctx, path, retrieval.EmbeddedConfig{})
	if err != nil {
		t.Fatalf("reopen after a crash: %v", err)
	}
	defer s.Close()
	if n := s.Len(); n < acked*crashBatch || n%crashBatch != 0 {
		t.Errorf("reopened store holds %d passages; %d batches of %d were acknowledged, and batches are atomic", n, acked, crashBatch)
	}
	for i := 0; i < acked*crashBatch; i += 7 {
		p := passageN(i)
		hits, err := s.Search(ctx, retrieval.Query{Text: fmt.Sprintf("Passage %d", i), Vector: vectorN(i), K: 200})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(hits, func(h retrieval.Hit) bool { return h.Passage.ID == p.ID }) {
			t.Errorf("acknowledged passage %s lost", p.ID)
		}
	}
}

const crashBatch = 20

// crashChild upserts batches until it is killed, acknowledging batch B
// after its Upsert returns.
func crashChild(path string) {
	ctx := context.Background()
	s, err := retrieval.OpenEmbedded(ctx, path, retrieval.EmbeddedConfig{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// Bounded so that an orphaned child stops by itself.
	for b := range 2000 {
		var ps []evidence.Passage
		var vs [][]float32
		for i := b * crashBatch; i < (b+1)*crashBatch; i++ {
			ps, vs = append(ps, passageN(i)), append(vs, vectorN(i))
		}
		if err := s.Upsert(ctx, ps, vs); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		crashtest.Ack(strconv.Itoa(b))
	}
	os.Exit(0)
}

// TestEmbeddedSharesFileWithCorpus opens the corpus and the passage store
// on one file: their tables and migration records do not collide.
func TestEmbeddedSharesFileWithCorpus(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "verity.db")
	for range 2 { // the second round reopens both
		c, err := corpus.OpenSQLite(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		s, err := retrieval.OpenEmbedded(ctx, path, retrieval.EmbeddedConfig{})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.PutSource(ctx, evidence.Source{ID: "s000"}); err != nil {
			t.Fatal(err)
		}
		fill(t, s, 0, 3)
		if _, err := c.Source(ctx, "s000"); err != nil || s.Len() != 3 {
			t.Errorf("source: %v; %d passages, want 3", err, s.Len())
		}
		s.Close()
		c.Close()
	}
}

// TestEmbeddedSnapshotFollowsDatabase checks that a store opened after
// another handle wrote without closing (so without writing its dense
// snapshot, as after a crash) sees those writes: the stale snapshot is
// rebuilt from the database, not trusted.
func TestEmbeddedSnapshotFollowsDatabase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "passages.db")
	open := func() *retrieval.Embedded { return openAt(t, path) }
	a := open()
	fill(t, a, 0, 60)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".dense"); err != nil {
		t.Fatalf("no snapshot after Close: %v", err)
	}
	b := open() // maps the snapshot
	fill(t, b, 60, 90)
	if err := b.DeleteSource(ctx, "s001"); err != nil {
		t.Fatal(err)
	}
	// b is not closed yet, so its snapshot is not written.
	c := open()
	defer c.Close()
	if c.Len() != 87 {
		t.Errorf("store opened after unsnapshotted writes holds %d passages; want 87", c.Len())
	}
	for _, tt := range []struct {
		vec  []float32
		want string
	}{{vectorN(75), "p0075"}, {vectorN(20), "p0020"}} {
		hits, err := c.Search(ctx, retrieval.Query{Vector: tt.vec, K: 1})
		if err != nil || len(hits) != 1 || hits[0].Passage.ID != tt.want {
			t.Errorf("nearest to %s: %+v, %v", tt.want, hits, err)
		}
	}
	hits, err := c.Search(ctx, retrieval.Query{Vector: vectorN(4), K: 200})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if h.Passage.SourceID == "s001" {
			t.Errorf("deleted passage %s found", h.Passage.ID)
		}
	}
	// b saw every write; its snapshot, written at
	// Close, is current, and a fourth open agrees with c.
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	d := open()
	defer d.Close()
	if d.Len() != 87 {
		t.Errorf("reopened store holds %d passages; want 87", d.Len())
	}
}

func TestEmbeddedReplaceSources(t *testing.T) {
	ctx := context.Background()
	s := openEmbedded(t, retrieval.EmbeddedConfig{})
	fill(t, s, 0, 30)
	fresh := passageN(100)
	fresh.SourceID = "s001"
	if err := s.ReplaceSources(ctx, []string{"s001", "s002", "missing"}, []evidence.Passage{fresh}, [][]float32{vectorN(100)}); err != nil {
		t.Fatal(err)
	}
	if s.Len() != 30-6+1 {
		t.Errorf("%d passages after replacing two sources of 3 by 1 passage; want 25", s.Len())
	}
	hits, err := s.Search(ctx, retrieval.Query{Vector: vectorN(4), K: 100})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hits {
		if src := h.Passage.SourceID; src == "s001" || src == "s002" {
			got = append(got, h.Passage.ID)
		}
	}
	if diff := cmp.Diff([]string{"p0100"}, got); diff != "" {
		t.Errorf("passages of the replaced sources (-want +got):\n%s", diff)
	}
	if err := s.ReplaceSources(ctx, nil, []evidence.Passage{passageN(1)}, nil); err == nil {
		t.Error("a passage without a vector was accepted")
	}
}

// TestEmbeddedRanksRareTermsFirst checks that a query whose common term
// matches every row ranks by its rare term first, and that the top-k
// pruning of the full-text index still ranks the rows that hold only the
// common term when k asks for them.
func TestEmbeddedRanksRareTermsFirst(t *testing.T) {
	ctx := context.Background()
	var ps []evidence.Passage
	var vs [][]float32
	for i := range 40 {
		text := fmt.Sprintf("The weather report number %d was ordinary.", i)
		if i%10 == 0 {
			text = fmt.Sprintf("The weather report number %d mentioned a tornado.", i)
		}
		ps = append(ps, evidence.Passage{ID: fmt.Sprint("p", i), SourceID: fmt.Sprint("s", i), Text: text})
		vs = append(vs, vectorN(i))
	}
	s := openEmbedded(t, retrieval.EmbeddedConfig{})
	if err := s.Upsert(ctx, ps, vs); err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{4, 100} {
		hits, err := s.Search(ctx, retrieval.Query{Text: "weather tornado", K: k})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != min(k, 40) {
			t.Errorf("k %d: %d hits; want %d", k, len(hits), min(k, 40))
		}
		for _, h := range hits[:4] {
			if !strings.Contains(h.Passage.Text, "tornado") {
				t.Errorf("k %d: %q ranked among the first 4", k, h.Passage.Text)
			}
		}
	}
}

// TestEmbeddedCatchesUpWithAnotherWriter checks that a store open beside
// another handle on the same file (as serve beside a `verity ingest`) finds
// the passages the other adds, by BM25 and by vector, and no longer ranks
// those it deletes.
func TestEmbeddedCatchesUpWithAnotherWriter(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "passages.db")
	a := openAt(t, path)
	t.Cleanup(func() { a.Close() })
	fill(t, a, 0, 30)
	b := openAt(t, path)
	t.Cleanup(func() { b.Close() })
	fill(t, a, 30, 40)
	zebra := evidence.Passage{ID: "zebra", SourceID: "zoo", Text: "Zebras graze on the savanna in herds."}
	if err := a.Upsert(ctx, []evidence.Passage{zebra}, [][]float32{vectorN(99)}); err != nil {
		t.Fatal(err)
	}
	if err := a.DeleteSource(ctx, "s002"); err != nil { // p0006-p0008
		t.Fatal(err)
	}
	hits, err := b.Search(ctx, retrieval.Query{Text: "zebras savanna", K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Passage.ID != "zebra" {
		t.Errorf("BM25 for the other handle's passage: %+v", hits)
	}
	hits, err = b.Search(ctx, retrieval.Query{Vector: vectorN(35), K: 1})
	if err != nil || len(hits) != 1 || hits[0].Passage.ID != "p0035" {
		t.Errorf("nearest to the other handle's p0035: %+v, %v", hits, err)
	}
	if b.Len() != 38 {
		t.Errorf("caught-up store holds %d passages; want 38", b.Len())
	}
	hits, err = b.Search(ctx, retrieval.Query{Text: "topic6 topic1", K: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if h.Passage.SourceID == "s002" {
			t.Errorf("deleted passage %s found", h.Passage.ID)
		}
	}
}
