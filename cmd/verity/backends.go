package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/embedding"
	"github.com/verity-fc/verity/jobs"
	"github.com/verity-fc/verity/llm"
	"github.com/verity-fc/verity/nli"
	"github.com/verity-fc/verity/retention"
	"github.com/verity-fc/verity/retrieval"
	"github.com/verity-fc/verity/server"
	"github.com/verity-fc/verity/wordvec"
)

// This file chooses, from the configuration, between the embedded default
// and the scale-out backends: SQLite or PostgreSQL, the embedded passage
// store or Qdrant, built-in models or Ollama and OpenAI-compatible ones.

// corpusStore is the corpus as the app holds it.
type corpusStore interface {
	corpus.Store
	corpus.KeyStore
	corpus.JobCounter
	Close() error
}

// embedder embeds passages and claims: the built-in embedder or a model
// backend's.
type embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// openCorpus opens the SQLite corpus in the data directory, or PostgreSQL
// when database.url is set.
func (a *app) openCorpus(ctx context.Context) error {
	if a.cfg.Database.URL == "" {
		c, err := corpus.OpenSQLite(ctx, filepath.Join(a.cfg.Data, "corpus.db"))
		if err != nil {
			return fmt.Errorf("open corpus: %w", err)
		}
		a.corpus = c
		a.closers = append(a.closers, c.Close)
		a.probes = append(a.probes, server.Probe{Name: "corpus", Ping: func(ctx context.Context) error {
			_, err := c.Stats(ctx)
			return err
		}})
		return nil
	}
	pg, err := corpus.OpenPostgres(ctx, a.cfg.Database.URL, a.cfg.postgresConfig())
	if err != nil {
		return fmt.Errorf("open corpus on postgres %s: %w", maskURL(a.cfg.Database.URL), err)
	}
	a.corpus, a.pg = pg, pg
	a.closers = append(a.closers, pg.Close)
	a.probes = append(a.probes, server.Probe{Name: "postgres", Ping: pg.Ping})
	return nil
}

// openPassages opens the embedded passage store in the data directory, or
// Qdrant when qdrant.url is set. Call it after openModels.
func (a *app) openPassages(ctx context.Context) error {
	if a.cfg.Qdrant.URL == "" {
		path := filepath.Join(a.cfg.Data, "passages.db")
		e, err := retrieval.OpenEmbedded(ctx, path, retrieval.EmbeddedConfig{Logger: a.log})
		if err != nil {
			return fmt.Errorf("open passage store: %w", err)
		}
		a.store = e
		a.closers = append(a.closers, e.Close)
		if b, ok := a.embedder.(*embedding.Builtin); ok {
			if d := e.Dim(); d != 0 && d != b.Dim() {
				return fmt.Errorf("the passages in %s were embedded with a %d-dimensional model, but the built-in embedder gives %d dimensions: "+
					"move that file away and ingest the sources again", path, d, b.Dim())
			}
		}
		return nil
	}
	client, err := retrieval.DialQdrant(a.cfg.Qdrant.URL, a.cfg.Qdrant.APIKey)
	if err != nil {
		return fmt.Errorf("open passage store: %w", err)
	}
	a.closers = append(a.closers, client.Close)
	qcfg := a.cfg.qdrantConfig()
	qcfg.Logger = a.log
	q := retrieval.NewQdrant(client, qcfg)
	a.store = q
	a.probes = append(a.probes, server.Probe{Name: "qdrant", Ping: q.Ping})
	return nil
}

// The model backends that model names can select.
const (
	backendOllama = "ollama"
	backendOpenAI = "openai"
)

// defaultBackend is the backend of bare model names: Ollama when it is
// configured, else an OpenAI-compatible endpoint, else none.
func (c Config) defaultBackend() string {
	switch {
	case c.Ollama.Host != "":
		return backendOllama
	case c.OpenAI.BaseURL != "":
		return backendOpenAI
	}
	return ""
}

// modelBackend splits a configured model name into its backend and the
// backend's name for it.
func (c Config) modelBackend(field, model string) (backend, name string, err error) {
	if backend, name = llm.SplitModel(model, backendOllama, backendOpenAI); backend == "" {
		backend = c.defaultBackend()
	}
	switch {
	case backend == "":
		return "", "", fmt.Errorf("%s: %q names no backend, and neither ollama.host nor openai.base_url is set", field, model)
	case backend == backendOllama && c.Ollama.Host == "":
		return "", "", fmt.Errorf("%s: %q is an Ollama model, but ollama.host (OLLAMA_HOST) is not set", field, model)
	case backend == backendOpenAI && c.OpenAI.BaseURL == "":
		return "", "", fmt.Errorf("%s: %q is an OpenAI-compatible model, but openai.base_url is not set", field, model)
	case name == "":
		return "", "", fmt.Errorf("%s: %q names no model", field, model)
	}
	return backend, name, nil
}

