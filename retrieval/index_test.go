package retrieval

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/verity-fc/verity/evidence"
)

func unit(t *testing.T, v ...float32) []float32 {
	t.Helper()
	u, err := normalize(v)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestFlatIndex(t *testing.T) {
	ctx := context.Background()
	f := newFlatIndex()
	f.put("a", unit(t, 1, 0, 0), "a.example", 10)
	f.put("b", unit(t, 0, 1, 0), "b.example", 20)
	f.put("c", unit(t, 1, 1, 0), "c.example", noDate)
	f.put("d", unit(t, 1, 1, 0), "d.example", 30) // ties with c
	ids := func(ss []scored) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.id)
		}
		return out
	}
	search := func(q []float32, n int, keep func(int) bool) []string {
		got, err := f.search(ctx, q, n, keep)
		if err != nil {
			t.Fatal(err)
		}
		return ids(got)
	}
	tests := []struct {
		name string
		got  []string
		want []string
	}{
		{"nearest first, ties by id", search(unit(t, 1, 0.2, 0), 4, nil), []string{"a", "c", "d", "b"}},
		{"n bounds", search(unit(t, 1, 0.2, 0), 2, nil), []string{"a", "c"}},
		{"keep filters", search(unit(t, 1, 0.2, 0), 4, func(r int) bool { return f.published[r] >= 20 }), []string{"d", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}

	// Deleting a middle row moves the last into its place.
	f.delete("a")
	f.put("b", unit(t, 0, 0, 1), "b.example", 20)
	f.delete("missing")
	if f.len() != 3 {
		t.Fatalf("len = %d, want 3", f.len())
	}
	for _, id := range []string{"b", "c", "d"} {
		v, ok := f.vector(id)
		r := f.rows[id]
		if !ok || f.ids[r] != id || f.domains[r] != id+".example" {
			t.Errorf("row of %s inconsistent after delete: %v %q %q", id, ok, f.ids[r], f.domains[r])
		}
		if id == "b" && v[2] != 1 {
			t.Errorf("replaced vector of b = %v", v)
		}
	}
	if diff := cmp.Diff([]string{"b", "c", "d"}, search(unit(t, 0, 0, 1), 3, nil)); diff != "" {
		t.Errorf("after delete and replace (-want +got):\n%s", diff)
	}

	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := f.search(canceled, unit(t, 1, 0, 0), 1, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("search with a canceled context: %v", err)
	}
}

func TestNormalize(t *testing.T) {
	nan := float32(0)
	nan /= nan
	tests := []struct {
		name    string
		in      []float32
		want    []float32
		wantErr bool
	}{
		{"scales to unit length", []float32{3, 4}, []float32{0.6, 0.8}, false},
		{"empty", nil, nil, true},
		{"zero", []float32{0, 0}, nil, true},
		{"nan", []float32{1, nan}, nil, true},
		{"too long", make([]float32, MaxDim+1), nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := normalize(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error = %v, want error %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	v := []float32{0.25, -1.5, 3}
	got, err := decodeVector(encodeVector(v))
	if err != nil || !cmp.Equal(v, got) {
		t.Errorf("vector encoding round trip: %v, %v", got, err)
	}
	if _, err := decodeVector([]byte{1, 2, 3}); err == nil {
		t.Error("decodeVector accepted 3 bytes")
	}
}

// TestApproximateAbove checks that the graph is built once the store
// outgrows the threshold, at write time and at open, and dropped below it.
func TestApproximateAbove(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	cfg := EmbeddedConfig{ApproximateAbove: 10}
	e, err := OpenEmbedded(ctx, path, cfg)
	if err != nil {
		t.Fatal(err)
	}
	put := func(from, to int) {
		t.Helper()
		var ps []evidence.Passage
		var vs [][]float32
		for i := from; i < to; i++ {
			ps = append(ps, evidence.Passage{ID: fmt.Sprint(i), SourceID: fmt.Sprint("s", i), Text: "text"})
			vs = append(vs, []float32{1, float32(i)})
		}
		if err := e.Upsert(ctx, ps, vs); err != nil {
			t.Fatal(err)
		}
	}
	put(0, 10)
	if e.approx != nil {
		t.Error("approximate index built at 10 passages with a threshold of 10")
	}
	put(10, 11)
	if e.approx == nil || len(e.approx.keyOf) != 11 {
		t.Fatal("approximate index not built above the threshold")
	}
	e.Close()
	if e, err = OpenEmbedded(ctx, path, cfg); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.approx == nil || len(e.approx.keyOf) != 11 {
		t.Fatal("approximate index not built at open")
	}
	hits, err := e.Search(ctx, Query{Vector: []float32{1, 5}, K: 1})
	if err != nil || len(hits) != 1 || hits[0].Passage.ID != "5" {
		t.Errorf("approximate search = %+v, %v; want passage 5", hits, err)
	}
	if err := e.DeleteSource(ctx, "s3"); err != nil {
		t.Fatal(err)
	}
	if e.approx != nil {
		t.Error("approximate index kept at 10 passages")
	}
}
