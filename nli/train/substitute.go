package train

import (
	"cmp"
	"context"
	"math/rand/v2"
	"regexp"
	"slices"

	"github.com/viterin/vek/vek32"

	"github.com/verity-fc/verity/nli"
	"github.com/verity-fc/verity/text"
	"github.com/verity-fc/verity/wordvec"
)

// Word substitution for distillation ('verity train nli --substitute'):
// more inputs for the teacher to label, made from the training pairs by
// swapping plain words for their neighbours in the word vectors (the
// transfer-set augmentation of TinyBERT, Jiao et al., 2020).
const (
	// substitutePool is how many of the training split's plain words, the
	// most frequent, a word may be replaced by.
	substitutePool = 20000
	// substituteNeighbours is how many nearest words of the pool each word
	// may be replaced by.
	substituteNeighbours = 8
	// substituteSame is the cosine above which a pool word counts as the
	// word itself (another spelling with the same vector).
	substituteSame = 0.9999
)

// Substitute returns, for each training-split example of exs, a copy in
// which each plain word (lower case, letters only, not a stop word, and
// read by the encoder with opts as a word with a vector and no channel: no
// figure, name, negation, quantifier, modal or direction word) is replaced
// with probability p by one of its substituteNeighbours nearest words
// (cosine of the word vectors) among the substitutePool commonest plain
// words of the training split. The copies are text, so that encoding them
// gives the replaced words their own relations to the other side. A copy
// in which nothing was replaced is left out. The copies carry no label
// (Target 0): they are trained on a teacher's probabilities alone, so a
// teacher must give them soft targets (SoftTargets) before training. The
// draws are seeded by seed and each example's index, so the result is
// deterministic.
func Substitute(ctx context.Context, exs []Example, p float64, seed uint64, opts nli.EncoderOptions, logf func(string, ...any)) ([]Example, error) {
	vecs := wordvec.Default()
	enc := nli.NewEncoder(opts)
	plainWord := map[string]bool{}
	plain := func(w string) bool {
		ok, seen := plainWord[w]
		if !seen {
			ok = len(w) >= 3 && !text.SnowballStop.Has(w)
			if ok {
				in := enc.Encode(w, w)
				ok = len(in.A) == 1 && in.A[0].Chan == 0 && in.A[0].Vec != nil
			}
			plainWord[w] = ok
		}
		return ok
	}
	counts := map[string]int{}
	for i, e := range exs {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if e.Split != SplitTrain || e.Target == 0 {
			continue
		}
		for _, s := range []string{e.Claim, e.Passage} {
			for _, w := range lowerWord.FindAllString(s, -1) {
				if plain(w) {
					counts[w]++
				}
			}
		}
	}
	pool := make([]string, 0, len(counts))
	for w := range counts {
		pool = append(pool, w)
	}
	slices.SortFunc(pool, func(a, b string) int {
		return cmp.Or(cmp.Compare(counts[b], counts[a]), cmp.Compare(a, b))
	})
	pool = pool[:min(len(pool), substitutePool)]
	unit := make([][]float32, len(pool))
	at := make(map[string]int, len(pool))
	for i, w := range pool {
		v, _ := vecs.Vector(w)
		unit[i] = vek32.MulNumber(v, 1/max(vek32.Norm(v), 1e-12))
		at[w] = i
	}
	all := make([]int, len(pool))
	for i := range all {
		all[i] = i
	}
	neighbours := make([][]int, len(pool))
	sharded(len(pool), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			if i%1024 == 0 && ctx.Err() != nil {
				return
			}
			neighbours[i] = nearest(unit, i, all)
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	logf("substitution: %d plain words in the training split, the %d commonest replaceable", len(counts), len(pool))

	var out []Example
	for i, e := range exs {
		if e.Split != SplitTrain || e.Target == 0 {
			continue
		}
		rng := rand.New(rand.NewPCG(seed^0x5b57, uint64(i)))
		replaced := 0
		swap := func(s string) string {
			return lowerWord.ReplaceAllStringFunc(s, func(w string) string {
				k, ok := at[w]
				if !ok || len(neighbours[k]) == 0 || rng.Float64() >= p {
					return w
				}
				replaced++
				nb := neighbours[k]
				return pool[nb[rng.IntN(len(nb))]]
			})
		}
		cp := e
		cp.Claim, cp.Passage, cp.Target = swap(e.Claim), swap(e.Passage), 0
		if replaced > 0 {
			out = append(out, cp)
		}
	}
	logf("substitution: %d copies of training pairs with words replaced (share %g), for the teacher to label", len(out), p)
	return out, nil
}

// lowerWord matches a word of lower-case letters alone, the only words
// Substitute replaces: a capital marks a name or a sentence's first word.
var lowerWord = regexp.MustCompile(`\b[a-z]+\b`)

// nearest returns the substituteNeighbours members of pool whose unit
// vectors have the largest dot product with unit[i], nearest first,
// leaving out i itself and any vector the same as it.
func nearest(unit [][]float32, i int, pool []int) []int {
	type scored struct {
		j   int
		cos float32
	}
	var top []scored
	for _, j := range pool {
		if j == i {
			continue
		}
		c := vek32.Dot(unit[i], unit[j])
		if c > substituteSame || (len(top) == substituteNeighbours && c <= top[len(top)-1].cos) {
			continue
		}
		at, _ := slices.BinarySearchFunc(top, c, func(s scored, c float32) int { return cmp.Compare(c, s.cos) })
		top = slices.Insert(top, at, scored{j, c})
		if len(top) > substituteNeighbours {
			top = top[:substituteNeighbours]
		}
	}
	out := make([]int, len(top))
	for k, s := range top {
		out[k] = s.j
	}
	return out
}
