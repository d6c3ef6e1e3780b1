package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/spf13/cobra"

	"github.com/verity-fc/verity/agents/citations"
	"github.com/verity-fc/verity/agents/entail"
	"github.com/verity-fc/verity/agents/factcheck"
	"github.com/verity-fc/verity/agents/jury"
	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/embedding"
	"github.com/verity-fc/verity/ingest"
	"github.com/verity-fc/verity/jobs"
	"github.com/verity-fc/verity/llm"
	"github.com/verity-fc/verity/nli"
	"github.com/verity-fc/verity/quantity"
	"github.com/verity-fc/verity/retrieval"
	"github.com/verity-fc/verity/scoring"
	"github.com/verity-fc/verity/verify"
	"github.com/verity-fc/verity/wordvec"
)

// app is the wired evidence layer of one process.
type app struct {
	cfg      Config
	log      *slog.Logger
	corpus   *corpus.SQLite
	store    *retrieval.Embedded
	embedder *embedding.Builtin
	judge    *nli.Builtin
	verify   *verify.Service
	fetcher  *ingest.Fetcher
	ingester *ingest.Ingester
	// chat serves model names that are not built-in roles; nil when no
	// model backend is configured.
	chat      llm.Chatter
	factcheck *factcheck.Pipeline
	entail    *entail.Pipeline
	jury      *jury.Jury
	citations *citations.Checker
}

// openApp opens the data directory (creating it) and wires the embedded
// default: SQLite corpus, embedded passage store, built-in embedder and NLI.
func openApp(ctx context.Context, cfg Config, log *slog.Logger) (*app, error) {
	if err := os.MkdirAll(cfg.Data, 0o750); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	a := &app{cfg: cfg, log: log}
	var err error
	if a.corpus, err = corpus.OpenSQLite(ctx, filepath.Join(cfg.Data, "corpus.db")); err != nil {
		return nil, fmt.Errorf("open corpus: %w", err)
	}
	if a.store, err = retrieval.OpenEmbedded(ctx, filepath.Join(cfg.Data, "passages.db"), retrieval.EmbeddedConfig{Logger: log}); err != nil {
		a.Close()
		return nil, fmt.Errorf("open passage store: %w", err)
	}
	a.embedder = embedding.NewBuiltin(wordvec.Default())
	if d := a.store.Dim(); d != 0 && d != a.embedder.Dim() {
		a.Close()
		return nil, fmt.Errorf("the passages in %s were embedded with a %d-dimensional model, but the built-in embedder gives %d dimensions: "+
			"move that file away and ingest the sources again", filepath.Join(cfg.Data, "passages.db"), d, a.embedder.Dim())
	}
	if a.judge, err = nli.LoadBuiltin(); err != nil {
		a.Close()
		return nil, fmt.Errorf("load built-in NLI model: %w", err)
	}
	r := cfg.Retrieval
	retriever := retrieval.NewRetriever(a.store, a.embedder, retrieval.Config{
		K: r.K, TopN: r.TopN, MinChars: r.MinChars, MaxChars: r.MaxChars,
		RecencyHalfLifeDays: r.RecencyHalfLifeDays, MaxPerDomain: r.MaxPerDomain,
	}, nil)
	cal, err := loadCalibration(cfg.Scoring.Calibration)
	if err != nil {
		a.Close()
		return nil, err
	}
	a.verify = verify.New(retriever, a.judge, scoring.New(cfg.Scoring, cal), quantity.Compare,
		verify.Limits{MaxClaimChars: cfg.Verify.MaxClaimChars, MaxCitations: cfg.Verify.Citations})

	f := cfg.Fetch
	a.fetcher = ingest.NewFetcher(ingest.FetchConfig{
		AllowPrivate: f.AllowPrivate, MaxBytes: f.MaxBytes, Timeout: f.Timeout,
		UserAgent: f.UserAgent, IgnoreRobots: !f.RespectRobots,
	}, log)
	rel, err := ingest.NewReliabilityTable(cfg.Ingest.Reliability)
	if err != nil {
		a.Close()
		return nil, fmt.Errorf("ingest.reliability: %w", err)
	}
	a.ingester = ingest.New(a.fetcher, a.corpus, a.store, a.embedder, ingest.Config{Workers: cfg.Ingest.Workers, Reliability: rel}, log)
	a.factcheck = factcheck.New(factcheck.Deps{Chat: a.chat, Verifier: a.verify, Stages: a.corpus, Logger: log}, factcheck.Config{})
	if a.entail, err = entail.New(entail.Deps{Chatter: a.chat, NLI: a.judge, Logger: log}, entail.Config{}); err != nil {
		a.Close()
		return nil, fmt.Errorf("entailment audit: %w", err)
	}
	if a.jury, err = a.newJury(jury.DefaultConfig()); err != nil {
		a.Close()
		return nil, err
	}
	if a.citations, err = citations.New(citations.Deps{Fetcher: a.fetcher, Assessor: a.verify, Searcher: a.verify, Logger: log}, citations.Config{}); err != nil {
		a.Close()
		return nil, fmt.Errorf("citation checker: %w", err)
	}
	return a, nil
}

// newJury builds a jury with cfg on the app's models.
func (a *app) newJury(cfg jury.Config) (*jury.Jury, error) {
	j, err := jury.New(jury.Deps{Chatter: a.chat, NLI: a.judge, Logger: a.log}, cfg)
	if err != nil {
		return nil, fmt.Errorf("jury: %w", err)
	}
	return j, nil
}

// withApp loads cmd's configuration, opens the app, runs fn and closes it.
func withApp(cmd *cobra.Command, fn func(a *app) error) error {
	cfg, log, err := loadFor(cmd)
	if err != nil {
		return err
	}
	a, err := openApp(cmd.Context(), cfg, log)
	if err != nil {
		return err
	}
	defer a.Close()
	return fn(a)
}

// Close closes the stores.
func (a *app) Close() error {
	var errs []error
	if a.store != nil {
		errs = append(errs, a.store.Close())
	}
	if a.corpus != nil {
		errs = append(errs, a.corpus.Close())
	}
	return errors.Join(errs...)
}

// ingestWork adapts the Ingester to the job runner: progress and each
// failed source's reason as sources finish.
func (a *app) ingestWork(ctx context.Context, sources []string, report func(jobs.Update)) error {
	var (
		mu   sync.Mutex
		errs []corpus.JobError
	)
	_, err := a.ingester.Run(ctx, sources, func(p ingest.Progress) {
		mu.Lock()
		defer mu.Unlock()
		for _, f := range p.NewFailures {
			errs = append(errs, corpus.JobError{Source: f.Source, Reason: f.Reason})
		}
		report(jobs.Update{Total: p.Total, Done: p.Done, Ingested: p.Ingested, Skipped: p.Skipped, Failed: p.Failed, Errors: errs})
	})
	return err
}
