package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/verity-fc/verity/eval"
	"github.com/verity-fc/verity/nli"
)

func init() { subcommands = append(subcommands, newTrainCmd) }

func newTrainCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "train",
		Short: "Train verity's built-in models from labeled data",
	}
	cmd.AddCommand(newTrainNLICmd(), newTrainWordvecCmd())
	return cmd
}

func newTrainNLICmd() *cobra.Command {
	var (
		out, dataDir, devDir string
		cfg                  nli.TrainConfig
	)
	cmd := &cobra.Command{
		Use:   "nli --out FILE",
		Short: "Train the built-in NLI model (deterministic for a seed) and print its development metrics",
		Long: `train nli reads the labeled data (FEVER paper_dev, VitaminC real_a and synthetic,
SNLI dev and test, SciFact train pairs; the layout of ../shared/data), holds out
development and calibration splits by a hash of each pair's page, premise or
claim, trains the model on the rest, fits its temperature on the calibration
split and prints its metrics on the development splits. The same data and
seed give the same file, byte for byte; the shipped model is
nli/model/builtin.json.gz made with the defaults.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return errors.New("--out FILE is required")
			}
			cfg.DataDir = dataDir
			if st, err := os.Stat(dataDir); err != nil || !st.IsDir() {
				return fmt.Errorf("--data-dir %s: not a directory of labeled data", dataDir)
			}
			w := cmd.ErrOrStderr()
			logf := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
			m, met, err := nli.Train(cmd.Context(), cfg, logf)
			if err != nil {
				return err
			}
			if err := writeModel(out, m); err != nil {
				return err
			}
			logf("wrote %s", out)
			if devDir != "" {
				if err := writeDevSets(devDir, met.Dev); err != nil {
					return err
				}
				logf("wrote the development sets to %s", devDir)
			}
			return printDevMetrics(cmd.Context(), cmd.OutOrStdout(), nli.NewBuiltin(m), met.Dev)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&out, "out", "", "model file to write")
	fl.StringVar(&dataDir, "data-dir", "../shared/data", "labeled data directory")
	fl.StringVar(&devDir, "dev-dir", "", "also write each development split as a labeled JSONL set for 'verity eval'")
	fl.Int64Var(&cfg.Seed, "seed", 1, "random seed")
	fl.IntVar(&cfg.Epochs, "epochs", 0, "training epochs (0 = default)")
	fl.IntVar(&cfg.Hidden, "hidden", 0, "hidden units (0 = default)")
	return cmd
}

func writeModel(path string, m *nli.Model) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := m.Save(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// evalLabel maps an NLI label to the label of a labeled set.
func evalLabel(l nli.Label) string {
	switch l {
	case nli.Entail:
		return eval.Supports
	case nli.Contradict:
		return eval.Refutes
	}
	return eval.NotEnoughInfo
}

func devExamples(pairs []nli.Pair) []eval.Example {
	out := make([]eval.Example, len(pairs))
	for i, p := range pairs {
		out[i] = eval.Example{ID: fmt.Sprint(i), Claim: p.Claim, Evidence: []string{p.Passage}, Label: evalLabel(p.Label)}
	}
	return out
}

func writeDevSets(dir string, dev map[string][]nli.Pair) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, name := range sortedNames(dev) {
		path := filepath.Join(dir, name+"_dev.jsonl")
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		bw := bufio.NewWriter(f)
		enc := json.NewEncoder(bw)
		for _, ex := range devExamples(dev[name]) {
			line := struct {
				ID       string   `json:"id"`
				Claim    string   `json:"claim"`
				Evidence []string `json:"evidence"`
				Label    string   `json:"label"`
			}{ex.ID, ex.Claim, ex.Evidence, ex.Label}
			if err := enc.Encode(line); err != nil {
				f.Close()
				return err
			}
		}
		if err := bw.Flush(); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}

// printDevMetrics scores the judge on each development split the way
// 'verity eval --mode gold' does.
func printDevMetrics(ctx context.Context, w io.Writer, j *nli.Builtin, dev map[string][]nli.Pair) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "development set\tn\taccuracy\tbalanced acc.\tmacro F1\tECE\tjudgments/s")
	for _, name := range sortedNames(dev) {
		r, err := eval.Run(ctx, devExamples(dev[name]), eval.NewGoldPredictor(j), eval.Options{Concurrency: 1}, nil)
		if err != nil {
			return err
		}
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.0f\n", name, r.N, r.Accuracy, r.BalancedAccuracy, r.MacroF1, r.ECE, r.ClaimsPerSec)
	}
	return tw.Flush()
}

func sortedNames(m map[string][]nli.Pair) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}
