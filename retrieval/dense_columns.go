package retrieval

import (
	"context"
	"errors"
	"math/bits"
	"runtime"
	"slices"
	"sync"
)

// signColumns holds the dense index's sign codes transposed: column j is
// bit j of every row's code, 64 rows a word, so that the sign stage reads
// only the columns of the components where the query has weight (about
// 105 of the built-in embedder's 384: 13 of a row's 48 bytes) and adds
// them 64 rows at a time as bit-sliced counters. At 1M passages the row
// scan reads 48 MB a query, which on the development machine takes some
// 14 ms of memory bandwidth alone; the column scan reads about 13 MB and
// computes the same distances. It is built from the rows, in the
// background, when the index is first searched (0.1-0.25 s at 1M
// passages) and kept on the heap beside them
// (48 bytes a row); rows appended since are scanned by rows, and a row
// inserted before its end drops it until it is rebuilt.
type signColumns struct {
	rows   int      // rows covered: [0, rows)
	blocks int      // words a column: (rows+63)/64
	bits   []uint64 // column j is bits[j*blocks : (j+1)*blocks]
	zero   []uint64 // a column of zeros, which pads a query's columns
}

// colMinRows is the index size from which the sign stage uses columns;
// below it the row scan is as fast and the columns not worth their memory.
var colMinRows = 1 << 16

// colChunk is the blocks of 64 rows the column scan adds up at a time: the
// counters of a chunk stay in the first-level cache.
const colChunk = 64

// colSampleBlocks is about how many blocks of 64 rows the column scan's
// sample reads: 256, 16,384 rows, of which some 400 fall within the
// distance sought at 1M passages.
var colSampleBlocks = 256

// colGroup is how many columns the scan adds in one step (see
// addColumns): a sixth less CPU than seven at a time, as fewer sums reach
// the counters.
const colGroup = 14

// column returns column j.
func (c *signColumns) column(j int) []uint64 { return c.bits[j*c.blocks : (j+1)*c.blocks] }

// buildColumns transposes the sign codes of every row into columns. It
// gives up, returning nil, when stop (if not nil) reports true; it asks
// every 1,024 blocks.
func (d *denseIndex) buildColumns(stop func() bool) *signColumns {
	n := len(d.rids)
	c := &signColumns{rows: n, blocks: (n + 63) / 64}
	c.bits = make([]uint64, d.words*64*c.blocks)
	c.zero = make([]uint64, c.blocks)
	var m [64]uint64
	for b := range c.blocks {
		if b%1024 == 0 && stop != nil && stop() {
			return nil
		}
		for w := range d.words {
			for i := range m {
				m[i] = 0
				if r := b*64 + i; r < n {
					m[i] = d.signs[r*d.words+w]
				}
			}
			transpose64(&m)
			for j, x := range m {
				c.bits[(w*64+j)*c.blocks+b] = x
			}
		}
	}
	return c
}

// columnsStale reports whether the columns should be (re)built: the index
// is large enough and they are missing or leave an eighth of the rows (or
// 1<<15) to the row scan.
func (d *denseIndex) columnsStale() bool {
	n := len(d.rids)
	if n < colMinRows {
		return false
	}
	return d.cols == nil || n-d.cols.rows > max(d.cols.rows/8, 1<<15)
}

// setRow writes row r's sign code into the columns.
func (c *signColumns) setRow(r int, signs []uint64) {
	b, bit := r/64, uint64(1)<<(r%64)
	for j := range len(signs) * 64 {
		w := &c.bits[j*c.blocks+b]
		if signs[j/64]&(1<<(j%64)) != 0 {
			*w |= bit
		} else {
			*w &^= bit
		}
	}
}

// transpose64 transposes a 64x64 bit matrix in place: bit i of a[j]
// becomes bit j of a[i] (Warren, Hacker's Delight, 7-3).
func transpose64(a *[64]uint64) {
	m := uint64(0x00000000FFFFFFFF)
	for j := 32; j != 0; j, m = j>>1, m^(m<<(j>>1)) {
		for k := 0; k < 64; k = (k + j + 1) &^ j {
			t := ((a[k] >> j) ^ a[k+j]) & m
			a[k] ^= t << j
			a[k+j] ^= t
		}
	}
}

