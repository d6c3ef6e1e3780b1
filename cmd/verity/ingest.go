package main

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/verity-fc/verity/ingest"
)

func init() { subcommands = append(subcommands, newIngestCmd) }

func newIngestCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ingest SOURCE...",
		Short: "Fetch, extract, chunk, embed and index sources into the data directory",
		Long: `ingest takes http(s) URLs, local files (HTML, Markdown, plain text, PDF),
directories (walked for those files) and JSONL files whose lines are
{"id","url","title","text","published_at","domain","reliability"} (only
"text" or "abstract" required; "abstract" may be a list of sentences, so
SciFact's corpus.jsonl ingests as it is).

Re-ingesting a source whose text has not changed skips it; a changed source
replaces its passages. A source that fails is reported with its reason and
does not stop the others. A PDF is read for its text layer, title and date
under hard limits (500 pages, 20 s); a scanned PDF without a text layer fails
with that reason (no OCR). A progress bar is shown on a terminal; otherwise
a progress line is logged every ingest.progress_interval (5 s) and at the end. Exits with status 1 when any source failed.

Jobs submitted to the server (POST /v1/ingest) end succeeded, partial (some
sources failed; each reason is listed) or failed (every source failed).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withApp(cmd, func(a *app) error {

				var (
					mu  sync.Mutex
					bar *progressbar.ProgressBar
				)
				tty := term.IsTerminal(int(os.Stderr.Fd()))
				throttle := progressThrottle{every: a.cfg.Ingest.ProgressInterval}
				progress := func(p ingest.Progress) {
					mu.Lock()
					defer mu.Unlock()
					if !tty {
						if throttle.due(time.Now(), p.Done, p.Total) {
							a.log.Info("ingest progress", "done", p.Done, "total", p.Total, "ingested", p.Ingested, "skipped", p.Skipped, "failed", p.Failed)
						}
						return
					}
					if bar == nil {
						bar = progressbar.NewOptions(p.Total, progressbar.OptionSetWriter(os.Stderr),
							progressbar.OptionSetDescription("ingesting"), progressbar.OptionShowCount(),
							progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
					}
					bar.ChangeMax(p.Total)
					_ = bar.Set(p.Done)
				}
				sum, err := a.ingester.Run(cmd.Context(), args, progress)
				if bar != nil {
					_ = bar.Finish()
				}
				if err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				fmt.Fprintf(out, "ingested %d sources (%d passages), skipped %d unchanged, failed %d\n",
					sum.Sources, sum.Chunks, sum.Skipped, len(sum.Failed))
				for _, f := range sum.Failed {
					fmt.Fprintf(out, "  failed: %s: %s\n", f.Source, f.Reason)
				}
				if len(sum.Failed) > 0 {
					return errors.New("some sources failed")
				}
				return nil
			})
		},
	}
	f := cmd.Flags()
	f.Bool("allow-private", false, "let the fetcher reach loopback and private addresses (tests only)")
	bindFlag(f, "allow-private", "fetch.allow_private")
	f.Int("workers", 4, "sources processed at once")
	bindFlag(f, "workers", "ingest.workers")
	return cmd
}

// progressThrottle decides when a progress line is logged: the first, then
// one every interval, and the last (done == total).
type progressThrottle struct {
	every time.Duration
	last  time.Time
}

func (t *progressThrottle) due(now time.Time, done, total int) bool {
	if done < total && !t.last.IsZero() && now.Sub(t.last) < t.every {
		return false
	}
	t.last = now
	return true
}
