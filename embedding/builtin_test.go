package embedding

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/llm"
	"github.com/verity-fc/verity/llm/embedtest"
)

// The layering of DESIGN.md puts embedding beside llm, so the check that
// Builtin is an llm.Embedder lives here rather than in the package.
var _ llm.Embedder = (*Builtin)(nil)

func embedOne(t testing.TB, b *Builtin, text string) []float32 {
	t.Helper()
	vs, err := b.Embed(context.Background(), []string{text})
	if err != nil {
		t.Fatal(err)
	}
	return vs[0]
}

func cos(a, b []float32) float64 { return embedtest.Cosine(a, b) }

func TestSimilarSentencesAreCloser(t *testing.T) {
	b := NewBuiltin(nil)
	tests := []struct {
		anchor, similar, unrelated string
	}{
		{"The vaccine reduced hospital admissions", "Hospitalisations fell after vaccination", "The stock market rose"},
		{"The cat rested on the carpet", "The kitten slept on the rug", "The table was in the drawing room"},
		{"Global temperatures have risen sharply since 1950", "The planet has warmed quickly over recent decades", "The team won the championship final"},
		{"The company reported record quarterly profits", "Earnings hit an all-time high this quarter", "Heavy rain flooded the village"},
		{"Smoking causes lung cancer", "Tobacco use leads to cancer of the lungs", "The bridge was opened in 1932"},
		{"H5N1 spread among dairy cattle in Texas", "Dairy cows in Texas caught H5N1", "Wheat prices fell in Kansas"},
		{"The population of Zorblax rose to 12,400 in 2019", "In 2019 Zorblax had 12400 inhabitants", "The population of Paris rose in 2019"},
	}
	for _, tt := range tests {
		t.Run(tt.anchor, func(t *testing.T) {
			a, s, u := embedOne(t, b, tt.anchor), embedOne(t, b, tt.similar), embedOne(t, b, tt.unrelated)
			cs, cu := cos(a, s), cos(a, u)
			t.Logf("similar %.3f, unrelated %.3f", cs, cu)
			if cs <= cu {
				t.Errorf("cos(anchor, similar) = %.3f <= cos(anchor, unrelated) = %.3f", cs, cu)
			}
		})
	}
}

func TestOutOfVocabularyWordsMatch(t *testing.T) {
	b := NewBuiltin(nil)
	// Neither name is in the table; only the lexical block can tell these
	// apart, and it must.
	a := embedOne(t, b, "Xylotrexa")
	same := embedOne(t, b, "xylotrexa")
	near := embedOne(t, b, "Xylotrexas")
	other := embedOne(t, b, "Quompledorf")
	if c := cos(a, same); c < 0.999 {
		t.Errorf("cos of the same unknown word in two cases = %.4f, want 1", c)
	}
	if cn, co := cos(a, near), cos(a, other); cn <= co || cn < 0.3 {
		t.Errorf("cos(xylotrexa, xylotrexas) = %.3f, cos(xylotrexa, quompledorf) = %.3f; want the first > 0.3 and larger", cn, co)
	}
	// A number is a token too.
	n1, n2, n3 := embedOne(t, b, "a rise of 4,217 cases"), embedOne(t, b, "a rise of 4217 cases"), embedOne(t, b, "a rise of 9,876 cases")
	if c12, c13 := cos(n1, n2), cos(n1, n3); c12 < 0.999 || c13 >= c12 {
		t.Errorf("cos(4,217 vs 4217) = %.3f, cos(4,217 vs 9,876) = %.3f; want 1 and less", c12, c13)
	}
}

