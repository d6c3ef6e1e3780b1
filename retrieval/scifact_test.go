package retrieval_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/retrieval"
)

// sharedData returns the shared labeled-data folder (VERITY_SHARED_DATA, or
// ../shared/data beside the repository), skipping the test when it is
// absent: a user's machine does not have it.
func sharedData(t *testing.T, rel string) string {
	t.Helper()
	dir := os.Getenv("VERITY_SHARED_DATA")
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		for d := wd; ; d = filepath.Dir(d) {
			if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
				dir = filepath.Join(d, "..", "shared", "data")
				break
			}
			if filepath.Dir(d) == d {
				t.Skip("repository root not found")
			}
		}
	}
	p := filepath.Join(dir, rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared data %s absent: %v", p, err)
	}
	return p
}

func readJSONL(t *testing.T, path string, each func(line []byte) error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		if err := each(sc.Bytes()); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// TestSciFactBM25Recall indexes the SciFact corpus (5,183 abstracts, one
// passage each) and measures the recall@20 of the store's BM25 path for
// the training claims against their judged abstracts (qrels_train.tsv).
// Measured 0.964 (recall@1 0.752); the floor catches a broken tokenizer,
// query sanitiser or ranking.
func TestSciFactBM25Recall(t *testing.T) {
	dir := sharedData(t, "scifact")
	if testing.Short() || raceEnabled {
		t.Skip("indexes 5,183 abstracts: 6 s, but some 8 minutes under -race")
	}
	ctx := context.Background()
	var ps []evidence.Passage
	readJSONL(t, filepath.Join(dir, "corpus.jsonl"), func(line []byte) error {
		var d struct {
			DocID    int      `json:"doc_id"`
			Title    string   `json:"title"`
			Abstract []string `json:"abstract"`
		}
		if err := json.Unmarshal(line, &d); err != nil {
			return err
		}
		id := strconv.Itoa(d.DocID)
		ps = append(ps, evidence.Passage{ID: id, SourceID: id, Title: d.Title, Text: strings.Join(d.Abstract, " ")})
		return nil
	})
	s := openEmbedded(t, retrieval.EmbeddedConfig{})
	for i := 0; i < len(ps); i += retrieval.MaxUpsertBatch {
		batch := ps[i:min(i+retrieval.MaxUpsertBatch, len(ps))]
		vecs := make([][]float32, len(batch))
		for j := range vecs {
			vecs[j] = []float32{1} // the dense path is not measured here
		}
		if err := s.Upsert(ctx, batch, vecs); err != nil {
			t.Fatal(err)
		}
	}

	claims := map[int]string{}
	readJSONL(t, filepath.Join(dir, "train_claims.jsonl"), func(line []byte) error {
		var c struct {
			ID    int    `json:"id"`
			Claim string `json:"claim"`
		}
		err := json.Unmarshal(line, &c)
		claims[c.ID] = c.Claim
		return err
	})
	gold := map[int][]string{}
	b, err := os.ReadFile(filepath.Join(dir, "qrels_train.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
		var q, doc, score int
		if _, err := fmt.Sscanf(line, "%d\t%d\t%d", &q, &doc, &score); err != nil {
			t.Fatalf("qrels line %q: %v", line, err)
		}
		gold[q] = append(gold[q], strconv.Itoa(doc))
	}

	const k = 20
	var sum float64
	var n int
	for q, docs := range gold {
		claim, ok := claims[q]
		if !ok {
			continue
		}
		hits, err := s.Search(ctx, retrieval.Query{Text: claim, K: k})
		if err != nil {
			t.Fatal(err)
		}
		found := map[string]bool{}
		for _, h := range hits {
			found[h.Passage.ID] = true
		}
		got := 0
		for _, d := range docs {
			if found[d] {
				got++
			}
		}
		sum += float64(got) / float64(len(docs))
		n++
	}
	recall := sum / float64(n)
	t.Logf("SciFact train: BM25 recall@%d = %.3f over %d claims", k, recall, n)
	if n < 300 {
		t.Fatalf("only %d claims with judged abstracts", n)
	}
	if recall < 0.70 {
		t.Errorf("BM25 recall@%d = %.3f, below the floor 0.70", k, recall)
	}
}
