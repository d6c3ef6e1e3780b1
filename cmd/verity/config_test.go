package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLoadConfigLayers(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "verity.yaml")
	yaml := "data: /from/file\nretrieval:\n  k: 30\n  top_n: 8\nfetch:\n  timeout: 5s\ningest:\n  reliability:\n    nasa.gov: 0.95\n"
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"VERITY_TEST_DATABASE_URL=postgres://x", "VERITY_SHARED_DATA=/d", "VERITY_RETRIEVAL_TOP_N=7", "VERITY_FETCH_ALLOW_PRIVATE=1", "VERITY_SCORING_W_E_MAX=0.5", "PATH=/bin"}
	c, err := loadConfig(path, env, map[string]any{"data": "/from/flag"})
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"flag beats file", c.Data, "/from/flag"},
		{"file beats default", c.Retrieval.K, 30},
		{"env beats file", c.Retrieval.TopN, 7},
		{"env bool 1", c.Fetch.AllowPrivate, true},
		{"env float", c.Scoring.WEMax, 0.5},
		{"duration", c.Fetch.Timeout, 5 * time.Second},
		{"map", c.Ingest.Reliability["nasa.gov"], 0.95},
		{"untouched default", c.Scoring.WCMax, 0.25},
		{"server default", c.Server.Addr, "127.0.0.1:8080"},
		{"server limit default", c.Server.MaxHeavy, 4},
		{"factcheck default", c.Factcheck.MaxClaims, 50},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s: got %v, want %v", ch.name, ch.got, ch.want)
		}
	}
}

func TestLoadConfigErrors(t *testing.T) {
	dir := t.TempDir()
	n := 0
	write := func(s string) string {
		n++
		p := filepath.Join(dir, fmt.Sprintf("c%d.yaml", n))
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name string
		path string
		env  []string
		want string
	}{
		{"unknown file key", write("retrieval:\n  kk: 3\n"), nil, `unknown setting "retrieval.kk"`},
		{"unknown env key", "", []string{"VERITY_RETRIEVAL_KK=3"}, "VERITY_RETRIEVAL_KK"},
		{"k out of range", "", []string{"VERITY_RETRIEVAL_K=0"}, "retrieval.k"},
		{"top_n above its maximum", write("retrieval:\n  k: 50\n  top_n: 30\n"), nil, "retrieval.top_n: must be between 1 and 20"},
		{"bad threshold", "", []string{"VERITY_SCORING_REFUTED_C_MAX=2"}, "refuted_c_max"},
		{"missing file", filepath.Join(dir, "nope.yaml"), nil, "nope.yaml"},
		{"bad reliability", write("ingest:\n  reliability:\n    a.com: 3\n"), nil, "ingest.reliability.a.com"},
		{"reliability of no domain", write("ingest:\n  reliability:\n    \" . \": 0.5\n"), nil, "ingest.reliability"},
		{"no extraction budget", "", []string{"VERITY_FETCH_MAX_EXTRACT_BYTES=0"}, "fetch.max_extract_bytes"},
		{"negative retention interval", "", []string{"VERITY_RETENTION_INTERVAL=-1s"}, "retention.interval"},
		{"negative qdrant shards", write("qdrant:\n  shards: -1\n"), nil, "qdrant.shards"},
		{"both retrieval keys named", write("retrieval:\n  k: 50\n  top_n: 30\n"), nil, "retrieval.k: 50, retrieval.top_n: 30"},
		{"max_chars under min_chars", write("retrieval:\n  min_chars: 500\n  max_chars: 100\n"), nil, "retrieval.max_chars"},
		{"server limit", "", []string{"VERITY_SERVER_MAX_HEAVY=0"}, "server.max_heavy"},
		{"server body limit", write("server:\n  max_body_bytes: -1\n"), nil, "server.max_body_bytes"},
		{"verify citations", write("verify:\n  citations: 5\n"), nil, "verify.citations must be 2 or 3"},
		{"verify gate", "", []string{"VERITY_VERIFY_CREDIBLE=2"}, "verify.credible"},
		{"factcheck stage timeout", write("factcheck:\n  stage_timeout: 1s\n"), nil, "factcheck.stage_timeout"},
		{"factcheck global timeout", write("factcheck:\n  global_timeout: 1m\n"), nil, "factcheck.global_timeout"},
		{"factcheck claims", "", []string{"VERITY_FACTCHECK_MAX_CLAIMS=-1"}, "factcheck.max_claims"},
		{"too many checkers", "", []string{"VERITY_MODELS_CHECKERS=a,b,c,d,e"}, "models.checkers names 5 models"},
		{"jobs workers", "", []string{"VERITY_JOBS_WORKERS=0"}, "jobs.workers must be between 1 and 64"},
		{"retention days", write("retention:\n  days: -1\n"), nil, "retention.days"},
		{"retention interval", "", []string{"VERITY_RETENTION_INTERVAL=-1s"}, "retention.interval"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadConfig(tt.path, tt.env, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want mention of %q", err, tt.want)
			}
		})
	}
}

