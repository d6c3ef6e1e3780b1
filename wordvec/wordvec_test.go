package wordvec

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// winkJSON renders a small source in the wink layout: vectors[i] gets rank
// ranks[i] and is followed by its norm and rank.
func winkJSON(words []string, ranks []int, vecs [][]float64) string {
	var b strings.Builder
	dim := len(vecs[0])
	fmt.Fprintf(&b, `{"precision":8,"l2NormIndex":%d,"wordIndex":%d,"size":%d,"dimensions":%d,"words":["ignored"],"vectors":{`,
		dim, dim+1, len(words), dim)
	for i, w := range words {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:[", w)
		norm := 0.0
		for _, x := range vecs[i] {
			fmt.Fprintf(&b, "%v,", x)
			norm += x * x
		}
		fmt.Fprintf(&b, "%v,%d]", math.Sqrt(norm), ranks[i])
	}
	fmt.Fprintf(&b, `},"unkVector":[%s-1]}`, strings.Repeat("0,", dim+1))
	return b.String()
}

var (
	smallWords = []string{"the", "vaccine", "of", "hospital", "zebra"}
	smallRanks = []int{0, 3, 1, 2, 4}
	smallVecs  = [][]float64{
		{0.5, -1, 0.25},
		{1.27, 0, -0.635},
		{0, 0, 0},
		{-2, 2, 1},
		{0.1, 0.2, 0.3},
	}
)

func buildSmall(t *testing.T, opts BuildOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Build(&buf, strings.NewReader(winkJSON(smallWords, smallRanks, smallVecs)), opts); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestBuildLoadRoundTrip(t *testing.T) {
	data := buildSmall(t, BuildOptions{VocabSize: 3, Extra: []string{"Zebra", "unicorn"}, SkipShippedExtra: true})
	tab, err := Load(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if tab.Dim() != 3 || tab.Len() != 4 {
		t.Fatalf("Dim, Len = %d, %d; want 3, 4", tab.Dim(), tab.Len())
	}
	tests := []struct {
		word string
		rank int
		vec  []float64 // nil when absent
	}{
		{"the", 1, smallVecs[0]},
		{"THE", 1, smallVecs[0]},
		{"of", 2, smallVecs[2]},
		{"hospital", 3, smallVecs[3]},
		{"vaccine", 0, nil}, // rank 3 is past VocabSize and not an extra
		{"zebra", 5, smallVecs[4]},
		{"unicorn", 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			if got := tab.Rank(tt.word); got != tt.rank {
				t.Errorf("Rank = %d, want %d", got, tt.rank)
			}
			got, ok := tab.Vector(tt.word)
			if ok != (tt.vec != nil) {
				t.Fatalf("Vector ok = %v, want %v", ok, tt.vec != nil)
			}
			maxAbs := 0.0
			for _, x := range tt.vec {
				maxAbs = max(maxAbs, math.Abs(x))
			}
			// Quantisation keeps each component within half a step.
			tol := maxAbs/127/2 + 1e-6
			var want []float32
			for _, x := range tt.vec {
				want = append(want, float32(x))
			}
			if d := cmp.Diff(want, got, cmp.Comparer(func(a, b float32) bool { return math.Abs(float64(a-b)) <= tol })); ok && d != "" {
				t.Errorf("Vector mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestBuildIsDeterministic(t *testing.T) {
	a := buildSmall(t, BuildOptions{Extra: []string{"zebra"}})
	b := buildSmall(t, BuildOptions{Extra: []string{"zebra"}})
	if !bytes.Equal(a, b) {
		t.Fatal("two builds of the same input differ")
	}
}

func TestBuildRejectsBadSource(t *testing.T) {
	good := winkJSON(smallWords, smallRanks, smallVecs)
	tests := []struct {
		name, json string
		opts       BuildOptions
	}{
		{"not JSON", "hello", BuildOptions{}},
		{"array", "[]", BuildOptions{}},
		{"truncated", good[:len(good)/2], BuildOptions{}},
		{"no vectors", `{"dimensions":3,"size":1,"wordIndex":4}`, BuildOptions{}},
		{"vectors before header", `{"vectors":{},"dimensions":3,"size":1,"wordIndex":4}`, BuildOptions{}},
		{"size mismatch", strings.Replace(good, `"size":5`, `"size":6`, 1), BuildOptions{}},
		{"rank out of range", strings.Replace(good, `"size":5`, `"size":4`, 1), BuildOptions{}},
		{"short vector", `{"dimensions":3,"size":1,"wordIndex":4,"vectors":{"a":[1,2,0]}}`, BuildOptions{}},
		{"fractional rank", `{"dimensions":1,"size":1,"wordIndex":2,"vectors":{"a":[1,1,0.5]}}`, BuildOptions{}},
		{"upper-case word", `{"dimensions":1,"size":1,"wordIndex":2,"vectors":{"A":[1,1,0]}}`, BuildOptions{}},
		{"duplicate word", `{"dimensions":1,"size":2,"wordIndex":2,"vectors":{"a":[1,1,0],"a":[1,1,1]}}`, BuildOptions{}},
		{"duplicate rank", `{"dimensions":1,"size":2,"wordIndex":2,"vectors":{"a":[1,1,0],"b":[1,1,0]}}`, BuildOptions{}},
		{"negative vocabulary", good, BuildOptions{VocabSize: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Build(&buf, strings.NewReader(tt.json), tt.opts); err == nil {
				t.Fatalf("Build succeeded, want an error")
			}
		})
	}
}

func TestLoadRejectsDamagedFiles(t *testing.T) {
	good := buildSmall(t, BuildOptions{})
	flip := func(i int) []byte {
		b := bytes.Clone(good)
		b[i] ^= 0x40
		return b
	}
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"foreign", []byte("GIF89a this is not a table at all, not at all")},
		{"truncated", good[:len(good)-10]},
		{"header only", good[:headerSize]},
		{"flipped word byte", flip(headerSize + 1)},
		{"flipped vector byte", flip(len(good) - 6)},
		{"flipped checksum", flip(len(good) - 1)},
		{"extra bytes", append(bytes.Clone(good), 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(bytes.NewReader(tt.data))
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("Load error = %v, want one wrapping ErrFormat", err)
			}
		})
	}
}

func TestDefault(t *testing.T) {
	tab := Default()
	if tab != Default() {
		t.Error("Default returned two different tables")
	}
	if tab.Dim() != 100 || tab.Len() < DefaultVocabSize {
		t.Fatalf("Dim, Len = %d, %d; want 100, >= %d", tab.Dim(), tab.Len(), DefaultVocabSize)
	}
	// The first components of GloVe 6B 100d's "the".
	want := []float32{-0.038194, -0.24487, 0.72812, -0.39961}
	got, ok := tab.Vector("The")
	if !ok {
		t.Fatal(`no vector for "the"`)
	}
	if d := cmp.Diff(want, got[:4], cmp.Comparer(func(a, b float32) bool { return math.Abs(float64(a-b)) < 0.02 })); d != "" {
		t.Errorf(`vector of "the" (-want +got):\n%s`, d)
	}
	for _, tt := range []struct {
		word string
		rank int
	}{{"the", 1}, {",", 2}, {"vaccine", 0}, {"xyzzyplugh", 0}} {
		r := tab.Rank(tt.word)
		if tt.rank == 0 && tt.word == "vaccine" {
			if r == 0 || r > DefaultVocabSize {
				t.Errorf("Rank(vaccine) = %d, want within the table", r)
			}
			continue
		}
		if r != tt.rank {
			t.Errorf("Rank(%q) = %d, want %d", tt.word, r, tt.rank)
		}
	}
	// Related words are closer than unrelated ones.
	if a, b := cosine(t, tab, "vaccine", "vaccination"), cosine(t, tab, "vaccine", "football"); a <= b {
		t.Errorf("cos(vaccine, vaccination) = %.3f <= cos(vaccine, football) = %.3f", a, b)
	}
}

func cosine(t *testing.T, tab *Table, a, b string) float64 {
	t.Helper()
	va, ok1 := tab.Vector(a)
	vb, ok2 := tab.Vector(b)
	if !ok1 || !ok2 {
		t.Fatalf("missing %q or %q", a, b)
	}
	var dot, na, nb float64
	for i := range va {
		dot += float64(va[i] * vb[i])
		na += float64(va[i] * va[i])
		nb += float64(vb[i] * vb[i])
	}
	return dot / math.Sqrt(na*nb)
}

func TestProbFollowsRank(t *testing.T) {
	tab := Default()
	the, _ := tab.Lookup("the")
	vaccine, _ := tab.Lookup("vaccine")
	if p := the.Prob(); p < 0.05 || p > 0.1 {
		t.Errorf(`Prob("the") = %v, want about 0.075`, p)
	}
	if the.Prob() <= vaccine.Prob() {
		t.Errorf("Prob(the) = %v <= Prob(vaccine) = %v", the.Prob(), vaccine.Prob())
	}
	if got := vaccine.Text(); got != "vaccine" {
		t.Errorf("Text = %q", got)
	}
}

func BenchmarkDefaultLoad(b *testing.B) {
	b.SetBytes(int64(len(shipped)))
	for b.Loop() {
		if _, err := decode([]byte(shipped)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLookup(b *testing.B) {
	tab := Default()
	dst := make([]float32, tab.Dim())
	words := []string{"the", "vaccine", "Hospital", "xyzzy"}
	for i := 0; b.Loop(); i++ {
		if w, ok := tab.Lookup(words[i%len(words)]); ok {
			w.AddTo(dst, 0.5)
		}
	}
}
