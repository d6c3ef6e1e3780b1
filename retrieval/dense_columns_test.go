package retrieval

import (
	"context"
	"fmt"
	"math/rand"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/evidence"
)

func TestTranspose64(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var a, orig [64]uint64
	for i := range a {
		a[i] = rng.Uint64()
	}
	orig = a
	transpose64(&a)
	for i := range 64 {
		for j := range 64 {
			if a[i]>>j&1 != orig[j]>>i&1 {
				t.Fatalf("bit %d of word %d is not bit %d of word %d", j, i, i, j)
			}
		}
	}
}

// TestColSignStage checks that the sign stage over columns keeps the rows
// the row scan keeps: for several dimensions, numbers of candidates and
// filters, with deleted and zero rows, rows replaced after the columns were built,
// rows appended after them, and split among goroutines or not.
func TestColSignStage(t *testing.T) {
	ctx := context.Background()
	oldMin, oldPar, oldSample := colMinRows, signParallelRows, colSampleBlocks
	defer func() { colMinRows, signParallelRows, colSampleBlocks = oldMin, oldPar, oldSample }()
	colMinRows = 1000
	for _, dim := range []int{384, 100, 64} {
		rng := rand.New(rand.NewSource(int64(dim)))
		vec := func(sparse bool) []float32 {
			v := make([]float32, dim)
			for j := range v {
				v[j] = float32(rng.NormFloat64())
				if sparse && j > dim/4 && rng.Intn(3) > 0 {
					v[j] = 0
				}
			}
			return v
		}
		d := newDenseIndex()
		const rows = 20000
		for i := range rows {
			d.put(int64(2*i+2), unit(t, vec(true)...), "x.example", noDate)
		}
		d.put(2*rows+2, make([]float32, dim), "x.example", noDate) // a zero row
		d.delete(40)
		d.delete(7002)
		d.cols = d.buildColumns(nil)
		// Changes after the columns were built: a replaced row, a deleted
		// one and rows appended.
		d.put(300, unit(t, vec(true)...), "x.example", noDate)
		d.delete(12000)
		for i := range 700 {
			d.put(int64(2*rows+10+i), unit(t, vec(true)...), "x.example", noDate)
		}
		if d.cols == nil || d.cols.rows >= len(d.rids) {
			t.Fatalf("dim %d: columns dropped or cover the appended rows", dim)
		}
		for qi, sparse := range []bool{true, false} {
			q := d.query(unit(t, vec(sparse)...))
			for _, c := range []int{1, 50, 2000, 5000, rows + 5000} {
				for ki, keep := range []func(int) bool{nil, func(r int) bool { return r%7 != 3 }, func(r int) bool { return r%50 == 0 }} {
					cols := d.cols
					d.cols = nil
					want, err := d.signStage(ctx, q, c, keep)
					if err != nil {
						t.Fatal(err)
					}
					d.cols = cols
					for _, par := range []int{1 << 30, 100} {
						// Every block in the sample (no estimate), or one in twenty.
						signParallelRows, colSampleBlocks = par, 1<<20
						if par == 100 {
							colSampleBlocks = 16
						}
						got, err := d.signStage(ctx, q, c, keep)
						if err != nil {
							t.Fatal(err)
						}
						if diff := cmp.Diff(want, got); diff != "" {
							t.Errorf("dim %d, query %d, %d candidates, filter %d, parallel from %d rows: columns (-rows +columns):\n%s", dim, qi, c, ki, par, diff)
						}
					}
					signParallelRows = oldPar
				}
			}
		}
		// A row inserted before the end drops the columns.
		d.put(501, unit(t, vec(true)...), "x.example", noDate)
		if d.cols != nil {
			t.Errorf("dim %d: columns kept after a row was inserted before their end", dim)
		}
	}
}

func TestDotSparse4(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	var rows [4][]int8
	for k := range rows {
		rows[k] = make([]int8, 384)
		for i := range rows[k] {
			rows[k][i] = int8(rng.Intn(255) - 127)
		}
	}
	var idx, val []int32
	for i := 0; i < 384; i += 1 + rng.Intn(4) {
		idx, val = append(idx, int32(i)), append(val, int32(rng.Intn(255)-127))
	}
	s0, s1, s2, s3 := dotSparse4(idx, val, rows[0], rows[1], rows[2], rows[3])
	for k, got := range []int32{s0, s1, s2, s3} {
		if want := dotSparse(idx, val, rows[k]); got != want {
			t.Errorf("row %d: dotSparse4 gives %d, dotSparse %d", k, got, want)
		}
	}
}

