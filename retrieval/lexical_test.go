package retrieval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// exhaustiveSearch is lexIndex.search without pruning: every posting of
// every term scored. It is the reference the pruned search must agree with.
func exhaustiveSearch(x *lexIndex, stems []string, n int) []scored {
	if n <= 0 || x.live == 0 {
		return nil
	}
	invAvg := float64(x.live) / float64(max(x.totalLen, 1))
	sums := map[int64]float64{}
	for _, t := range stems {
		var lo, hi int
		bi := x.base.find(t)
		if bi >= 0 {
			lo, hi, _ = x.base.postings(bi)
		}
		dp := x.dPost[t]
		if hi-lo+len(dp) == 0 {
			continue
		}
		sc := lexScorer{idf: idf(x.live+x.deleted, hi-lo+len(dp)), invAvg: invAvg}
		for j := lo; j < hi; j++ {
			if doc := x.base.docs[j]; !x.baseIsDead(doc) {
				sums[x.base.rids[doc]] += sc.score(x.base.tfs[j], x.base.lens[doc])
			}
		}
		for _, p := range dp {
			if !x.dDead[p.doc] {
				sums[x.dRids[p.doc]] += sc.score(p.tf, x.dLens[p.doc])
			}
		}
	}
	top := make(minHeap, 0, n)
	for rid, s := range sums {
		top.offer(scored{rid: rid, score: s}, n)
	}
	return top.sorted()
}

// lexCorpus indexes n random passages over a Zipf-like vocabulary, so that
// some terms hold most passages (many blocks) and others few.
func lexCorpus(x *lexIndex, rng *rand.Rand, from, n int) {
	zipf := rand.NewZipf(rng, 1.1, 2, 2000)
	for i := from; i < from+n; i++ {
		text := ""
		for range 5 + rng.IntN(40) {
			text += fmt.Sprintf(" w%d", zipf.Uint64())
		}
		x.put(int64(i)*2+1, analyze(text, fmt.Sprintf("title w%d", zipf.Uint64())))
	}
}

// roundScores keeps rids and scores to 9 significant digits, best first,
// ties by rid: the pruned search adds a passage's terms in another order.
func roundScores(s []scored) []string {
	r := make([]scored, len(s))
	for i, v := range s {
		r[i] = scored{rid: v.rid, score: math.Round(v.score * 1e9)}
	}
	sortScored(r)
	out := make([]string, len(r))
	for i, v := range r {
		out[i] = fmt.Sprintf("%d:%.0f", v.rid, v.score)
	}
	return out
}

// TestLexSearchMatchesExhaustive checks that the pruned top-k search returns
// what scoring every posting returns, on a segment written and mapped back,
// with passages deleted from it, replaced and added since.
func TestLexSearchMatchesExhaustive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := newLexIndex()
	lexCorpus(x, rng, 0, 3000)
	path := filepath.Join(t.TempDir(), "x.bm25")
	if err := writeLexSnapshot(path, x, 7); err != nil {
		t.Fatal(err)
	}
	y, gen, err := readLexSnapshot(path)
	if err != nil || gen != 7 {
		t.Fatalf("read back: gen %d, %v", gen, err)
	}
	defer y.close()
	if y.live != x.live || y.totalLen != x.totalLen {
		t.Fatalf("read back %d passages of total length %d; wrote %d, %d", y.live, y.totalLen, x.live, x.totalLen)
	}
	check := func(stage string, x *lexIndex) {
		t.Helper()
		for q := range 60 {
			var stems []string
			for range 1 + q%8 {
				stems = append(stems, fmt.Sprintf("w%d", rng.IntN(60)))
			}
			for _, n := range []int{1, 10, 60} {
				want := exhaustiveSearch(x, stems, n)
				got := x.search(stems, n, nil)
				if diff := cmp.Diff(roundScores(want), roundScores(got)); diff != "" {
					t.Fatalf("%s: %v, top %d (-exhaustive +pruned):\n%s", stage, stems, n, diff)
				}
			}
		}
	}
	check("mapped", y)
	for i := 0; i < 3000; i += 7 {
		y.delete(int64(i)*2 + 1)
	}
	lexCorpus(y, rng, 2990, 200) // replaces 10, adds 190
	check("mapped with deletions and additions", y)
	if err := writeLexSnapshot(path, y, 8); err != nil {
		t.Fatal(err)
	}
	z, _, err := readLexSnapshot(path)
	if err != nil {
		t.Fatal(err)
	}
	defer z.close()
	if z.live != y.live || z.totalLen != y.totalLen || z.deleted != 0 {
		t.Fatalf("merged %d passages (%d deleted), length %d; want %d, %d", z.live, z.deleted, z.totalLen, y.live, y.totalLen)
	}
	check("merged", z)
	// A filter: only odd thousands.
	keep := func(rid int64) bool { return (rid/2000)%2 == 1 }
	for _, stems := range [][]string{{"w2", "w3"}, {"w5", "w40", "w7"}} {
		for _, s := range z.search(stems, 30, keep) {
			if !keep(s.rid) {
				t.Errorf("%v: filtered-out rid %d returned", stems, s.rid)
			}
		}
	}
}

