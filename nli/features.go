package nli

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/verity-fc/verity/quantity"
	"github.com/verity-fc/verity/wordvec"
)

// text is a claim or passage analysed once for feature extraction.
type text struct {
	toks    []token
	content []string // stems of content words, in order
	// vecs holds the unit word vector of each content stem (of its first
	// spelling) that the word-vector table knows.
	vecs   map[string][]float32
	stems  map[string]bool
	lowers map[string]bool
	negs   int
	quant  int // strongest quantifier level, 0 when none
	hedged bool
	excl   bool
	// raw is the text as analysed, for the quantity comparison.
	raw string
	// negated marks the content stems with a negation among the negScope
	// words before them ("is not a French actor" negates "french").
	negated map[string]bool
}

// negScope is how many words before a word a negation reaches.
const negScope = 3

// MaxTextBytes bounds the text analysed for one claim or passage; longer
// texts are cut (at a character boundary). 32 KiB is far more than the
// maxTokens words that are looked at.
const MaxTextBytes = 32 << 10

func analyse(s string) *text {
	if len(s) > MaxTextBytes {
		s = strings.ToValidUTF8(s[:MaxTextBytes], "")
	}
	t := &text{raw: s, toks: tokenize(s), stems: map[string]bool{}, lowers: map[string]bool{}, vecs: map[string][]float32{}, negated: map[string]bool{}}
	table := wordvec.Default()
	for i, tk := range t.toks {
		t.lowers[tk.Lower] = true
		t.stems[tk.Stem] = true
		if negations[tk.Lower] {
			t.negs++
		}
		if q := quantLevel[tk.Lower]; q > t.quant && !quantIdiom(t.toks, i) {
			t.quant = q
		}
		if hedges[tk.Lower] {
			t.hedged = true
		}
		if exclusives[tk.Lower] {
			t.excl = true
		}
		if _, isNum := numberValue(tk); isNum {
			continue
		}
		if !stopwords[tk.Lower] && !negations[tk.Lower] && quantLevel[tk.Lower] == 0 && !hedges[tk.Lower] && len(tk.Lower) > 1 {
			t.content = append(t.content, tk.Stem)
			for k := max(0, i-negScope); k < i; k++ {
				if negations[t.toks[k].Lower] {
					t.negated[tk.Stem] = true
				}
			}
			if _, ok := t.vecs[tk.Stem]; !ok {
				if v, ok := table.Vector(tk.Lower); ok {
					t.vecs[tk.Stem] = unit(v)
				}
			}
		}
	}
	return t
}

// isYear reports whether tk reads as a year: a whole number from 1000 to
// 2100 written in digits without a thousands separator ("1995", not
// "1,995" people).
func isYear(tk token) bool {
	v, ok := numberValue(tk)
	return ok && tk.Num && !tk.Sep && v == math.Trunc(v) && v >= 1000 && v <= 2100
}

