package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/embedding"
	"github.com/verity-fc/verity/llm"
	"github.com/verity-fc/verity/llm/llmtest"
	"github.com/verity-fc/verity/nli"
)

func TestScaleOutConfigSources(t *testing.T) {
	path := filepath.Join(t.TempDir(), "verity.yaml")
	yaml := "qdrant:\n  url: http://from-file:6334\nollama:\n  host: from-file:11434\nopenai:\n  base_url: http://vllm:8000/v1\n"
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{
		"OLLAMA_HOST=from-alias:11434",
		"QDRANT_URL=http://from-alias:6334",
		"VERITY_QDRANT_URL=http://from-verity-env:6334",
		"VERITY_DATABASE_URL=postgres://verity:pw@db:5432/verity",
		"VERITY_QDRANT_API_KEY=qk",
		"VERITY_OPENAI_API_KEY=ok",
		"VERITY_MODELS_EMBED=ollama/nomic-embed-text",
		"VERITY_MODELS_CHECKERS=verity/evidence, openai/gpt-4o-mini",
		"VERITY_JOBS_IN_SERVE=true",
		"VERITY_JOBS_WORKERS=3",
	}
	c, err := loadConfig(path, env, nil)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"VERITY_ beats the alias", c.Qdrant.URL, "http://from-verity-env:6334"},
		{"the alias beats the file", c.Ollama.Host, "from-alias:11434"},
		{"file", c.OpenAI.BaseURL, "http://vllm:8000/v1"},
		{"database url", c.Database.URL, "postgres://verity:pw@db:5432/verity"},
		{"qdrant api key", c.Qdrant.APIKey, "qk"},
		{"openai api key", c.OpenAI.APIKey, "ok"},
		{"embed model", c.Models.Embed, "ollama/nomic-embed-text"},
		{"in serve", c.Jobs.InServe, true},
		{"job workers", c.Jobs.Workers, 3},
		{"collection default", c.Qdrant.Collection, "verity_passages"},
		{"attempts default", c.Jobs.MaxAttempts, 5},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s: got %v, want %v", ch.name, ch.got, ch.want)
		}
	}
	if diff := cmp.Diff([]string{"verity/evidence", "openai/gpt-4o-mini"}, c.checkerModels()); diff != "" {
		t.Errorf("checker models (-want +got):\n%s", diff)
	}
}

func TestScaleOutConfigErrors(t *testing.T) {
	tests := []struct {
		env  []string
		want string
	}{
		{[]string{"VERITY_JOBS_IN_SERVE=1"}, "jobs.in_serve needs database.url"},
		{[]string{"VERITY_DATABASE_URL=mysql://u:hunter2@db/x"}, "database.url must be a postgres:// URL"},
		{[]string{"VERITY_JOBS_WORKERS=0"}, "jobs.workers"},
		{[]string{"VERITY_JOBS_MAX_ATTEMPTS=0"}, "jobs.max_attempts"},
		{[]string{"VERITY_MODELS_CHECKERS=a,b,c,d,e"}, "models.checkers"},
		{[]string{"VERITY_QDRANT_TIMEOUT=0s"}, "qdrant.timeout"},
		{[]string{"VERITY_QDRANT_REPLICAS=-1"}, "qdrant.replicas"},
		{[]string{"VERITY_DATABASE_URL=postgres://u:hunter2@db/x", "VERITY_DATABASE_SCHEMA=Bad-Name"}, "database.schema"},
		{[]string{"VERITY_OLLAMA_TIMEOUT=0s"}, "ollama.timeout"},
		{[]string{"VERITY_OPENAI_TIMEOUT=1s", "VERITY_OPENAI_CONNECT_TIMEOUT=5s"}, "openai.timeout, openai.connect_timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			_, err := loadConfig("", tt.env, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want mention of %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("the error shows a password: %v", err)
			}
		})
	}
}

// TestConfigCommandMasksSecrets runs `verity config` with every secret set
// and checks that none is printed while the settings around them are.
func TestConfigCommandMasksSecrets(t *testing.T) {
	secrets := []string{"pgsecret", "pgparam", "qdrantkey", "openaikey", "ollamapw"}
	env := []string{
		"VERITY_DATABASE_URL=postgres://verity:pgsecret@db:5432/verity?sslmode=disable&password=pgparam",
		"VERITY_QDRANT_URL=http://qdrant:6334",
		"VERITY_QDRANT_API_KEY=qdrantkey",
		"VERITY_OPENAI_BASE_URL=https://api.example/v1",
		"VERITY_OPENAI_API_KEY=openaikey",
		"OLLAMA_HOST=http://user:ollamapw@ollama:11434",
	}
	out, stderr, code := verityEnv(t, env, "config")
	if code != 0 {
		t.Fatalf("verity config exited %d: %s", code, stderr)
	}
	for _, s := range secrets {
		if strings.Contains(out, s) {
			t.Errorf("verity config prints the secret %q:\n%s", s, out)
		}
	}
	for _, want := range []string{"postgres://verity:********@db:5432/verity", "api_key: '********'", "http://qdrant:6334", "https://api.example/v1", "ollama:11434"} {
		if !strings.Contains(out, want) {
			t.Errorf("verity config lacks %q:\n%s", want, out)
		}
	}
}