func TestLexSnapshotRejectsDamage(t *testing.T) {
	x := newLexIndex()
	lexCorpus(x, rand.New(rand.NewPCG(3, 4)), 0, 300)
	path := filepath.Join(t.TempDir(), "x.bm25")
	if err := writeLexSnapshot(path, x, 1); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := decodeLexSnapshot(good); err != nil {
		t.Fatalf("the snapshot as written: %v", err)
	}
	short := good[:len(good)-8]
	swapped := slices.Clone(good)
	// Swap the first two terms' offsets: the term table is no longer sorted.
	h := viewOf[int64](swapped, 0, 8)
	off := lexHeader + pad8(int(8*h[3])) + pad8(int(4*h[3]))
	copy(swapped[off+4:off+8], []byte{0xff, 0xff, 0, 0})
	for name, b := range map[string][]byte{
		"empty":       nil,
		"truncated":   make([]byte, lexHeader-1),
		"short":       short,
		"bad offsets": swapped,
	} {
		if _, _, err := decodeLexSnapshot(b); err == nil {
			t.Errorf("%s snapshot decoded without error", name)
		}
	}
}

// TestLexMergeAppendMatchesFull checks the snapshot of an index that only
// gained passages since its snapshot, as ingest leaves it, written straight
// from its parts, against the one written from the merge that rebuilds
// every posting.
func TestLexMergeAppendMatchesFull(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	dir := t.TempDir()
	x := newLexIndex()
	lexCorpus(x, rng, 0, 3000)
	path := filepath.Join(dir, "x.bm25")
	if err := writeLexSnapshot(path, x, 1); err != nil {
		t.Fatal(err)
	}
	y, _, err := readLexSnapshot(path)
	if err != nil {
		t.Fatal(err)
	}
	defer y.close()
	for _, idx := range []struct {
		name string
		x    *lexIndex
	}{{"on the heap", x}, {"mapped", y}} {
		lexCorpus(idx.x, rng, 3000+idx.x.live, 700)
		a := idx.x.appended()
		if a == nil {
			t.Fatalf("%s: an index that only gained passages is not taken as one", idx.name)
		}
		s, err := idx.x.merged()
		if err != nil {
			t.Fatal(err)
		}
		hdr := []int64{lexMagic, lexVersion, 2, int64(len(s.rids)), int64(s.terms()), int64(len(s.docs)), int64(len(s.blockLast)), int64(len(s.termBytes))}
		full, appended := filepath.Join(dir, "full.bm25"), filepath.Join(dir, "append.bm25")
		if err := writeSections(full, [][]byte{bytesOf(hdr), bytesOf(s.rids), bytesOf(s.lens), bytesOf(s.termOffs), s.termBytes,
			bytesOf(s.postOffs), bytesOf(s.blockOffs), bytesOf(s.docs), s.tfs, bytesOf(s.blockLast), s.blockMaxTF, bytesOf(s.blockMinLen)}); err != nil {
			t.Fatal(err)
		}
		if err := a.write(appended, 2); err != nil {
			t.Fatal(err)
		}
		want, _ := os.ReadFile(full)
		got, _ := os.ReadFile(appended)
		if !slices.Equal(want, got) {
			t.Errorf("%s: the appended snapshot (%d bytes) differs from the full merge's (%d bytes)", idx.name, len(got), len(want))
		}
	}
	y.delete(7)
	if y.appended() != nil {
		t.Error("an index with a deleted passage is taken as one that only gained passages")
	}
}
