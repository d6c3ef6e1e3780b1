package retrieval

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"unsafe"
)

// A snapshot is the dense index written to a file beside the database
// ("<path>.dense"), so that opening a large store maps it instead of
// reading and quantising every vector (about 30 s at 1M passages). It
// holds the index of the database at one write generation (see
// passages_generation); a snapshot of another generation, or one that does
// not read back, is ignored and the index is rebuilt from the database,
// which stays the only record that must survive a crash.
//
// Layout, little-endian, every section starting at a multiple of 8 bytes:
// a header of 8 int64 (magic, version, generation, rows, dim, words,
// domains, domain-name bytes), then rids, published, domains, flags,
// scales, signs, codes, the domain names' lengths (uint32) and their bytes.
// The arrays are used in place, so snapshots are only read and written on
// little-endian machines; elsewhere the index is rebuilt at every open.

const (
	snapshotMagic   = 0x31434556_59545256 // "VRTYVEC1" read as a little-endian int64
	snapshotVersion = 1
	snapshotHeader  = 8 * 8
)

var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

func pad8(n int) int { return (n + 7) &^ 7 }

// bytesOf views a slice's elements as bytes.
func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(zero)))
}

// viewOf views n elements of T at b[off:]; off must be a multiple of 8.
func viewOf[T any](b []byte, off, n int) []T {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[off])), n)
}

// writeSnapshot writes the live rows of d as the snapshot of generation
// gen to path, atomically (a temporary file renamed over it).
func writeSnapshot(path string, d *denseIndex, gen int64) error {
	if !littleEndian {
		return errors.New("snapshots need a little-endian machine")
	}
	c := d.compacted()
	var names []byte
	lens := make([]uint32, len(c.domainNames))
	for i, s := range c.domainNames {
		lens[i] = uint32(len(s))
		names = append(names, s...)
	}
	hdr := []int64{snapshotMagic, snapshotVersion, gen, int64(len(c.rids)), int64(c.dim), int64(c.words), int64(len(lens)), int64(len(names))}
	return writeSections(path, [][]byte{bytesOf(hdr), bytesOf(c.rids), bytesOf(c.published), bytesOf(c.domains), c.flagsBytes(),
		bytesOf(c.scales), bytesOf(c.signs), bytesOf(c.codes), bytesOf(lens), names})
}

// writeSections writes the sections to path, each padded to a multiple of
// 8 bytes, atomically: a temporary file, synced, renamed over it.
func writeSections(path string, sections [][]byte) error {
	return writeStream(path, func(w *sectionWriter) {
		for _, sec := range sections {
			w.section(sec)
		}
	})
}

// sectionWriter writes the sections of a snapshot, each padded to a
// multiple of 8 bytes; the first error sticks.
type sectionWriter struct {
	w   *bufio.Writer
	n   int // bytes of the current section
	err error
}

// write adds b to the current section.
func (s *sectionWriter) write(b []byte) {
	if s.err == nil {
		_, s.err = s.w.Write(b)
		s.n += len(b)
	}
}

// writeString adds s to the current section.
func (s *sectionWriter) writeString(str string) {
	if s.err == nil {
		_, s.err = s.w.WriteString(str)
		s.n += len(str)
	}
}

// end pads the current section and starts the next.
func (s *sectionWriter) end() {
	var zeros [8]byte
	s.write(zeros[:pad8(s.n)-s.n])
	s.n = 0
}

// section writes a whole section made of parts.
func (s *sectionWriter) section(parts ...[]byte) {
	for _, p := range parts {
		s.write(p)
	}
	s.end()
}

