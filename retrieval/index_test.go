package retrieval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func unit(t *testing.T, v ...float32) []float32 {
	t.Helper()
	u, err := normalize(v)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestDenseIndex(t *testing.T) {
	ctx := context.Background()
	d := newDenseIndex()
	d.put(1, unit(t, 1, 0, 0), "a.example", 10)
	d.put(2, unit(t, 0, 1, 0), "b.example", 20)
	d.put(3, unit(t, 1, 1, 0), "c.example", noDate)
	d.put(4, unit(t, 1, 1, 0), "d.example", 30) // ties with 3
	search := func(q []float32, n int, keep func(int) bool) []int64 {
		got, err := d.search(ctx, d.query(q), n, keep)
		if err != nil {
			t.Fatal(err)
		}
		var out []int64
		for _, s := range got {
			out = append(out, s.rid)
		}
		return out
	}
	tests := []struct {
		name string
		got  []int64
		want []int64
	}{
		{"nearest first, ties by rid", search(unit(t, 1, 0.2, 0), 4, nil), []int64{1, 3, 4, 2}},
		{"twice n candidates", search(unit(t, 1, 0.2, 0), 1, nil), []int64{1, 3}},
		{"keep filters", search(unit(t, 1, 0.2, 0), 4, func(r int) bool { return d.published[r] >= 20 }), []int64{4, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}

	// A deleted row is a tombstone; putting its rid again revives it, and
	// a rid below the last is inserted in order.
	d.delete(1)
	d.put(2, unit(t, 0, 0, 1), "b.example", 20)
	d.delete(99)
	d.put(0, unit(t, 0, 0, 1), "e.example", 40)
	if d.len() != 4 || d.deleted != 1 {
		t.Fatalf("len = %d, deleted = %d; want 4, 1", d.len(), d.deleted)
	}
	if diff := cmp.Diff([]int64{0, 2, 3, 4}, search(unit(t, 0, 0, 1), 2, nil)); diff != "" {
		t.Errorf("after delete and replace (-want +got):\n%s", diff)
	}
	d.put(1, unit(t, 0, 1, 0), "a.example", 10)
	if d.len() != 5 || d.deleted != 0 {
		t.Errorf("after revival len = %d, deleted = %d; want 5, 0", d.len(), d.deleted)
	}

	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := d.search(canceled, d.query(unit(t, 1, 0, 0)), 1, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("search with a canceled context: %v", err)
	}
}

func TestQuantizedDotTracksExact(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	d := newDenseIndex()
	for range 200 {
		a, b := make([]float32, 384), make([]float32, 384)
		for i := range a {
			a[i], b[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
		}
		ua, _ := normalize(a)
		ub, _ := normalize(b)
		qa, qb := d.query(ua), newDenseIndex().query(ub)
		got := float64(dot8(qa.codes, qb.codes)) * float64(qa.scale) * float64(qb.scale)
		var want float64
		for i := range ua {
			want += float64(ua[i]) * float64(ub[i])
		}
		if math.Abs(got-want) > 0.01 {
			t.Fatalf("int8 dot %.4f, exact %.4f", got, want)
		}
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	if !littleEndian {
		t.Skip("snapshots need a little-endian machine")
	}
	d := newDenseIndex()
	for i := range 50 {
		v := make([]float32, 70)
		v[i%70], v[(i*7)%70] = 1, -0.5
		u, _ := normalize(v)
		d.put(int64(2*i+1), u, fmt.Sprintf("d%d.example", i%3), int64(i))
	}
	d.put(200, make([]float32, 70), "zero.example", noDate)
	d.delete(7)
	path := filepath.Join(t.TempDir(), "x.dense")
	if err := writeSnapshot(path, d, 42); err != nil {
		t.Fatal(err)
	}
	m, gen, err := readSnapshot(path)
	if err != nil {
		t.Fatal(err)
	}
	defer m.close()
	c := d.compacted()
	if gen != 42 || m.len() != c.len() || m.dim != 70 {
		t.Fatalf("read gen %d, %d rows of %d dims; want 42, %d of 70", gen, m.len(), m.dim, c.len())
	}
	for _, field := range []struct {
		name      string
		got, want any
	}{
		{"rids", m.rids, c.rids}, {"published", m.published, c.published}, {"domains", m.domains, c.domains},
		{"flags", m.flags, c.flags}, {"scales", m.scales, c.scales}, {"codes", m.codes, c.codes},
		{"signs", m.signs, c.signs}, {"domain names", m.domainNames, c.domainNames},
	} {
		if diff := cmp.Diff(field.want, field.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", field.name, diff)
		}
	}
	// A mapped index is copied before its first write.
	m.put(301, unit(t, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10), "new.example", 1)
	if m.mapped != nil || m.len() != c.len()+1 {
		t.Errorf("after a put: mapped %v, len %d", m.mapped != nil, m.len())
	}

	for name, corrupt := range map[string]func([]byte) []byte{
		"truncated": func(b []byte) []byte { return b[:len(b)-8] },
		"bad magic": func(b []byte) []byte { b[0] ^= 1; return b },
		"rids out of order": func(b []byte) []byte {
			copy(b[snapshotHeader:], b[snapshotHeader+8:snapshotHeader+16])
			return b
		},
	} {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		bad := filepath.Join(t.TempDir(), "bad.dense")
		if err := os.WriteFile(bad, corrupt(raw), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := readSnapshot(bad); err == nil {
			t.Errorf("%s snapshot read without error", name)
		}
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
	got, err := decodeVector(appendVector(nil, v))
	if err != nil || !cmp.Equal(v, got) {
		t.Errorf("vector encoding round trip: %v, %v", got, err)
	}
	if _, err := decodeVector([]byte{1, 2, 3}); err == nil {
		t.Error("decodeVector accepted 3 bytes")
	}
}

func TestDot8(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 100, 384} {
		a, b := make([]int8, n), make([]int8, n)
		var want int32
		for i := range a {
			a[i], b[i] = int8(i*37-128), int8(127-i*11)
			want += int32(a[i]) * int32(b[i])
		}
		if got := dot8(a, b); got != want {
			t.Errorf("dot8 of %d components = %d, want %d", n, got, want)
		}
	}
}

// TestSignStageSplit checks that the sign and int8 stages split among
// goroutines keep what the single scans keep.
func TestSignStageSplit(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewSource(5))
	d := newDenseIndex()
	v := make([]float32, 96)
	for i := range 5000 {
		for j := range v {
			v[j] = float32(rng.NormFloat64())
		}
		d.put(int64(i+1), unit(t, v...), "x.example", noDate)
	}
	d.delete(17)
	for j := range v {
		v[j] = float32(rng.NormFloat64())
	}
	q := d.query(unit(t, v...))
	keep := func(r int) bool { return r%3 != 0 }
	old := signParallelRows
	defer func() { signParallelRows = old }()
	signParallelRows = len(d.rids) + 1
	one, err := d.signStage(ctx, q, 700, keep)
	if err != nil {
		t.Fatal(err)
	}
	signParallelRows = 100
	split, err := d.signStage(ctx, q, 700, keep)
	if err != nil {
		t.Fatal(err)
	}
	if len(one) != 700 {
		t.Fatalf("single scan kept %d rows; want 700", len(one))
	}
	if diff := cmp.Diff(one, split); diff != "" {
		t.Errorf("split scan (-single +split):\n%s", diff)
	}
	oldCode := codeParallelRows
	defer func() { codeParallelRows = oldCode }()
	codeParallelRows = len(d.rids) + 1
	whole, err := d.search(ctx, q, 40, keep)
	if err != nil {
		t.Fatal(err)
	}
	codeParallelRows = 100
	parts, err := d.search(ctx, q, 40, keep)
	if err != nil {
		t.Fatal(err)
	}
	if len(whole) != codeCandidates(40) {
		t.Fatalf("search returned %d candidates; want %d", len(whole), codeCandidates(40))
	}
	if diff := cmp.Diff(whole, parts, cmp.AllowUnexported(scored{})); diff != "" {
		t.Errorf("split int8 stage (-single +split):\n%s", diff)
	}
}

// TestSignScan6 checks that the sign scan for 384 dimensions gives the
// distances the general scan gives, deleted rows included.
func TestSignScan6(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewSource(6))
	d := newDenseIndex()
	v := make([]float32, 384)
	for i := range 3000 {
		for j := range v {
			v[j] = float32(rng.NormFloat64())
			if j > 100 && rng.Intn(3) > 0 {
				v[j] = 0
			}
		}
		d.put(int64(i+1), unit(t, v...), "x.example", noDate)
	}
	d.delete(40)
	q := d.query(unit(t, v...))
	n := len(d.rids)
	fast, slow := make([]uint16, n), make([]uint16, n)
	hf, hs := make([]int, 3*384+2), make([]int, 3*384+2)
	if err := d.signScan(ctx, q, nil, 0, n, fast, hf); err != nil {
		t.Fatal(err)
	}
	if err := d.signScan(ctx, q, func(int) bool { return true }, 0, n, slow, hs); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(slow, fast); diff != "" {
		t.Errorf("distances (-general +384):\n%s", diff)
	}
	if diff := cmp.Diff(hs, hf); diff != "" {
		t.Errorf("histogram (-general +384):\n%s", diff)
	}
	if fast[39] != math.MaxUint16 {
		t.Errorf("deleted row has distance %d", fast[39])
	}
}

// TestDenseQueryWeights checks that the two weight words give each
// component the number of planes that hold it.
func TestDenseQueryWeights(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	v := make([]float32, 200)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	q := newDenseIndex().query(unit(t, v...))
	for i := range v {
		want := 0
		for _, p := range q.planes {
			if p[i/64]&(1<<(i%64)) != 0 {
				want++
			}
		}
		got := int(q.ones[i/64]>>(i%64)&1) + 2*int(q.twos[i/64]>>(i%64)&1)
		if got != want {
			t.Fatalf("component %d: weight %d; the planes give %d", i, got, want)
		}
	}
}

// TestDotSparse checks that the dot product over a query's non-zero
// components equals the one over all of them.
func TestDotSparse(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	v := make([]float32, 384)
	for i := range v {
		if i < 100 || rng.Intn(5) == 0 {
			v[i] = float32(rng.NormFloat64())
		}
	}
	q := newDenseIndex().query(unit(t, v...))
	if q.nzIdx == nil {
		t.Fatal("a query two-thirds zeros has no sparse form")
	}
	row := make([]int8, 384)
	for range 50 {
		for i := range row {
			row[i] = int8(rng.Intn(255) - 127)
		}
		if got, want := q.dot(row), dot8(q.codes, row); got != want {
			t.Fatalf("sparse dot %d; dense %d", got, want)
		}
	}
}
