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
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/scoring"
	"github.com/verity-fc/verity/verify"
)

// runVerdicts is `verity eval --mode verdicts`: the verdict set at path
// (the shipped demo claims when empty) under the configured policy and
// under supported_min_domains: 1.
func runVerdicts(cmd *cobra.Command, cfg Config, path string, asJSON bool, fit fitOptions) error {
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
	out := map[string]any{"set": name, "policies": reports}
	var fitted *scoring.Thresholds
	if fit.on {
		t, err := fitThresholds(cmd.Context(), a.verify, examples)
		if err != nil {
			return err
		}
		t.Judge, t.Set = fit.judge, name
		if fit.write != "" {
			var buf bytes.Buffer
			if err := t.Write(&buf); err != nil {
				return err
			}
			if err := os.WriteFile(fit.write, buf.Bytes(), 0o644); err != nil {
				return fmt.Errorf("write thresholds: %w", err)
			}
		}
		fitted = &t
		out["fitted"] = t
	}
	if asJSON {
		return json.NewEncoder(cmd.OutOrStdout()).Encode(out)
	}
	if err := printVerdictReports(cmd.OutOrStdout(), name, reports); err != nil {
		return err
	}
	if fitted != nil {
		t := fitted
		fmt.Fprintf(cmd.OutOrStdout(), "\nfitted thresholds (judge %s): agree_entail %.2f, supported_e_max %.2f, supported_c_max %.2f, refuted_c_max %.2f, contested_e_max %.2f, contested_c_max %.2f\n",
			t.Judge, t.AgreeEntail, t.SupportedEMax, t.SupportedCMax, t.RefutedCMax, t.ContestedEMax, t.ContestedCMax)
		fmt.Fprintf(cmd.OutOrStdout(), "right with them: %d and %d of %d\n", t.Correct[0], t.Correct[1], t.N)
	}
	return nil
}

// fitOptions are eval's --fit and --write-thresholds.
type fitOptions struct {
	on    bool
	write string
	judge string
}

// fitThresholds verifies each claim once and fits the verdict thresholds
// to the set's expected verdicts (see scoring.FitThresholds): the gates
// do not read the thresholds, so the passages that count are the same
// under every setting.
func fitThresholds(ctx context.Context, v *verify.Service, examples []eval.VerdictExample) (scoring.Thresholds, error) {
	cases := make([]scoring.FitCase, len(examples))
	for i, ex := range examples {
		res, err := v.Verify(ctx, verify.Request{Claim: ex.Claim})
		if err != nil {
			return scoring.Thresholds{}, fmt.Errorf("verify %s: %w", ex.ID, err)
		}
		cases[i] = scoring.FitCase{Counted: verify.Counted(res.Passages),
			Want: [2]evidence.Verdict{evidence.Verdict(ex.Expect), evidence.Verdict(ex.ExpectMinDomains1)}}
	}
	t, _ := scoring.FitThresholds(cases, v.Scoring())
	return t, nil
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
