package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// PDF text extraction. The parser is github.com/ledongthuc/pdf (a kept
// fork of rsc.io/pdf): pure Go, it reads the file structure, filters,
// fonts and their ToUnicode maps. Text layout is done here, from the
// positions the content stream's text operators give, so that words get
// their spaces and lines their breaks.
//
// A PDF is untrusted input. Its parse runs under hard limits: the file's
// size ([MaxExtractBytes]), the pages read ([MaxPDFPages]), the
// decompressed size of each content or font map stream
// ([MaxPDFStreamBytes]), the text kept ([MaxPDFTextBytes]), the bytes the
// parser may read from the file in all ([maxPDFReadFactor] times its
// size) and the wall time ([MaxPDFTime]). The limits are checked inside
// the parse (each read of the file and each content stream operator), so
// a hostile file stops the parse, not only the wait for it; a panic of the
// parser is recovered and becomes an error.
//
// Not read: text drawn as images (scans; such a PDF fails with
// [ErrNoTextLayer]), forms' field values, annotations and comments,
// attachments, text inside Form XObjects, XMP metadata (only the Info
// dictionary's Title and CreationDate), Type3 fonts without a ToUnicode
// map, right-to-left and vertical writing order, and encrypted files
// (pdf_preflight.go says why).

// Limits of PDF extraction.
const (
	// MaxPDFPages is the number of pages read; later pages are left out.
	MaxPDFPages = 500
	// MaxPDFStreamBytes bounds one decompressed content or font map stream:
	// 8 MiB. A page with a longer stream fails the document.
	MaxPDFStreamBytes = 8 << 20
	// MaxPDFTextBytes bounds the text extracted: 4 MiB; later pages are
	// left out.
	MaxPDFTextBytes = 4 << 20
	// MaxPDFTime bounds one extraction.
	MaxPDFTime = 20 * time.Second
)

// maxPDFReadFactor bounds the bytes read from the file during one parse,
// as a multiple of the file's size: a parse that rereads the file more
// than that is looping.
const maxPDFReadFactor = 64

// ErrNoTextLayer is a PDF whose pages hold no text, only images: a scan
// that would need OCR, which verity does not do.
var ErrNoTextLayer = errors.New("PDF has no text layer (scanned pages need OCR, which is not done)")

// ErrPDFLimit is a PDF that exceeds one of the extraction limits.
var ErrPDFLimit = errors.New("PDF exceeds an extraction limit")

// errPDFAbort is the panic value that stops a parse at a limit.
type errPDFAbort struct{ err error }

func (e errPDFAbort) Error() string { return e.err.Error() }
func (e errPDFAbort) Unwrap() error { return e.err }

// guardedReaderAt is the file as the parser sees it: every read checks
// the deadline and the read budget and panics with errPDFAbort when one
// is spent.
type guardedReaderAt struct {
	r        *bytes.Reader
	deadline time.Time
	budget   atomic.Int64
}

func (g *guardedReaderAt) check() {
	if time.Now().After(g.deadline) {
		panic(errPDFAbort{fmt.Errorf("%w: not read within %s", ErrPDFLimit, MaxPDFTime)})
	}
}

func (g *guardedReaderAt) ReadAt(p []byte, off int64) (int, error) {
	g.check()
	if g.budget.Add(-int64(len(p))) < 0 {
		panic(errPDFAbort{fmt.Errorf("%w: the parser read the file over %d times", ErrPDFLimit, maxPDFReadFactor)})
	}
	return g.r.ReadAt(p, off)
}

