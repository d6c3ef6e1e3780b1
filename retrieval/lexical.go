package retrieval

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/verity-fc/verity/evidence"
	txt "github.com/verity-fc/verity/text"
)

// The embedded store's full-text side is an inverted index of its own
// (lexIndex) rather than SQLite's FTS5 or a search library:
//
//   - FTS5's bm25() ranks every row that matches a term of the query (about
//     1.7 us a row; a claim's common words match 5-15% of a large corpus),
//     so its cost grows with the corpus; leaving the commonest terms out
//     (the store's former bound of 20,000 ranked rows) bounds it but still
//     cost 20-35 ms a query at 1M passages and drops matches.
//   - Bleve (the well-kept Go library with BM25) keeps its own store of
//     every document, so the passages would be written twice at ingest
//     (SQLite stays the record that must survive a crash), with a second
//     crash-recovery story to keep in step; it was not measured here.
//   - An index of posting lists in blocks of lexBlock with a bound per block
//     lets a top-k search (MaxScore: Turtle and Flood, 1995, with block
//     bounds as in block-max WAND: Ding and Suel, 2011) skip the postings of
//     common terms that cannot lift a passage into the top k: about 0.5 ms a
//     claim at 100,000 passages and 2 ms at 1M. It is about 500 lines,
//     written in the same form as the dense index: a segment mapped from a
//     snapshot beside the database plus the writes since on the heap, and
//     rebuilt from the database when the snapshot is stale.
//
// Ranking is Okapi BM25 as FTS5 computes it (k1 1.2, b 0.75, idf
// log((N-df+0.5)/(df+0.5)) and at least 1e-6, a passage's length counting
// every word of its text and title) over the Porter2 stems of the content
// words of the text and title, a title word counting half a text word as in
// the store's former bm25(passages_fts, 1.0, 0.5). Words are split as
// FTS5's unicode61 tokenizer splits them (text.Words), the content words
// are text.SearchTerm's, and they are stemmed by the Snowball stemmer alone
// (text.Porter2): text.Stem, which also maps irregular forms together
// ("won" to "win"), lowered SciFact's BM25 recall@20 from 0.964 (FTS5's
// figure, matched) to 0.963.

// lexBlock is the number of postings a block of a posting list holds.
const lexBlock = 128

// lexPosting is one passage (a doc number of the index) holding a term,
// with the term's weighted frequency in half-words (a text word counts 2,
// a title word 1), at most 255.
type lexPosting struct {
	doc uint32
	tf  uint8
}

// lexDoc is a passage analysed for the index: its distinct stems, in the
// order they first appear, with their weighted frequencies, in half-words,
// and its length in half-words.
type lexDoc struct {
	terms  []string
	tfs    []uint8
	length uint32
}

// analyze returns the stems of the content words of a passage's text and
// title (the words its queries are made of: text.SearchTerm) with their
// counts.
func analyze(body, title string) lexDoc {
	a := getAnalyzer()
	defer putAnalyzer(a)
	return a.analyze(body, title)
}

// analyzer analyses passages for the index. It remembers the words it met
// with their stems (the shared cache, stemWord, costs more a lookup) and
// reuses its buffers: the analysis is a sixth of the CPU of ingesting a
// short passage. It is not safe for concurrent use.
type analyzer struct {
	// ids maps a lower-case content word to the index of its stem in
	// stems; stemIDs maps a stem to its index.
	ids     map[string]int32
	stemIDs map[string]int32
	stems   []string
	// counts holds the weighted count of each stem in the passage at hand,
	// touched the stems counted.
	counts  []int
	touched []int32
	buf     []byte
	length  int
}

// analyzerWords bounds the words an analyzer remembers; past it, it
// forgets them all.
const analyzerWords = 1 << 17

// analyzers are the idle analyzers, with the words they remember; a
// sync.Pool would drop them at every other garbage collection.
var analyzers struct {
	mu   sync.Mutex
	idle []*analyzer
}

