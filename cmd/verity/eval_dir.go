package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/verity-fc/verity/eval"
	"github.com/verity-fc/verity/nli/train"
)

// minSetClaims is the size from which a set counts in SetDirReport's
// MeanBalancedAccuracyLarge: smaller sets' balanced accuracy moves by
// several points with a few claims.
const minSetClaims = 100

// eceTarget is the calibration error the NLI judge aims for on every set.
const eceTarget = 0.05

// SetDirReport is what `verity eval --set-dir DIR --json` prints.
type SetDirReport struct {
	// Sets are the reports of the sets read, by file name without .jsonl.
	Sets map[string]eval.Report `json:"sets"`
	// Skipped names the files that could not be read, with the reason.
	Skipped map[string]string `json:"skipped,omitempty"`
	// MeanBalancedAccuracy is the mean over Sets, MeanBalancedAccuracyLarge
	// the mean over the LargeSets sets of at least 100 claims.
	MeanBalancedAccuracy      float64 `json:"mean_balanced_accuracy"`
	MeanBalancedAccuracyLarge float64 `json:"mean_balanced_accuracy_large"`
	LargeSets                 int     `json:"large_sets"`
	// Calibrated counts the sets whose ECE is at most 0.05.
	Calibrated int `json:"ece_at_most_0_05"`
}

// readSetFile reads one labeled set, naming the file in an error.
func readSetFile(path string) ([]eval.Example, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	examples, err := eval.ReadSet(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return examples, nil
}

// runSetDir evaluates every *.jsonl set of dir with p, in name order, and
// prints a row a set and the summary (SetDirReport); trainData as runSet's.
func runSetDir(cmd *cobra.Command, dir string, p eval.Predictor, opts eval.Options, asJSON bool, trainData string) error {
	paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		if st, err := os.Stat(dir); err != nil {
			return fmt.Errorf("--set-dir: %w", err)
		} else if !st.IsDir() {
			return fmt.Errorf("--set-dir %s: not a directory", dir)
		}
		return fmt.Errorf("--set-dir %s: no *.jsonl set in it", dir)
	}
	sort.Strings(paths)
	rep := SetDirReport{Sets: map[string]eval.Report{}, Skipped: map[string]string{}}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".jsonl")
		examples, err := readSetFile(path)
		if err != nil {
			rep.Skipped[name] = err.Error()
			fmt.Fprintf(cmd.ErrOrStderr(), "skipped %s\n", err)
			continue
		}
		r, err := runSet(cmd, path, name, examples, p, opts, trainData)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		rep.Sets[name] = r
	}
	if len(rep.Sets) == 0 {
		return fmt.Errorf("--set-dir %s: no set could be read", dir)
	}
	summarise(&rep)
	if asJSON {
		return json.NewEncoder(cmd.OutOrStdout()).Encode(rep)
	}
	return printSetDir(cmd.OutOrStdout(), rep)
}

// summarise fills the means and counts of a report that has only its sets.
func summarise(rep *SetDirReport) {
	for _, r := range rep.Sets {
		rep.MeanBalancedAccuracy += r.BalancedAccuracy
		if r.N >= minSetClaims {
			rep.MeanBalancedAccuracyLarge += r.BalancedAccuracy
			rep.LargeSets++
		}
		if r.ECE <= eceTarget {
			rep.Calibrated++
		}
	}
	rep.MeanBalancedAccuracy /= float64(len(rep.Sets))
	if rep.LargeSets > 0 {
		rep.MeanBalancedAccuracyLarge /= float64(rep.LargeSets)
	}
}

func printSetDir(w io.Writer, rep SetDirReport) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "set\tclaims\tbalanced accuracy\tECE\n")
	for _, name := range train.SortedSets(rep.Sets) {
		r := rep.Sets[name]
		fmt.Fprintf(tw, "%s\t%d\t%.4f\t%.4f\n", name, r.N, r.BalancedAccuracy, r.ECE)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nmean balanced accuracy: %.4f over %d sets, %.4f over the %d of at least %d claims\n",
		rep.MeanBalancedAccuracy, len(rep.Sets), rep.MeanBalancedAccuracyLarge, rep.LargeSets, minSetClaims)
	fmt.Fprintf(w, "ECE at most %.2f: %d of %d sets\n", eceTarget, rep.Calibrated, len(rep.Sets))
	for _, name := range train.SortedSets(rep.Skipped) {
		fmt.Fprintf(w, "skipped %s: %s\n", name, rep.Skipped[name])
	}
	return nil
}
