package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/verify"
)

func init() { subcommands = append(subcommands, newVerifyCmd) }

func newVerifyCmd() *cobra.Command {
	var (
		req    verify.Request
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   `verify "CLAIM"`,
		Short: "Verify one claim against the corpus in the data directory",
		Long: `verify retrieves passages for CLAIM, judges them and prints the verdict
(Supported, Refuted, Contested or Not enough evidence), its reason (a code such
as supported, refuted, contested, superseded, single_origin, weak_entailment or
no_relevant_evidence, and a sentence naming the passages and the rule), the
0-100 score, the citations and the features behind the score. --json prints
the same object as POST /v1/verify.

Only passages about the claim's subject and event may contradict it
(verify.min_about), and only passages about half of it may entail it
(verify.min_about_entail; the others are not judged); a statement a newer credible passage supersedes does not
count; a claim that names a year is judged on evidence from that year on;
near-copies count as one origin (verify.near_copy); a sentence that states the
claim's event with another figure, another name (another year, another
agent), the opposite word (fell for rose) or the opposite polarity ("is not
an island" for "is a solid island") counts as a contradiction
(verify.conflict). The verdict thresholds
are fitted for the built-in judge (see verity eval --help).

Invalid input exits with status 2 (--k 0 and --top-n 0 included: leave a flag
out for the configured value), and so does text that is no checkable claim: a
question, an instruction, a pure opinion or text with no verb (the API answers
those with 422 and the reason). An empty corpus gives a warning on stderr.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := evidence.CheckText("claim", args[0]); err != nil {
				return err
			}
			req.Claim = args[0]
			// A given --k 0 or --top-n 0 is refused, not the default.
			wire := verify.WireRequest{Claim: req.Claim, Domains: req.Domains, Since: req.Since}
			if cmd.Flags().Changed("k") {
				wire.K = &req.K
			}
			if cmd.Flags().Changed("top-n") {
				wire.TopN = &req.TopN
			}
			req, err := wire.Checked()
			if err != nil {
				return err
			}
			return withApp(cmd, func(a *app) error {
				if err := a.warnIfEmpty(cmd.Context(), cmd.ErrOrStderr()); err != nil {
					return err
				}
				res, err := a.verify.Verify(cmd.Context(), req)
				if err != nil {
					return err
				}
				if asJSON {
					return printJSON(cmd.OutOrStdout(), res)
				}
				return printResult(cmd.OutOrStdout(), res)
			})
		},
	}
	f := cmd.Flags()
	f.BoolVar(&asJSON, "json", false, "print the result as JSON")
	f.IntVar(&req.K, "k", 0, "passages retrieved before filtering (1-200; default retrieval.k)")
	f.IntVar(&req.TopN, "top-n", 0, "passages judged after re-ranking (1-20; default retrieval.top_n)")
	f.StringSliceVar(&req.Domains, "domain", nil, "keep only passages from this domain (repeatable)")
	f.StringVar(&req.Since, "since", "", "keep passages published on or after this date (2006-01-02)")
	return cmd
}

// printJSON writes v as indented JSON.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func printResult(w io.Writer, res evidence.Result) error {
	fmt.Fprintf(w, "%s  (score %d/100)\n%s\nWhy (%s): %s\n\n", res.Verdict, res.Score, res.Claim, res.Reason.Code, res.Reason.Text)
	if len(res.Citations) > 0 {
		fmt.Fprintln(w, "Citations:")
		for i, c := range res.Citations {
			date := "undated"
			if !c.PublishedAt.IsZero() {
				date = c.PublishedAt.Format("2006-01-02")
			}
			where := c.URL
			if where == "" {
				where = c.SourceID
			}
			fmt.Fprintf(w, "  [%d] %s (%s, %s)\n      %s\n", i+1, orDash(c.Title), where, date, c.Snippet)
		}
		fmt.Fprintln(w)
	}
	f := res.Features
	fmt.Fprintf(w, "Features: e_max %.2f  e_mean3 %.2f  c_max %.2f  agree_dom %d  rel_avg %.2f  rec_max %.2f  num_ok %.1f\n\n",
		f.EMax, f.EMean3, f.CMax, f.AgreeDom, f.RelAvg, f.RecMax, f.NumOK)
	if len(res.Passages) == 0 {
		fmt.Fprintln(w, "No passages in the corpus bear on this claim.")
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "entail\tcontra\tneutral\trecency\treliab.\torigin\tpassage")
	for _, p := range res.Passages {
		fmt.Fprintf(tw, "%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%s\t%s\n", p.Entail, p.Contradict, p.Neutral, p.Recency, p.Reliability, p.Origin(), clip(p.Text, 70))
	}
	return tw.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
