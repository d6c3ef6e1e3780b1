package retrieval

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDenseReserve checks that rows put after reserve, on a mapped index
// and on the heap, land in the room made for them (no array grows again)
// and leave the index as it would be without it.
func TestDenseReserve(t *testing.T) {
	if !littleEndian {
		t.Skip("snapshots need a little-endian machine")
	}
	fill := func(d *denseIndex, from, n int) {
		for i := from; i < from+n; i++ {
			v := make([]float32, 70)
			v[i%70], v[(i*7)%70] = 1, -0.5
			u, _ := normalize(v)
			d.put(int64(2*i+1), u, fmt.Sprintf("d%d.example", i%3), int64(i))
		}
	}
	want := newDenseIndex()
	fill(want, 0, 80)
	base := newDenseIndex()
	fill(base, 0, 50)
	path := filepath.Join(t.TempDir(), "x.dense")
	if err := writeSnapshot(path, base, 1); err != nil {
		t.Fatal(err)
	}
	mapped, _, err := readSnapshot(path)
	if err != nil {
		t.Fatal(err)
	}
	defer mapped.close()
	fresh := newDenseIndex()
	fresh.reserve(80)
	fill(fresh, 0, 1)
	codes, rids := cap(fresh.codes), cap(fresh.rids)
	if fill(fresh, 1, 79); cap(fresh.codes) != codes || cap(fresh.rids) != rids {
		t.Errorf("an empty index given room for 80 rows grew before its 80th: codes %d -> %d, rids %d -> %d", codes, cap(fresh.codes), rids, cap(fresh.rids))
	}
	for name, d := range map[string]*denseIndex{"mapped": mapped, "heap": base} {
		d.reserve(30)
		if d.mapped != nil {
			t.Fatalf("%s: reserve left the arrays mapped", name)
		}
		codes, rids := cap(d.codes), cap(d.rids)
		fill(d, 50, 30)
		if cap(d.codes) != codes || cap(d.rids) != rids {
			t.Errorf("%s: arrays grew after reserve: codes %d -> %d, rids %d -> %d", name, codes, cap(d.codes), rids, cap(d.rids))
		}
		for _, field := range []struct {
			name      string
			got, want any
		}{
			{"rids", d.rids, want.rids}, {"published", d.published, want.published}, {"domains", d.domains, want.domains},
			{"flags", d.flags, want.flags}, {"scales", d.scales, want.scales}, {"codes", d.codes, want.codes}, {"signs", d.signs, want.signs},
		} {
			if diff := cmp.Diff(field.want, field.got); diff != "" {
				t.Errorf("%s: %s differ (-want +got):\n%s", name, field.name, diff)
			}
		}
	}
}