func TestMaskURL(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://verity:s3cret@db:5432/verity": "postgres://verity:********@db:5432/verity",
		"postgres://db/verity":                    "postgres://db/verity",
		"http://localhost:6333":                   "http://localhost:6333",
	} {
		if got := maskURL(in); got != want {
			t.Errorf("maskURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestAgentModelsNeedABackend: naming a model for an agent role without a
// model backend is an error at start, naming the role, not a failure at the
// first request.
func TestAgentModelsNeedABackend(t *testing.T) {
	for _, env := range []string{"VERITY_MODELS_ENTAIL_JUDGE=llama3.1", "VERITY_MODELS_JURY_FOREPERSON=llama3.1"} {
		cfg, err := loadConfig("", []string{env}, map[string]any{"data": t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		_, err = openApp(context.Background(), cfg, slog.New(slog.DiscardHandler))
		if err == nil || !strings.Contains(err.Error(), "llama3.1") || !strings.Contains(err.Error(), "no model backend") {
			t.Errorf("%s: openApp error = %v", env, err)
		}
	}
}

// TestLoadConfigSections checks that the settings of the sections cmd
// embeds from their packages (server, retrieval, verify, factcheck) load
// from the file and the environment and reach the package's type.
func TestLoadConfigSections(t *testing.T) {
	path := filepath.Join(t.TempDir(), "verity.yaml")
	yaml := "server:\n  max_heavy: 7\n  stream_heartbeat: 5s\nretrieval:\n  max_per_url: 2\n  blend:\n    overlap: 0.5\n" +
		"verify:\n  citations: 2\n  max_domains: 9\nfactcheck:\n  max_claims: 12\n  stage_timeout: 45s\nmodels:\n  checkers: a, b\n"
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := loadConfig(path, []string{"VERITY_SERVER_MAX_CONNECTIONS=9", "VERITY_FACTCHECK_MAX_TOKENS=300"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	fc := c.factcheckConfig()
	checks := []struct {
		name      string
		got, want any
	}{
		{"server.max_heavy", c.Server.MaxHeavy, 7},
		{"server.stream_heartbeat", c.Server.StreamHeartbeat, 5 * time.Second},
		{"server.max_connections", c.Server.MaxConns, 9},
		{"server.read_timeout default", c.Server.ReadTimeout, 30 * time.Second},
		{"retrieval.max_per_url", c.Retrieval.MaxPerURL, 2},
		{"retrieval.blend.overlap", c.Retrieval.Blend.Overlap, 0.5},
		{"retrieval.blend.relevance default", c.Retrieval.Blend.Relevance, 0.6},
		{"verify.citations", c.Verify.MaxCitations, 2},
		{"verify.max_domains", c.Verify.MaxDomains, 9},
		{"factcheck.max_claims", fc.MaxClaims, 12},
		{"factcheck.stage_timeout", fc.StageTimeout, 45 * time.Second},
		{"factcheck.max_tokens", fc.MaxTokens, 300},
		{"factcheck.global_timeout default", fc.GlobalTimeout, 600 * time.Second},
		{"models.checkers", strings.Join(fc.CheckerModels, "|"), "a|b"},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s: got %v, want %v", ch.name, ch.got, ch.want)
		}
	}
}
