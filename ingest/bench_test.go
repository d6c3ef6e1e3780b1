package ingest

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/verity-fc/verity/internal/shareddata"
)

// BenchmarkRunSciFact ingests the SciFact corpus (5,183 abstracts) into
// the in-memory fakes of ingest_test.go and reports passages per source
// and words per passage.
func BenchmarkRunSciFact(b *testing.B) {
	path := filepath.Join(shareddata.Dir(b), "scifact", "corpus.jsonl")
	var sum Summary
	var words int
	for b.Loop() {
		e := newEnv()
		var err error
		sum, err = e.ingester(Config{}).Run(context.Background(), []string{path}, nil)
		if err != nil {
			b.Fatal(err)
		}
		words = 0
		for _, p := range e.index.passages {
			words += len(strings.Fields(p.Text))
		}
	}
	if len(sum.Failed) > 0 {
		b.Fatalf("%d failures, first %+v", len(sum.Failed), sum.Failed[0])
	}
	b.ReportMetric(float64(sum.Sources), "sources")
	b.ReportMetric(float64(sum.Chunks)/float64(sum.Sources), "passages/source")
	b.ReportMetric(float64(words)/float64(sum.Chunks), "words/passage")
}

func BenchmarkExtractHTML(b *testing.B) {
	page := []byte(strings.Replace(articlePage, "<article>", "<article>"+strings.Repeat("<p>"+prose("bench", 10)+"</p>", 50), 1))
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		if _, err := Extract(page, "text/html", ""); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkChunk(b *testing.B) {
	text := strings.Repeat(prose("chunk", 40)+"\n\n", 25)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Chunk(text, ChunkConfig{})
	}
}
