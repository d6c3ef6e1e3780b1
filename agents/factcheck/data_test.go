package factcheck

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/verity-fc/verity/internal/shareddata"
)

// readClaims reads the claim field of up to limit rows of a JSONL file.
func readClaims(t *testing.T, path string, limit int) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("labeled data not found: %v", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() && len(out) < limit {
		var row struct {
			Claim string `json:"claim"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, row.Claim)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCheckWorthinessOnLabeledClaims measures how many claims of public
// fact-verification sets (every one a factual, checkable claim) the built-in
// extractor keeps. It skips when the data is absent.
func TestCheckWorthinessOnLabeledClaims(t *testing.T) {
	dir := shareddata.Dir(t)
	c := classifier{year: testNow.Year()}
	for _, set := range []struct {
		path    string
		minKept float64
	}{
		{"fever/paper_dev.jsonl", 0.85},
		{"scifact/train_claims.jsonl", 0.75},
	} {
		claims := readClaims(t, filepath.Join(dir, set.path), 2000)
		kept := 0
		reasons := map[string]int{}
		for _, cl := range claims {
			r := c.classify(cl)
			reasons[r.skip]++
			if r.skip == keep {
				kept++
			}
		}
		rate := float64(kept) / float64(len(claims))
		t.Logf("%s: kept %d of %d claims (%.1f%%); by reason %v", set.path, kept, len(claims), 100*rate, reasons)
		if rate < set.minKept {
			t.Errorf("%s: kept %.1f%%, want at least %.1f%%", set.path, 100*rate, 100*set.minKept)
		}
	}
}
