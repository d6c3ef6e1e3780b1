package main

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"

	"github.com/verity-fc/verity/agents/entail"
)

func init() { subcommands = append(subcommands, newEntailCmd) }

func newEntailCmd() *cobra.Command {
	var (
		req         entail.Request
		excerptFile string
	)
	cmd := &cobra.Command{
		Use:   "entail --claim CLAIM (--excerpt TEXT | --excerpt-file FILE|-) --source-type TYPE",
		Short: "Audit whether a source excerpt entails a claim with four isolated agents",
		Long: `entail runs seed 000's workflow: EXTRACTOR (literal statements of the
excerpt), RELIABILITY (sees only the source type), ENTAILMENT JUDGE (claim and
statements only) and ADVERSARIAL AUDITOR (may only downgrade), then prints
every agent's JSON object and the final aggregated object. It judges textual
entailment, not truth. With no model configured every role is built in.
--source-type is required: the reliability agent sees nothing else. entail
reads no corpus and does not use the data directory.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case strings.TrimSpace(req.Claim) == "":
				return &usageError{errors.New(`required flag "claim" not set`), cmd.CommandPath()}
			case strings.TrimSpace(req.SourceType) == "":
				return &usageError{errors.New(`required flag "source-type" not set: describe the source, e.g. --source-type "peer-reviewed journal article"`), cmd.CommandPath()}
			}
			if excerptFile != "" {
				text, _, err := readInput(cmd.InOrStdin(), excerptFile, 1<<20)
				if err != nil {
					return err
				}
				req.SourceExcerpt = text
			}
			return withModels(cmd, func(a *app) error {
				p, err := a.newEntail()
				if err != nil {
					return err
				}
				res, err := p.Run(cmd.Context(), req)
				if err != nil {
					return err
				}
				return printJSON(cmd.OutOrStdout(), res)
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&req.Claim, "claim", "", "the claim")
	f.StringVar(&req.SourceExcerpt, "excerpt", "", "the source excerpt")
	f.StringVar(&excerptFile, "excerpt-file", "", "read the excerpt from FILE (- for standard input)")
	f.StringVar(&req.SourceType, "source-type", "", `a description of the source, e.g. "peer-reviewed journal article" (required)`)
	return cmd
}
