package nli

import (
	"math"
	"sort"
	"strconv"
	"strings"

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
	nums   []number
}

// number is a figure in a text with the bound written before it: +1 for
// "more than 5" (a lower bound), -1 for "under 5", 0 for plain.
type number struct {
	val   float64
	bound int
	year  bool
}

// MaxTextBytes bounds the text analysed for one claim or passage; longer
// texts are cut (at a character boundary). 32 KiB is far more than the
// maxTokens words that are looked at.
const MaxTextBytes = 32 << 10

func analyse(s string) *text {
	if len(s) > MaxTextBytes {
		s = strings.ToValidUTF8(s[:MaxTextBytes], "")
	}
	t := &text{toks: tokenize(s), stems: map[string]bool{}, lowers: map[string]bool{}, vecs: map[string][]float32{}}
	table := wordvec.Default()
	for i, tk := range t.toks {
		t.lowers[tk.lower] = true
		t.stems[tk.stem] = true
		if negations[tk.lower] {
			t.negs++
		}
		if q := quantLevel[tk.lower]; q > t.quant {
			t.quant = q
		}
		if hedges[tk.lower] {
			t.hedged = true
		}
		if exclusives[tk.lower] {
			t.excl = true
		}
		val, isNum := numberValue(tk)
		if isNum {
			n := number{val: val, year: tk.num && !tk.sep && val >= 1000 && val <= 2100 && !strings.Contains(tk.lower, ".")}
			for k := i - 1; k >= 0 && k >= i-3; k-- {
				w := t.toks[k].lower
				if lowerBound[w] {
					n.bound = 1
					break
				}
				if upperBound[w] {
					n.bound = -1
					break
				}
			}
			// A scale word right after a figure multiplies it: "2.5 million".
			if i+1 < len(t.toks) {
				if sc, ok := scales[t.toks[i+1].lower]; ok && tk.num {
					n.val *= sc
					n.year = false
				}
			}
			if _, isScale := scales[tk.lower]; isScale && i > 0 && t.toks[i-1].num {
				continue
			}
			t.nums = append(t.nums, n)
			continue
		}
		if !stopwords[tk.lower] && !negations[tk.lower] && quantLevel[tk.lower] == 0 && !hedges[tk.lower] && len(tk.lower) > 1 {
			t.content = append(t.content, tk.stem)
			if _, ok := t.vecs[tk.stem]; !ok {
				if v, ok := table.Vector(tk.lower); ok {
					t.vecs[tk.stem] = unit(v)
				}
			}
		}
	}
	return t
}

var scales = map[string]float64{"hundred": 100, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}

func numberValue(tk token) (float64, bool) {
	s := tk.lower
	if !tk.num {
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
	"num_applicable", "num_ok", "num_fail", "num_approx", "year_fail", "num_claim_unmatched_no_passage_nums",
	"vec_align_mean", "vec_align_min", "vec_unmatched_best_mean", "vec_unmatched_similar_log", "vec_unmatched_far_log",
}

// vecDim is the word-vector dimension; the feature vector ends with the
// mean element-wise product and the mean absolute difference of each
// unmatched claim word's vector and its best-aligned passage word's, which
// lets the network learn which substitutions are paraphrase and which
// contradict (cat/dog, won/lost).
const vecDim = 100

// numFeatures is the length of the feature vector.
var numFeatures = len(featureNames) + 2*vecDim

// featureSchema names the model's inputs for the model file: the scalar
// features and the vector block.
func featureSchema() []string {
	return append(append([]string{}, featureNames...), "vec_prod[100]", "vec_absdiff[100]")
}

// features returns the feature vector of (claim, passage); idf gives a
// stem's inverse document frequency, unknown stems getting maxIDF.
func features(c, p *text, idf func(string) float64, maxIDF float64) []float64 {
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
		if !tk.cap || stopwords[tk.lower] || seen[tk.lower] {
			continue
		}
		seen[tk.lower] = true
		caps++
		if !p.lowers[tk.lower] && !p.stems[tk.stem] {
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

	// Numbers and dates.
	nc := compareNumbers(c.nums, p.nums)
	f[27] = b2f(nc.applicable)
	f[28] = b2f(nc.applicable && nc.ok)
	f[29] = b2f(nc.applicable && !nc.ok)
	f[30] = b2f(nc.approx)
	f[31] = b2f(nc.yearFail)
	f[32] = b2f(len(c.nums) > 0 && len(p.nums) == 0)

	vectorFeatures(c, p, uniq, f[33:38], f[len(featureNames):])
	return f
}

// vectorFeatures aligns each claim content word with the passage content
// word of highest cosine similarity. An exact stem match aligns at 1, a
// word the table does not know and the passage does not contain at 0.
func vectorFeatures(c, p *text, uniq []string, scalars, dense []float64) {
	if len(uniq) == 0 {
		scalars[0], scalars[1] = 1, 1
		return
	}
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
		for j := range vecDim {
			dense[j] += float64(u[j] * v[j])
			dense[vecDim+j] += math.Abs(float64(u[j] - v[j]))
		}
	}
	scalars[0] = sum / float64(len(uniq))
	scalars[1] = minSim
	if unmatchedN > 0 {
		scalars[2] = unmatchedSum / float64(unmatchedN)
		for j := range dense {
			dense[j] /= float64(unmatchedN)
		}
	}
	scalars[3] = math.Log1p(float64(similar))
	scalars[4] = math.Log1p(float64(far))
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

type numCompare struct {
	applicable, ok, approx, yearFail bool
}

// compareNumbers checks each claim figure against the passage's figures of
// the same kind (years with years, other figures with other figures). A
// plain claim figure agrees with a passage figure within 2%; "more than X"
// agrees with a passage figure above X (or "more than" a figure >= X), and
// "under X" with one below X. The check applies when the passage has a
// figure of the kind, and is ok when every applicable claim figure agrees.
func compareNumbers(cn, pn []number) numCompare {
	var r numCompare
	r.ok = true
	for _, x := range cn {
		var candidates []number
		for _, y := range pn {
			if y.year == x.year {
				candidates = append(candidates, y)
			}
		}
		if len(candidates) == 0 {
			continue
		}
		r.applicable = true
		agree := false
		for _, y := range candidates {
			if numbersAgree(x, y) {
				agree = true
				break
			}
			if x.bound == 0 && y.bound == 0 && !x.year && math.Abs(x.val-y.val) <= 0.1*math.Abs(x.val) {
				r.approx = true
			}
		}
		if !agree {
			r.ok = false
			if x.year {
				r.yearFail = true
			}
		}
	}
	if !r.applicable {
		r.ok = false
	}
	return r
}

func numbersAgree(x, y number) bool {
	near := math.Abs(x.val-y.val) <= 0.02*math.Abs(x.val)
	if x.year {
		near = x.val == y.val
	}
	switch x.bound {
	case 0:
		return near
	case 1:
		return y.val > x.val || (near && y.bound >= 0)
	default:
		return y.val < x.val || (near && y.bound <= 0)
	}
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
			if p[i+j].stem != c[j].stem {
				continue outer
			}
		}
		return true
	}
	return false
}
