package embedding

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math"
	"testing"

	"github.com/verity-fc/verity/demo"
)

// goldenTexts are the demo corpus's titles and texts, its claims, and
// strings that exercise each rule of the tokeniser.
func goldenTexts(t *testing.T) []string {
	t.Helper()
	texts := []string{
		"", "   ", "The the THE of", "Don't stop: it's the U.S. e.g. well-known COVID-19 -LRB-sic-RRB- café",
		"Exports rose by 8 percent in 2023; 1,000,000 people at 10:30 paid $3.5bn.",
		"He won't say; they'd've gone. O’Brien’s “quoted” naïve résumé H5N1 hospitalisations",
		"n't 's 're never not no nor now",
	}
	for _, file := range [][]byte{demo.Corpus(), demo.Claims()} {
		sc := bufio.NewScanner(bytes.NewReader(file))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var rec struct{ Title, Text, Claim string }
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				t.Fatal(err)
			}
			texts = append(texts, rec.Title, rec.Text, rec.Claim)
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return texts
}

// TestVectorsUnchanged pins the built-in embedder's vectors, bit for bit,
// on the golden texts: stores persist them under Name, so any change of
// the tokeniser, the stop words or the hashing must come with a new Name
// (and a re-index), and this digest with it.
func TestVectorsUnchanged(t *testing.T) {
	const want = "4077d4a6e9a0d229e61f8c68b9b76c7ddc1c0c4919216a925878ad8612d82872"
	vs, err := NewBuiltin(nil).Embed(context.Background(), goldenTexts(t))
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	var buf [4]byte
	for _, v := range vs {
		for _, x := range v {
			binary.LittleEndian.PutUint32(buf[:], math.Float32bits(x))
			h.Write(buf[:])
		}
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		t.Errorf("vectors of %d golden texts hash to %s, want %s: the embedder's output changed (Name is %s)", len(vs), got, want, Name)
	}
}
