package wordvec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"unicode/utf8"
)

// The binary format, all integers little-endian:
//
//	offset  size       field
//	0       8          magic "VRTYWV01"
//	8       4          dim, 1..MaxDim
//	12      4          n, the number of words, 1..MaxWords
//	16      4          source vocabulary size (>= n; normalises Word.Prob)
//	20      4          length in bytes of the word section
//	24      ...        word section, n entries in ascending source rank:
//	                   uint8 length, the word's bytes (UTF-8, lower case),
//	                   uvarint rank gap (rank - previous rank - 1; the first
//	                   entry stores its rank)
//	...     4n         per-word scale, float32
//	...     n*dim      components, int8, row-major
//	end-4   4          CRC-32 (IEEE) of every byte before it
//
// A component is scale*q: each vector is quantised on its own to q in
// [-127, 127] with scale = max|x|/127, which keeps the relative error of a
// component below 0.4% of the vector's largest component. A 60,000-word,
// 100-dimensional table takes about 6.8 MB.
const (
	magic      = "VRTYWV01"
	headerSize = 24
	// MaxDim bounds the dimension a table may declare.
	MaxDim = 4096
	// MaxWords bounds the number of words a table may declare.
	MaxWords = 4 << 20
	// maxFileSize bounds what Load reads (256 MiB).
	maxFileSize = 256 << 20
)

// ErrFormat reports a table file that is truncated, corrupted or not a
// table at all; Load wraps it with the detail.
var ErrFormat = errors.New("not a valid word-vector table")

// encode writes t in the binary format.
func encode(w io.Writer, t *Table) error {
	var words bytes.Buffer
	prev := int64(-1)
	for i, word := range t.words {
		if len(word) == 0 || len(word) > 255 {
			return fmt.Errorf("word %q: length must be 1..255 bytes", word)
		}
		words.WriteByte(byte(len(word)))
		words.WriteString(word)
		words.Write(binary.AppendUvarint(nil, uint64(int64(t.ranks[i])-prev-1)))
		prev = int64(t.ranks[i])
	}
	buf := make([]byte, 0, headerSize+words.Len()+len(t.words)*(4+t.dim)+4)
	buf = append(buf, magic...)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(t.dim))
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(t.words)))
	buf = binary.LittleEndian.AppendUint32(buf, uint32(t.sourceSize))
	buf = binary.LittleEndian.AppendUint32(buf, uint32(words.Len()))
	buf = append(buf, words.Bytes()...)
	for _, s := range t.scales {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(s))
	}
	for _, q := range t.vecs {
		buf = append(buf, byte(q))
	}
	buf = binary.LittleEndian.AppendUint32(buf, crc32.ChecksumIEEE(buf))
	_, err := w.Write(buf)
	return err
}

// Load reads a table in the binary format that Build writes. It reads at
// most 256 MiB and checks the checksum before it trusts any field; a
// damaged or foreign file gives an error wrapping ErrFormat.
func Load(r io.Reader) (*Table, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read word vectors: %w", err)
	}
	t, err := decode(data)
	if err != nil {
		return nil, fmt.Errorf("load word vectors: %w", err)
	}
	return t, nil
}

func formatErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...)
}

func decode(data []byte) (*Table, error) {
	if len(data) > maxFileSize {
		return nil, formatErr("larger than %d bytes", maxFileSize)
	}
	if len(data) < headerSize+4 || string(data[:len(magic)]) != magic {
		return nil, formatErr("missing the %q header", magic)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if got := crc32.ChecksumIEEE(body); got != sum {
		return nil, formatErr("checksum mismatch (stored %08x, computed %08x): the file is truncated or corrupted", sum, got)
	}
	le := binary.LittleEndian
	dim, n, source, wlen := le.Uint32(body[8:]), le.Uint32(body[12:]), le.Uint32(body[16:]), le.Uint32(body[20:])
	switch {
	case dim < 1 || dim > MaxDim:
		return nil, formatErr("dimension %d outside 1..%d", dim, MaxDim)
	case n < 1 || n > MaxWords:
		return nil, formatErr("word count %d outside 1..%d", n, MaxWords)
	case source < n:
		return nil, formatErr("source vocabulary size %d below the word count %d", source, n)
	}
	rest := body[headerSize:]
	want := uint64(wlen) + uint64(n)*4 + uint64(n)*uint64(dim)
	if uint64(len(rest)) != want {
		return nil, formatErr("body is %d bytes, header implies %d", len(rest), want)
	}
	t := &Table{
		dim:        int(dim),
		sourceSize: int(source),
		words:      make([]string, n),
		ranks:      make([]int32, n),
		scales:     make([]float32, n),
		vecs:       make([]int8, int(n)*int(dim)),
		index:      make(map[string]int32, n),
	}
	// One string backs every word so that loading makes a handful of
	// allocations instead of one per word.
	wb := rest[:wlen]
	ws := string(wb)
	off, prev := 0, int64(-1)
	for i := range t.words {
		if off >= len(ws) {
			return nil, formatErr("word section ends after %d of %d words", i, n)
		}
		l := int(ws[off])
		off++
		if l == 0 || off+l > len(ws) {
			return nil, formatErr("word %d: bad length %d", i, l)
		}
		w := ws[off : off+l]
		off += l
		if !utf8.ValidString(w) {
			return nil, formatErr("word %d is not UTF-8", i)
		}
		gap, k := binary.Uvarint(wb[off:])
		if k <= 0 {
			return nil, formatErr("word %d (%q): bad rank", i, w)
		}
		off += k
		rank := prev + 1 + int64(gap)
		if gap >= uint64(source) || rank >= int64(source) {
			return nil, formatErr("word %d (%q): rank %d outside the source vocabulary of %d", i, w, rank, source)
		}
		if _, dup := t.index[w]; dup {
			return nil, formatErr("word %q appears twice", w)
		}
		t.words[i], t.ranks[i], t.index[w] = w, int32(rank), int32(i)
		prev = rank
	}
	if off != len(ws) {
		return nil, formatErr("%d stray bytes after the last word", len(ws)-off)
	}
	sc := rest[wlen:]
	for i := range t.scales {
		s := math.Float32frombits(le.Uint32(sc[4*i:]))
		if s < 0 || math.IsNaN(float64(s)) || math.IsInf(float64(s), 0) {
			return nil, formatErr("word %q: scale %v is not a finite non-negative number", t.words[i], s)
		}
		t.scales[i] = s
	}
	for i, b := range sc[4*n:] {
		t.vecs[i] = int8(b)
	}
	return t, nil
}
