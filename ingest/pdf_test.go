package ingest

import (
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The fixtures under testdata/pdf were made once with Debian's groff
// (gropdf) and ghostscript; they are committed, the tools are not needed:
//
//	SOURCE_DATE_EPOCH=1710489600 groff -ms -mpdfmark -Tpdf report.ms > report.pdf
//	gs -q -dNOPAUSE -dBATCH -sDEVICE=pdfimage8 -r50 -sOutputFile=scanned.pdf report.pdf
//
// scanned.pdf holds the same pages as images only, as a scanner makes them.

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "pdf", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pdfFile assembles a PDF from object bodies (object i+1 is objs[i]) with
// a correct cross-reference table; the trailer's Root is object 1 and its
// Info is info ("" for none).
func pdfFile(objs []string, info string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R %s >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, info, xref)
	return b.Bytes()
}

// stream is a stream object; zipped streams are Flate-compressed.
func stream(data string, zipped bool) string {
	if !zipped {
		return fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(data), data)
	}
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write([]byte(data))
	w.Close()
	return fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", z.Len(), z.String())
}

// textPDF is a PDF of pages, each drawn by its content stream, in
// Helvetica. Objects: 1 catalog, 2 pages, 3 font, then page and content
// pairs.
func textPDF(contents []string, info string) []byte {
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", "", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"}
	var kids []string
	for i, c := range contents {
		page := 4 + 2*i
		kids = append(kids, fmt.Sprintf("%d 0 R", page))
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", page+1),
			stream(c, i%2 == 1))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(kids))
	return pdfFile(objs, info)
}

func TestExtractPDF(t *testing.T) {
	doc, err := Extract(readFixture(t, "report.pdf"), "application/pdf", "https://example.org/report")
	if err != nil {
		t.Fatal(err)
	}
	if want := "Measles surveillance in Europe, annual report 2023"; doc.Title != want {
		t.Errorf("title = %q, want %q", doc.Title, want)
	}
	if want := time.Date(2024, 3, 15, 8, 0, 0, 0, time.UTC); !doc.PublishedAt.Equal(want) {
		t.Errorf("date = %v, want %v", doc.PublishedAt, want)
	}
	// Text of pages 1, 2 and 3, in reading order, words spaced.
	order := []string{
		"In 2023 the member states reported 58,000 cases of measles, three times as many as in 2022.",
		"Vaccination coverage with the second dose stood at 91 percent, below the 95 percent needed to stop transmission.",
		"Romania reported the largest outbreak, with 12,500 cases and 11 deaths between January and December.",
		"The monitor recommends catch-up vaccination campaigns for adolescents and young adults.",
	}
	at := 0
	for _, s := range order {
		i := strings.Index(doc.Text[at:], s)
		if i < 0 {
			t.Fatalf("text lacks %q after offset %d:\n%s", s, at, doc.Text)
		}
		at += i + len(s)
	}
}

func TestExtractPDFByExtensionAndSniffing(t *testing.T) {
	body := readFixture(t, "report.pdf")
	for _, c := range []struct{ ctype, src string }{{"", "/data/report.pdf"}, {"application/octet-stream", "https://x.org/get?id=4"}} {
		doc, err := Extract(body, c.ctype, c.src)
		if err != nil || !strings.Contains(doc.Text, "58,000 cases") {
			t.Errorf("Extract(%q, %q) = %q, %v; want the report's text", c.ctype, c.src, doc.Text, err)
		}
	}
}

func TestExtractPDFScanned(t *testing.T) {
	_, err := Extract(readFixture(t, "scanned.pdf"), "application/pdf", "scan.pdf")
	if !errors.Is(err, ErrNoTextLayer) {
		t.Fatalf("err = %v, want ErrNoTextLayer", err)
	}
}

