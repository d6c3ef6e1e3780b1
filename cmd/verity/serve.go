package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"github.com/verity-fc/verity/demo"
	"github.com/verity-fc/verity/ingest"
	"github.com/verity-fc/verity/server"
)

func init() { subcommands = append(subcommands, newServeCmd) }

func newServeCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the HTTP API (and web UI) on the data directory",
		Long: `serve runs the API on --addr (default 127.0.0.1:8080). On first start, when
the corpus is empty, it ingests the demo corpus that ships with the binary
(turn off with --demo=false). Ingest jobs submitted to POST /v1/ingest run
in-process and resume after a restart. A retention pass (see verity gc and
retention.*) runs at start and every retention.interval.`,
		Args: cobra.NoArgs,
		RunE: runServe,
	}
	f := cmd.Flags()
	f.String("addr", "127.0.0.1:8080", "listen address HOST:PORT")
	bindFlag(f, "addr", "server.addr")
	f.Bool("demo", true, "ingest the demo corpus when the corpus is empty")
	bindFlag(f, "demo", "server.demo")
	f.Bool("allow-private", false, "let the fetcher reach loopback and private addresses (tests only)")
	bindFlag(f, "allow-private", "fetch.allow_private")
	return cmd
}

func runServe(cmd *cobra.Command, _ []string) error {
	ctx := cmd.Context()
	cfg, log, err := loadFor(cmd)
	if err != nil {
		return err
	}
	a, err := openApp(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer a.Close()
	if cfg.Server.Demo {
		if err := a.seedDemo(ctx); err != nil {
			return err
		}
	}

	runner, err := a.newRunner(ctx, a.pg == nil || cfg.Jobs.InServe)
	if err != nil {
		return err
	}
	srv := server.New(server.Config{
		MaxBodyBytes:   cfg.Server.MaxBodyBytes,
		RequestTimeout: cfg.Server.RequestTimeout,
		UploadDir:      uploadDir(cfg),
	}, server.Deps{
		Verifier:  a.verify,
		Jobs:      runner,
		Sources:   a.corpus,
		FactCheck: a.factcheck,
		Entail:    a.entail,
		Jury:      a.jury,
		Citations: a.citations,
		Probes:    a.probes,
		Storage:   a.corpus,
	}, log)

	ln, err := net.Listen("tcp", cfg.Server.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Server.Addr, err)
	}
	hs := &http.Server{
		Handler:           srv.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	addr := ln.Addr().String()
	log.Info("verity is serving", "addr", "http://"+addr, "data", cfg.Data)
	fmt.Fprintf(cmd.OutOrStdout(), "verity is listening on http://%s (web UI at http://%s/)\nTry:\n  %s\n", addr, addr,
		strings.Replace(demo.CurlExample, "127.0.0.1:8080", addr, 1))

	g, gctx := errgroup.WithContext(ctx)
	// Requests run under the serve context: on shutdown, long requests
	// (fact-check streams) are canceled rather than waited for.
	hs.BaseContext = func(net.Listener) context.Context { return gctx }
	g.Go(func() error { return runner.Run(gctx) })
	g.Go(func() error { a.collector().Every(gctx, cfg.Retention.Interval); return nil })
	g.Go(func() error {
		if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return fmt.Errorf("serve: %w", err)
		}
		return nil
	})
	g.Go(func() error {
		<-gctx.Done()
		shutdown, cancel := context.WithTimeout(context.WithoutCancel(gctx), 10*time.Second)
		defer cancel()
		log.Info("shutting down")
		return hs.Shutdown(shutdown)
	})
	return g.Wait()
}

// seedDemo ingests the shipped demo corpus when the corpus is empty.
func (a *app) seedDemo(ctx context.Context) error {
	st, err := a.corpus.Stats(ctx)
	if err != nil {
		return fmt.Errorf("read corpus stats: %w", err)
	}
	if st.Sources > 0 {
		return nil
	}
	path := filepath.Join(a.cfg.Data, "demo-corpus.jsonl")
	if err := os.WriteFile(path, demo.Corpus(), 0o640); err != nil {
		return fmt.Errorf("write demo corpus: %w", err)
	}
	sum, err := a.ingester.Run(ctx, []string{path}, func(ingest.Progress) {})
	if err != nil {
		return fmt.Errorf("ingest demo corpus: %w", err)
	}
	a.log.Info("ingested the demo corpus", "sources", sum.Sources, "passages", sum.Chunks, "failed", len(sum.Failed))
	return nil
}
