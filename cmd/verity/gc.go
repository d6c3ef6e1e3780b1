package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/verity-fc/verity/retention"
)

func init() { subcommands = append(subcommands, newGCCmd) }

func newGCCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "gc",
		Short: "Delete what retention.* says is no longer kept, now",
		Long: `gc runs one retention pass on the data directory (or database) now, as
serve does at start and every retention.interval: uploaded files whose job
has ended (or that no job uses) and that are older than retention.upload_days,
fact-check stages and finished job records older than retention.days, and
finished job records beyond the newest retention.max_jobs. Sources and
passages are never deleted. Prints what was deleted and what is left.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, log, err := loadFor(cmd)
			if err != nil {
				return err
			}
			a := &app{cfg: cfg, log: log}
			defer a.Close()
			if err := a.openCorpus(cmd.Context()); err != nil {
				return err
			}
			rep, err := a.collector().Collect(cmd.Context())
			if err != nil {
				return err
			}
			use, err := retention.StorageOf(cmd.Context(), a.corpus, uploadDir(cfg))
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), map[string]any{"deleted": rep, "storage": use})
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "deleted %d stages, %d job records, %d upload directories (%d bytes)\n"+
				"kept %d job records (%d queued or running), %d stages (%d bytes), %d upload directories (%d bytes); database %d bytes\n",
				rep.Stages, rep.Jobs, rep.Uploads, rep.UploadBytes,
				use.Jobs, use.LiveJobs, use.Stages, use.StageBytes, use.Uploads, use.UploadBytes, use.DatabaseBytes)
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print what was deleted and what is left as JSON")
	return cmd
}

// uploadDir is where serve stores uploaded files.
func uploadDir(cfg Config) string { return filepath.Join(cfg.Data, "uploads") }

// collector is the retention pass the configuration describes.
func (a *app) collector() *retention.Collector {
	rc := a.cfg.retentionConfig()
	rc.UploadDir = uploadDir(a.cfg)
	return retention.New(a.corpus, rc, a.log)
}
