package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/verity-fc/verity/eval"
	"github.com/verity-fc/verity/nli"
	"github.com/verity-fc/verity/nli/train"
)

func init() { subcommands = append(subcommands, newEvalCmd) }

// corpusPredictor builds the predictor of `verity eval --mode corpus`: the
// verify pipeline over the data directory, labels mapped Supported ->
// SUPPORTS, Refuted -> REFUTES, anything else -> NOT_ENOUGH_INFO. The file
// that wires the verify pipeline sets it; while it is nil, corpus mode
// reports that it is not available.
var corpusPredictor func(cmd *cobra.Command, cfg Config) (eval.Predictor, func(), error)

func newEvalCmd() *cobra.Command {
	var (
		set, setDir, mode  string
		modelPath          string
		trainData          string
		limit, concurrency int
		asJSON             bool
		fit                fitOptions
	)
	cmd := &cobra.Command{
		Use:   "eval --set FILE.jsonl --mode gold|corpus|verdicts",
		Short: "Measure verdicts on a labeled set: accuracy, balanced accuracy, macro-F1, ECE, throughput",
		Long: `eval reads a labeled JSONL set ({"id", "claim", "evidence": [...], "label"}, labels
SUPPORTS, REFUTES, NOT_ENOUGH_INFO, or SUPPORTS / NOT_SUPPORTED for a two-way set)
and reports how well verity labels it.

--mode gold judges each claim against its own evidence passages with the NLI
judge: each passage alone and, when there are several, all of them joined;
the judgment with the strongest entailment or contradiction decides, and a
claim without evidence is NOT_ENOUGH_INFO. --mode corpus verifies each claim
against the corpus in the data directory instead.

--mode verdicts runs a verdict set: lines {"id", "group", "claim", "expect",
"expect_min_domains_1"} with the verdicts Supported, Refuted, Contested or
Not enough evidence a person would give under the seed's policy (Supported
needs two independent origins) and under scoring.supported_min_domains: 1.
Without --set it runs the demo-claims benchmark that ships with verity
(demo/claims.jsonl) and, when the corpus is empty, ingests the demo corpus
first, as serve does. It prints the share of claims verified as expected
under each policy, per group, and every miss with its reason code. With
--nli-model FILE the verify pipeline judges with that model instead of the
built-in judge, the aligning network (--nli-model nli/model/builtin.json.gz
runs the feature model it replaced as the default).

--fit also fits the verdict thresholds (scoring.agree_entail,
supported_e_max, supported_c_max, refuted_c_max, contested_e_max,
contested_c_max) to the set's expected verdicts: the most right under the
worse of the two policies, then under both together, by an exhaustive search
over a grid of 0.05 steps, ties to the seed's numbers. It
prints them, and --write-thresholds FILE writes them as JSON. The built-in
judge's thresholds ship as scoring/thresholds.json, written by
  verity eval --mode verdicts --fit --data $(mktemp -d) --write-thresholds scoring/thresholds.json
Run it again when the built-in NLI model changes. The demo claims are a
development set: the figures measured on the set the thresholds were fitted
on are optimistic.

--set-dir DIR (with --mode gold) runs every *.jsonl set of DIR, such as the
calibration or development splits 'verity train nli --calib-dir' or
--dev-dir writes, and prints one row a set (claims, balanced accuracy, ECE)
and their summary: the mean balanced accuracy over all sets and over the
sets of at least 100 claims, and how many sets have an ECE of at most 0.05.
A file eval cannot read (a set that mixes two-way and three-way labels, as
Citation-Integrity's does) is skipped with its reason.

With the built-in NLI model, eval warns when claims of the set are in the
shipped model's training split (its group-hash split of the data in
--train-data, default ../shared/data), with their share: their scores
overstate accuracy on unseen claims. Without that directory it says nothing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, _, err := loadFor(cmd)
			if err != nil {
				return err
			}
			if limit < 0 {
				return errors.New("--limit must be >= 0")
			}
			if fit.on && mode != "verdicts" {
				return errors.New("--fit needs --mode verdicts")
			}
			if fit.write != "" && !fit.on {
				return errors.New("--write-thresholds needs --fit")
			}
			// The verify pipeline of --mode verdicts and corpus judges
			// with --nli-model too.
			cfg.nliFile = modelPath
			if mode == "verdicts" {
				fit.judge = builtinJudgeName
				if modelPath != "" {
					fit.judge = modelPath
				}
				return runVerdicts(cmd, cfg, set, asJSON, fit)
			}
			if set != "" && setDir != "" {
				return errors.New("--set and --set-dir: give one")
			}
			if set == "" && setDir == "" {
				return errors.New("--set FILE is required")
			}
			if setDir != "" && mode != "gold" {
				return errors.New("--set-dir needs --mode gold")
			}
			var examples []eval.Example
			if set != "" {
				if examples, err = readSetFile(set); err != nil {
					return err
				}
			}
			var p eval.Predictor
			switch mode {
			case "gold":
				judge, err := loadJudge(modelPath)
				if err != nil {
					return err
				}
				p = eval.NewGoldPredictor(judge)
			case "corpus":
				if corpusPredictor == nil {
					return errors.New("--mode corpus: this build has no verify pipeline wired in")
				}
				cp, closeFn, err := corpusPredictor(cmd, cfg)
				if err != nil {
					return err
				}
				defer closeFn()
				p = cp
			default:
				return fmt.Errorf("--mode %q is not gold, corpus or verdicts", mode)
			}
			if setDir != "" {
				warn := ""
				if modelPath == "" {
					warn = trainData
				}
				return runSetDir(cmd, setDir, p, eval.Options{Limit: limit, Concurrency: concurrency}, asJSON, warn)
			}
			warn := ""
			if modelPath == "" && (mode == "gold" || cfg.Models.NLI == "") {
				warn = trainData
			}
			r, err := runSet(cmd, set, "eval", examples, p, eval.Options{Limit: limit, Concurrency: concurrency}, warn)
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				return enc.Encode(r)
			}
			return printReport(cmd.OutOrStdout(), set, r)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&set, "set", "", "labeled JSONL set")
	fl.StringVar(&setDir, "set-dir", "", "with --mode gold: every labeled set (*.jsonl) of this directory, one row each, and their means")
	fl.StringVar(&mode, "mode", "gold", "gold (judge the set's own evidence), corpus (retrieve from the data directory) or verdicts (a verdict set, by default the demo claims)")
	fl.IntVar(&limit, "limit", 0, "evaluate only the first N claims (0 = all)")
	fl.BoolVar(&asJSON, "json", false, "print one JSON object")
	fl.StringVar(&modelPath, "nli-model", "", "NLI model file from 'verity train nli' (default: the built-in aligning network; nli/model/builtin.json.gz is the feature model)")
	fl.IntVar(&concurrency, "concurrency", 2, "claims judged at once")
	fl.BoolVar(&fit.on, "fit", false, "with --mode verdicts: fit the verdict thresholds to the set")
	fl.StringVar(&fit.write, "write-thresholds", "", "with --fit: write the fitted thresholds to this JSON file")
	fl.StringVar(&trainData, "train-data", "../shared/data", "the data the shipped NLI model was trained on, to warn when the set overlaps its training split (skipped when missing)")
	return cmd
}

// builtinJudgeName names the built-in judge in fitted thresholds: the
// aligning network embedded in the binary (see defaultJudge).
const builtinJudgeName = "built-in (nli.LoadAligner)"

// warnTrainedOn warns when examples overlap the training split of the
// shipped NLI model, read from dir (that of 'verity train nli', with the
// seed the model was trained with): their scores would overstate accuracy
// on unseen claims. Without dir it says nothing.
func warnTrainedOn(w io.Writer, set string, examples []eval.Example, dir string) {
	if len(examples) == 0 {
		return
	}
	if _, err := os.Stat(dir); err != nil {
		return
	}
	seed := int64(1)
	if b, err := defaultJudge(); err == nil {
		seed = trainingSeed(b.Aligner())
	}
	trained, err := train.TrainedClaims(dir, seed)
	if err != nil {
		fmt.Fprintf(w, "verity: warning: cannot check %s against the NLI model's training data in %s: %v\n", set, dir, err)
		return
	}
	if n, share := trainedShare(examples, trained); n > 0 {
		fmt.Fprintf(w, "verity: warning: %.0f%% of %s (%d of %d claims) is in the shipped NLI model's training split; its scores overstate accuracy on unseen claims\n",
			100*share, set, n, len(examples))
	}
}

// trainingSeed is the seed a model file says it was trained with ('verity
// train nli --seed', which draws some of the training pairs: FNC-1's
// unrelated pairs, the random neutrals), or 1, the default, when it does
// not say.
func trainingSeed(a *nli.Aligner) int64 {
	if a == nil {
		return 1
	}
	seed, err := strconv.ParseInt(a.Info["seed"], 10, 64)
	if err != nil {
		return 1
	}
	return seed
}

// trainedShare counts the examples whose claim is in trained (keys as
// train.NormalizeClaim gives them) and their share of examples.
func trainedShare(examples []eval.Example, trained map[string]bool) (int, float64) {
	n := 0
	for _, e := range examples {
		if trained[train.NormalizeClaim(e.Claim)] {
			n++
		}
	}
	if len(examples) == 0 {
		return 0, 0
	}
	return n, float64(n) / float64(len(examples))
}

// defaultJudge returns the judge verity uses when no other is configured:
// the aligning network embedded in the binary, with the feature model as
// its ensemble member. It measures better than the feature model alone on
// the NLI development sets and on the demo-claims benchmark (README,
// "Demo-claims benchmark"); scoring/thresholds.json is fitted for it.
func defaultJudge() (*nli.Builtin, error) { return nli.LoadBuiltin() }

// loadJudge returns the built-in judge, or the one in path when set.
func loadJudge(path string) (*nli.Builtin, error) {
	if path == "" {
		return defaultJudge()
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	j, err := nli.Load(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return j, nil
}

// progressFunc returns a progress callback that draws a bar on w when w is
// a terminal, and nil otherwise.
// runSet runs p over the examples of the set at path (at most opts.Limit
// of them), with a progress bar named what; with trainData set it first
// warns about the claims run that are in the shipped NLI model's training
// split (warnTrainedOn).
func runSet(cmd *cobra.Command, path, what string, examples []eval.Example, p eval.Predictor, opts eval.Options, trainData string) (eval.Report, error) {
	n := len(examples)
	if opts.Limit > 0 && opts.Limit < n {
		n = opts.Limit
	}
	if trainData != "" {
		warnTrainedOn(cmd.ErrOrStderr(), path, examples[:n], trainData)
	}
	return eval.Run(cmd.Context(), examples, p, opts, progressFunc(cmd.ErrOrStderr(), n, what))
}

func progressFunc(w io.Writer, total int, what string) func(done, total int) {
	f, ok := w.(*os.File)
	if !ok || !isatty.IsTerminal(f.Fd()) || total == 0 {
		return nil
	}
	bar := progressbar.NewOptions(total, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100*time.Millisecond))
	return func(done, _ int) { _ = bar.Set(done) }
}

func printReport(w io.Writer, name string, r eval.Report) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "set\t%s\n", name)
	fmt.Fprintf(tw, "n\t%d\n", r.N)
	fmt.Fprintf(tw, "accuracy\t%.4f\n", r.Accuracy)
	fmt.Fprintf(tw, "balanced accuracy\t%.4f\n", r.BalancedAccuracy)
	fmt.Fprintf(tw, "macro F1\t%.4f\n", r.MacroF1)
	fmt.Fprintf(tw, "ECE (10 bins)\t%.4f\n", r.ECE)
	fmt.Fprintf(tw, "claims/s\t%.1f\n", r.ClaimsPerSec)
	fmt.Fprintf(tw, "\nlabel\tn\tprecision\trecall\tF1\n")
	labels := eval.ThreeWayLabels
	if _, ok := r.PerLabel[eval.NotSupported]; ok {
		labels = eval.TwoWayLabels
	}
	for _, l := range labels {
		s := r.PerLabel[l]
		fmt.Fprintf(tw, "%s\t%d\t%.4f\t%.4f\t%.4f\n", l, s.N, s.Precision, s.Recall, s.F1)
	}
	return tw.Flush()
}
