package corpus_test

import (
	"testing"
	"time"

	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/internal/configtest"
)

func TestPostgresConfigValidate(t *testing.T) {
	configtest.Validate(t, corpus.DefaultPostgresConfig, []configtest.Case[corpus.PostgresConfig]{
		{Name: "defaults"},
		{Name: "a schema", Edit: func(c *corpus.PostgresConfig) { c.Schema = "verity_1" }},
		{Name: "a pool bound", Edit: func(c *corpus.PostgresConfig) { c.MaxConns = 8 }},
		{Name: "schema with SQL", Edit: func(c *corpus.PostgresConfig) { c.Schema = "x; DROP TABLE y" }, Want: "database.schema"},
		{Name: "upper-case schema", Edit: func(c *corpus.PostgresConfig) { c.Schema = "Verity" }, Want: "database.schema"},
		{Name: "negative pool", Edit: func(c *corpus.PostgresConfig) { c.MaxConns = -1 }, Want: "MaxConns"},
		{Name: "no timeout", Edit: func(c *corpus.PostgresConfig) { c.Timeout = 0 }, Want: "Timeout"},
		{Name: "no connect timeout", Edit: func(c *corpus.PostgresConfig) { c.ConnectTimeout = 0 }, Want: "ConnectTimeout"},
	})
	if d := corpus.DefaultPostgresConfig(); d.Schema != "" || d.MaxConns != 0 || d.Timeout != 15*time.Second || d.ConnectTimeout != 5*time.Second {
		t.Errorf("DefaultPostgresConfig() = %+v, want the documented search_path schema, pgxpool's pool, 15 s, 5 s", d)
	}
}