// TestEmbeddedColumns checks that a store builds its sign columns in the
// background when first searched, and that searches answer the same with
// them as without.
func TestEmbeddedColumns(t *testing.T) {
	ctx := context.Background()
	old := colMinRows
	defer func() { colMinRows = old }()
	colMinRows = 1000
	path := filepath.Join(t.TempDir(), "passages.db")
	rng := rand.New(rand.NewSource(11))
	vec := func() []float32 {
		v := make([]float32, 48)
		for j := range v {
			if j < 16 || rng.Intn(4) == 0 {
				v[j] = float32(rng.NormFloat64())
			}
		}
		return v
	}
	// upsert writes passages [from, to); fill does and fails the test on
	// an error.
	upsert := func(e *Embedded, from, to int, vs [][]float32) error {
		var ps []evidence.Passage
		for i := from; i < to; i++ {
			ps = append(ps, evidence.Passage{ID: fmt.Sprint(i), SourceID: fmt.Sprint(i), Text: fmt.Sprintf("passage %d of topic%d", i, i%13)})
		}
		return e.Upsert(ctx, ps, vs)
	}
	vecs := func(n int) [][]float32 {
		var vs [][]float32
		for range n {
			vs = append(vs, vec())
		}
		return vs
	}
	fill := func(e *Embedded, from, to int) {
		if err := upsert(e, from, to, vecs(to-from)); err != nil {
			t.Fatal(err)
		}
	}
	e, err := OpenEmbedded(ctx, path, EmbeddedConfig{})
	if err != nil {
		t.Fatal(err)
	}
	fill(e, 0, 2600)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if e, err = OpenEmbedded(ctx, path, EmbeddedConfig{}); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	queries := make([][]float32, 20)
	for i := range queries {
		queries[i] = vec()
	}
	run := func() [][]Hit {
		var out [][]Hit
		for _, q := range queries {
			hits, err := e.Search(ctx, Query{Vector: q, K: 10})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, hits)
		}
		return out
	}
	// search answers the queries by the columns, when the index has them,
	// then by rows, and checks both agree; it returns whether it had them.
	search := func(stage string) bool {
		e.colBuilds.Wait()
		had := e.dense.cols != nil
		byCols := run()
		colMinRows = 1 << 30
		byRows := run()
		colMinRows = 1000
		if diff := cmp.Diff(byRows, byCols); diff != "" {
			t.Errorf("%s: search by columns (-rows +columns):\n%s", stage, diff)
		}
		return had
	}
	e.mu.RLock()
	if e.dense.cols != nil {
		t.Error("columns built before a search")
	}
	e.mu.RUnlock()
	run()
	if !search("searched") {
		t.Error("no columns after a search")
	}
	fill(e, 2600, 2700) // a short tail: scanned by rows
	e.colBuilds.Wait()
	if e.dense.cols == nil || e.dense.cols.rows != 2600 {
		t.Errorf("columns after a short tail cover %v rows; want 2600", e.dense.cols)
	}
	if !search("short tail") {
		t.Error("no columns after a short tail")
	}

	// Rows appended while columns are built: the columns are put in place
	// all the same, and searches stay right.
	e.mu.Lock()
	e.dense.cols = nil
	e.mu.Unlock()
	done := make(chan struct{})
	written := vecs(60)
	go func() {
		defer close(done)
		for i := 0; i < 60; i += 10 {
			if err := upsert(e, 2700+i, 2710+i, written[i:i+10]); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for range 20 {
		if _, err := e.Search(ctx, Query{Vector: queries[0], K: 10}); err != nil {
			t.Fatal(err)
		}
	}
	<-done
	if !search("written while built") {
		t.Error("columns built beside rows appended were not put in place")
	}

	// Close while a build may be running.
	for range 3 {
		f, err := OpenEmbedded(ctx, path+"2", EmbeddedConfig{})
		if err != nil {
			t.Fatal(err)
		}
		if f.Len() == 0 {
			fill(f, 0, 2600)
		}
		if _, err := f.Search(ctx, Query{Vector: queries[0], K: 10}); err != nil { // starts a build
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestColumnsRewrites checks which puts make columns built before them
// stale: a replaced row and a row inserted before the last, not an
// appended row or a delete.
func TestColumnsRewrites(t *testing.T) {
	d := newDenseIndex()
	v := []float32{1, 0, 0, 0}
	for _, rid := range []int64{2, 4, 6} {
		d.put(rid, v, "", noDate)
	}
	for _, tt := range []struct {
		what  string
		write func()
		stale bool
	}{
		{"append", func() { d.put(8, v, "", noDate) }, false},
		{"delete", func() { d.delete(4) }, false},
		{"replace", func() { d.put(6, v, "", noDate) }, true},
		{"insert", func() { d.put(5, v, "", noDate) }, true},
		{"put back a deleted row", func() { d.put(4, v, "", noDate) }, true},
	} {
		before := d.rewrites
		tt.write()
		if stale := d.rewrites != before; stale != tt.stale {
			t.Errorf("%s: columns stale %v, want %v", tt.what, stale, tt.stale)
		}
	}
}