func numberValue(tk token) (float64, bool) {
	s := tk.Lower
	if !tk.Num {
		w, ok := numberWords[s]
		if !ok || strings.HasSuffix(w, "st") || strings.HasSuffix(w, "nd") || strings.HasSuffix(w, "rd") {
			return 0, false
		}
		s = w
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}

// featureNames name the entries of the feature vector, in order. Every
// feature relates the claim to the passage: none looks at the claim alone,
// so claim wording cannot decide a judgment by itself.
var featureNames = []string{
	"cov", "cov_fuzzy", "cov_idf", "unmatched_max_idf", "unmatched_log", "all_matched",
	"cap_unmatched_frac", "cap_unmatched_log", "bigram_cov", "lcs_ratio", "passage_cov", "len_ratio_log",
	"passage_len_log", "jaccard", "substring",
	"neg_claim_only", "neg_passage_only", "neg_both", "neg_parity",
	"quant_claim_stronger", "quant_passage_stronger", "quant_claim_only",
	"hedge_passage_only", "hedge_claim_only", "excl_claim_only",
	"antonym", "antonym_unmatched",
	"num_applicable", "num_ok", "num_fail", "num_conflicts_log", "num_agrees_log", "num_unsettled", "year_fail",
	"num_not_compared",
	"vec_align_mean", "vec_align_min", "vec_unmatched_best_mean", "vec_unmatched_similar_log", "vec_unmatched_far_log",
	"neg_scope_mismatch",
}

// vecDim is the word-vector dimension.
const vecDim = 100

// relDim is the length of one relation input: for a claim word the passage
// lacks, aligned with its most similar passage word, the element-wise
// product and the absolute difference of the two vectors (scaled to norm
// sqrt(vecDim) so that components are about 1), their cosine and the claim
// word's IDF over the maximum, and whether each of the two words is
// negated (see negScope). A small learned layer over these lets the
// network tell paraphrase (film/movie) from substitution (cat/dog,
// French/American), which no hand-written list covers.
const relDim = 2*vecDim + 4

// numFeatures is the number of scalar features.
var numFeatures = len(featureNames)

// featureSchema names the model's inputs for the model file: the scalar
// features and the relation input.
func featureSchema() []string {
	return append(append([]string{}, featureNames...), fmt.Sprintf("relation[%d]", relDim))
}

// features returns the scalar features of (claim, passage) and the
// relation inputs of the claim words the passage lacks; idf gives a stem's
// inverse document frequency, unknown stems getting maxIDF.
func features(c, p *text, idf func(string) float64, maxIDF float64) ([]float64, [][]float32) {
	f := make([]float64, numFeatures)
	// Alignment of claim content words.
	uniq := uniqueStrings(c.content)
	matched, fuzzy := 0, 0
	var idfAll, idfMatched, unmatchedMax float64
	unmatched := 0
	antonymAny, antonymUnmatched := false, false
	for _, s := range uniq {
		w := idf(s)
		idfAll += w
		switch {
		case p.stems[s]:
			matched++
			idfMatched += w
		case fuzzyIn(s, p.stems):
			fuzzy++
			idfMatched += w / 2
			unmatchedMax = math.Max(unmatchedMax, w/2)
		default:
			unmatched++
			unmatchedMax = math.Max(unmatchedMax, w)
		}
		for a := range antonyms[s] {
			if p.stems[a] {
				antonymAny = true
				if !p.stems[s] {
					antonymUnmatched = true
				}
			}
		}
	}
	n := float64(len(uniq))
	if n == 0 {
		f[0], f[1], f[2] = 1, 1, 1
	} else {
		f[0] = float64(matched) / n
		f[1] = (float64(matched) + 0.5*float64(fuzzy)) / n
		f[2] = idfMatched / idfAll
	}
	f[3] = unmatchedMax / maxIDF
	f[4] = math.Log1p(float64(unmatched))
	f[5] = b2f(unmatched == 0 && fuzzy == 0)

	// Capitalised words (names) of the claim missing from the passage.
	caps, capsMissing := 0, 0
	seen := map[string]bool{}
	for _, tk := range c.toks {
		if !tk.Cap || stopwords[tk.Lower] || seen[tk.Lower] {
			continue
		}
		seen[tk.Lower] = true
		caps++
		if !p.lowers[tk.Lower] && !p.stems[tk.Stem] {
			capsMissing++
		}
	}
	if caps > 0 {
		f[6] = float64(capsMissing) / float64(caps)
	}
	f[7] = math.Log1p(float64(capsMissing))

	f[8] = bigramCoverage(c.content, p.content)
	if len(c.content) > 0 {
		f[9] = float64(lcs(c.content, p.content)) / float64(len(c.content))
	} else {
		f[9] = 1
	}
	puniq := uniqueStrings(p.content)
	if len(puniq) > 0 {
		covered := 0
		cs := map[string]bool{}
		for _, s := range uniq {
			cs[s] = true
		}
		for _, s := range puniq {
			if cs[s] {
				covered++
			}
		}
		f[10] = float64(covered) / float64(len(puniq))
	}
	f[11] = math.Log((1 + float64(len(p.content))) / (1 + float64(len(c.content))))
	f[12] = math.Log1p(float64(len(p.content)))
	if union := len(uniq) + len(puniq) - matched; union > 0 {
		f[13] = float64(matched) / float64(union)
	}
	f[14] = b2f(len(c.toks) > 0 && containsSeq(p.toks, c.toks))

	// Negation, quantifiers, modality, exclusivity.
	f[15] = b2f(c.negs > 0 && p.negs == 0)
	f[16] = b2f(c.negs == 0 && p.negs > 0)
	f[17] = b2f(c.negs > 0 && p.negs > 0)
	f[18] = b2f((c.negs+p.negs)%2 == 1)
	f[19] = b2f(c.quant > 0 && c.quant > p.quant)
	f[20] = b2f(p.quant > 0 && c.quant > 0 && p.quant > c.quant)
	f[21] = b2f(c.quant > 0 && p.quant == 0)
	f[22] = b2f(p.hedged && !c.hedged)
	f[23] = b2f(c.hedged && !p.hedged)
	f[24] = b2f(c.excl && !p.excl)
	f[25] = b2f(antonymAny)
	f[26] = b2f(antonymUnmatched)

	// Numbers, dates and units, compared by package quantity.
	const q = 27
	nc := quantity.Compare(c.raw, p.raw)
	f[q] = b2f(nc.Applicable)
	f[q+1] = b2f(nc.Applicable && nc.OK)
	f[q+2] = b2f(nc.Applicable && !nc.OK)
	findings := quantity.Check(c.raw, p.raw)
	conflicts, agrees, notCompared := 0, 0, 0
	for _, fd := range findings {
		switch fd.Outcome {
		case quantity.Conflicts:
			conflicts++
			if fd.Claim.Kind == quantity.Year || fd.Claim.Kind == quantity.Date {
				f[q+6] = 1
			}
		case quantity.Agrees:
			agrees++
		case quantity.Unsettled:
			f[q+5] = 1
		case quantity.NotCompared:
			notCompared++
		}
	}
	f[q+3] = math.Log1p(float64(conflicts))
	f[q+4] = math.Log1p(float64(agrees))
	f[q+7] = b2f(len(findings) > 0 && notCompared == len(findings))

	const v = q + 8
	rel := vectorFeatures(c, p, uniq, f[v:v+5], func(s string) float64 { return idf(s) / maxIDF })

	// A word both sides share, negated on one side only.
	for _, s := range uniq {
		if p.stems[s] && c.negated[s] != p.negated[s] {
			f[v+5] = 1
		}
	}
	return f, rel
}

// vectorFeatures aligns each claim content word with the passage content
// word of highest cosine similarity. An exact stem match aligns at 1, a
// word the table does not know and the passage does not contain at 0.
func vectorFeatures(c, p *text, uniq []string, scalars []float64, relIDF func(string) float64) [][]float32 {
	if len(uniq) == 0 {
		scalars[0], scalars[1] = 1, 1
		return nil
	}
	var rel [][]float32
	pstems := make([]string, 0, len(p.vecs))
	for s := range p.vecs {
		pstems = append(pstems, s)
	}
	// Map order must not change the result: ties between passage words
	// go to the smaller stem.
	sort.Strings(pstems)
	sum, minSim := 0.0, 1.0
	var unmatchedSum float64
	unmatchedN, similar, far := 0, 0, 0
	for _, s := range uniq {
		if p.stems[s] {
			sum++
			continue
		}
		u, ok := c.vecs[s]
		best, bestStem := 0.0, ""
		if ok {
			for _, ps := range pstems {
				if d := dot(u, p.vecs[ps]); d > best {
					best, bestStem = d, ps
				}
			}
		}
		sum += best
		minSim = math.Min(minSim, best)
		if best < 0.3 {
			far++
		}
		if bestStem == "" {
			continue
		}
		if best >= 0.6 {
			similar++
		}
		unmatchedN++
		unmatchedSum += best
		v := p.vecs[bestStem]
		r := make([]float32, relDim)
		for j := range vecDim {
			r[j] = vecDim * u[j] * v[j]
			r[vecDim+j] = float32(math.Sqrt(vecDim)) * float32(math.Abs(float64(u[j]-v[j])))
		}
		r[2*vecDim] = float32(best)
		r[2*vecDim+1] = float32(relIDF(s))
		r[2*vecDim+2] = float32(b2f(c.negated[s]))
		r[2*vecDim+3] = float32(b2f(p.negated[bestStem]))
		rel = append(rel, r)
	}
	scalars[0] = sum / float64(len(uniq))
	scalars[1] = minSim
	if unmatchedN > 0 {
		scalars[2] = unmatchedSum / float64(unmatchedN)
	}
	scalars[3] = math.Log1p(float64(similar))
	scalars[4] = math.Log1p(float64(far))
	return rel
}

func unit(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		return v
	}
	inv := float32(1 / math.Sqrt(n))
	for i := range v {
		v[i] *= inv
	}
	return v
}