func getAnalyzer() *analyzer {
	analyzers.mu.Lock()
	defer analyzers.mu.Unlock()
	if n := len(analyzers.idle); n > 0 {
		a := analyzers.idle[n-1]
		analyzers.idle = analyzers.idle[:n-1]
		return a
	}
	return &analyzer{ids: map[string]int32{}, stemIDs: map[string]int32{}}
}

func putAnalyzer(a *analyzer) {
	analyzers.mu.Lock()
	defer analyzers.mu.Unlock()
	if len(analyzers.idle) < 2*runtime.GOMAXPROCS(0) {
		analyzers.idle = append(analyzers.idle, a)
	}
}

// analyze is the package's analyze with a's memory.
func (a *analyzer) analyze(body, title string) lexDoc {
	if len(a.ids) >= analyzerWords {
		clear(a.ids)
		clear(a.stemIDs)
		a.stems, a.counts = a.stems[:0], a.counts[:0]
	}
	a.length = 0
	a.add(body, 2)
	a.add(title, 1)
	d := lexDoc{terms: make([]string, len(a.touched)), tfs: make([]uint8, len(a.touched)), length: uint32(min(a.length, math.MaxUint32))}
	for i, id := range a.touched {
		d.terms[i] = a.stems[id]
		d.tfs[i] = uint8(min(a.counts[id], math.MaxUint8))
		a.counts[id] = 0
	}
	a.touched = a.touched[:0]
	return d
}

// add counts the words of s with weight w, without allocating a word for
// ASCII text (text.EachWord).
func (a *analyzer) add(s string, w int) {
	a.buf = txt.EachWord(s, a.buf, func(word []byte) { a.word(word, w) })
}

// word counts one lower-case word (a run of letters and digits) with
// weight w.
func (a *analyzer) word(word []byte, w int) {
	a.length += 2
	// The stop words first: they are many of the words, and their table
	// is small.
	if !txt.SearchTerm(string(word)) {
		return
	}
	id, ok := a.ids[string(word)]
	if !ok {
		st := txt.Porter2(string(word))
		if id, ok = a.stemIDs[st]; !ok {
			id = int32(len(a.stems))
			a.stemIDs[st] = id
			a.stems = append(a.stems, st)
			a.counts = append(a.counts, 0)
		}
		a.ids[string(word)] = id
	}
	if a.counts[id] == 0 {
		a.touched = append(a.touched, id)
	}
	a.counts[id] += w
}