// colInput is one column the scan adds up: a row counts when its bit
// differs from the query's (flip is all ones where the query's bit is set).
type colInput struct {
	col  []uint64
	flip uint64
}

// colPlanes bounds the bit planes of the scan's counters: a distance is at
// most 3*MaxDim < 1<<15.
const colPlanes = 16

// rowDist is a row of the dense index with its masked sign distance.
type rowDist struct {
	row  int32
	dist uint16
}

// colScratch holds the buffers of a column sign stage, for the next.
type colScratch struct {
	sample, cand []rowDist
	outs         [][]rowDist
}

var colScratchPool = sync.Pool{New: func() any { return new(colScratch) }}

// colQuery is a query's columns for the column scan: the columns of
// weight one (or three) and of weight two (or three), each padded with
// zero columns to a multiple of colGroup.
type colQuery struct {
	ones, twos []colInput
	maxDist    int
	planes     int // bit planes of a distance
}

func colQueryOf(q denseQuery, c *signColumns) colQuery {
	var cq colQuery
	add := func(in []colInput, mask []uint64) []colInput {
		for w, m := range mask {
			for m != 0 {
				i := bits.TrailingZeros64(m)
				m &= m - 1
				j := w*64 + i
				in = append(in, colInput{col: c.column(j), flip: -(q.signs[w] >> i & 1)})
			}
		}
		return in
	}
	cq.ones = add(nil, q.ones)
	cq.twos = add(nil, q.twos)
	cq.maxDist = len(cq.ones) + 2*len(cq.twos)
	cq.planes = bits.Len(uint(cq.maxDist))
	for len(cq.ones)%colGroup != 0 {
		cq.ones = append(cq.ones, colInput{col: c.zero})
	}
	for len(cq.twos)%colGroup != 0 {
		cq.twos = append(cq.twos, colInput{col: c.zero})
	}
	return cq
}

// colCounters are the bit-sliced counters of a chunk: plane k of block b
// holds bit k of the count of each of the block's 64 rows.
type colCounters [colChunk][colPlanes]uint64

// addColumns adds the inputs' mismatching bits for blocks [b0, b0+nb) into
// acc, fourteen columns at a time: two sums of seven bits to three-bit
// numbers by full adders, their four-bit sum, added to the counters.
func addColumns(in []colInput, b0, nb int, acc *colCounters) {
	for g := 0; g+colGroup <= len(in); g += colGroup {
		var c [colGroup][]uint64
		var f [colGroup]uint64
		for k := range colGroup {
			c[k], f[k] = in[g+k].col[b0:b0+nb], in[g+k].flip
		}
		for b := range nb {
			a0, a1, a2 := sum7(c[0][b]^f[0], c[1][b]^f[1], c[2][b]^f[2], c[3][b]^f[3], c[4][b]^f[4], c[5][b]^f[5], c[6][b]^f[6])
			b0, b1, b2 := sum7(c[7][b]^f[7], c[8][b]^f[8], c[9][b]^f[9], c[10][b]^f[10], c[11][b]^f[11], c[12][b]^f[12], c[13][b]^f[13])
			// Their sum s0 + 2 s1 + 4 s2 + 8 s3.
			s0, carry := a0^b0, a0&b0
			x := a1 ^ b1
			s1 := x ^ carry
			carry = (a1 & b1) | (carry & x)
			x = a2 ^ b2
			s2 := x ^ carry
			s3 := (a2 & b2) | (carry & x)
			// Add it to the counters.
			p := &acc[b]
			carry = p[0] & s0
			p[0] ^= s0
			x = p[1]
			t := x ^ s1
			p[1] = t ^ carry
			carry = (x & s1) | (carry & t)
			x = p[2]
			t = x ^ s2
			p[2] = t ^ carry
			carry = (x & s2) | (carry & t)
			x = p[3]
			t = x ^ s3
			p[3] = t ^ carry
			carry = (x & s3) | (carry & t)
			for k := 4; carry != 0 && k < colPlanes; k++ {
				x = p[k]
				p[k] = x ^ carry
				carry &= x
			}
		}
	}
}

