// Package embedding provides verity's built-in sentence embedder: a
// SIF-weighted average of the shipped GloVe word vectors (package wordvec)
// joined with a hashed lexical block that lets rare names, numbers and
// unknown words match. It needs no model server, is deterministic and embeds
// thousands of sentences a second on one core.
package embedding

import (
	"context"
	"fmt"
	"math"
	"unicode"
	"unicode/utf8"

	txt "github.com/verity-fc/verity/text"
	"github.com/verity-fc/verity/wordvec"
)

const (
	// Name identifies the built-in model and its version. Vectors from
	// different versions are not comparable: a store that persists them
	// should record the name and re-embed when it changes.
	Name = "verity-builtin-sif-glove100-v1"

	// HashDim is the size of the lexical block. With 284 the vector has
	// 384 components; the SciFact and FEVER retrieval figures of the quality
	// tests rose by 2-3 points of recall@10 from 156 to 284 buckets, because
	// an abstract's thousand-odd trigrams collide less.
	HashDim = 284

	// MaxTextBytes bounds the part of each text that Embed reads (64 KiB);
	// the rest of a longer text is ignored.
	MaxTextBytes = 64 << 10
)

// Builtin embeds texts into Dim() = table dimension + HashDim components
// (384 with the shipped 100-dimensional table):
//
//   - components [0, d) are the SIF average of the word vectors of the
//     text's content words: each word weighs a/(a+p(w)), a = 1e-4, with p(w)
//     from its frequency rank (wordvec.Word.Prob), so "the" barely counts and
//     "vaccine" counts fully. Stopwords, clitics and punctuation are skipped.
//   - components [d, d+HashDim) are a signed feature hash of each content
//     word and of its character trigrams ("<va", "vac", ...), weighted like
//     the word vectors; words the table lacks (names, numbers, rare
//     spellings) weigh 1, the most a known word can. This is what lets
//     "H5N1" match "H5N1" and "hospitalisations" match "hospital".
//
// Each block is scaled to unit length, then both by sqrt(0.5), so the
// vector has unit length and cosine similarity is the mean of a semantic and
// a lexical cosine; a text with only one block (all its words unknown) has
// that block at unit length. A text with no content word (empty, only
// punctuation or stopwords) gets the zero vector, whose cosine with anything
// is 0 by convention; callers must not divide by its norm. Builtin is safe
// for concurrent use.
//
// SIF's second step, removing the component common to all sentences, was
// measured too: it helped the semantic block alone but not the joined
// vector, so it is left out.
type Builtin struct {
	t   *wordvec.Table
	dim int
	p   params
}

// params are the model's constants, a struct so that the quality tests can
// compare settings; NewBuiltin always uses defaultParams.
type params struct {
	// sifA is the SIF smoothing constant a in a/(a+p(w)) (Arora et al.,
	// 2017, recommend 1e-3 to 1e-4). 1e-4 beat 1e-3 and 3e-3 on both
	// retrieval sets; 3e-5 and 1e-5 helped SciFact and hurt FEVER.
	sifA float64
	// lexShare is the share of the squared norm given to the lexical block
	// when a text has both blocks: cosine similarity is then about
	// (1-lexShare)*semantic + lexShare*lexical. Retrieval improved up to
	// 0.5 and stayed flat to 0.65; 0.5 keeps the most of the paraphrase
	// matching that only the semantic block gives.
	lexShare float64
	// trigrams adds character trigrams to the lexical block.
	trigrams bool
}

var defaultParams = params{sifA: 1e-4, lexShare: 0.5, trigrams: true}

// NewBuiltin returns an embedder over t; nil means wordvec.Default().
func NewBuiltin(t *wordvec.Table) *Builtin {
	if t == nil {
		t = wordvec.Default()
	}
	return &Builtin{t: t, dim: t.Dim() + HashDim, p: defaultParams}
}

// Dim is the number of components of every vector.
func (b *Builtin) Dim() int { return b.dim }

