package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/verity-fc/verity/agents/citations"
	"github.com/verity-fc/verity/agents/entail"
	"github.com/verity-fc/verity/agents/factcheck"
	"github.com/verity-fc/verity/agents/jury"
	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/ingest"
	"github.com/verity-fc/verity/jobs"
	"github.com/verity-fc/verity/llm"
	"github.com/verity-fc/verity/nli"
	"github.com/verity-fc/verity/quantity"
	"github.com/verity-fc/verity/retrieval"
	"github.com/verity-fc/verity/scoring"
	"github.com/verity-fc/verity/server"
	"github.com/verity-fc/verity/verify"
)

// app is the wired evidence layer of one process.
type app struct {
	cfg      Config
	log      *slog.Logger
	corpus   corpusStore
	store    retrieval.Store
	embedder embedder
	judge    nli.Judge
	// pg is the corpus when it is on PostgreSQL, for the job queue.
	pg *corpus.Postgres
	// probes are the backends /readyz checks; closers close them, in
	// reverse order.
	probes   []server.Probe
	closers  []func() error
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
	// metrics records the work of this process; serve publishes them.
	metrics *server.Metrics
}

// openApp opens the data directory (creating it) and wires the embedded
// default: SQLite corpus, embedded passage store, built-in embedder and NLI.
// Whatever fails, what was opened is closed here, in one place.
func openApp(ctx context.Context, cfg Config, log *slog.Logger) (_ *app, err error) {
	if err := os.MkdirAll(cfg.Data, 0o750); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	a := &app{cfg: cfg, log: log, metrics: server.NewMetrics()}
	defer func() {
		if err != nil {
			a.Close()
		}
	}()
	if err := a.openCorpus(ctx); err != nil {
		return nil, err
	}
	if err := a.openModels(); err != nil {
		return nil, err
	}
	if err := a.openPassages(ctx); err != nil {
		return nil, err
	}
	retriever := a.metrics.Retriever(retrieval.NewRetriever(a.store, a.embedder, cfg.Retrieval, nil))
	cal, err := loadCalibration(cfg.Scoring.Calibration)
	if err != nil {
		return nil, err
	}
	a.verify = verify.New(retriever, a.metrics.Judge(a.judge), scoring.New(cfg.Scoring, cal), quantity.Compare, cfg.Verify)

	ingest.SetExtractionBudget(cfg.Fetch.MaxExtractBytes)
	fc := cfg.fetchConfig()
	fc.Observe = a.metrics.ObserveFetch
	a.fetcher = ingest.NewFetcher(fc, log)
	rel, err := ingest.NewReliabilityTable(cfg.Ingest.Reliability)
	if err != nil {
		return nil, err // named the key
	}
	a.ingester = ingest.New(a.fetcher, a.corpus, a.store, a.embedder, ingest.Config{Workers: cfg.Ingest.Workers, Reliability: rel}, log)
	a.factcheck = factcheck.New(factcheck.Deps{Chat: a.chat, Verifier: a.metrics.Verifier(a.verify), Stages: a.corpus, Logger: log}, cfg.factcheckConfig())
	m := cfg.Models
	if a.entail, err = a.newEntail(); err != nil {
		return nil, err
	}
	juryCfg := jury.DefaultConfig()
	for _, set := range []struct {
		dst *string
		v   string
	}{
		{&juryCfg.Models.Parser, m.JuryParser}, {&juryCfg.Models.Agents, m.JuryAgents},
		{&juryCfg.Models.Foreperson, m.JuryForeperson}, {&juryCfg.Models.Novelty, m.JuryNovelty},
	} {
		if set.v != "" {
			*set.dst = set.v
		}
	}
	if a.jury, err = a.newJury(juryCfg); err != nil {
		return nil, err
	}
	var fetcher citations.Fetcher = a.fetcher
	if cfg.Server.Demo {
		// The demo corpus is served; its pages are read offline.
		fetcher = demoPages{next: a.fetcher, now: time.Now}
	}
	if a.citations, err = citations.New(citations.Deps{Fetcher: fetcher, Assessor: a.verify, Searcher: a.verify, Logger: log}, citations.Config{}.WithScoring(cfg.Scoring)); err != nil {
		return nil, fmt.Errorf("citation checker: %w", err)
	}
	return a, nil
}