// sum7 is the sum of seven bits, lane by lane, as a three-bit number
// s0 + 2 s1 + 4 s2, by four full adders.
func sum7(x0, x1, x2, x3, x4, x5, x6 uint64) (s0, s1, s2 uint64) {
	a := x0 ^ x1
	sA, cA := a^x2, (x0&x1)|(x2&a)
	a = x3 ^ x4
	sB, cB := a^x5, (x3&x4)|(x5&a)
	a = sA ^ sB
	s0, cC := a^x6, (sA&sB)|(x6&a)
	a = cA ^ cB
	return s0, a ^ cC, (cA & cB) | (cC & a)
}

// signDistance is row r's masked sign distance from q, as signScan
// computes it.
func (d *denseIndex) signDistance(q denseQuery, r int) int {
	row := d.signs[r*d.words : (r+1)*d.words]
	h := 0
	for i, x := range q.signs[:len(row)] {
		diff := x ^ row[i]
		h += bits.OnesCount64(diff&q.ones[i]) + 2*bits.OnesCount64(diff&q.twos[i])
	}
	return h
}

// colScanBlocks computes the distances of the rows of blocks [b0, b1)
// and appends to out the eligible ones (no flag set, and keep accepts
// them unless nil) at distance at most t, in row order.
func (d *denseIndex) colScanBlocks(ctx context.Context, cols *signColumns, cq *colQuery, keep func(int) bool, b0, b1, t int, out []rowDist) ([]rowDist, error) {
	var ones, twos colCounters
	tBits := uint64(t)
	for ; b0 < b1; b0 += colChunk {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		nb := min(colChunk, b1-b0)
		clear(ones[:nb])
		clear(twos[:nb])
		addColumns(cq.ones, b0, nb, &ones)
		addColumns(cq.twos, b0, nb, &twos)
		for b := range nb {
			// The distance: ones + 2 twos, plane by plane.
			var dp [colPlanes + 1]uint64
			o, w := &ones[b], &twos[b]
			dp[0] = o[0]
			carry := uint64(0)
			for k := 1; k <= cq.planes && k < colPlanes; k++ {
				a, c := o[k], w[k-1]
				x := a ^ c
				dp[k] = x ^ carry
				carry = (a & c) | (carry & x)
			}
			// Rows at distance at most t: compare from the top plane.
			lt, eq := uint64(0), ^uint64(0)
			for k := cq.planes; k >= 0; k-- {
				if tBits>>k&1 == 1 {
					lt |= eq &^ dp[k]
					eq &= dp[k]
				} else {
					eq &^= dp[k]
				}
			}
			m := lt | eq
			base := (b0 + b) * 64
			if base+64 > cols.rows {
				m &= 1<<(cols.rows-base) - 1
			}
			for m != 0 {
				i := bits.TrailingZeros64(m)
				m &= m - 1
				r := base + i
				if d.flags[r] != 0 || (keep != nil && !keep(r)) {
					continue
				}
				h := 0
				for k := cq.planes; k >= 0; k-- {
					h = h<<1 | int(dp[k]>>i&1)
				}
				out = append(out, rowDist{row: int32(r), dist: uint16(h)})
			}
		}
	}
	return out, nil
}

