package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/verity-fc/verity/agents/jury"
	"github.com/verity-fc/verity/evidence"
)

func init() { subcommands = append(subcommands, newJuryCmd) }

func newJuryCmd() *cobra.Command {
	var (
		juryConfig   string
		claim, truth string
		asJSON       bool
	)
	cmd := &cobra.Command{
		Use:   "jury (--config jury.yaml | --claim CLAIM --truth TRUTH)",
		Short: "Debate whether claims faithfully restate their sources (seed 002's jury)",
		Long: `jury runs seed 002's protocol on (claim, truth) pairs: a parsed fact frame,
an independent vote of the jurors, a debate only when the vote is split, a
revote, and a foreperson who answers five rubric questions and gives the
verdict Faithful, Mutated or Ambiguous.

--config names the jury's YAML file with the seed's keys (data.source,
data.claim_col, data.truth_col, data.pair_ids, agents, fact_frame.fields,
foreperson.rubric, foreperson.dissent_threshold, debate.max_rounds, models.*);
data.source is a CSV read relative to the YAML file. Alternatively --claim and
--truth judge one pair. verity's own configuration file is --verity-config.`,
		Annotations: map[string]string{verityConfigFlag: "verity-config"},
		Args:        cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, pairs, err := juryInput(juryConfig, claim, truth)
			if err != nil {
				return err
			}
			return withModels(cmd, func(a *app) error {
				j, err := a.newJury(cfg)
				if err != nil {
					return err
				}
				outcomes := j.RunBatch(cmd.Context(), pairs)
				if asJSON {
					if err := printJSON(cmd.OutOrStdout(), outcomes); err != nil {
						return err
					}
				} else if err := printCards(cmd.OutOrStdout(), outcomes); err != nil {
					return err
				}
				if n := countFailed(outcomes); n > 0 {
					return fmt.Errorf("%d of %d pairs failed", n, len(outcomes))
				}
				return nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&juryConfig, "config", "", "the jury's YAML configuration")
	f.String("verity-config", "", "verity's YAML configuration file")
	f.StringVar(&claim, "claim", "", "judge one pair: the claim")
	f.StringVar(&truth, "truth", "", "judge one pair: the truth it should restate")
	f.BoolVar(&asJSON, "json", false, "print the verdict cards as JSON")
	return cmd
}

// juryInput reads the jury configuration and its pairs, or builds the one
// pair given by flags.
func juryInput(path, claim, truth string) (jury.Config, []jury.Pair, error) {
	if path == "" {
		if claim == "" || truth == "" {
			return jury.Config{}, nil, evidence.Invalid("config", "give --config jury.yaml, or both --claim and --truth")
		}
		return jury.DefaultConfig(), []jury.Pair{{ID: 0, Claim: claim, Truth: truth}}, nil
	}
	if claim != "" || truth != "" {
		return jury.Config{}, nil, evidence.Invalid("claim", "--claim and --truth cannot be combined with --config")
	}
	f, err := os.Open(path)
	if err != nil {
		return jury.Config{}, nil, fmt.Errorf("open jury config: %w", err)
	}
	defer f.Close()
	cfg, err := jury.LoadConfig(f)
	if err != nil {
		return jury.Config{}, nil, err
	}
	if cfg.Data.Source == "" {
		return jury.Config{}, nil, evidence.Invalid("data.source", "must name the CSV of pairs")
	}
	src := cfg.Data.Source
	if !filepath.IsAbs(src) {
		src = filepath.Join(filepath.Dir(path), src)
	}
	csv, err := os.Open(src)
	if err != nil {
		return jury.Config{}, nil, evidence.Invalid("data.source", "cannot open %s: %v", src, err)
	}
	defer csv.Close()
	pairs, err := jury.ReadPairs(csv, cfg)
	if err != nil {
		return jury.Config{}, nil, err
	}
	return cfg, pairs, nil
}

func countFailed(os []jury.Outcome) int {
	n := 0
	for _, o := range os {
		if o.Err != nil {
			n++
		}
	}
	return n
}

func printCards(w io.Writer, outcomes []jury.Outcome) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "pair\tverdict\tconfidence\trubric (Y/N)\tclaim")
	for _, o := range outcomes {
		if o.Card == nil {
			fmt.Fprintf(tw, "%d\terror\t-\t-\t%s\n", o.PairID, o.Error)
			continue
		}
		var yn strings.Builder
		for _, r := range o.Card.Rubric {
			if r.Answer == "Yes" {
				yn.WriteByte('Y')
			} else {
				yn.WriteByte('N')
			}
		}
		fmt.Fprintf(tw, "%d\t%s\t%.2f\t%s\t%s\n", o.PairID, o.Card.Verdict, o.Card.Confidence, yn.String(), clip(o.Card.Claim, 60))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, o := range outcomes {
		if o.Card != nil && o.Card.MinimalEdit != "" {
			fmt.Fprintf(w, "\npair %d minimal edit: %s", o.PairID, o.Card.MinimalEdit)
		}
	}
	fmt.Fprintln(w)
	return nil
}