// queryStems returns the distinct stems of the search terms of a query.
func queryStems(q string) []string {
	var out []string
	for _, t := range txt.SearchTerms(q, maxQueryTerms) {
		if s := txt.Porter2(t); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// lexSegment is an immutable part of the index: documents in rid order,
// terms sorted, each term's postings in doc order, in blocks of lexBlock
// with the largest tf and the shortest length of each block. Its arrays
// may point into a mapped snapshot (see lexical_snapshot.go).
type lexSegment struct {
	rids []int64  // doc -> rid, ascending
	lens []uint32 // doc -> length in half-words

	termOffs  []uint32 // term i is termBytes[termOffs[i]:termOffs[i+1]]
	termBytes []byte
	// Term i's postings are [postOffs[i], postOffs[i+1]), in blocks
	// [blockOffs[i], blockOffs[i+1]) of the block arrays: block j of term
	// i starts at posting postOffs[i]+(j-blockOffs[i])*lexBlock.
	postOffs    []uint32
	blockOffs   []uint32
	docs        []uint32
	tfs         []uint8
	blockLast   []uint32 // last doc of the block
	blockMaxTF  []uint8
	blockMinLen []uint32

	mapped *mapping
}

func (s *lexSegment) terms() int { return max(len(s.termOffs)-1, 0) }

func (s *lexSegment) term(i int) string {
	return string(s.termBytes[s.termOffs[i]:s.termOffs[i+1]])
}

// find returns the index of term t, or -1.
func (s *lexSegment) find(t string) int {
	n := s.terms()
	i := sort.Search(n, func(i int) bool { return string(s.termBytes[s.termOffs[i]:s.termOffs[i+1]]) >= t })
	if i < n && s.term(i) == t {
		return i
	}
	return -1
}

// postings returns the postings range of term i and its first block.
func (s *lexSegment) postings(i int) (lo, hi, block int) {
	return int(s.postOffs[i]), int(s.postOffs[i+1]), int(s.blockOffs[i])
}

// lexIndex is the full-text index of the embedded store: a base segment,
// usually mapped from the snapshot, with a bitmap of its deleted docs, and
// the passages written since, on the heap, searched exhaustively (they are
// few in a serving process; a process that writes many does not search
// much). A snapshot merges both into one segment.
//
// It is not safe for concurrent use; Embedded guards it.
type lexIndex struct {
	base     *lexSegment
	baseDead []uint64

	dRids  []int64
	dLens  []uint32
	dDead  []bool
	dPost  map[string][]lexPosting
	dByRID map[int64]uint32

	live     int
	totalLen int64 // of live docs
	deleted  int   // deleted docs still in the index
}

func newLexIndex() *lexIndex {
	return &lexIndex{base: &lexSegment{}, dPost: map[string][]lexPosting{}, dByRID: map[int64]uint32{}}
}

func (x *lexIndex) close() {
	if x.base.mapped != nil {
		x.base.mapped.close()
		x.base.mapped = nil
	}
}

func (x *lexIndex) baseIsDead(doc uint32) bool { return x.baseDead[doc/64]&(1<<(doc%64)) != 0 }

// put indexes the passage of rid, replacing what it held before.
func (x *lexIndex) put(rid int64, d lexDoc) {
	x.delete(rid)
	doc := uint32(len(x.dRids))
	x.dRids = append(x.dRids, rid)
	x.dLens = append(x.dLens, d.length)
	x.dDead = append(x.dDead, false)
	x.dByRID[rid] = doc
	for i, t := range d.terms {
		x.dPost[t] = append(x.dPost[t], lexPosting{doc: doc, tf: d.tfs[i]})
	}
	x.live++
	x.totalLen += int64(d.length)
}

// delete removes the passage of rid, when indexed.
func (x *lexIndex) delete(rid int64) {
	if doc, ok := x.dByRID[rid]; ok {
		delete(x.dByRID, rid)
		x.dDead[doc] = true
		x.live--
		x.deleted++
		x.totalLen -= int64(x.dLens[doc])
		return
	}
	if i, ok := slices.BinarySearch(x.base.rids, rid); ok && !x.baseIsDead(uint32(i)) {
		x.baseDead[i/64] |= 1 << (i % 64)
		x.live--
		x.deleted++
		x.totalLen -= int64(x.base.lens[i])
	}
}

// Okapi BM25 constants (bm25K1, bm25B) are shared with the Qdrant store's
// sparse vectors (qdrant_sparse.go).

// idf is BM25's inverse document frequency as FTS5 computes it.
func idf(n, df int) float64 {
	v := math.Log((float64(n) - float64(df) + 0.5) / (float64(df) + 0.5))
	if v <= 0 {
		return 1e-6
	}
	return v
}

// lexScorer scores one term's postings for a query.
type lexScorer struct {
	idf    float64
	invAvg float64 // 1 / average length
}

// score is the term's BM25 contribution to a passage of length l (half
// words) holding it tf half-words.
func (s lexScorer) score(tf uint8, l uint32) float64 {
	f := float64(tf) / 2
	return s.idf * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*float64(l)*s.invAvg))
}

