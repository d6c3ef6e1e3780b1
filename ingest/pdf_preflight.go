package ingest

import (
	"bytes"
	"compress/zlib"
	"encoding/ascii85"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"time"
)

// The PDF parser allocates from numbers the file states (an xref stream's
// /Size and /W, an xref table's subsection start, a predictor's /Columns)
// and inflates streams without bound; a hostile file could ask for
// gigabytes before any check of ours runs, and an allocation that fails
// ends the process rather than panicking. pdfPreflight reads the raw file
// first and refuses it unless those numbers are small and every stream
// inflates (through up to four layers of Flate or ASCII85) to at most
// MaxPDFStreamBytes, and all of them together to at most
// maxPDFInflatedBytes. Encrypted files are refused: their streams cannot
// be checked before decryption.

const (
	// maxPDFObjects bounds /Size and xref subsections: more objects than a
	// 16 MiB file can hold.
	maxPDFObjects = 4 << 20
	// maxPDFColumns bounds a PNG predictor's /Columns.
	maxPDFColumns = 1 << 16
	// maxPDFInflatedBytes bounds the inflated size of all streams.
	maxPDFInflatedBytes = 256 << 20
)

var (
	pdfSizeRe    = regexp.MustCompile(`/(Size|Columns|Colors|BitsPerComponent|N|First)[\s\x00]*(-?\d+)`)
	pdfWRe       = regexp.MustCompile(`/W[\s\x00]*\[([^\]]*)\]`)
	pdfIndexRe   = regexp.MustCompile(`/Index[\s\x00]*\[([^\]]*)\]`)
	pdfStreamRe  = regexp.MustCompile(`stream(?:\r\n|\n|\r)`)
	pdfNumbersRe = regexp.MustCompile(`-?\d+`)
)

// errPDFEncrypted is an encrypted PDF.
var errPDFEncrypted = errors.New("the PDF is encrypted, which verity does not read")

func pdfPreflight(body []byte, deadline time.Time) error {
	if bytes.Contains(body, []byte("/Encrypt")) {
		return errPDFEncrypted
	}
	if err := checkPDFNumbers(body); err != nil {
		return err
	}
	if err := checkXrefTables(body); err != nil {
		return err
	}
	total := 0
	for _, loc := range pdfStreamRe.FindAllIndex(body, -1) {
		if loc[0] >= 3 && string(body[loc[0]-3:loc[0]]) == "end" {
			continue // "endstream"
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%w: not read within %s", ErrPDFLimit, MaxPDFTime)
		}
		data := body[loc[1]:]
		for layer := 0; layer < 4; layer++ {
			out, ok, err := decodeLayer(data)
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			total += len(out)
			if total > maxPDFInflatedBytes {
				return fmt.Errorf("%w: its streams inflate to over %d bytes", ErrPDFLimit, maxPDFInflatedBytes)
			}
			if err := checkPDFNumbers(out); err != nil {
				return err
			}
			data = out
		}
	}
	return nil
}

// decodeLayer inflates data when it is a zlib stream, or decodes it when
// it is ASCII85 ("<~" or "~>" ended), up to MaxPDFStreamBytes; ok is false
// when it is neither.
func decodeLayer(data []byte) (out []byte, ok bool, err error) {
	var r io.Reader
	if zr, zerr := zlib.NewReader(bytes.NewReader(data)); zerr == nil {
		defer zr.Close()
		r = zr
	} else if end := bytes.Index(data[:min(len(data), 32<<20)], []byte("~>")); end > 0 && isASCII85(data[:end]) {
		r = ascii85.NewDecoder(bytes.NewReader(bytes.TrimPrefix(data[:end], []byte("<~"))))
	} else {
		return nil, false, nil
	}
	out, _ = io.ReadAll(io.LimitReader(r, MaxPDFStreamBytes+1))
	if len(out) > MaxPDFStreamBytes {
		return nil, false, fmt.Errorf("%w: a stream decompresses to over %d bytes", ErrPDFLimit, MaxPDFStreamBytes)
	}
	return out, len(out) > 0, nil
}

func isASCII85(b []byte) bool {
	for _, c := range bytes.TrimPrefix(b, []byte("<~")) {
		if (c < '!' || c > 'u') && c != 'z' && c != ' ' && c != '\n' && c != '\r' && c != '\t' {
			return false
		}
	}
	return true
}

// checkPDFNumbers refuses sizes the parser would allocate from.
func checkPDFNumbers(b []byte) error {
	for _, m := range pdfSizeRe.FindAllSubmatch(b, -1) {
		n, err := strconv.ParseInt(string(m[2]), 10, 64)
		limit := int64(maxPDFObjects)
		if string(m[1]) == "Columns" || string(m[1]) == "Colors" || string(m[1]) == "BitsPerComponent" {
			limit = maxPDFColumns
		}
		if string(m[1]) == "First" {
			limit = MaxPDFStreamBytes
		}
		if err != nil || n < 0 || n > limit {
			return fmt.Errorf("%w: /%s %s", ErrPDFLimit, m[1], m[2])
		}
	}
	for _, re := range []*regexp.Regexp{pdfWRe, pdfIndexRe} {
		for _, m := range re.FindAllSubmatch(b, -1) {
			for _, num := range pdfNumbersRe.FindAll(m[1], 64) {
				n, err := strconv.ParseInt(string(num), 10, 64)
				if err != nil || n < 0 || n > maxPDFObjects {
					return fmt.Errorf("%w: array value %s", ErrPDFLimit, num)
				}
			}
		}
	}
	return nil
}

// checkXrefTables reads every classic cross-reference table as the
// parser does (subsection headers "start count", then count entries of
// three tokens, up to "trailer") and refuses a subsection that reaches
// past maxPDFObjects.
func checkXrefTables(body []byte) error {
	for off := 0; ; {
		i := bytes.Index(body[off:], []byte("xref"))
		if i < 0 {
			return nil
		}
		pos := off + i + len("xref")
		off = pos
		if i >= 5 && string(body[off-9:off-4]) == "start" {
			continue // "startxref"
		}
		toks := bytes.Fields(body[pos:min(len(body), pos+64<<10)])
		for k := 0; k+1 < len(toks); {
			if string(toks[k]) == "trailer" {
				break
			}
			start, err1 := strconv.ParseInt(string(toks[k]), 10, 64)
			n, err2 := strconv.ParseInt(string(toks[k+1]), 10, 64)
			if err1 != nil || err2 != nil {
				break
			}
			if start < 0 || n < 0 || start+n > maxPDFObjects {
				return fmt.Errorf("%w: an xref subsection of objects %d to %d", ErrPDFLimit, start, start+n)
			}
			k += 2 + 3*int(n)
		}
	}
}