// openModels connects the configured model backends, routes model names
// to them (a.chat), and picks the embedder and the NLI judge: a backend's
// when models.embed or models.nli names one, else the built-in ones.
func (a *app) openModels() error {
	cfg := a.cfg
	embedBackend, embedName := "", ""
	if cfg.Models.Embed != "" {
		var err error
		if embedBackend, embedName, err = cfg.modelBackend("models.embed", cfg.Models.Embed); err != nil {
			return err
		}
	}
	chatModel := func(backend string) string {
		if backend == cfg.defaultBackend() {
			return cfg.Models.Chat
		}
		return ""
	}
	embedModel := func(backend string) string {
		if backend == embedBackend {
			return embedName
		}
		return ""
	}
	byName := map[string]llm.Chatter{}
	embedders := map[string]embedder{}
	if cfg.Ollama.Host != "" {
		o, err := llm.NewOllama(cfg.Ollama.Host, llm.NewHTTPClient(cfg.ollamaHTTP()), llm.OllamaConfig{
			ChatModel: chatModel(backendOllama), EmbedModel: embedModel(backendOllama),
			Limits: modelLimits(cfg.Ollama.Timeout),
		}, a.log)
		if err != nil {
			return fmt.Errorf("ollama.host: %w", err)
		}
		byName[backendOllama], embedders[backendOllama] = o, o
		a.probes = append(a.probes, server.Probe{Name: backendOllama, Ping: o.Ping})
	}
	if cfg.OpenAI.BaseURL != "" {
		o, err := llm.NewOpenAI(cfg.OpenAI.BaseURL, llm.NewHTTPClient(cfg.openAIHTTP()), llm.OpenAIConfig{
			APIKey: cfg.OpenAI.APIKey, ChatModel: chatModel(backendOpenAI), EmbedModel: embedModel(backendOpenAI),
			Limits: modelLimits(cfg.OpenAI.Timeout),
		}, a.log)
		if err != nil {
			return fmt.Errorf("openai.base_url: %w", err)
		}
		byName[backendOpenAI], embedders[backendOpenAI] = o, o
		a.probes = append(a.probes, server.Probe{Name: backendOpenAI, Ping: o.Ping})
	}
	if len(byName) > 0 {
		router := llm.NewRouter(byName[cfg.defaultBackend()], byName)
		a.chat = router
		if cfg.Models.NLI != "" {
			if _, _, err := cfg.modelBackend("models.nli", cfg.Models.NLI); err != nil {
				return err
			}
			ocfg := nli.OllamaConfig{Model: cfg.Models.NLI}
			if strings.Contains(strings.ToLower(cfg.Models.NLI), nli.ProfileMiniCheck) {
				// A yes/no checker: the built-in judge splits its "No"
				// into contradiction and neutral.
				b, err := defaultJudge()
				if err != nil {
					return fmt.Errorf("load built-in NLI model: %w", err)
				}
				ocfg.Split = b
			}
			j, err := nli.NewOllama(router, ocfg, a.log)
			if err != nil {
				return fmt.Errorf("models.nli: %w", err)
			}
			a.judge = j
		}
	} else if cfg.Models.NLI != "" {
		_, _, err := cfg.modelBackend("models.nli", cfg.Models.NLI)
		return err
	}
	if embedBackend != "" {
		a.embedder = embedders[embedBackend]
	} else {
		a.embedder = embedding.NewBuiltin(wordvec.Default())
	}
	if a.judge == nil {
		j, err := loadJudge(cfg.nliFile)
		if err != nil {
			return fmt.Errorf("load NLI model: %w", err)
		}
		a.judge = j
	}
	return nil
}

// jobRunner runs ingest jobs: jobs.Local or jobs.River.
type jobRunner interface {
	server.Jobs
	Run(ctx context.Context) error
}

// newRunner returns the in-process runner of the embedded default, or,
// with PostgreSQL, the River runner that shares the database's queue; it
// works jobs when work is true and only enqueues them otherwise.
func (a *app) newRunner(ctx context.Context, work bool) (jobRunner, error) {
	ingestWork := jobs.Work(a.ingestWork)
	if a.cfg.Retention.UploadDays == 0 {
		// Uploads go as soon as their job is done; the retention pass
		// deletes those of failed jobs.
		ingestWork = retention.DropUploads(ingestWork, uploadDir(a.cfg), a.log)
	}
	if a.pg == nil {
		return jobs.NewLocal(a.corpus, ingestWork, a.cfg.localJobsConfig(), a.log), nil
	}
	var w jobs.Work
	if work {
		w = ingestWork
	}
	r, err := jobs.NewRiver(ctx, a.pg.Pool(), a.pg, w, a.cfg.riverConfig(), a.log)
	if err != nil {
		return nil, fmt.Errorf("open the ingest queue: %w", err)
	}
	return r, nil
}