func dot(a, b []float32) float64 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return float64(s)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func uniqueStrings(xs []string) []string {
	seen := make(map[string]bool, len(xs))
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// fuzzyIn reports whether a passage stem shares a prefix of at least five
// letters with s ("canada"/"canadian"), a cheap stand-in for derivation.
func fuzzyIn(s string, stems map[string]bool) bool {
	if len(s) < 5 {
		return false
	}
	for p := range stems {
		if len(p) >= 5 && p[:5] == s[:5] {
			return true
		}
	}
	return false
}

func bigramCoverage(c, p []string) float64 {
	if len(c) < 2 {
		return b2f(len(c) == 0 || (len(c) == 1 && contains(p, c[0])))
	}
	pb := map[[2]string]bool{}
	for i := 0; i+1 < len(p); i++ {
		pb[[2]string{p[i], p[i+1]}] = true
	}
	hit := 0
	for i := 0; i+1 < len(c); i++ {
		if pb[[2]string{c[i], c[i+1]}] {
			hit++
		}
	}
	return float64(hit) / float64(len(c)-1)
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// lcs is the length of the longest common subsequence of a and b.
func lcs(a, b []string) int {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(cur[j], prev[j+1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// containsSeq reports whether the claim's words appear contiguously in the
// passage.
func containsSeq(p, c []token) bool {
outer:
	for i := 0; i+len(c) <= len(p); i++ {
		for j := range c {
			if p[i+j].Stem != c[j].Stem {
				continue outer
			}
		}
		return true
	}
	return false
}

// quantIdiom reports whether the quantifier toks[i] is part of an idiom
// that quantifies nothing: "each other", "after all", "at all".
func quantIdiom(toks []token, i int) bool {
	w := toks[i].Lower
	next, prev := "", ""
	if i+1 < len(toks) {
		next = toks[i+1].Lower
	}
	if i > 0 {
		prev = toks[i-1].Lower
	}
	return w == "each" && next == "other" || w == "all" && (prev == "after" || prev == "at")
}