// extractPDF reads a PDF's text, page by page in the order of the page
// tree, each page's lines in the order the content stream draws them,
// and its Title and CreationDate from the Info dictionary.
func extractPDF(body []byte) (doc Document, err error) {
	g := &guardedReaderAt{r: bytes.NewReader(body), deadline: time.Now().Add(MaxPDFTime)}
	g.budget.Store(int64(len(body))*maxPDFReadFactor + 1<<20)
	defer func() {
		if x := recover(); x != nil {
			doc = Document{}
			if a, ok := x.(errPDFAbort); ok {
				err = fmt.Errorf("read PDF: %w", a.err)
				return
			}
			err = fmt.Errorf("read PDF: malformed file: %v", x)
		}
	}()
	if err := pdfPreflight(body, g.deadline); err != nil {
		return Document{}, fmt.Errorf("read PDF: %w", err)
	}
	r, err := pdf.NewReader(g, int64(len(body)))
	if err != nil {
		var a errPDFAbort
		if errors.As(err, &a) {
			return Document{}, fmt.Errorf("read PDF: %w", a.err)
		}
		return Document{}, fmt.Errorf("read PDF: %w", err)
	}
	info := r.Trailer().Key("Info")
	doc.Title = pdfString(info.Key("Title"))
	if t, ok := parsePDFDate(pdfString(info.Key("CreationDate"))); ok {
		doc.PublishedAt = t
	}
	var (
		paras []string
		size  int
	)
	for i, p := range pdfPages(r.Trailer().Key("Root").Key("Pages"), g) {
		if i == MaxPDFPages || size > MaxPDFTextBytes {
			break
		}
		text := pageText(p, g)
		if text == "" {
			continue
		}
		size += len(text)
		paras = append(paras, text)
	}
	doc.Text = NormalizeText(strings.Join(paras, "\n\n"))
	if doc.Text == "" {
		return Document{}, fmt.Errorf("read PDF: %w", ErrNoTextLayer)
	}
	return doc, nil
}

// pdfPages walks the page tree depth first and returns at most
// MaxPDFPages pages. A hostile tree may loop or fan out without end: the
// walk is bounded in depth and in the nodes it visits.
func pdfPages(root pdf.Value, g *guardedReaderAt) []pdf.Page {
	const maxDepth, maxNodes = 32, 4*MaxPDFPages + 256
	var out []pdf.Page
	nodes := 0
	var walk func(v pdf.Value, depth int)
	walk = func(v pdf.Value, depth int) {
		nodes++
		if len(out) >= MaxPDFPages || depth > maxDepth || nodes > maxNodes {
			return
		}
		g.check()
		switch v.Key("Type").Name() {
		case "Page":
			out = append(out, pdf.Page{V: v})
		case "Pages", "":
			kids := v.Key("Kids")
			for i := 0; i < kids.Len() && len(out) < MaxPDFPages && nodes <= maxNodes; i++ {
				walk(kids.Index(i), depth+1)
			}
		}
	}
	walk(root, 0)
	return out
}

// checkStream panics with errPDFAbort when a stream decompresses to more
// than MaxPDFStreamBytes: the parser's lexer would hold a token of any
// size in memory.
func checkStream(v pdf.Value) {
	if v.Kind() != pdf.Stream {
		return
	}
	rc := v.Reader()
	defer rc.Close()
	n, _ := io.Copy(io.Discard, io.LimitReader(rc, MaxPDFStreamBytes+1))
	if n > MaxPDFStreamBytes {
		panic(errPDFAbort{fmt.Errorf("%w: a stream decompresses to over %d bytes", ErrPDFLimit, MaxPDFStreamBytes)})
	}
}

// pdfFont is a page font as text layout needs it.
type pdfFont struct {
	enc pdf.TextEncoding
	// twoByte: a composite (Type0) font, whose codes are two bytes.
	twoByte bool
	first   int
	widths  []float64
}

// width is the advance of code in thousandths of the font size; 500 when
// the font gives none.
func (f *pdfFont) width(code int) float64 {
	if i := code - f.first; i >= 0 && i < len(f.widths) && f.widths[i] > 0 {
		return f.widths[i]
	}
	return 500
}

// matrix is a PDF transformation matrix [a b c d e f].
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

