package retrieval

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
)

// The full-text snapshot ("<path>.bm25") is the lexIndex merged into one
// segment at a write generation of the database, like the dense snapshot
// (see snapshot.go): a snapshot of another generation, or one that does not
// read back, is ignored and the index is rebuilt from the passages' text.
//
// Layout, little-endian, every section starting at a multiple of 8 bytes:
// a header of 8 int64 (magic, version, generation, docs, terms, postings,
// blocks, term bytes), then rids, lens, termOffs, termBytes, postOffs,
// blockOffs, docs, tfs, blockLast, blockMaxTF, blockMinLen.

const (
	lexMagic   = 0x31354d42_59545256 // "VRTYBM51" read as a little-endian int64
	lexVersion = 2
	lexHeader  = 8 * 8
)

// merged returns the live passages of x as one segment, docs in rid order:
// every live passage renumbered and every posting rebuilt.
func (x *lexIndex) merged() (*lexSegment, error) {
	type src struct {
		rid  int64
		base bool
		doc  uint32
	}
	all := make([]src, 0, x.live)
	for i, rid := range x.base.rids {
		if !x.baseIsDead(uint32(i)) {
			all = append(all, src{rid, true, uint32(i)})
		}
	}
	for i, rid := range x.dRids {
		if !x.dDead[i] {
			all = append(all, src{rid, false, uint32(i)})
		}
	}
	slices.SortFunc(all, func(a, b src) int { return cmp.Compare(a.rid, b.rid) })
	if len(all) >= math.MaxUint32 {
		return nil, fmt.Errorf("%d passages; the full-text index holds fewer than 2^32", len(all))
	}
	const none = math.MaxUint32
	baseMap := make([]uint32, len(x.base.rids))
	deltaMap := make([]uint32, len(x.dRids))
	for i := range baseMap {
		baseMap[i] = none
	}
	for i := range deltaMap {
		deltaMap[i] = none
	}
	s := &lexSegment{rids: make([]int64, len(all)), lens: make([]uint32, len(all)), termOffs: []uint32{0}, postOffs: []uint32{0}, blockOffs: []uint32{0}}
	for n, a := range all {
		s.rids[n] = a.rid
		if a.base {
			baseMap[a.doc] = uint32(n)
			s.lens[n] = x.base.lens[a.doc]
		} else {
			deltaMap[a.doc] = uint32(n)
			s.lens[n] = x.dLens[a.doc]
		}
	}
	dterms := make([]string, 0, len(x.dPost))
	for t := range x.dPost {
		dterms = append(dterms, t)
	}
	slices.Sort(dterms)
	var ps []lexPosting
	emit := func(t string) error {
		slices.SortFunc(ps, func(a, b lexPosting) int { return int(int64(a.doc) - int64(b.doc)) })
		if len(ps) == 0 {
			return nil
		}
		s.termBytes = append(s.termBytes, t...)
		if len(s.termBytes) > math.MaxUint32 || len(s.docs)+len(ps) > math.MaxUint32 {
			return errors.New("the full-text index outgrew its 32-bit offsets")
		}
		s.termOffs = append(s.termOffs, uint32(len(s.termBytes)))
		for start := 0; start < len(ps); start += lexBlock {
			blk := ps[start:min(start+lexBlock, len(ps))]
			var maxTF uint8
			minLen := uint32(math.MaxUint32)
			for _, p := range blk {
				s.docs = append(s.docs, p.doc)
				s.tfs = append(s.tfs, p.tf)
				maxTF = max(maxTF, p.tf)
				minLen = min(minLen, s.lens[p.doc])
			}
			s.blockLast = append(s.blockLast, blk[len(blk)-1].doc)
			s.blockMaxTF = append(s.blockMaxTF, maxTF)
			s.blockMinLen = append(s.blockMinLen, minLen)
		}
		s.postOffs = append(s.postOffs, uint32(len(s.docs)))
		s.blockOffs = append(s.blockOffs, uint32(len(s.blockLast)))
		return nil
	}
	bi, di := 0, 0
	nb := x.base.terms()
	for bi < nb || di < len(dterms) {
		var t string
		switch {
		case di == len(dterms) || (bi < nb && x.base.term(bi) < dterms[di]):
			t = x.base.term(bi)
		default:
			t = dterms[di]
		}
		ps = ps[:0]
		if bi < nb && x.base.term(bi) == t {
			lo, hi, _ := x.base.postings(bi)
			for j := lo; j < hi; j++ {
				if d := baseMap[x.base.docs[j]]; d != none {
					ps = append(ps, lexPosting{doc: d, tf: x.base.tfs[j]})
				}
			}
			bi++
		}
		if di < len(dterms) && dterms[di] == t {
			for _, p := range x.dPost[t] {
				if d := deltaMap[p.doc]; d != none {
					ps = append(ps, lexPosting{doc: d, tf: p.tf})
				}
			}
			di++
		}
		if err := emit(t); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// writeLexSnapshot writes x merged as the snapshot of generation gen to
// path, atomically.
func writeLexSnapshot(path string, x *lexIndex, gen int64) error {
	if !littleEndian {
		return errors.New("snapshots need a little-endian machine")
	}
	if a := x.appended(); a != nil {
		return a.write(path, gen)
	}
	s, err := x.merged()
	if err != nil {
		return err
	}
	hdr := []int64{lexMagic, lexVersion, gen, int64(len(s.rids)), int64(s.terms()), int64(len(s.docs)), int64(len(s.blockLast)), int64(len(s.termBytes))}
	return writeSections(path, [][]byte{bytesOf(hdr), bytesOf(s.rids), bytesOf(s.lens), bytesOf(s.termOffs), s.termBytes,
		bytesOf(s.postOffs), bytesOf(s.blockOffs), bytesOf(s.docs), s.tfs, bytesOf(s.blockLast), s.blockMaxTF, bytesOf(s.blockMinLen)})
}

// lexAppend is the merge of an index that only gained passages since its
// snapshot, as ingest leaves it: no passage deleted or replaced, every new
// rid after the base's. The base's docs keep their numbers and the new ones
// follow, so each term's postings and blocks are the base's, then the new
// ones (the base's last block recomputed with them), and the snapshot is
// written straight from the base and the new postings: no merged segment is
// built (at a million passages, half a gigabyte on the heap at every close
// of an ingest) and no posting of the base is decoded.
type lexAppend struct {
	x *lexIndex
	// terms is the merged term list: the base's term index (-1 when only
	// new passages hold it) and whether new passages hold it.
	terms []lexAppendTerm
	// termOffs, postOffs and blockOffs are the merged segment's.
	termOffs, postOffs, blockOffs []uint32
	// docs to minLn are tail's scratch.
	docs  []uint32
	tfs   []uint8
	last  []uint32
	maxTF []uint8
	minLn []uint32
}

type lexAppendTerm struct {
	t     string
	base  int
	delta bool
}

// appended returns the append merge of x, or nil when x is not such an
// index.
func (x *lexIndex) appended() *lexAppend {
	nb := len(x.base.rids)
	if x.deleted != 0 || len(x.dRids) == 0 || nb+len(x.dRids) >= math.MaxUint32 {
		return nil
	}
	for i, rid := range x.dRids {
		if (i == 0 && nb > 0 && rid <= x.base.rids[nb-1]) || (i > 0 && rid <= x.dRids[i-1]) {
			return nil
		}
	}
	a := &lexAppend{x: x}
	dterms := make([]string, 0, len(x.dPost))
	for t := range x.dPost {
		dterms = append(dterms, t)
	}
	slices.Sort(dterms)
	base := x.base
	bi, di, nt := 0, 0, base.terms()
	n := nt + len(dterms) + 1
	a.terms = make([]lexAppendTerm, 0, n)
	a.termOffs, a.postOffs, a.blockOffs = make([]uint32, 1, n), make([]uint32, 1, n), make([]uint32, 1, n)
	var tb, posts, blocks int
	for bi < nt || di < len(dterms) {
		var at lexAppendTerm
		switch {
		case di == len(dterms) || (bi < nt && base.term(bi) < dterms[di]):
			at = lexAppendTerm{t: base.term(bi), base: bi}
			bi++
		case bi < nt && base.term(bi) == dterms[di]:
			at = lexAppendTerm{t: dterms[di], base: bi, delta: true}
			bi, di = bi+1, di+1
		default:
			at = lexAppendTerm{t: dterms[di], base: -1, delta: true}
			di++
		}
		baseBlocks, tail := a.split(at)
		tb += len(at.t)
		posts += a.basePostings(at) + len(x.dPost[at.t])
		blocks += baseBlocks + (tail+lexBlock-1)/lexBlock
		if tb > math.MaxUint32 || posts > math.MaxUint32 {
			return nil // the general merge reports it
		}
		a.terms = append(a.terms, at)
		a.termOffs = append(a.termOffs, uint32(tb))
		a.postOffs = append(a.postOffs, uint32(posts))
		a.blockOffs = append(a.blockOffs, uint32(blocks))
	}
	return a
}

// basePostings is how many postings of the base term at holds.
func (a *lexAppend) basePostings(at lexAppendTerm) int {
	if at.base < 0 {
		return 0
	}
	lo, hi, _ := a.x.base.postings(at.base)
	return hi - lo
}

// split returns how many of the base's blocks of term at are copied whole,
// and how many postings follow them (the rest of the base's, then the new
// ones), whose blocks are recomputed.
func (a *lexAppend) split(at lexAppendTerm) (baseBlocks, tail int) {
	nd := 0
	if at.delta {
		nd = len(a.x.dPost[at.t])
	}
	if at.base < 0 {
		return 0, nd
	}
	lo, hi, _ := a.x.base.postings(at.base)
	baseBlocks = (hi - lo + lexBlock - 1) / lexBlock
	if !at.delta {
		return baseBlocks, 0
	}
	return baseBlocks - 1, hi - lo - (baseBlocks-1)*lexBlock + nd
}

// tail returns the postings of term at that follow the base's blocks copied
// whole (the rest of the base's, then the new ones, in the merged doc
// numbers) and their blocks, in a's scratch.
func (a *lexAppend) tail(at lexAppendTerm) (docs []uint32, tfs []uint8, last []uint32, maxTFs []uint8, minLens []uint32) {
	x := a.x
	nb := uint32(len(x.base.rids))
	a.docs, a.tfs = a.docs[:0], a.tfs[:0]
	if at.base >= 0 && at.delta {
		lo, hi, _ := x.base.postings(at.base)
		baseBlocks, _ := a.split(at)
		a.docs = append(a.docs, x.base.docs[lo+baseBlocks*lexBlock:hi]...)
		a.tfs = append(a.tfs, x.base.tfs[lo+baseBlocks*lexBlock:hi]...)
	}
	if at.delta {
		for _, p := range x.dPost[at.t] {
			a.docs = append(a.docs, nb+p.doc)
			a.tfs = append(a.tfs, p.tf)
		}
	}
	a.last, a.maxTF, a.minLn = a.last[:0], a.maxTF[:0], a.minLn[:0]
	for start := 0; start < len(a.docs); start += lexBlock {
		end := min(start+lexBlock, len(a.docs))
		var maxTF uint8
		minLen := uint32(math.MaxUint32)
		for j := start; j < end; j++ {
			maxTF = max(maxTF, a.tfs[j])
			if d := a.docs[j]; d < nb {
				minLen = min(minLen, x.base.lens[d])
			} else {
				minLen = min(minLen, x.dLens[d-nb])
			}
		}
		a.last = append(a.last, a.docs[end-1])
		a.maxTF = append(a.maxTF, maxTF)
		a.minLn = append(a.minLn, minLen)
	}
	return a.docs, a.tfs, a.last, a.maxTF, a.minLn
}

// baseRange returns the range of the base's postings of term at that are
// copied as they are, and of its blocks.
func (a *lexAppend) baseRange(at lexAppendTerm) (lo, hi, blo, bhi int) {
	if at.base < 0 {
		return 0, 0, 0, 0
	}
	lo, hi, block := a.x.base.postings(at.base)
	baseBlocks, _ := a.split(at)
	if at.delta {
		hi = lo + baseBlocks*lexBlock
	}
	return lo, hi, block, block + baseBlocks
}

// write writes the merged index as the snapshot of generation gen to
// path, atomically, in the layout of writeLexSnapshot.
func (a *lexAppend) write(path string, gen int64) error {
	x := a.x
	T := len(a.terms)
	hdr := []int64{lexMagic, lexVersion, gen, int64(len(x.base.rids) + len(x.dRids)), int64(T),
		int64(a.postOffs[T]), int64(a.blockOffs[T]), int64(a.termOffs[T])}
	return writeStream(path, func(w *sectionWriter) {
		w.section(bytesOf(hdr))
		w.section(bytesOf(x.base.rids), bytesOf(x.dRids))
		w.section(bytesOf(x.base.lens), bytesOf(x.dLens))
		w.section(bytesOf(a.termOffs))
		for _, at := range a.terms {
			w.writeString(at.t)
		}
		w.end()
		w.section(bytesOf(a.postOffs))
		w.section(bytesOf(a.blockOffs))
		base := x.base
		// Each section of postings and blocks: per term, what is copied of
		// the base, then the tail.
		perTerm := func(parts func(at lexAppendTerm, lo, hi, blo, bhi int) (copied, tail []byte)) {
			for _, at := range a.terms {
				lo, hi, blo, bhi := a.baseRange(at)
				copied, tail := parts(at, lo, hi, blo, bhi)
				w.write(copied)
				w.write(tail)
			}
			w.end()
		}
		perTerm(func(at lexAppendTerm, lo, hi, _, _ int) ([]byte, []byte) {
			docs, _, _, _, _ := a.tail(at)
			return bytesOf(base.docs[lo:hi]), bytesOf(docs)
		})
		perTerm(func(at lexAppendTerm, lo, hi, _, _ int) ([]byte, []byte) {
			_, tfs, _, _, _ := a.tail(at)
			return base.tfs[lo:hi], tfs
		})
		perTerm(func(at lexAppendTerm, _, _, blo, bhi int) ([]byte, []byte) {
			_, _, last, _, _ := a.tail(at)
			return bytesOf(base.blockLast[blo:bhi]), bytesOf(last)
		})
		perTerm(func(at lexAppendTerm, _, _, blo, bhi int) ([]byte, []byte) {
			_, _, _, maxTF, _ := a.tail(at)
			return base.blockMaxTF[blo:bhi], maxTF
		})
		perTerm(func(at lexAppendTerm, _, _, blo, bhi int) ([]byte, []byte) {
			_, _, _, _, minLen := a.tail(at)
			return bytesOf(base.blockMinLen[blo:bhi]), bytesOf(minLen)
		})
	})
}

// readLexSnapshot maps the full-text snapshot at path and returns it as an
// index with its generation.
func readLexSnapshot(path string) (*lexIndex, int64, error) {
	if !littleEndian {
		return nil, 0, errors.New("snapshots need a little-endian machine")
	}
	m, err := mapFile(path)
	if err != nil {
		return nil, 0, err
	}
	s, gen, err := decodeLexSnapshot(m.data)
	if err != nil {
		m.close()
		return nil, 0, fmt.Errorf("snapshot %s: %w", path, err)
	}
	s.mapped = m
	return indexOf(s), gen, nil
}

// indexOf returns an index whose base is s.
func indexOf(s *lexSegment) *lexIndex {
	x := newLexIndex()
	x.base = s
	x.baseDead = make([]uint64, (len(s.rids)+63)/64)
	x.live = len(s.rids)
	for _, l := range s.lens {
		x.totalLen += int64(l)
	}
	return x
}

func decodeLexSnapshot(b []byte) (*lexSegment, int64, error) {
	if len(b) < lexHeader {
		return nil, 0, errors.New("truncated header")
	}
	h := viewOf[int64](b, 0, 8)
	if h[0] != lexMagic || h[1] != lexVersion {
		return nil, 0, errors.New("not a full-text snapshot of this version")
	}
	gen, n, t, p, nb, tb := h[2], h[3], h[4], h[5], h[6], h[7]
	if n < 0 || t < 0 || p < 0 || nb < 0 || tb < 0 || n >= math.MaxUint32 || p >= math.MaxUint32 || nb > p || tb >= math.MaxUint32 {
		return nil, 0, errors.New("bad header")
	}
	sizes := []int64{8 * n, 4 * n, 4 * (t + 1), tb, 4 * (t + 1), 4 * (t + 1), 4 * p, p, 4 * nb, nb, 4 * nb}
	want := int64(lexHeader)
	offs := make([]int, len(sizes))
	for i, sz := range sizes {
		offs[i] = int(want)
		want += int64(pad8(int(sz)))
	}
	if int64(len(b)) != want {
		return nil, 0, fmt.Errorf("%d bytes; the header implies %d", len(b), want)
	}
	N, T, P, B := int(n), int(t), int(p), int(nb)
	s := &lexSegment{
		rids:        viewOf[int64](b, offs[0], N),
		lens:        viewOf[uint32](b, offs[1], N),
		termOffs:    viewOf[uint32](b, offs[2], T+1),
		termBytes:   b[offs[3] : offs[3]+int(tb)],
		postOffs:    viewOf[uint32](b, offs[4], T+1),
		blockOffs:   viewOf[uint32](b, offs[5], T+1),
		docs:        viewOf[uint32](b, offs[6], P),
		tfs:         b[offs[7] : offs[7]+P],
		blockLast:   viewOf[uint32](b, offs[8], B),
		blockMaxTF:  b[offs[9] : offs[9]+B],
		blockMinLen: viewOf[uint32](b, offs[10], B),
	}
	// The offsets are checked here; the postings themselves are checked as
	// searches read them (a doc out of range is skipped), so that opening
	// does not read every page of the file.
	if s.termOffs[0] != 0 || s.postOffs[0] != 0 || s.blockOffs[0] != 0 || int(s.termOffs[T]) != len(s.termBytes) ||
		int(s.postOffs[T]) != P || int(s.blockOffs[T]) != B {
		return nil, 0, errors.New("bad term table")
	}
	for i := range T {
		lo, hi, block := s.postings(i)
		if s.termOffs[i+1] <= s.termOffs[i] || hi <= lo || int(s.blockOffs[i+1])-block != (hi-lo+lexBlock-1)/lexBlock ||
			(i > 0 && bytes.Compare(s.termBytes[s.termOffs[i-1]:s.termOffs[i]], s.termBytes[s.termOffs[i]:s.termOffs[i+1]]) >= 0) {
			return nil, 0, fmt.Errorf("bad term %d", i)
		}
	}
	for r := 1; r < N; r++ {
		if s.rids[r] <= s.rids[r-1] {
			return nil, 0, fmt.Errorf("bad doc %d", r)
		}
	}
	return s, gen, nil
}