func TestVectorsAreUnitOrZero(t *testing.T) {
	b := NewBuiltin(nil)
	long := strings.Repeat("the vaccine works ", MaxTextBytes/10) + "é"
	tests := []struct {
		name, text string
		zero       bool
	}{
		{"empty", "", true},
		{"spaces", " \n\t ", true},
		{"punctuation", "?!, ... ;", true},
		{"stopwords", "the of and to it's", true},
		{"known words", "The vaccine reduced hospital admissions.", false},
		{"only unknown", "Zorblaxian qwertyuiop", false},
		{"only a number", "1987", false},
		{"longer than the limit", long, false},
		{"invalid UTF-8", "vaccine \xff\xfe", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := embedOne(t, b, tt.text)
			if len(v) != b.Dim() {
				t.Fatalf("len = %d, want Dim() = %d", len(v), b.Dim())
			}
			var n float64
			for _, x := range v {
				if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
					t.Fatalf("component %v is not finite", x)
				}
				n += float64(x) * float64(x)
			}
			want := 1.0
			if tt.zero {
				want = 0
			}
			if math.Abs(n-want) > 1e-4 {
				t.Errorf("squared norm = %v, want %v", n, want)
			}
		})
	}
}

func TestEmbedIsDeterministic(t *testing.T) {
	texts := []string{"The vaccine reduced hospital admissions", "", "Zorblax 1987 U.S. e-mail"}
	first, err := NewBuiltin(nil).Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	// A fresh embedder, the texts one at a time and in another order.
	b := NewBuiltin(nil)
	for i := len(texts) - 1; i >= 0; i-- {
		if d := cmp.Diff(first[i], embedOne(t, b, texts[i])); d != "" {
			t.Errorf("text %d embeds differently (-first +again):\n%s", i, d)
		}
	}
	// Pin a few components so that a change of the model, which would
	// invalidate stored vectors, cannot pass unnoticed (see Name).
	got := first[0][:3]
	want := []float32{pinned0, pinned1, pinned2}
	if d := cmp.Diff(want, got, cmp.Comparer(func(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-5 })); d != "" {
		t.Errorf("first components changed (-pinned +got); bump Name and update the pins:\n%s", d)
	}
}

const (
	pinned0 = 0.06346717
	pinned1 = 0.07007987
	pinned2 = -0.04793992
)

func TestEmbedShapes(t *testing.T) {
	b := NewBuiltin(nil)
	if b.Dim() != 100+HashDim {
		t.Errorf("Dim = %d, want %d", b.Dim(), 100+HashDim)
	}
	for _, n := range []int{0, 1, 3, 200} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			texts := make([]string, n)
			for i := range texts {
				texts[i] = fmt.Sprintf("sentence number %d about vaccines", i)
			}
			vs, err := b.Embed(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			if len(vs) != n {
				t.Fatalf("%d vectors for %d texts", len(vs), n)
			}
			for i, v := range vs {
				if len(v) != b.Dim() {
					t.Fatalf("vector %d has %d components", i, len(v))
				}
			}
			if n >= 2 {
				// Appending to one vector must not overwrite the next.
				next := slices.Clone(vs[1])
				vs[0] = append(vs[0], 42)
				if d := cmp.Diff(next, vs[1]); d != "" {
					t.Errorf("appending to vector 0 changed vector 1:\n%s", d)
				}
			}
		})
	}
}

func TestEmbedStopsWhenContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := NewBuiltin(nil).Embed(ctx, make([]string, 1000))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func BenchmarkEmbed(b *testing.B) {
	e := NewBuiltin(nil)
	texts := []string{
		"The vaccine reduced hospital admissions by 35% in 2021.",
		"Hospitalisations fell after vaccination, officials in the U.S. said.",
		"The stock market rose for the third day as investors cheered earnings.",
		"H5N1 spread among dairy cattle in Texas and Kansas.",
	}
	batch := make([]string, 256)
	for i := range batch {
		batch[i] = texts[i%len(texts)]
	}
	ctx := context.Background()
	for b.Loop() {
		if _, err := e.Embed(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(batch))/b.Elapsed().Seconds(), "sentences/s")
}

func TestEmbedConcurrently(t *testing.T) {
	b := NewBuiltin(nil)
	texts := []string{"The vaccine reduced hospital admissions", "Zorblax 1987", "stock markets rose"}
	want, err := b.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	got := make([][][]float32, 4)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			got[i], _ = b.Embed(context.Background(), texts)
		})
	}
	wg.Wait()
	for i := range got {
		if d := cmp.Diff(want, got[i]); d != "" {
			t.Errorf("goroutine %d (-want +got):\n%s", i, d)
		}
	}
}