func TestMaskURLForms(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u@db/x?sslmode=disable&password=pw": "postgres://u@db/x?sslmode=disable&password=********",
		"host=db user=u password=pw dbname=x":           "host=db user=u password=******** dbname=x",
		"postgres://u:pw@db/x?sslpassword=k":            "postgres://u:********@db/x?sslpassword=********",
	} {
		if got := maskURL(in); got != want {
			t.Errorf("maskURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestModelBackend(t *testing.T) {
	both := defaultConfig()
	both.Ollama.Host, both.OpenAI.BaseURL = "ollama:11434", "http://vllm/v1"
	onlyOpenAI := defaultConfig()
	onlyOpenAI.OpenAI.BaseURL = "http://vllm/v1"
	tests := []struct {
		name          string
		cfg           Config
		model         string
		backend, want string
		err           string
	}{
		{"bare goes to ollama first", both, "llama3.1:8b", "ollama", "llama3.1:8b", ""},
		{"named openai", both, "openai/gpt-4o-mini", "openai", "gpt-4o-mini", ""},
		{"slashes after the backend stay", both, "openai/meta-llama/Llama-3.1-8B", "openai", "meta-llama/Llama-3.1-8B", ""},
		{"other prefixes are names", onlyOpenAI, "hf.co/org/m", "openai", "hf.co/org/m", ""},
		{"ollama not configured", onlyOpenAI, "ollama/x", "", "", "ollama.host"},
		{"nothing configured", defaultConfig(), "x", "", "", "names no backend"},
		{"no model", both, "ollama/", "", "", "names no model"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, m, err := tt.cfg.modelBackend("models.x", tt.model)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("err = %v, want mention of %q", err, tt.err)
				}
				return
			}
			if err != nil || b != tt.backend || m != tt.want {
				t.Errorf("= %q, %q, %v; want %q, %q", b, m, err, tt.backend, tt.want)
			}
		})
	}
}

// TestOpenModels wires the roles to a fake Ollama server: the embedder
// and the NLI judge become the backend's, and the readiness probes ping it.
func TestOpenModels(t *testing.T) {
	srv := llmtest.NewOllama(t, llmtest.Config{})
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))

	cfg := defaultConfig()
	a := &app{cfg: cfg, log: quiet}
	if err := a.openModels(); err != nil {
		t.Fatal(err)
	}
	if _, ok := a.embedder.(*embedding.Builtin); !ok || a.chat != nil || len(a.probes) != 0 {
		t.Errorf("default models: embedder %T, chat %v, probes %d; want the built-in ones only", a.embedder, a.chat, len(a.probes))
	}
	if _, ok := a.judge.(*nli.Builtin); !ok {
		t.Errorf("default judge %T, want *nli.Builtin", a.judge)
	}

	cfg.Ollama.Host = srv.URL
	cfg.Models.Embed = "ollama/" + llmtest.EmbedModel
	cfg.Models.NLI = llmtest.ChatModel
	cfg.Models.Chat = llmtest.ChatModel
	a = &app{cfg: cfg, log: quiet}
	if err := a.openModels(); err != nil {
		t.Fatal(err)
	}
	if _, ok := a.embedder.(*llm.Ollama); !ok {
		t.Errorf("embedder %T, want *llm.Ollama", a.embedder)
	}
	if _, ok := a.judge.(*nli.Ollama); !ok {
		t.Errorf("judge %T, want *nli.Ollama", a.judge)
	}
	vecs, err := a.embedder.Embed(context.Background(), []string{"a claim"})
	if err != nil || len(vecs) != 1 {
		t.Errorf("Embed = %v, %v", vecs, err)
	}
	if len(a.probes) != 1 || a.probes[0].Name != "ollama" {
		t.Fatalf("probes = %+v, want ollama", a.probes)
	}
	if err := a.probes[0].Ping(context.Background()); err != nil {
		t.Errorf("ollama probe: %v", err)
	}

	cfg.Models.Embed = "openai/text-embedding-3-small"
	a = &app{cfg: cfg, log: quiet}
	if err := a.openModels(); err == nil || !strings.Contains(err.Error(), "openai.base_url") {
		t.Errorf("an OpenAI embedder without openai.base_url: err = %v", err)
	}
}
