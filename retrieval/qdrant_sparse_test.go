package retrieval

import (
	"slices"
	"testing"
)

func weightOf(v sparseVec, stem string) float32 {
	i, ok := slices.BinarySearch(v.indices, termIndex(stem))
	if !ok {
		return 0
	}
	return v.values[i]
}

func TestDocumentSparse(t *testing.T) {
	const avg = 10
	once := documentSparse("volcano ash cloud", "", avg)
	if !slices.IsSorted(once.indices) || len(slices.Compact(slices.Clone(once.indices))) != len(once.indices) {
		t.Fatalf("indices not ascending and unique: %v", once.indices)
	}
	if len(once.indices) != 3 {
		t.Errorf("%d terms, want 3 (volcano, ash, cloud)", len(once.indices))
	}
	tests := []struct {
		name       string
		more, less sparseVec
		stem       string
	}{
		{"a repeated term weighs more", documentSparse("volcano volcano ash cloud", "", avg), once, "volcano"},
		{"a shorter passage weighs more", once, documentSparse("volcano ash cloud over the northern airports for weeks and weeks", "", avg), "volcano"},
		{"text weighs more than title", documentSparse("volcano", "report", avg), documentSparse("report", "volcano", avg), "volcano"},
		{"stems join word forms", documentSparse("erupted erupting", "", avg), documentSparse("erupted", "", avg), "erupt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, l := weightOf(tt.more, tt.stem), weightOf(tt.less, tt.stem)
			if !(m > l && l > 0) {
				t.Errorf("weights %v and %v, want the first larger and both positive", m, l)
			}
		})
	}
	// Saturation: tf·(k1+1)/(tf+norm) stays below k1+1.
	many := documentSparse(string(slices.Repeat([]byte("volcano "), 500)), "", avg)
	if w := weightOf(many, "volcano"); w >= bm25K1+1 {
		t.Errorf("weight of a term repeated 500 times = %v, want < %v", w, bm25K1+1)
	}
	if v := documentSparse("the of and to", "", avg); len(v.indices) != 0 {
		t.Errorf("stopwords gave terms %v", v.indices)
	}
}

func TestQuerySparse(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"Did the volcano erupt?", []string{"volcano", "erupt"}},
		{"erupting ERUPTED eruption", []string{"erupt", "erupt", "erupt"}},
		{"the of and", nil},
		{`"; DROP TABLE --`, []string{"drop", "tabl"}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			var want []uint32
			for _, s := range tt.want {
				want = append(want, termIndex(s))
			}
			slices.Sort(want)
			want = slices.Compact(want)
			got := querySparse(tt.text)
			if !slices.Equal(want, got.indices) {
				t.Errorf("indices %v, want %v", got.indices, want)
			}
			for _, v := range got.values {
				if v != 1 {
					t.Errorf("query weight %v, want 1", v)
				}
			}
		})
	}
}
