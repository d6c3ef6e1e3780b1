package retrieval_test

import (
	"testing"
	"time"

	"github.com/verity-fc/verity/internal/configtest"
	"github.com/verity-fc/verity/retrieval"
)

func TestQdrantConfigValidate(t *testing.T) {
	configtest.Validate(t, retrieval.DefaultQdrantConfig, []configtest.Case[retrieval.QdrantConfig]{
		{Name: "defaults"},
		{Name: "empty collection takes the default", Edit: func(c *retrieval.QdrantConfig) { c.Collection = "" }},
		{Name: "cluster bounds", Edit: func(c *retrieval.QdrantConfig) { c.Shards, c.Replicas = 1000, 100 }},
		{Name: "no timeout", Edit: func(c *retrieval.QdrantConfig) { c.Timeout = 0 }, Want: "qdrant.timeout"},
		{Name: "negative shards", Edit: func(c *retrieval.QdrantConfig) { c.Shards = -1 }, Want: "qdrant.shards"},
		{Name: "too many shards", Edit: func(c *retrieval.QdrantConfig) { c.Shards = 1001 }, Want: "qdrant.shards"},
		{Name: "negative replicas", Edit: func(c *retrieval.QdrantConfig) { c.Replicas = -1 }, Want: "qdrant.replicas"},
		{Name: "too many replicas", Edit: func(c *retrieval.QdrantConfig) { c.Replicas = 101 }, Want: "qdrant.replicas"},
		{Name: "no candidates", Edit: func(c *retrieval.QdrantConfig) { c.CandidateFactor = 0 }, Want: "candidate factor"},
	})
	if d := retrieval.DefaultQdrantConfig(); d.Collection != "verity_passages" || d.Timeout != 10*time.Second ||
		d.CandidateFactor != 3 || d.AvgPassageWords != 80 || d.Shards != 0 || d.Replicas != 0 {
		t.Errorf("DefaultQdrantConfig() = %+v, want the documented verity_passages, 10 s, 3, 80, 0, 0", d)
	}
}