// colSignStage is signStage for an index with columns: the same rows,
// found by the column scan. A sample of the chunks gives the
// distance below which somewhat more than c rows lie; the scan keeps the
// rows within it (raising it if too few were) and the nearest c of those
// are chosen as signStage chooses them.
func (d *denseIndex) colSignStage(ctx context.Context, q denseQuery, c int, keep func(int) bool, cols *signColumns) ([]int, error) {
	cq := colQueryOf(q, cols)

	// The rows after the columns, by rows.
	var tail []rowDist
	for r := cols.rows; r < len(d.rids); r++ {
		if (r-cols.rows)%8192 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if d.flags[r] == 0 && (keep == nil || keep(r)) {
			tail = append(tail, rowDist{row: int32(r), dist: uint16(d.signDistance(q, r))})
		}
	}

	// The distance to keep, from every step-th block.
	step := max(1, cols.blocks/colSampleBlocks)
	sc := colScratchPool.Get().(*colScratch)
	defer colScratchPool.Put(sc)
	sample := sc.sample[:0]
	defer func() { sc.sample = sample[:0] }()
	var err error
	sampled := 0
	for b := 0; b < cols.blocks; b += step {
		if sample, err = d.colScanBlocks(ctx, cols, &cq, keep, b, b+1, cq.maxDist, sample); err != nil {
			return nil, err
		}
		sampled += min(64, cols.rows-b*64)
	}
	t := cq.maxDist
	if step > 1 && len(sample) > 0 {
		hist := make([]int, cq.maxDist+1)
		for _, s := range sample {
			hist[s.dist]++
		}
		// The sample's share of c, with a margin.
		want := float64(c)*float64(sampled)/float64(cols.rows)*1.25 + 16
		sum := 0
		for h, k := range hist {
			sum += k
			if float64(sum) >= want {
				t = h
				break
			}
		}
	}

	cand := slices.Grow(sc.cand[:0], c+c/2)
	defer func() { sc.cand = cand[:0] }()
	for {
		cand, err = d.colScan(ctx, cols, &cq, keep, t, cand[:0], sc)
		if err != nil {
			return nil, err
		}
		within := len(cand)
		for _, s := range tail {
			if int(s.dist) <= t {
				within++
			}
		}
		if within >= c || t >= cq.maxDist {
			break
		}
		t = min(cq.maxDist, t+t/4+8)
	}
	for _, s := range tail {
		if int(s.dist) <= t {
			cand = append(cand, s)
		}
	}
	return selectNearest(cand, c, cq.maxDist), nil
}

// colScan runs colScanBlocks over every block, split among the CPUs when
// the index is large.
func (d *denseIndex) colScan(ctx context.Context, cols *signColumns, cq *colQuery, keep func(int) bool, t int, out []rowDist, sc *colScratch) ([]rowDist, error) {
	parts := 1
	if cols.rows >= signParallelRows {
		parts = min(runtime.GOMAXPROCS(0), 4)
	}
	if parts == 1 {
		return d.colScanBlocks(ctx, cols, cq, keep, 0, cols.blocks, t, out)
	}
	for len(sc.outs) < parts {
		sc.outs = append(sc.outs, nil)
	}
	outs := sc.outs[:parts]
	for p := range outs {
		outs[p] = slices.Grow(outs[p][:0], cap(out)/parts+cap(out)/8)
	}
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := cols.blocks*p/parts, cols.blocks*(p+1)/parts
		if p == parts-1 {
			outs[p], errs[p] = d.colScanBlocks(ctx, cols, cq, keep, lo, hi, t, outs[p])
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[p], errs[p] = d.colScanBlocks(ctx, cols, cq, keep, lo, hi, t, outs[p])
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for _, o := range outs {
		out = append(out, o...)
	}
	return out, nil
}

// selectNearest returns the rows of the c nearest of cand (in row order),
// as signStage chooses them: every row nearer than the distance at which c
// is reached, then rows at that distance in row order.
func selectNearest(cand []rowDist, c, maxDist int) []int {
	hist := make([]int, maxDist+2)
	for _, s := range cand {
		hist[s.dist]++
	}
	cut, room := histCut(hist, c)
	out := make([]int, 0, min(c, len(cand)))
	for _, s := range cand {
		switch {
		case int(s.dist) < cut:
			out = append(out, int(s.row))
		case int(s.dist) == cut && room > 0:
			out = append(out, int(s.row))
			room--
		}
	}
	return out
}