// lexCursor walks one term's postings in the base segment.
type lexCursor struct {
	seg    *lexSegment
	sc     lexScorer
	pos    int // index into seg.docs
	lo, hi int
	block0 int     // the block of posting lo
	ub     float64 // bound of the term's score over its postings
}

func (c *lexCursor) doc() uint32 {
	if c.pos >= c.hi {
		return math.MaxUint32
	}
	return c.seg.docs[c.pos]
}

// block returns the block of the cursor's position.
func (c *lexCursor) block() int { return c.block0 + (c.pos-c.lo)/lexBlock }

// seek moves to the first posting at or after doc, skipping whole blocks
// by their last doc.
func (c *lexCursor) seek(doc uint32) {
	if c.pos >= c.hi || c.seg.docs[c.pos] >= doc {
		return
	}
	b := c.block()
	last := c.block0 + (c.hi-1-c.lo)/lexBlock
	for b <= last && c.seg.blockLast[b] < doc {
		b++
	}
	if b > last {
		c.pos = c.hi
		return
	}
	c.pos = max(c.pos, c.lo+(b-c.block0)*lexBlock)
	for c.pos < c.hi && c.seg.docs[c.pos] < doc {
		c.pos++
	}
}

// blockBound is the bound of the term's score in the block of the cursor's
// position.
func (c *lexCursor) blockBound() float64 {
	b := c.block()
	return c.sc.score(c.seg.blockMaxTF[b], c.seg.blockMinLen[b])
}

// search returns the n passages with the highest BM25 score for the stems
// among those keep accepts (nil keeps all), best first, ties by rid.
func (x *lexIndex) search(stems []string, n int, keep func(rid int64) bool) []scored {
	if n <= 0 || x.live == 0 || len(stems) == 0 {
		return nil
	}
	invAvg := float64(x.live) / float64(max(x.totalLen, 1))
	top := make(minHeap, 0, n)
	offer := func(rid int64, s float64) {
		if keep == nil || keep(rid) {
			top.offer(scored{rid: rid, score: s}, n)
		}
	}
	var cursors []*lexCursor
	// The passages written since the snapshot: every posting.
	acc := map[uint32]float64{}
	for _, t := range stems {
		bi := x.base.find(t)
		var lo, hi, block int
		if bi >= 0 {
			lo, hi, block = x.base.postings(bi)
		}
		dp := x.dPost[t]
		df := hi - lo + len(dp)
		if df == 0 {
			continue
		}
		sc := lexScorer{idf: idf(x.live+x.deleted, df), invAvg: invAvg}
		for _, p := range dp {
			if !x.dDead[p.doc] {
				acc[p.doc] += sc.score(p.tf, x.dLens[p.doc])
			}
		}
		if hi > lo {
			c := &lexCursor{seg: x.base, sc: sc, pos: lo, lo: lo, hi: hi, block0: block}
			for b := block; b <= block+(hi-1-lo)/lexBlock; b++ {
				c.ub = max(c.ub, sc.score(x.base.blockMaxTF[b], x.base.blockMinLen[b]))
			}
			cursors = append(cursors, c)
		}
	}
	for doc, s := range acc {
		offer(x.dRids[doc], s)
	}
	x.maxScore(cursors, n, &top, offer)
	return top.sorted()
}