// writeStream writes what fill writes to path, atomically: a temporary
// file, synced, renamed over it.
func writeStream(path string, fill func(w *sectionWriter)) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	w := bufio.NewWriterSize(tmp, 1<<20)
	sw := &sectionWriter{w: w}
	fill(sw)
	if sw.err != nil {
		return sw.err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func (d *denseIndex) flagsBytes() []byte { return bytesOf(d.flags) }

// compacted returns d without its deleted rows: d itself when it has none.
func (d *denseIndex) compacted() *denseIndex {
	if d.deleted == 0 {
		return d
	}
	c := newDenseIndex()
	c.dim, c.words = d.dim, d.words
	c.domainNames, c.domainIDs = d.domainNames, d.domainIDs
	for r, f := range d.flags {
		if f&rowDeleted != 0 {
			continue
		}
		c.rids = append(c.rids, d.rids[r])
		c.published = append(c.published, d.published[r])
		c.domains = append(c.domains, d.domains[r])
		c.flags = append(c.flags, f)
		c.scales = append(c.scales, d.scales[r])
		c.codes = append(c.codes, d.codes[r*d.dim:(r+1)*d.dim]...)
		c.signs = append(c.signs, d.signs[r*d.words:(r+1)*d.words]...)
	}
	c.live = len(c.rids)
	return c
}

// readSnapshot maps the snapshot at path and returns its index and
// generation.
func readSnapshot(path string) (*denseIndex, int64, error) {
	if !littleEndian {
		return nil, 0, errors.New("snapshots need a little-endian machine")
	}
	m, err := mapFile(path)
	if err != nil {
		return nil, 0, err
	}
	d, gen, err := decodeSnapshot(m.data)
	if err != nil {
		m.close()
		return nil, 0, fmt.Errorf("snapshot %s: %w", path, err)
	}
	d.mapped = m
	return d, gen, nil
}

func decodeSnapshot(b []byte) (*denseIndex, int64, error) {
	if len(b) < snapshotHeader {
		return nil, 0, errors.New("truncated header")
	}
	h := viewOf[int64](b, 0, 8)
	if h[0] != snapshotMagic || h[1] != snapshotVersion {
		return nil, 0, errors.New("not a dense snapshot of this version")
	}
	gen, n, dim, words, nd, nb := h[2], h[3], h[4], h[5], h[6], h[7]
	if n < 0 || dim < 0 || dim > MaxDim || words != (dim+63)/64 || nd < 0 || nb < 0 || n > 1<<34 || nd > 1<<32 || nb > 1<<40 {
		return nil, 0, errors.New("bad header")
	}
	sizes := []int64{8 * n, 8 * n, 4 * n, n, 4 * n, 8 * n * words, n * dim, 4 * nd, nb}
	want := int64(snapshotHeader)
	offs := make([]int, len(sizes))
	for i, s := range sizes {
		offs[i] = int(want)
		want += int64(pad8(int(s)))
	}
	if int64(len(b)) != want {
		return nil, 0, fmt.Errorf("%d bytes; the header implies %d", len(b), want)
	}
	d := newDenseIndex()
	N := int(n)
	d.dim, d.words = int(dim), int(words)
	d.rids = viewOf[int64](b, offs[0], N)
	d.published = viewOf[int64](b, offs[1], N)
	d.domains = viewOf[uint32](b, offs[2], N)
	d.flags = viewOf[uint8](b, offs[3], N)
	d.scales = viewOf[float32](b, offs[4], N)
	d.signs = viewOf[uint64](b, offs[5], N*d.words)
	d.codes = viewOf[int8](b, offs[6], N*d.dim)
	lens := viewOf[uint32](b, offs[7], int(nd))
	names := b[offs[8] : offs[8]+int(nb)]
	for _, l := range lens {
		if int(l) > len(names) {
			return nil, 0, errors.New("bad domain table")
		}
		d.domainID(string(names[:l]))
		names = names[l:]
	}
	for r := range N {
		if d.flags[r]&rowDeleted != 0 || int(d.domains[r]) >= len(d.domainNames) || (r > 0 && d.rids[r] <= d.rids[r-1]) {
			return nil, 0, fmt.Errorf("bad row %d", r)
		}
	}
	d.live = N
	return d, gen, nil
}
