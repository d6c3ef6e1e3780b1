package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
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
in-process and resume after a restart.

Access: once an API key exists ('verity keys create'), every API route needs
Authorization: Bearer KEY (restart serve after creating the first key).
Without keys, serve listens on loopback only and says so; a non-loopback
--addr is refused unless server.insecure_no_auth is true, and beyond loopback
server.allowed_hosts must name the host names clients use. Browser origins
other than the server's own need server.allowed_origins.

Limits (see 'verity config'): server.rate_limit and server.rate_burst per key
(or client address), server.max_heavy concurrent fact-checks, citation checks
and ingests each, server.read_timeout for a request's headers and body,
server.idle_timeout, server.max_connections. GET /metrics serves Prometheus
metrics. A retention pass (see verity gc and retention.*) runs at start and
every retention.interval.`,
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
	a.metrics.WatchJobs(a.corpus)
	access, err := a.accessPolicy(ctx)
	if err != nil {
		return err
	}
	scfg := cfg.Server.Config
	scfg.UploadDir, scfg.AllowedHosts = uploadDir(cfg), access.hosts
	srv := server.New(scfg, server.Deps{
		Verifier:  a.verify,
		Jobs:      runner,
		Sources:   a.corpus,
		FactCheck: a.factcheck,
		Entail:    a.entail,
		Jury:      a.jury,
		Citations: a.citations,
		Probes:    a.probes,
		Keys:      access.keys,
		Metrics:   a.metrics,
		Storage:   a.corpus,
	}, log)

	ln, err := net.Listen("tcp", cfg.Server.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Server.Addr, err)
	}
	ln = srv.Listener(ln)
	hs := srv.HTTPServer()
	hs.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelWarn)
	addr := ln.Addr().String()
	log.Info("verity is serving", "addr", "http://"+addr, "data", cfg.Data, "auth", access.keys != nil)
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "verity is listening on http://%s (web UI at http://%s/)\n", addr, addr)
	if access.keys == nil {
		if access.loopback {
			fmt.Fprintln(out, "No API key is configured: serving on loopback only, without authentication ('verity keys create' adds one).")
			if len(cfg.Server.AllowedHosts) > 0 {
				fmt.Fprintf(out, "WARNING: server.allowed_hosts adds %s: a proxy that forwards those names here exposes the API without a key.\n", strings.Join(cfg.Server.AllowedHosts, ", "))
			}
		} else {
			fmt.Fprintln(out, "WARNING: server.insecure_no_auth is set: anyone who reaches this address can use the API without a key.")
		}
		fmt.Fprintf(out, "Try:\n  %s\n", strings.Replace(demo.CurlExample, "127.0.0.1:8080", addr, 1))
	} else {
		fmt.Fprintln(out, "API keys are required: send Authorization: Bearer KEY.")
	}

	g, gctx := errgroup.WithContext(ctx)
	// Requests run under the serve context: on shutdown, long requests
	// (fact-check streams) are canceled rather than waited for.
	hs.BaseContext = func(net.Listener) context.Context { return gctx }
	g.Go(func() error {
		// A shutdown that lands while the runner is still reading the jobs
		// to resume cancels that read; that is a clean stop, not a failure.
		if err := runner.Run(gctx); err != nil && gctx.Err() == nil {
			return err
		}
		return nil
	})
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

// access is who may reach serve: keys when any is configured, and the host
// names it answers to.
type access struct {
	keys     server.Keys
	hosts    []string
	loopback bool
}

// loopbackNames are the host names of this machine a browser may use.
var loopbackNames = []string{"localhost", "127.0.0.1", "::1"}

// accessPolicy turns authentication on when an active API key exists and
// refuses what would expose an open server: a non-loopback address without
// keys (unless server.insecure_no_auth), or without server.allowed_hosts.
// Keys created while serve runs take effect on its next start.
func (a *app) accessPolicy(ctx context.Context) (access, error) {
	sc := a.cfg.Server
	n, err := a.corpus.ActiveKeys(ctx)
	if err != nil {
		return access{}, fmt.Errorf("read API keys: %w", err)
	}
	acc := access{loopback: isLoopback(sc.Addr), hosts: sc.AllowedHosts}
	if n > 0 {
		acc.keys = a.corpus
	}
	switch {
	case acc.loopback:
		acc.hosts = append(slices.Clone(loopbackNames), sc.AllowedHosts...)
	case n == 0 && !sc.InsecureNoAuth:
		return access{}, fmt.Errorf("refusing to serve %s without API keys: create one with 'verity keys create', "+
			"listen on loopback (127.0.0.1:8080), or set server.insecure_no_auth: true", sc.Addr)
	case len(sc.AllowedHosts) == 0:
		return access{}, fmt.Errorf("serving %s beyond loopback needs server.allowed_hosts: the host names clients use "+
			"(e.g. verity.example.org,localhost), or \"*\" for any", sc.Addr)
	}
	return acc, nil
}

// isLoopback reports whether addr (HOST:PORT) listens on loopback only.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
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
