package ingest

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/verity-fc/verity/internal/shareddata"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// writeFiles creates files (path -> content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// itemSummary is what the tests compare of an Item.
type itemSummary struct {
	ID, Location string
	Kind         Kind
	Line         int
}

func summarize(items []Item) []itemSummary {
	out := make([]itemSummary, len(items))
	for i, it := range items {
		out[i] = itemSummary{ID: it.ID, Location: it.Location, Kind: it.Kind, Line: it.Line}
	}
	return out
}

func failureSources(fs []Failure) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Source
	}
	return out
}

func TestExpandDirectoryAndFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.html":           "<p>a</p>",
		"b.md":             "# b",
		"sub/c.txt":        "c",
		"sub/deeper/d.HTM": "<p>d</p>",
		"sub/e.markdown":   "e",
		".hidden/x.html":   "<p>x</p>",
		".y.txt":           "y",
		"data.json":        "{}",
		"paper.pdf":        "%PDF",
		"records.jsonl":    `{"id":1,"text":"t"}`,
		"other/f.txt":      "f",
		"notes.csv":        "a,b",
	})
	if err := os.Symlink(filepath.Join(dir, "a.html"), filepath.Join(dir, "sub", "link.html")); err != nil {
		t.Fatal(err)
	}
	abs := func(p string) string { return filepath.Join(dir, filepath.FromSlash(p)) }
	file := func(p string) itemSummary {
		return itemSummary{ID: "f-" + shortHash(abs(p)), Location: abs(p), Kind: KindFile}
	}

	items, failures, err := Expand(context.Background(), []string{
		filepath.Join(dir, "sub"),
		dir,
		abs("other/f.txt"),
		abs("notes.csv"),
		abs("missing.txt"),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []itemSummary{
		file("sub/c.txt"), file("sub/deeper/d.HTM"), file("sub/e.markdown"),
		file("a.html"), file("b.md"), file("other/f.txt"), file("paper.pdf"),
	}
	if diff := cmp.Diff(want, summarize(items)); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{abs("notes.csv"), abs("missing.txt")}, failureSources(failures)); diff != "" {
		t.Errorf("failures (-want +got):\n%s", diff)
	}
	if len(failures) == 2 && !errors.Is(failures[1].Err, fs.ErrNotExist) {
		t.Errorf("missing file failure = %v, want fs.ErrNotExist", failures[1].Err)
	}
}

func TestExpandURLs(t *testing.T) {
	items, failures, err := Expand(context.Background(), []string{
		"https://Example.COM:443/a?b=2&a=1&utm_source=x#frag",
		"https://example.com/a?a=1&b=2",
		"http://example.com",
		"ftp://example.com/file",
		"https://",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []itemSummary{
		{ID: "u-" + shortHash("https://example.com/a?a=1&b=2"), Location: "https://example.com/a?a=1&b=2", Kind: KindURL},
		{ID: "u-" + shortHash("http://example.com/"), Location: "http://example.com/", Kind: KindURL},
	}
	if diff := cmp.Diff(want, summarize(items)); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"ftp://example.com/file", "https://"}, failureSources(failures)); diff != "" {
		t.Errorf("failures (-want +got):\n%s", diff)
	}
}

func TestCanonicalURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"HTTP://Example.com:80", "http://example.com/"},
		{"https://example.com:8443/x#y", "https://example.com:8443/x"},
		{"https://example.com/p?z=1&utm_medium=m&fbclid=f&a=2", "https://example.com/p?a=2&z=1"},
		{"https://[::1]:443/", "https://[::1]/"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := CanonicalURL(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("CanonicalURL(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestExpandJSONL(t *testing.T) {
	dir := t.TempDir()
	lines := []string{
		"\ufeff" + `{"id": 7, "title": "Seven", "text": "Text seven.", "url": "https://www.nasa.gov/x", "published_at": "2024-02-15", "reliability": 0.9, "extra": {"ignored": true}}`,
		`{"doc_id": 4983, "title": "SciFact", "abstract": ["First sentence.", "", "Second sentence."], "structured": false}`,
		``,
		`   `,
		`{"id": "s-1", "abstract": "An abstract string.", "domain": "WWW.Example.ORG"}`,
		`{"url": "https://example.com/only-url", "text": "By URL."}`,
		`{"text": "Neither id nor url."}`,
		`{not json`,
		`{"id": 8, "title": "no text"}`,
		`{"id": 9, "abstract": 5}`,
		`{"id": 10, "text": "x", "reliability": 1.5}`,
		`{"id": 11, "text": "x", "published_at": "not a date"}`,
		`{"id": 12, "text": "x", "url": "javascript:alert(1)"}`,
		`{"id": 7, "text": "duplicate id"}`,
		`{"id": {"a": 1}, "text": "object id"}`,
		`{"id": 13, "text": "` + strings.Repeat("x", MaxLineBytes) + `"}`,
		`{"id": 14, "text": "after the long line"}` + "\r",
	}
	path := filepath.Join(dir, "corpus.jsonl")
	writeFiles(t, dir, map[string]string{"corpus.jsonl": strings.Join(lines, "\n")})

	items, failures, err := Expand(context.Background(), []string{path})
	if err != nil {
		t.Fatal(err)
	}
	loc := func(line int) string { return path + ":" + strconv.Itoa(line) }
	want := []itemSummary{
		{ID: "corpus:7", Location: loc(1), Kind: KindRecord, Line: 1},
		{ID: "corpus:4983", Location: loc(2), Kind: KindRecord, Line: 2},
		{ID: "corpus:s-1", Location: loc(5), Kind: KindRecord, Line: 5},
		{ID: "u-" + shortHash("https://example.com/only-url"), Location: loc(6), Kind: KindRecord, Line: 6},
		{ID: "f-" + shortHash(path) + ":7", Location: loc(7), Kind: KindRecord, Line: 7},
		{ID: "corpus:14", Location: loc(17), Kind: KindRecord, Line: 17},
	}
	if diff := cmp.Diff(want, summarize(items)); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	wantFailed := []string{loc(8), loc(9), loc(10), loc(11), loc(12), loc(13), loc(14), loc(15), loc(16)}
	if diff := cmp.Diff(wantFailed, failureSources(failures)); diff != "" {
		t.Errorf("failures (-want +got):\n%s", diff)
	}
	for _, f := range failures {
		if f.Reason == "" {
			t.Errorf("failure %s has no reason", f.Source)
		}
	}

	rel := 0.9
	wantRecords := []Record{
		{ID: "7", URL: "https://www.nasa.gov/x", Title: "Seven", Text: "Text seven.", PublishedAt: day(2024, 2, 15), Reliability: &rel},
		{ID: "4983", Title: "SciFact", Text: "First sentence. Second sentence."},
		{ID: "s-1", Text: "An abstract string.", Domain: "example.org"},
		{URL: "https://example.com/only-url", Text: "By URL."},
		{Text: "Neither id nor url."},
		{ID: "14", Text: "after the long line"},
	}
	var got []Record
	for _, it := range items {
		rec, err := loadRecord(it)
		if err != nil {
			t.Fatalf("loadRecord(%s): %v", it.Location, err)
		}
		got = append(got, rec)
	}
	if diff := cmp.Diff(wantRecords, got); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

func TestExpandCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := Expand(ctx, []string{t.TempDir()}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestExpandSciFactCorpus(t *testing.T) {
	path := filepath.Join(shareddata.Dir(t), "scifact", "corpus.jsonl")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no SciFact corpus: %v", err)
	}
	items, failures, err := Expand(context.Background(), []string{path})
	if err != nil {
		t.Fatal(err)
	}
	if len(failures) != 0 {
		t.Errorf("%d failures, first: %+v", len(failures), failures[0])
	}
	if len(items) != 5183 {
		t.Errorf("%d items, want 5,183", len(items))
	}
	if len(items) == 0 {
		return
	}
	if items[0].ID != "corpus:4983" {
		t.Errorf("first ID = %q, want corpus:4983", items[0].ID)
	}
	rec, err := loadRecord(items[0])
	if err != nil {
		t.Fatal(err)
	}
	want := Record{ID: "4983", Title: "Microstructural development of human newborn cerebral white matter assessed in vivo by diffusion tensor magnetic resonance imaging."}
	if diff := cmp.Diff(want, rec, cmpopts.IgnoreFields(Record{}, "Text")); diff != "" {
		t.Errorf("first record (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(rec.Text, "Alterations of the architecture of cerebral white matter") {
		t.Errorf("first record text = %.80q...", rec.Text)
	}
}