func (m matrix) mul(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

func translate(x, y float64) matrix { return matrix{1, 0, 0, 1, x, y} }

func matrixOf(args []pdf.Value) (matrix, bool) {
	if len(args) != 6 {
		return identity, false
	}
	var m matrix
	for i, a := range args {
		m[i] = a.Float64()
		if math.IsNaN(m[i]) || math.IsInf(m[i], 0) {
			return identity, false
		}
	}
	return m, true
}

// layout turns positioned text runs into lines and paragraphs.
type layout struct {
	b               strings.Builder
	started         bool
	lastY, lastEndX float64
	lastSize        float64
	spacePending    bool
	full            bool
}

// add appends a run drawn from (x, y) to endX at font size fs (all in
// device space). A drop of more than 1.6 font sizes, or a move up the
// page, starts a paragraph; a smaller drop starts a line; a gap of more
// than 0.15 font sizes on one line is a space.
func (l *layout) add(x, y, endX, fs float64, text string) {
	if text == "" || l.full {
		return
	}
	if l.b.Len() > MaxPDFTextBytes {
		l.full = true
		return
	}
	if fs <= 0 || math.IsNaN(fs) || math.IsInf(fs, 0) {
		fs = 10
	}
	if l.started {
		size := max(fs, l.lastSize)
		dy := l.lastY - y
		switch {
		case math.Abs(dy) > 0.5*size:
			if dy > 1.6*size || dy < 0 {
				l.b.WriteString("\n\n")
			} else if s := l.b.String(); strings.HasSuffix(s, "-") && len(s) > 1 && isLetterBefore(s[:len(s)-1]) && startsLower(text) {
				// A word hyphenated at the line's end.
				l.b.Reset()
				l.b.WriteString(s[:len(s)-1])
			} else {
				l.b.WriteString("\n")
			}
		case l.spacePending || x-l.lastEndX > 0.15*size || x-l.lastEndX < -2*size:
			l.b.WriteString(" ")
		}
	}
	l.b.WriteString(text)
	l.started, l.lastY, l.lastEndX, l.lastSize, l.spacePending = true, y, endX, fs, false
}

func isLetterBefore(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return unicode.IsLetter(r)
}

func startsLower(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLower(r)
}

// ligatures are the presentation forms PDFs draw words with.
var ligatures = strings.NewReplacer("\ufb00", "ff", "\ufb01", "fi", "\ufb02", "fl", "\ufb03", "ffi", "\ufb04", "ffl", "\ufb05", "st", "\ufb06", "st")

// pageText lays out the text one page's content stream draws.
func pageText(p pdf.Page, g *guardedReaderAt) string {
	contents := p.V.Key("Contents")
	switch contents.Kind() {
	case pdf.Stream:
		checkStream(contents)
	case pdf.Array:
		if contents.Len() > 4096 {
			panic(errPDFAbort{fmt.Errorf("%w: a page has %d content streams", ErrPDFLimit, contents.Len())})
		}
		for i := 0; i < contents.Len(); i++ {
			checkStream(contents.Index(i))
		}
	default:
		return ""
	}
	fonts := map[string]*pdfFont{}
	fontOf := func(name string) *pdfFont {
		if f, ok := fonts[name]; ok {
			return f
		}
		if len(fonts) > 256 {
			return &pdfFont{enc: nopEncoding{}}
		}
		pf := p.Font(name)
		checkStream(pf.V.Key("ToUnicode"))
		f := &pdfFont{enc: pf.Encoder(), twoByte: pf.V.Key("Subtype").Name() == "Type0", first: pf.FirstChar()}
		if w := pf.V.Key("Widths"); w.Kind() == pdf.Array && w.Len() <= 65536 {
			f.widths = make([]float64, w.Len())
			for i := range f.widths {
				f.widths[i] = w.Index(i).Float64()
			}
		}
		fonts[name] = f
		return f
	}

	var (
		l              layout
		ctm            = identity
		stack          []matrix
		tm, tlm        = identity, identity
		font           = &pdfFont{enc: nopEncoding{}}
		size, leading  float64
		charSp, wordSp float64
		hscale         = 1.0
		ops            int
	)
	show := func(raw string) {
		trm := tm.mul(ctm)
		x, y := trm[4], trm[5]
		fs := size * math.Hypot(trm[1], trm[3])
		var adv float64
		if font.twoByte {
			adv = float64(len(raw)/2) * (0.5*size + charSp)
		} else {
			for i := 0; i < len(raw); i++ {
				adv += font.width(int(raw[i]))/1000*size + charSp
				if raw[i] == ' ' {
					adv += wordSp
				}
			}
		}
		adv *= hscale
		tm = translate(adv, 0).mul(tm)
		end := tm.mul(ctm)[4]
		l.add(x, y, end, fs, ligatures.Replace(font.enc.Decode(raw)))
	}
	nextLine := func(tx, ty float64) {
		tlm = translate(tx, ty).mul(tlm)
		tm = tlm
	}
	pdf.Interpret(contents, func(stk *pdf.Stack, op string) {
		args := make([]pdf.Value, stk.Len())
		for i := len(args) - 1; i >= 0; i-- {
			args[i] = stk.Pop()
		}
		if ops++; ops%1024 == 0 {
			g.check()
		}
		arg := func(i int) float64 {
			if i >= len(args) {
				return 0
			}
			f := args[i].Float64()
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return 0
			}
			return f
		}
		switch op {
		case "q":
			if len(stack) < 256 {
				stack = append(stack, ctm)
			}
		case "Q":
			if n := len(stack); n > 0 {
				ctm, stack = stack[n-1], stack[:n-1]
			}
		case "cm":
			if m, ok := matrixOf(args); ok {
				ctm = m.mul(ctm)
			}
		case "BT":
			tm, tlm = identity, identity
		case "Tf":
			if len(args) == 2 {
				font, size = fontOf(args[0].Name()), arg(1)
			}
		case "TL":
			leading = arg(0)
		case "Tc":
			charSp = arg(0)
		case "Tw":
			wordSp = arg(0)
		case "Tz":
			hscale = arg(0) / 100
		case "Td":
			nextLine(arg(0), arg(1))
		case "TD":
			leading = -arg(1)
			nextLine(arg(0), arg(1))
		case "Tm":
			if m, ok := matrixOf(args); ok {
				tm, tlm = m, m
			}
		case "T*":
			nextLine(0, -leading)
		case "'":
			nextLine(0, -leading)
			if len(args) == 1 {
				show(args[0].RawString())
			}
		case "\"":
			if len(args) == 3 {
				wordSp, charSp = arg(0), arg(1)
				nextLine(0, -leading)
				show(args[2].RawString())
			}
		case "Tj":
			if len(args) == 1 {
				show(args[0].RawString())
			}
		case "TJ":
			if len(args) != 1 {
				return
			}
			a := args[0]
			for i := 0; i < a.Len() && i < 1<<16; i++ {
				switch v := a.Index(i); v.Kind() {
				case pdf.String:
					show(v.RawString())
				case pdf.Integer, pdf.Real:
					// A negative adjustment moves right: more than a
					// quarter of the font size is a word space.
					n := v.Float64()
					if math.IsNaN(n) || math.IsInf(n, 0) {
						continue
					}
					tm = translate(-n/1000*size*hscale, 0).mul(tm)
					if n < -250 {
						l.spacePending = true
					}
				}
			}
		}
	})
	return strings.TrimSpace(l.b.String())
}

