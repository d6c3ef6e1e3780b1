package retrieval

import (
	"hash/fnv"
	"slices"

	txt "github.com/verity-fc/verity/text"
)

// BM25 constants of the sparse vectors sent to Qdrant: k1 saturates term
// frequency, b weighs length normalisation. 1.2 and 0.75 are Robertson's
// defaults, which Lucene and SQLite's FTS5 also use.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
	// titleWeight is how much a term of the title counts against one of the
	// text: the title repeats on every passage of a source, as in the
	// embedded store's bm25(passages_fts, 1.0, 0.5).
	titleWeight = 0.5
	// maxPassageTerms bounds the terms taken from one passage for its
	// sparse vector.
	maxPassageTerms = 4096
)

// sparseVec is a sparse vector: indices ascending and unique, one value
// each.
type sparseVec struct {
	indices []uint32
	values  []float32
}

// termIndex maps a stem to its sparse dimension. Qdrant's sparse indices
// are uint32; a 32-bit FNV-1a hash of the stem needs no shared vocabulary
// between the processes that write and query, and two stems of a corpus
// collide rarely enough (about n²/2³³) not to matter to ranking.
func termIndex(stem string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(stem))
	return h.Sum32()
}

// passageTerms returns the stems of the content words of s with their
// counts, at most maxPassageTerms words taken.
func passageTerms(s string) (map[string]int, int) {
	counts := map[string]int{}
	n := 0
	for _, w := range txt.Words(s) {
		if n == maxPassageTerms {
			break
		}
		if !txt.SearchTerm(w) {
			continue
		}
		counts[txt.Porter2(w)]++
		n++
	}
	return counts, n
}

// documentSparse is the BM25 document side of a passage: for each stem, the
// saturated and length-normalised term frequency
//
//	tf·(k1+1) / (tf + k1·(1 − b + b·len/avgLen))
//
// where tf counts text words once and title words titleWeight. Qdrant's
// IDF modifier supplies the other factor of BM25 at query time, from the
// collection's own document frequencies, so the dot product with a query
// of ones is BM25.
func documentSparse(text, title string, avgLen float64) sparseVec {
	tc, tn := passageTerms(text)
	hc, hn := passageTerms(title)
	tf := make(map[uint32]float64, len(tc)+len(hc))
	for s, c := range tc {
		tf[termIndex(s)] += float64(c)
	}
	for s, c := range hc {
		tf[termIndex(s)] += titleWeight * float64(c)
	}
	length := float64(tn) + titleWeight*float64(hn)
	norm := bm25K1 * (1 - bm25B + bm25B*length/avgLen)
	v := sparseVec{indices: make([]uint32, 0, len(tf)), values: make([]float32, 0, len(tf))}
	for _, i := range sortedKeys(tf) {
		f := tf[i]
		v.indices = append(v.indices, i)
		v.values = append(v.values, float32(f*(bm25K1+1)/(f+norm)))
	}
	return v
}

// querySparse is the BM25 query side: weight 1 for each distinct content
// stem of the query, at most maxQueryTerms of them. It is empty when the
// text has no content term.
func querySparse(text string) sparseVec {
	seen := map[uint32]bool{}
	for s := range stems(text, maxQueryTerms) {
		seen[termIndex(s)] = true
	}
	v := sparseVec{}
	for _, i := range sortedKeys(seen) {
		v.indices = append(v.indices, i)
		v.values = append(v.values, 1)
	}
	return v
}

func sortedKeys[V any](m map[uint32]V) []uint32 {
	out := make([]uint32, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