// Embed returns one unit-length (or, for a text without content words,
// zero) vector per text. It stops with ctx's error if ctx ends before the
// batch is done.
func (b *Builtin) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	// One backing array for the batch: fewer allocations, and vectors of
	// one batch sit together in memory.
	flat := make([]float32, len(texts)*b.dim)
	var toks []string
	for i, text := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("embed %d texts: %w", len(texts), err)
			}
		}
		v := flat[i*b.dim : (i+1)*b.dim : (i+1)*b.dim]
		toks = b.embed(v, text, toks[:0])
		out[i] = v
	}
	return out, nil
}

// embed writes the vector of text into v (zeroed, Dim() long), using toks
// as scratch space, and returns the scratch for reuse.
func (b *Builtin) embed(v []float32, text string, toks []string) []string {
	if len(text) > MaxTextBytes {
		cut := MaxTextBytes
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	toks = b.t.AppendTokens(toks, text)
	d := b.t.Dim()
	sem, lex := v[:d], v[d:]
	for _, tok := range toks {
		if tok == "n't" {
			tok = "not"
		}
		if !isContent(tok) {
			continue
		}
		weight := float32(1)
		if w, ok := b.t.Lookup(tok); ok {
			weight = float32(b.p.sifA / (b.p.sifA + w.Prob()))
			w.AddTo(sem, weight)
		}
		addLexical(lex, tok, weight, b.p.trigrams)
	}
	ns, nl := norm(sem), norm(lex)
	switch {
	case ns > 0 && nl > 0:
		scale(sem, float32(math.Sqrt(1-b.p.lexShare))/ns)
		scale(lex, float32(math.Sqrt(b.p.lexShare))/nl)
	case ns > 0:
		scale(sem, 1/ns)
	case nl > 0:
		scale(lex, 1/nl)
	}
	return toks
}

// isContent reports whether tok carries meaning worth embedding: it has a
// letter or a digit and is not a stopword (text.EmbedStop: function words
// and PTB clitics, which say little about what a sentence is about; SIF
// weighting alone leaves enough of them in a short sentence to pull
// unrelated sentences together).
func isContent(tok string) bool {
	if txt.EmbedStop.Has(tok) {
		return false
	}
	for _, r := range tok {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// addLexical adds the signed hash features of tok to lex: the whole word
// with the given weight and its character trigrams (of "<tok>") sharing
// that weight's square, so a long word does not outweigh a short one.
func addLexical(lex []float32, tok string, weight float32, trigrams bool) {
	addFeature(lex, hashString(offsetWord, tok), weight)
	if !trigrams {
		return
	}
	padded := len(tok) + 2
	n := padded - 2
	tw := weight / float32(math.Sqrt(float64(n)))
	for i := 0; i < n; i++ {
		// Trigram i of "<" + tok + ">", hashed without building it.
		h := uint64(offsetTrigram)
		for j := i; j < i+3; j++ {
			var c byte
			switch {
			case j == 0:
				c = '<'
			case j == padded-1:
				c = '>'
			default:
				c = tok[j-1]
			}
			h = (h ^ uint64(c)) * fnvPrime
		}
		addFeature(lex, h, tw)
	}
}

// Feature hashing with FNV-1a, written out so that hashing a trigram does
// not allocate; the two offsets keep words and trigrams apart. The values
// are fixed: vectors persisted by a store must not change between runs.
const (
	offsetWord    = 14695981039346656037
	offsetTrigram = 14695981039346656037 ^ 0x9e3779b97f4a7c15
	fnvPrime      = 1099511628211
)

func hashString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime
	}
	return h
}

// addFeature adds ±weight to one component of lex chosen by h; the sign,
// from the top bit, makes collisions cancel on average instead of piling up.
func addFeature(lex []float32, h uint64, weight float32) {
	i := (h & 0x7fffffffffffffff) % uint64(len(lex))
	if h>>63 == 1 {
		weight = -weight
	}
	lex[i] += weight
}

func norm(v []float32) float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return float32(math.Sqrt(s))
}

func scale(v []float32, f float32) {
	for i := range v {
		v[i] *= f
	}
}