// nopEncoding reads codes as Latin-1, for a font the page does not
// define.
type nopEncoding struct{}

func (nopEncoding) Decode(raw string) string {
	r := make([]rune, len(raw))
	for i := 0; i < len(raw); i++ {
		r[i] = rune(raw[i])
	}
	return string(r)
}

// pdfString is a text string of the Info dictionary, or "".
func pdfString(v pdf.Value) string {
	if v.Kind() != pdf.String {
		return ""
	}
	return strings.ToValidUTF8(v.Text(), "")
}

// pdfDateRe is a PDF date, "D:YYYYMMDDHHmmSSOHH'mm'" with every part
// after the year optional.
var pdfDateRe = regexp.MustCompile(`^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Zz+\-])(\d{2})?'?(\d{2})?'?)?`)

// parsePDFDate parses a PDF date into UTC.
func parsePDFDate(s string) (time.Time, bool) {
	m := pdfDateRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return time.Time{}, false
	}
	num := func(s string, def int) int {
		if s == "" {
			return def
		}
		n, _ := strconv.Atoi(s)
		return n
	}
	y, mo, d := num(m[1], 0), num(m[2], 1), num(m[3], 1)
	h, mi, sec := num(m[4], 0), num(m[5], 0), num(m[6], 0)
	if y < 1900 || y > 2200 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 59 {
		return time.Time{}, false
	}
	off := (num(m[8], 0)*60 + num(m[9], 0)) * 60
	if m[7] == "-" {
		off = -off
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, 0, time.FixedZone("", off))
	if t.Day() != d {
		return time.Time{}, false // 31 February
	}
	return t.UTC(), true
}