// newEntail builds the entailment audit on the app's models.
func (a *app) newEntail() (*entail.Pipeline, error) {
	m := a.cfg.Models
	models := entail.Models{Extractor: m.EntailExtractor, Reliability: m.EntailReliability, Judge: m.EntailJudge, Auditor: m.EntailAuditor}
	p, err := entail.New(entail.Deps{Chatter: a.chat, NLI: a.judge, Logger: a.log}, entail.Config{Models: models})
	if err != nil {
		return nil, fmt.Errorf("entailment audit: %w", err)
	}
	return p, nil
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

// withModels is withApp for commands that use the models only (entail,
// jury): it wires the chat backends and the NLI judge and opens no store,
// so that it neither needs nor creates the data directory.
func withModels(cmd *cobra.Command, fn func(a *app) error) error {
	cfg, log, err := loadFor(cmd)
	if err != nil {
		return err
	}
	a := &app{cfg: cfg, log: log, metrics: server.NewMetrics()}
	defer a.Close()
	if err := a.openModels(); err != nil {
		return err
	}
	return fn(a)
}

// warnIfEmpty writes a warning to w when the corpus holds no sources: a
// command that reads it would otherwise judge every claim against nothing
// (Not enough evidence) without saying why. It warns rather than fails, so
// that scripts over an empty corpus keep working.
func (a *app) warnIfEmpty(ctx context.Context, w io.Writer) error {
	st, err := a.corpus.Stats(ctx)
	if err != nil {
		return fmt.Errorf("read corpus stats: %w", err)
	}
	if st.Sources == 0 {
		fmt.Fprintf(w, "verity: warning: no sources in %s: run `verity ingest`, or `verity serve` to load the demo corpus\n", a.cfg.Data)
	}
	return nil
}

// Close closes the stores.
func (a *app) Close() error {
	var errs []error
	for i := len(a.closers) - 1; i >= 0; i-- {
		errs = append(errs, a.closers[i]())
	}
	a.closers = nil
	return errors.Join(errs...)
}

// ingestWork adapts the Ingester to the job runner: progress and each
// failed source's reason as sources finish. When sources failed because a
// backend (Qdrant, PostgreSQL, a model server) is unavailable, the job as
// a whole fails with that error, so that the PostgreSQL queue tries it
// again later.
func (a *app) ingestWork(ctx context.Context, sources []string, report func(jobs.Update)) error {
	var (
		mu    sync.Mutex
		errs  []corpus.JobError
		cause []error
		last  ingest.Progress
	)
	ended := a.metrics.JobStarted()
	_, err := a.ingester.Run(ctx, sources, func(p ingest.Progress) {
		mu.Lock()
		defer mu.Unlock()
		a.metrics.ObserveIngest(p.Ingested-last.Ingested, p.Skipped-last.Skipped, p.Failed-last.Failed)
		last = p
		for _, f := range p.NewFailures {
			errs = append(errs, corpus.JobError{Source: f.Source, Reason: f.Reason})
			cause = append(cause, f.Err)
		}
		report(jobs.Update{Total: p.Total, Done: p.Done, Ingested: p.Ingested, Skipped: p.Skipped, Failed: p.Failed, Errors: errs})
	})
	if err != nil {
		ended(err)
		return err
	}
	mu.Lock()
	defer mu.Unlock()
	if down := jobs.BackendDown(cause); down != nil {
		err = fmt.Errorf("sources failed because a backend is unavailable: %w", down)
	}
	ended(err)
	return err
}
