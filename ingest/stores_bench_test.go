package ingest_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/embedding"
	"github.com/verity-fc/verity/ingest"
	"github.com/verity-fc/verity/internal/shareddata"
	"github.com/verity-fc/verity/retrieval"
	"github.com/verity-fc/verity/wordvec"
)

// BenchmarkIngestJSONLStores ingests a JSONL file into the real embedded
// stores (corpus.SQLite and retrieval.Embedded in a temporary directory,
// with the built-in embedder), as `verity ingest` does, and reports
// passages/s, the store's close (its snapshots) included. The file is
// VERITY_INGEST_BENCH_JSONL, such as a part of the corpus `verity bench
// scale` generates, else SciFact's corpus:
//
//	VERITY_INGEST_BENCH_JSONL=/work/bench-data/100k/corpus/part-0000.jsonl \
//	  go test -run '^$' -bench IngestJSONLStores -benchtime 1x ./ingest/
func BenchmarkIngestJSONLStores(b *testing.B) {
	path := os.Getenv("VERITY_INGEST_BENCH_JSONL")
	if path == "" {
		path = filepath.Join(shareddata.Dir(b, "scifact"), "corpus.jsonl")
	}
	ctx := context.Background()
	emb := embedding.NewBuiltin(wordvec.Default())
	passages := 0
	for b.Loop() {
		dir := b.TempDir()
		src, err := corpus.OpenSQLite(ctx, filepath.Join(dir, "corpus.db"))
		if err != nil {
			b.Fatal(err)
		}
		store, err := retrieval.OpenEmbedded(ctx, filepath.Join(dir, "passages.db"), retrieval.EmbeddedConfig{})
		if err != nil {
			b.Fatal(err)
		}
		sum, err := ingest.New(nil, src, store, emb, ingest.Config{}, nil).Run(ctx, []string{path}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if len(sum.Failed) > 0 {
			b.Fatalf("%d failures, first %+v", len(sum.Failed), sum.Failed[0])
		}
		if err := store.Close(); err != nil {
			b.Fatal(err)
		}
		src.Close()
		passages += sum.Chunks
	}
	b.ReportMetric(float64(passages)/b.Elapsed().Seconds(), "passages/s")
}
