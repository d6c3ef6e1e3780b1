package retrieval_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/retrieval"
	"github.com/verity-fc/verity/retrieval/qdranttest"
)

// benchCorpus is the same data for every store: passages of 40 words drawn
// from a 3,000-word vocabulary with a Zipf-like skew, and random 100-d
// vectors.
type benchCorpus struct {
	passages []evidence.Passage
	vecs     [][]float32
	queries  []retrieval.Query
}

func newBenchCorpus(n, dim int) benchCorpus {
	rng := rand.New(rand.NewSource(7))
	vocab := make([]string, 3000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%dx", i)
	}
	zipf := rand.NewZipf(rng, 1.1, 2, uint64(len(vocab)-1))
	text := func(words int) string {
		var b strings.Builder
		for i := range words {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(vocab[zipf.Uint64()])
		}
		return b.String()
	}
	vec := func() []float32 {
		v := make([]float32, dim)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		return v
	}
	c := benchCorpus{}
	for i := range n {
		c.passages = append(c.passages, evidence.Passage{
			ID: fmt.Sprintf("p%06d", i), SourceID: fmt.Sprintf("s%05d", i/5), Text: text(40), Title: text(4),
			Domain: fmt.Sprintf("d%d.example", i%50), PublishedAt: time.Date(2015+i%10, 1, 1, 0, 0, 0, 0, time.UTC), Reliability: 0.5,
		})
		c.vecs = append(c.vecs, vec())
	}
	for range 200 {
		c.queries = append(c.queries, retrieval.Query{Text: text(8), Vector: vec(), K: 20})
	}
	return c
}

// benchStores opens each store the benchmarks compare: the embedded store,
// the Qdrant store over the in-process server on loopback, and over a real
// Qdrant when QDRANT_URL is set. The in-process server scores by brute
// force in Go, so its figures measure the client, the gRPC protocol and
// loopback, not Qdrant's own index.
func benchStores(b *testing.B) map[string]func(b *testing.B) retrieval.Store {
	stores := map[string]func(b *testing.B) retrieval.Store{
		"embedded": func(b *testing.B) retrieval.Store {
			s, err := retrieval.OpenEmbedded(context.Background(), filepath.Join(b.TempDir(), "p.db"), retrieval.EmbeddedConfig{})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			return s
		},
		"qdrant-inprocess": func(b *testing.B) retrieval.Store {
			srv := qdranttest.Start(b)
			return openQdrant(b, dial(b, srv.URL(), ""), retrieval.QdrantConfig{})
		},
	}
	if url := os.Getenv("QDRANT_URL"); url != "" {
		stores["qdrant-real"] = func(b *testing.B) retrieval.Store {
			return openQdrant(b, dial(b, url, os.Getenv("QDRANT_API_KEY")), retrieval.QdrantConfig{})
		}
	}
	return stores
}

func load(b *testing.B, s retrieval.Store, c benchCorpus, batch int) {
	b.Helper()
	for i := 0; i < len(c.passages); i += batch {
		end := min(i+batch, len(c.passages))
		if err := s.Upsert(context.Background(), c.passages[i:end], c.vecs[i:end]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStoreUpsert measures upsert throughput in batches of 64
// passages (ingest's batch size), on a store that already holds 5,000.
func BenchmarkStoreUpsert(b *testing.B) {
	const n, batch = 5000, 64
	c := newBenchCorpus(n+batch*50, 100)
	for name, open := range benchStores(b) {
		b.Run(name, func(b *testing.B) {
			s := open(b)
			load(b, s, benchCorpus{passages: c.passages[:n], vecs: c.vecs[:n]}, 256)
			extra := c.passages[n:]
			i := 0
			for b.Loop() {
				j := (i * batch) % (len(extra) - batch)
				if err := s.Upsert(context.Background(), extra[j:j+batch], c.vecs[n+j:n+j+batch]); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.ReportMetric(float64(i*batch)/b.Elapsed().Seconds(), "passages/s")
		})
	}
}

// BenchmarkStoreSearch measures the latency of one hybrid search (K=20,
// 8 words of text and a 100-d vector) over 5,000 passages, unfiltered and
// filtered by domain and date.
func BenchmarkStoreSearch(b *testing.B) {
	const n = 5000
	c := newBenchCorpus(n, 100)
	for name, open := range benchStores(b) {
		b.Run(name, func(b *testing.B) {
			s := open(b)
			load(b, s, c, 256)
			for _, filtered := range []bool{false, true} {
				b.Run(fmt.Sprintf("filtered=%v", filtered), func(b *testing.B) {
					i := 0
					for b.Loop() {
						q := c.queries[i%len(c.queries)]
						if filtered {
							q.Filter = retrieval.Filter{Domains: []string{"d1.example", "d2.example", "d3.example"}, Since: time.Date(2018, 1, 1, 0, 0, 0, 0, time.UTC)}
						}
						if _, err := s.Search(context.Background(), q); err != nil {
							b.Fatal(err)
						}
						i++
					}
				})
			}
		})
	}
}
