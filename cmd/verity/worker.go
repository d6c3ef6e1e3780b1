package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newWorkerCmd, newHealthCmd) }

func newWorkerCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "worker",
		Short: "Work ingest jobs from the PostgreSQL queue (scale-out)",
		Long: `worker takes the ingest jobs that 'verity serve' processes enqueue on the
PostgreSQL queue (database.url, VERITY_DATABASE_URL) and ingests them into the
configured passage store (qdrant.url for Qdrant), --concurrency jobs at a time.
Run as many workers as the load needs: each job runs on one worker at a time;
a job whose work fails as a whole (a backend down) is tried again with
backoff, up to jobs.max_attempts times; a worker that stops hands its running
jobs back to the queue. Files uploaded to serve are read from the data
directory, which serve and the workers must share.`,
		Args: cobra.NoArgs,
		RunE: runWorker,
	}
	f := cmd.Flags()
	f.Int("concurrency", 1, "jobs this worker runs at once (1-64)")
	bindFlag(f, "concurrency", "jobs.workers")
	f.Bool("allow-private", false, "let the fetcher reach loopback and private addresses (tests only)")
	bindFlag(f, "allow-private", "fetch.allow_private")
	return cmd
}

func runWorker(cmd *cobra.Command, _ []string) error {
	ctx := cmd.Context()
	cfg, log, err := loadFor(cmd)
	if err != nil {
		return err
	}
	if cfg.Database.URL == "" {
		return errors.New("verity worker takes jobs from PostgreSQL: set database.url (VERITY_DATABASE_URL=postgres://...); " +
			"without it, 'verity serve' runs ingest jobs itself")
	}
	a, err := openApp(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer a.Close()
	runner, err := a.newRunner(ctx, true)
	if err != nil {
		return err
	}
	log.Info("verity worker is taking ingest jobs", "concurrency", cfg.Jobs.Workers, "qdrant", cfg.Qdrant.URL != "")
	fmt.Fprintf(cmd.OutOrStdout(), "verity worker is taking ingest jobs, %d at a time\n", cfg.Jobs.Workers)
	return runner.Run(ctx)
}

func newHealthCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "health",
		Short: "Check readiness: a server's /readyz, or the configured backends",
		Long: `health exits 0 when ready and 1 otherwise, for container health checks.
With --url it asks a running server (e.g. http://127.0.0.1:8080/readyz); without
it, it opens the configuration's corpus, passage store and model backends and
pings each, as a worker would.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			url, _ := cmd.Flags().GetString("url")
			timeout, _ := cmd.Flags().GetDuration("timeout")
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			if url != "" {
				return checkURL(ctx, cmd.OutOrStdout(), url)
			}
			return withApp(cmd, func(a *app) error { return a.ping(ctx, cmd.OutOrStdout()) })
		},
	}
	cmd.Flags().String("url", "", "a server's readiness URL to ask instead of the backends")
	cmd.Flags().Duration("timeout", 5*time.Second, "how long the check may take")
	return cmd
}

// checkURL reports whether url answers 2xx.
func checkURL(ctx context.Context, out io.Writer, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("health: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("health: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	fmt.Fprintf(out, "%s\n", body)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("health: %s answered %s", url, resp.Status)
	}
	return nil
}

// ping pings every backend of the app and reports each.
func (a *app) ping(ctx context.Context, out io.Writer) error {
	var errs []error
	for _, p := range a.probes {
		if err := p.Ping(ctx); err != nil {
			fmt.Fprintf(out, "%s: unavailable: %v\n", p.Name, err)
			errs = append(errs, fmt.Errorf("%s: %w", p.Name, err))
			continue
		}
		fmt.Fprintf(out, "%s: ok\n", p.Name)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("not ready: %w", err)
	}
	return nil
}
