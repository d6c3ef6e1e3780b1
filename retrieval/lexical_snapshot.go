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

// merged returns the live passages of x as one segment, docs in rid order.
func (x *lexIndex) merged() (*lexSegment, error) {
	if s, ok, err := x.mergedAppend(); ok || err != nil {
		return s, err
	}
	return x.mergedAll()
}

// mergedAppend is merged for the index of a process that only added
// passages to its snapshot, as ingest does: no passage deleted or replaced,
// every new rid after the base's. The base's docs keep their numbers, the
// new ones follow, and each term's postings and blocks are the base's,
// copied whole, then the new ones (its last base block recomputed with
// them): a copy of the base instead of a posting-by-posting rebuild, which
// took seconds at a million passages at every close. ok is false for any
// other index.
func (x *lexIndex) mergedAppend() (s *lexSegment, ok bool, err error) {
	nb := len(x.base.rids)
	if x.deleted != 0 || len(x.dRids) == 0 {
		return nil, false, nil
	}
	for i, rid := range x.dRids {
		if (i == 0 && nb > 0 && rid <= x.base.rids[nb-1]) || (i > 0 && rid <= x.dRids[i-1]) {
			return nil, false, nil
		}
	}
	if nb+len(x.dRids) >= math.MaxUint32 {
		return nil, true, fmt.Errorf("%d passages; the full-text index holds fewer than 2^32", nb+len(x.dRids))
	}
	base := x.base
	s = &lexSegment{
		rids:      slices.Concat(base.rids, x.dRids),
		lens:      slices.Concat(base.lens, x.dLens),
		termOffs:  make([]uint32, 1, base.terms()+len(x.dPost)+1),
		postOffs:  make([]uint32, 1, base.terms()+len(x.dPost)+1),
		blockOffs: make([]uint32, 1, base.terms()+len(x.dPost)+1),
	}
	postings := len(base.docs)
	for _, ps := range x.dPost {
		postings += len(ps)
	}
	if postings > math.MaxUint32 {
		return nil, true, errors.New("the full-text index outgrew its 32-bit offsets")
	}
	s.docs = make([]uint32, 0, postings)
	s.tfs = make([]uint8, 0, postings)
	blocks := len(base.blockLast) + postings/lexBlock + len(x.dPost)
	s.blockLast, s.blockMaxTF, s.blockMinLen = make([]uint32, 0, blocks), make([]uint8, 0, blocks), make([]uint32, 0, blocks)
	dterms := make([]string, 0, len(x.dPost))
	for t := range x.dPost {
		dterms = append(dterms, t)
	}
	slices.Sort(dterms)
	// blocks appends the blocks of the postings from the term's posting
	// from on.
	addBlocks := func(from int) {
		for start := from; start < len(s.docs); start += lexBlock {
			end := min(start+lexBlock, len(s.docs))
			var maxTF uint8
			minLen := uint32(math.MaxUint32)
			for j := start; j < end; j++ {
				maxTF = max(maxTF, s.tfs[j])
				minLen = min(minLen, s.lens[s.docs[j]])
			}
			s.blockLast = append(s.blockLast, s.docs[end-1])
			s.blockMaxTF = append(s.blockMaxTF, maxTF)
			s.blockMinLen = append(s.blockMinLen, minLen)
		}
	}
	bi, di, nt := 0, 0, base.terms()
	for bi < nt || di < len(dterms) {
		var t string
		var inBase, inDelta bool
		switch {
		case di == len(dterms) || (bi < nt && base.term(bi) < dterms[di]):
			t, inBase = base.term(bi), true
		case bi < nt && base.term(bi) == dterms[di]:
			t, inBase, inDelta = dterms[di], true, true
		default:
			t, inDelta = dterms[di], true
		}
		s.termBytes = append(s.termBytes, t...)
		if len(s.termBytes) > math.MaxUint32 {
			return nil, true, errors.New("the full-text index outgrew its 32-bit offsets")
		}
		s.termOffs = append(s.termOffs, uint32(len(s.termBytes)))
		first := len(s.docs)
		recompute := first
		if inBase {
			lo, hi, block := base.postings(bi)
			s.docs = append(s.docs, base.docs[lo:hi]...)
			s.tfs = append(s.tfs, base.tfs[lo:hi]...)
			last := block + (hi-1-lo)/lexBlock
			if !inDelta {
				last++
			}
			s.blockLast = append(s.blockLast, base.blockLast[block:last]...)
			s.blockMaxTF = append(s.blockMaxTF, base.blockMaxTF[block:last]...)
			s.blockMinLen = append(s.blockMinLen, base.blockMinLen[block:last]...)
			recompute = first + (last-block)*lexBlock
			bi++
		}
		if inDelta {
			for _, p := range x.dPost[t] {
				s.docs = append(s.docs, uint32(nb)+p.doc)
				s.tfs = append(s.tfs, p.tf)
			}
			di++
		}
		addBlocks(recompute)
		s.postOffs = append(s.postOffs, uint32(len(s.docs)))
		s.blockOffs = append(s.blockOffs, uint32(len(s.blockLast)))
	}
	return s, true, nil
}

// mergedAll is merged for any index: every live passage renumbered in rid
// order and every posting rebuilt.
func (x *lexIndex) mergedAll() (*lexSegment, error) {
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
// path, atomically, and returns the merged segment.
func writeLexSnapshot(path string, x *lexIndex, gen int64) (*lexSegment, error) {
	if !littleEndian {
		return nil, errors.New("snapshots need a little-endian machine")
	}
	s, err := x.merged()
	if err != nil {
		return nil, err
	}
	hdr := []int64{lexMagic, lexVersion, gen, int64(len(s.rids)), int64(s.terms()), int64(len(s.docs)), int64(len(s.blockLast)), int64(len(s.termBytes))}
	return s, writeSections(path, [][]byte{bytesOf(hdr), bytesOf(s.rids), bytesOf(s.lens), bytesOf(s.termOffs), s.termBytes,
		bytesOf(s.postOffs), bytesOf(s.blockOffs), bytesOf(s.docs), s.tfs, bytesOf(s.blockLast), s.blockMaxTF, bytesOf(s.blockMinLen)})
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
