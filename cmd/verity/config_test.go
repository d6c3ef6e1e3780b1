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