func TestExtractPDFLayout(t *testing.T) {
	body := textPDF([]string{
		// Words placed one by one, a TJ word gap, a hyphenated line end,
		// a paragraph gap.
		"BT /F1 12 Tf 72 700 Td (Cases) Tj 40 0 Td (rose) Tj ET " +
			"BT /F1 12 Tf 72 686 Td [(by)-300(forty)] TJ 0 -14 Td (per) Tj ( cent in the winter of 2023, a re-) Tj " +
			"0 -14 Td (cord.) Tj 0 -40 Td (A second paragraph.) Tj ET",
		"BT /F1 12 Tf 1 0 0 1 72 700 Tm (Page two says 7 percent.) Tj ET",
	}, "/Info 99 0 R")
	doc, err := Extract(body, "application/pdf", "")
	if err != nil {
		t.Fatal(err)
	}
	want := "Cases rose by forty per cent in the winter of 2023, a record.\n\nA second paragraph.\n\nPage two says 7 percent."
	if doc.Text != want {
		t.Errorf("text =\n%q\nwant\n%q", doc.Text, want)
	}
}

func TestParsePDFDate(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"D:20240315080000+01'00'", time.Date(2024, 3, 15, 7, 0, 0, 0, time.UTC), true},
		{"D:20240315080000Z", time.Date(2024, 3, 15, 8, 0, 0, 0, time.UTC), true},
		{"D:2019", time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC), true},
		{"20240315", time.Date(2024, 3, 15, 0, 0, 0, 0, time.UTC), true},
		{"D:20240231", time.Time{}, false},
		{"D:20241399", time.Time{}, false},
		{"yesterday", time.Time{}, false},
	} {
		got, ok := parsePDFDate(c.in)
		if ok != c.ok || !got.Equal(c.want) {
			t.Errorf("parsePDFDate(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// hostilePDFs are files built to hang, exhaust or crash a parser.
func hostilePDFs(t testing.TB) map[string][]byte {
	bomb := strings.Repeat("(aaaaaaaa) Tj ", (MaxPDFStreamBytes/14)+1024)
	return map[string][]byte{
		"truncated": readFixture(t, "report.pdf")[:3000],
		"not a pdf": []byte("%PDF-1.7\nthis is not a PDF at all"),
		// A page tree whose Kids hold itself.
		"cyclic page tree": pdfFile([]string{
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [2 0 R 2 0 R] /Count 1000000 >>",
		}, ""),
		// A content stream that inflates past MaxPDFStreamBytes.
		"deflate bomb": textPDF([]string{"BT ET", "BT /F1 12 Tf " + bomb + "ET"}, ""),
		// Operators with the wrong arguments and numbers out of range.
		"bad operators": textPDF([]string{"BT /F1 Tf 1e999 1e999 Td Tm TJ (x) TJ [(a) /N 5] TJ Tj ' \" q Q Q Q cm ET"}, ""),
		// An object that refers to itself.
		"self reference": pdfFile([]string{"<< /Type /Catalog /Pages 2 0 R >>", "2 0 R"}, ""),
		// Numbers the parser would allocate from.
		"huge xref stream size":  []byte("%PDF-1.5\n1 0 obj\n<< /Type /XRef /Size 4000000000 /W [1 2 1] /Length 0 >>\nstream\n\nendstream\nendobj\nstartxref\n9\n%%EOF\n"),
		"huge xref subsection":   []byte("%PDF-1.4\nxref\n2000000000 1\n0000000000 65535 f \ntrailer\n<< /Root 1 0 R >>\nstartxref\n9\n%%EOF\n"),
		"huge predictor columns": textPDF([]string{"BT ET"}, "/DecodeParms << /Predictor 12 /Columns 99999999999 >>"),
		// A bomb in a stream no page draws, and one under two layers of
		// Flate.
		"unused deflate bomb": pdfFile([]string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>", stream(strings.Repeat("x", MaxPDFStreamBytes+1), true)}, ""),
		"double deflate bomb": pdfFile([]string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>", doubleFlate(strings.Repeat("x", MaxPDFStreamBytes+1))}, ""),
		"encrypted":           textPDF([]string{"BT /F1 12 Tf 72 700 Td (secret) Tj ET"}, "/Encrypt << /Filter /Standard /V 2 /R 3 /Length 128 >>"),
	}
}

// doubleFlate is a stream object whose data is Flate-compressed twice.
func doubleFlate(data string) string {
	z := func(b []byte) []byte {
		var out bytes.Buffer
		w := zlib.NewWriter(&out)
		w.Write(b)
		w.Close()
		return out.Bytes()
	}
	d := z(z([]byte(data)))
	return fmt.Sprintf("<< /Length %d /Filter [/FlateDecode /FlateDecode] >>\nstream\n%s\nendstream", len(d), d)
}

func TestExtractPDFHostile(t *testing.T) {
	for name, body := range hostilePDFs(t) {
		t.Run(name, func(t *testing.T) {
			doc, err := Extract(body, "application/pdf", "")
			if name == "bad operators" {
				// Malformed operators are skipped; the text around them
				// stays.
				if err != nil || doc.Text != "a" {
					t.Fatalf("Extract = %q, %v; want \"a\"", doc.Text, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Extract = %q, want an error", doc.Text)
			}
			switch name {
			case "deflate bomb", "huge xref stream size", "huge xref subsection", "huge predictor columns", "unused deflate bomb", "double deflate bomb":
				if !errors.Is(err, ErrPDFLimit) {
					t.Errorf("err = %v, want ErrPDFLimit", err)
				}
			case "encrypted":
				if !errors.Is(err, errPDFEncrypted) {
					t.Errorf("err = %v, want the encryption named", err)
				}
			}
		})
	}
}

func TestRunIngestsPDF(t *testing.T) {
	e := newEnv()
	dir := t.TempDir()
	path := filepath.Join(dir, "measles.pdf")
	if err := os.WriteFile(path, readFixture(t, "report.pdf"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "scan.pdf"), readFixture(t, "scanned.pdf"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := e.ingester(Config{}).Run(context.Background(), []string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Sources != 1 || sum.Chunks == 0 || len(sum.Failed) != 1 {
		t.Fatalf("summary = %+v, want 1 source with passages and 1 failure", sum)
	}
	if f := sum.Failed[0]; !errors.Is(f.Err, ErrNoTextLayer) {
		t.Errorf("failure = %v, want ErrNoTextLayer", f.Err)
	}
	var found bool
	for _, src := range e.sources.sources {
		if src.Title == "Measles surveillance in Europe, annual report 2023" && src.PublishedAt.Equal(time.Date(2024, 3, 15, 8, 0, 0, 0, time.UTC)) {
			found = true
			if ps := e.index.ofSource(src.ID); len(ps) == 0 || !strings.Contains(ps[0].Text, "58,000") {
				t.Errorf("passages = %+v, want the report's text", ps)
			}
		}
	}
	if !found {
		t.Errorf("sources = %+v, want the PDF's title and date", e.sources.sources)
	}
}

// FuzzExtractPDF runs the PDF reader on arbitrary bytes: it must return,
// within its limits, without panicking.
//
//	nice -n 10 go test -run '^$' -fuzz FuzzExtractPDF -fuzztime 10m ./ingest/
func FuzzExtractPDF(f *testing.F) {
	f.Add(readFixture(f, "report.pdf"))
	f.Add(readFixture(f, "scanned.pdf"))
	for _, b := range hostilePDFs(f) {
		if len(b) < 64<<10 {
			f.Add(b)
		}
	}
	f.Add(textPDF([]string{"BT /F1 12 Tf 72 700 Td (Hello) Tj [(wor)-20(ld)] TJ ET"}, ""))
	f.Fuzz(func(t *testing.T, body []byte) {
		// A parse that outlives its time limit twice over is a hang: crash
		// the worker so that the fuzzer records the input.
		hang := time.AfterFunc(2*MaxPDFTime+10*time.Second, func() { panic("PDF extraction hangs") })
		defer hang.Stop()
		doc, err := extractPDF(body)
		if err == nil && doc.Text == "" {
			t.Errorf("no error and no text")
		}
		if len(doc.Text) > 2*MaxPDFTextBytes {
			t.Errorf("text of %d bytes exceeds the limit", len(doc.Text))
		}
	})
}