// maxScore ranks the base segment's postings under the cursors by MaxScore:
// with the terms in increasing order of their bound, the longest prefix
// whose bounds add up to less than the score to beat (the n-th best so
// far) is non-essential: a passage holding only those terms cannot enter
// the top n, so candidates come from the essential terms' postings alone,
// and a candidate's non-essential terms are looked up (skipping blocks)
// only while its score could still beat the n-th, with the bound of the
// block it falls in.
func (x *lexIndex) maxScore(cursors []*lexCursor, n int, top *minHeap, offer func(int64, float64)) {
	if len(cursors) == 0 {
		return
	}
	slices.SortFunc(cursors, func(a, b *lexCursor) int { return cmp.Compare(a.ub, b.ub) })
	prefix := make([]float64, len(cursors))
	sum := 0.0
	for i, c := range cursors {
		sum += c.ub
		prefix[i] = sum
	}
	threshold := func() float64 {
		if top.Len() < n {
			return -1
		}
		return (*top)[0].score
	}
	seg := x.base
	ndocs := uint32(len(seg.rids))
	parts := make([]float64, len(cursors))
	ess := 0 // cursors[ess:] are essential
	for {
		theta := threshold()
		for ess < len(cursors) && prefix[ess] < theta {
			ess++
		}
		if ess == len(cursors) {
			return
		}
		doc := uint32(math.MaxUint32)
		for _, c := range cursors[ess:] {
			doc = min(doc, c.doc())
		}
		if doc == math.MaxUint32 {
			return
		}
		// s is the running score for the bounds; parts holds each term's
		// share, added in one order at the end so that passages holding
		// the same terms alike score exactly alike however they were
		// reached.
		s := 0.0
		clear(parts)
		for i, c := range cursors[ess:] {
			if c.pos < c.hi && seg.docs[c.pos] == doc {
				if doc < ndocs {
					parts[ess+i] = c.sc.score(seg.tfs[c.pos], seg.lens[doc])
					s += parts[ess+i]
				}
				c.pos++
			}
		}
		if doc >= ndocs || x.baseIsDead(doc) {
			continue // a deleted passage, or a corrupt posting
		}
		for i := ess - 1; i >= 0; i-- {
			if s+prefix[i] < theta {
				break
			}
			c := cursors[i]
			c.seek(doc)
			if c.pos >= c.hi || seg.docs[c.pos] != doc {
				continue
			}
			lower := 0.0
			if i > 0 {
				lower = prefix[i-1]
			}
			if s+lower+c.blockBound() < theta {
				break
			}
			parts[i] = c.sc.score(seg.tfs[c.pos], seg.lens[doc])
			s += parts[i]
		}
		if top.Len() < n || s >= theta {
			s = 0
			for _, p := range parts {
				s += p
			}
			offer(seg.rids[doc], s)
		}
	}
}

// analyzeAll analyses passages for the index on every CPU.
func analyzeAll(passages []evidence.Passage) []lexDoc {
	docs := make([]lexDoc, len(passages))
	workers := min(runtime.GOMAXPROCS(0), (len(passages)+63)/64)
	if workers <= 1 {
		a := getAnalyzer()
		defer putAnalyzer(a)
		for i, p := range passages {
			docs[i] = a.analyze(p.Text, p.Title)
		}
		return docs
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			a := getAnalyzer()
			defer putAnalyzer(a)
			for i := w; i < len(passages); i += workers {
				docs[i] = a.analyze(passages[i].Text, passages[i].Title)
			}
		})
	}
	wg.Wait()
	return docs
}

// rebuildLex reads every passage's text into a new full-text index.
func (e *Embedded) rebuildLex(ctx context.Context) (*lexIndex, error) {
	x := newLexIndex()
	rows, err := e.db.QueryContext(ctx, "SELECT rid, text, title FROM passages ORDER BY rid")
	if err != nil {
		return nil, fmt.Errorf("load passage text: %w", err)
	}
	defer rows.Close()
	var batch []evidence.Passage
	var rids []int64
	flush := func() {
		for i, d := range analyzeAll(batch) {
			x.put(rids[i], d)
		}
		batch, rids = batch[:0], rids[:0]
	}
	for rows.Next() {
		var rid int64
		var p evidence.Passage
		if err := rows.Scan(&rid, &p.Text, &p.Title); err != nil {
			return nil, fmt.Errorf("load passage text: %w", err)
		}
		batch, rids = append(batch, p), append(rids, rid)
		if len(batch) == 4096 {
			flush()
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load passage text: %w", err)
	}
	flush()
	return x, nil
}
