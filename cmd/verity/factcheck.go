package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/verity-fc/verity/agents/factcheck"
	"github.com/verity-fc/verity/evidence"
)

func init() { subcommands = append(subcommands, newFactcheckCmd) }

// maxFactcheckInput bounds what `verity factcheck` reads; the pipeline
// truncates content to maxContentLength (at most 50,000 characters) anyway.
const maxFactcheckInput = 1 << 20

func newFactcheckCmd() *cobra.Command {
	var (
		asJSON bool
		mc     factcheck.ModeConfig
		maxLen int
	)
	cmd := &cobra.Command{
		Use:   "factcheck FILE|-",
		Short: "Fact-check a text: extract claims, check each, reach consensus, report",
		Long: `factcheck runs seed 001's pipeline on the text in FILE (or standard input
for -): extract check-worthy claims, verify each with independent checkers in
parallel, compute the consensus and write the report. With no model
configured the built-in roles run: verity/extractor, verity/evidence (each
claim verified against the corpus) and verity/reporter. Prints the report as
Markdown, or the FactCheckResult as JSON with --json. Stages are stored in
the data directory; GET /v1/factchecks/{messageId} rebuilds the result.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			text, name, err := readInput(cmd.InOrStdin(), args[0], maxFactcheckInput)
			if err != nil {
				return err
			}
			mc.ContentToCheck = text
			if cmd.Flags().Changed("max-length") {
				mc.MaxContentLength = &maxLen
			}
			req := factcheck.Request{Question: "Fact-check " + name, Mode: "fact_check", ModeConfig: &mc}
			return withApp(cmd, func(a *app) error {
				if err := a.factcheck.Validate(req); err != nil {
					return err
				}
				if err := a.warnIfEmpty(cmd.Context(), cmd.ErrOrStderr()); err != nil {
					return err
				}
				res, err := a.factcheck.Run(cmd.Context(), req, nil)
				if err != nil {
					return err
				}
				if asJSON {
					return printJSON(cmd.OutOrStdout(), res)
				}
				_, err = io.WriteString(cmd.OutOrStdout(), factcheck.RenderMarkdown(res))
				return err
			})
		},
	}
	f := cmd.Flags()
	f.BoolVar(&asJSON, "json", false, "print the FactCheckResult as JSON")
	f.StringVar(&mc.ExtractorModel, "extractor", "", "extractor model (default verity/extractor)")
	f.StringSliceVar(&mc.CheckerModels, "checker", nil, "checker model, 1-4 times (default verity/evidence)")
	f.StringVar(&mc.ReporterModel, "reporter", "", "reporter model (default verity/reporter)")
	f.IntVar(&maxLen, "max-length", 20000, "truncate the content to this many characters (500-50000)")
	return cmd
}

// readInput reads path ("-" for r) up to max bytes and returns its text and
// a name for it.
func readInput(r io.Reader, path string, max int64) (string, string, error) {
	name := "standard input"
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return "", "", fmt.Errorf("open input: %w", err)
		}
		defer f.Close()
		r, name = f, filepath.Base(path)
	}
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return "", "", fmt.Errorf("read %s: %w", name, err)
	}
	if int64(len(b)) > max {
		return "", "", evidence.Invalid("input", "%s is larger than %d bytes", name, max)
	}
	if err := evidence.CheckText("input", string(b)); err != nil {
		return "", "", err
	}
	return string(b), name, nil
}
