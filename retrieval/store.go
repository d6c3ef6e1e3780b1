// Package retrieval finds the passages that bear on a claim. It defines the
// Store contract (upsert, hybrid search, delete by source) with its
// conformance suite, the embedded implementation kept in the data directory,
// and the Retriever that turns raw hits into the re-ranked passages the seed
// judges: k candidates, length filter, dedupe by URL and domain, recency
// weight, top-n.
package retrieval

import (
	"context"
	"time"

	"github.com/verity-fc/verity/evidence"
)

// Store is the contract every passage index implements: the embedded store
// and Qdrant. Implementations must pass [storetest.Run].
type Store interface {
	// Upsert stores passages with their dense vectors (vecs[i] belongs to
	// passages[i]). A passage with an existing ID is replaced.
	Upsert(ctx context.Context, passages []evidence.Passage, vecs [][]float32) error
	// Search returns at most q.K hits, best first, fusing sparse (BM25) and
	// dense similarity.
	Search(ctx context.Context, q Query) ([]Hit, error)
	// DeleteSource removes every passage of a source.
	DeleteSource(ctx context.Context, sourceID string) error
}

// Query is one hybrid search.
type Query struct {
	Text   string
	Vector []float32
	// K is the number of hits wanted; implementations cap it at MaxK.
	K      int
	Filter Filter
}

// Filter restricts a search. The zero Filter matches everything.
type Filter struct {
	// Domains, when not empty, keeps passages whose domain is one of these.
	Domains []string
	// Since, when not zero, keeps passages published at or after it;
	// passages without a date are dropped by a non-zero Since.
	Since time.Time
}

// Hit is one search result. Score is a relevance score, never truth: higher
// is more relevant, and only the order is meaningful across stores.
type Hit struct {
	Passage evidence.Passage
	Score   float64
}

// MaxK bounds Query.K for every store.
const MaxK = 200
