package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/verity-fc/verity/demo"
	"github.com/verity-fc/verity/eval"
	"github.com/verity-fc/verity/verify"
)

// runVerdicts is `verity eval --mode verdicts`: the verdict set at path
// (the shipped demo claims when empty) under the configured policy and
// under supported_min_domains: 1.
func runVerdicts(cmd *cobra.Command, cfg Config, path string, asJSON bool) error {
	set := demo.Claims()
	name := "demo/claims.jsonl"
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		set, name = b, path
	}
	examples, err := eval.ReadVerdictSet(bytes.NewReader(set))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	a, err := openApp(cmd.Context(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer a.Close()
	if path == "" {
		if err := a.seedDemo(cmd.Context()); err != nil {
			return err
		}
	}
	reports, err := eval.RunVerdicts(cmd.Context(), examples, verdictPolicies(a.verify))
	if err != nil {
		return err
	}
	if asJSON {
		return json.NewEncoder(cmd.OutOrStdout()).Encode(map[string]any{"set": name, "policies": reports})
	}
	return printVerdictReports(cmd.OutOrStdout(), name, reports)
}

// verdictPolicies are the two policies a verdict set is run under: the
// configured one and the same with supported_min_domains: 1.
func verdictPolicies(v *verify.Service) []eval.Policy {
	one := v.Scoring()
	one.SupportedMinDomains = 1
	run := func(s *verify.Service) eval.VerdictFunc {
		return func(ctx context.Context, claim string) (string, string, error) {
			res, err := s.Verify(ctx, verify.Request{Claim: claim})
			if err != nil {
				return "", "", err
			}
			return string(res.Verdict), res.Reason.Code, nil
		}
	}
	return []eval.Policy{
		{Name: fmt.Sprintf("seed (supported_min_domains: %d)", v.Scoring().SupportedMinDomains), Verify: run(v)},
		{Name: "supported_min_domains: 1", MinDomains1: true, Verify: run(v.WithScoring(one))},
	}
}

func printVerdictReports(w io.Writer, name string, reports []eval.PolicyReport) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "set\t%s\n", name)
	for _, r := range reports {
		fmt.Fprintf(tw, "\npolicy\t%s\n", r.Policy)
		fmt.Fprintf(tw, "right\t%d of %d (%.1f%%)\n", r.Correct, r.N, 100*r.Accuracy)
		groups := make([]string, 0, len(r.PerGroup))
		for g := range r.PerGroup {
			groups = append(groups, g)
		}
		sort.Strings(groups)
		for _, g := range groups {
			s := r.PerGroup[g]
			fmt.Fprintf(tw, "  %s\t%d of %d\n", g, s.Correct, s.N)
		}
		for _, m := range r.Misses {
			fmt.Fprintf(tw, "  miss %s\texpected %s, got %s (%s): %s\n", m.ID, m.Expect, m.Got, m.Reason, m.Claim)
		}
	}
	return tw.Flush()
}
