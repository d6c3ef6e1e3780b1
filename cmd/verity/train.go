package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/verity-fc/verity/eval"
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/nli/align"
	"github.com/verity-fc/verity/nli/train"
	"github.com/verity-fc/verity/scoring"
)

func init() { subcommands = append(subcommands, newTrainCmd) }

func newTrainCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "train",
		Short: "Train verity's built-in models from labeled data",
	}
	cmd.AddCommand(newTrainNLICmd(), newTrainCalibrationCmd(), newTrainWordvecCmd(), newTrainWordnetCmd())
	return cmd
}

// maxWidth bounds the widths 'verity train nli' takes (--d, --hidden and the
// teacher's): far above any width tried (96 and 128 ship), far below what
// would not fit in memory.
const maxWidth = 1024

func newTrainNLICmd() *cobra.Command {
	var (
		out, dataDir, devDir, calibDir, report, teacher string
		cfg                                             train.Config
		oldWeight                                       float64
		setWeights                                      []string
	)
	cmd := &cobra.Command{
		Use:   "nli --out FILE",
		Short: "Train the built-in NLI model (deterministic for a seed) and print its development metrics",
		Long: `train nli reads the labeled data (FEVER paper_dev, VitaminC real_a and synthetic,
SNLI dev and test, SciFact train pairs, and the files of ../shared/data/train
listed in the README; the layout of ../shared/data), holds out development and
calibration splits by a hash of each pair's group (page, premise, claim or
article), trains the aligning network on the rest (each batch in two fixed
shards computed in parallel, so the result does not depend on the cores), fits its
temperature and class biases on the calibration split and prints its metrics
on every development split beside the previous built-in model's. The same
data and seed give the same file, byte for byte. With --checkpoint it resumes
after the last finished epoch. --members N trains an ensemble of N networks
one after the other (the same data, other starting weights and orders; member
k > 0 checkpoints to FILE.mK) whose mean logits are calibrated together. The
previous feature model is mixed in at the weight --old-weight gives, or, by
default, at the smallest of 0, 0.1, 0.25 and 0.5 that scores within 0.005 of
the best on the calibration split. The shipped model is
nli/model/aligner.json.gz made with --members 3 --old-weight 0 --ema 0.999
--negated-antonyms --seed 4 --d 96 --hidden 128 --teacher-members 3
--teacher-d 64 --teacher-hidden 96 --distill 0.5 (README says why). --seed also draws FNC-1's
unrelated pairs and the random neutral pairs; the split hashes each pair's
group and does not depend on it. --ablate trains without one part (wordnet,
quantity or attention; none for the baseline) and prints the network's
development metrics only, writing no model. --compose adds a composition
layer (a width-3 convolution over each side's comparisons before pooling);
the shipped model does not have it
(docs/nli-development.md, "Latest round: a composition layer"). --negate also trains on negated claims: each
training pair labelled entailment or neutral, with "not" after its claim's
first auxiliary or copula, as a contradiction or a neutral pair (weight 0.5);
the shipped model was not trained with them (docs/nli-development.md,
"Latest round: negated claims").
--swap also trains on the contradictions of SNLI, counterfactual SNLI,
MultiNLI and TaxiNLI (passages of at most 40 words) with claim and passage
swapped, still contradictions (weight 0.5); the shipped model was not
trained with them (docs/nli-development.md, "Swapped contradictions").
--drop-asides reads each passage, in training and in the model's judging,
without its bracketed asides that share no word or figure with the claim;
the shipped model does not (docs/nli-development.md, "Asides").
--exact-figures encodes the training pairs with the judge's exact reading
of figures; --set-weight SET=WEIGHT replaces
a set's weight in training and calibration (repeatable); the shipped model
uses neither (docs/nli-development.md, "Trained with the exact reading",
"Set weights"). --word-dropout P reads each training token without its word
vector, as an unknown word, with probability P; --teacher FILE --distill W
also trains each network on the probabilities of the model in FILE, at
weight W against the labels' 1 - W (knowledge distillation), and
--teacher-members N --distill W first trains that teacher here, N networks
of the same settings (but the widths --teacher-d and --teacher-hidden, where
given), in the same command; --distill-temperature T softens both sides of
the distillation term (Hinton et al., 2015). The shipped model's networks are distilled from
a teacher trained in the same command (docs/nli-development.md, "Wider
students"); it was not trained with word dropout ("Word dropout").
--source-priors trains each network on its logits plus the log of the label
prior of the pair's source (its data file; FEVER and the pairs built from
it are one), so that the network does not learn how often each source uses
each label; the judge runs the network without it, and a teacher trained
with --teacher-members is trained without it (docs/nli-development.md,
"Source priors"); with --complete-sources-only, a source that lacks a
label (FoolMeTwice, VitaminC's synthetic pairs) is trained unadjusted.
--adversarial EPS trains each pair a second time with its
token projections moved, by EPS times their norm, in the direction that
raises its loss most (adversarial training), each pass weighing half; the
shipped model was not trained with it (docs/nli-development.md,
"Adversarial training"). --weight-decay L shrinks every network weight
towards zero by the learning rate times L of itself each step (decoupled
weight decay, AdamW); a teacher trained with --teacher-members is trained
without it, and the shipped model was not trained with it
(docs/nli-development.md, "Weight decay"). --as-judged trains on each
training pair's passage as the judge reads it: the sentences that bear on
the claim and, for a passage of more than two sentences, the window of one
or two that bears most on it, each at half the pair's weight (or that
window alone when it holds every content word of the claim), instead of the
passage's first 128 tokens; the shipped model was not trained so
(docs/nli-development.md, "Passages as the judge reads them").
--label-smoothing E trains each pair's label term against a target that
keeps 1-E on its label and spreads E evenly over the three labels (label
smoothing); the teacher's term is left as it is, a teacher trained with
--teacher-members is trained without it, and the shipped model was not
trained with it (docs/nli-development.md, "Label smoothing").
--substitute P adds, for each training pair, a copy whose plain words
(lower case, not stop words, and no figure, name, negation, quantifier,
modal or direction word) are each replaced with probability P by one of
their eight nearest words in the word vectors; the copies carry no label
and learn the teacher's probabilities alone, so the run needs --distill and
a teacher; the shipped model was not trained with it
(docs/nli-development.md, "Word substitution").
--context transformer trains, in place of the aligning network, a small
transformer over claim and passage read as one sequence (--layers N layers,
default 2; four attention heads, so --d a multiple of 4), its attention
between the two sides biased by the same lexical relations; the shipped
model is not one (docs/nli-development.md, "A small transformer").
--cousins widens WordNet's co-hyponym relation to words whose senses share
a hypernym one or two steps up ("dog" and "cat", "guitar" and "violin"),
in training and in the model's judging (the option is saved with the
model); the shipped model was not trained with it (docs/nli-development.md,
"Cousins"). --cousin-relation gives those cousins a relation of their own
beside the co-hyponyms' (networks of 13 relations), so that a network can
weigh the two kinds apart; not with --cousins, and the shipped model was
not trained with it either (docs/nli-development.md, "Cousins as a
relation of their own").`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" && cfg.Ablate == "" {
				return &evidence.InputError{Field: "out", Message: "--out FILE is required"}
			}
			if _, err := train.ContextCode(cfg.Context); err != nil {
				return &evidence.InputError{Field: "context", Message: "--context: " + err.Error()}
			}
			if cfg.Layers < 0 || cfg.Layers > align.MaxLayers || (cfg.Layers > 0 && cfg.Context != "transformer") {
				return &evidence.InputError{Field: "layers", Message: fmt.Sprintf("--layers %d: want 1 to %d (0 = 2), with --context transformer", cfg.Layers, align.MaxLayers)}
			}
			if cfg.Context == "transformer" && (cfg.Adversarial > 0 || cfg.Compose || cfg.Ablate == "attention") {
				return &evidence.InputError{Field: "context", Message: "--context transformer: not with --adversarial, --compose or --ablate attention (a transformer has no alignment and no comparisons)"}
			}
			switch cfg.Ablate {
			case "", "none", "wordnet", "quantity", "attention":
			default:
				return &evidence.InputError{Field: "ablate", Message: fmt.Sprintf("--ablate %q: want none, wordnet, quantity or attention", cfg.Ablate)}
			}
			for _, w := range []struct {
				flag  string
				value int
			}{{"d", cfg.D}, {"hidden", cfg.H}, {"teacher-d", cfg.TeacherD}, {"teacher-hidden", cfg.TeacherH}} {
				if w.value < 0 || w.value > maxWidth {
					return &evidence.InputError{Field: w.flag, Message: fmt.Sprintf("--%s %d: want 1 to %d (0 = default)", w.flag, w.value, maxWidth)}
				}
			}
			if (cfg.TeacherD > 0 || cfg.TeacherH > 0) && cfg.TeacherMembers == 0 {
				return &evidence.InputError{Field: "teacher-d", Message: "--teacher-d and --teacher-hidden set the widths of the teacher --teacher-members trains: want --teacher-members with them"}
			}
			if cfg.Members < 1 || cfg.Members > 8 {
				return &evidence.InputError{Field: "members", Message: fmt.Sprintf("--members %d: want 1 to 8", cfg.Members)}
			}
			if cfg.Dropout < 0 || cfg.Dropout >= 1 {
				return &evidence.InputError{Field: "dropout", Message: fmt.Sprintf("--dropout %g: want a probability in [0, 1)", cfg.Dropout)}
			}
			if cfg.TeacherMembers < 0 || cfg.TeacherMembers > 8 || (cfg.TeacherMembers > 0 && teacher != "") {
				return &evidence.InputError{Field: "teacher-members", Message: fmt.Sprintf("--teacher-members %d: want 1 to 8, and not with --teacher", cfg.TeacherMembers)}
			}
			if cfg.Distill < 0 || cfg.Distill > 1 || (cfg.Distill > 0) != (teacher != "" || cfg.TeacherMembers > 0) {
				return &evidence.InputError{Field: "distill", Message: fmt.Sprintf("--distill %g: want a weight in (0, 1] with --teacher FILE or --teacher-members N, and those only with it", cfg.Distill)}
			}
			if cfg.DistillTemperature != 1 && (cfg.Distill == 0 || !(cfg.DistillTemperature >= 1 && cfg.DistillTemperature <= 10)) {
				return &evidence.InputError{Field: "distill-temperature", Message: fmt.Sprintf("--distill-temperature %g: want a temperature in [1, 10], with --distill", cfg.DistillTemperature)}
			}
			if cfg.Adversarial < 0 || cfg.Adversarial > 1 || (cfg.Adversarial > 0 && cfg.Context == "none") {
				return &evidence.InputError{Field: "adversarial", Message: fmt.Sprintf("--adversarial %g: want a share in [0, 1] of the projections' norm, and a contextual encoder (not --context none)", cfg.Adversarial)}
			}
			if !(cfg.WeightDecay >= 0 && cfg.WeightDecay <= 10) {
				return &evidence.InputError{Field: "weight-decay", Message: fmt.Sprintf("--weight-decay %g: want a rate in [0, 10] (0 = none)", cfg.WeightDecay)}
			}
			if !(cfg.LabelSmoothing >= 0 && cfg.LabelSmoothing <= 0.5) {
				return &evidence.InputError{Field: "label-smoothing", Message: fmt.Sprintf("--label-smoothing %g: want a share in [0, 0.5] of the label's weight spread over the three labels (0 = none)", cfg.LabelSmoothing)}
			}
			if !(cfg.Substitute >= 0 && cfg.Substitute <= 1) || (cfg.Substitute > 0 && (cfg.Distill == 0 || (teacher == "" && cfg.TeacherMembers == 0))) {
				return &evidence.InputError{Field: "substitute", Message: fmt.Sprintf("--substitute %g: want a share in [0, 1] of the words replaced (0 = none), with --distill and a teacher (--teacher or --teacher-members)", cfg.Substitute)}
			}
			if cfg.CompleteSourcesOnly && !cfg.SourcePriors {
				return &evidence.InputError{Field: "complete-sources-only", Message: "--complete-sources-only chooses which sources --source-priors adjusts; give it with --source-priors"}
			}
			if cfg.WordDropout < 0 || cfg.WordDropout >= 1 {
				return &evidence.InputError{Field: "word-dropout", Message: fmt.Sprintf("--word-dropout %g: want a probability in [0, 1)", cfg.WordDropout)}
			}
			if cfg.TuneWords < 0 || cfg.TuneWords > align.MaxWords {
				return &evidence.InputError{Field: "tune-words", Message: fmt.Sprintf("--tune-words %d: want 0 to %d", cfg.TuneWords, align.MaxWords)}
			}
			if cfg.WordDecay < 0 || cfg.WordDecay > 100 || (cfg.WordDecay > 0 && cfg.TuneWords == 0) {
				return &evidence.InputError{Field: "word-decay", Message: fmt.Sprintf("--word-decay %g: want 0 to 100, and --tune-words with it", cfg.WordDecay)}
			}
			if cfg.TitleShare < 0 || cfg.TitleShare > 1 || (cfg.TitleShare > 0 && cfg.Titles) {
				return &evidence.InputError{Field: "title-share", Message: fmt.Sprintf("--title-share %g: want a share in [0, 1], and not with --titles", cfg.TitleShare)}
			}
			if cfg.Distractors && (cfg.Titles || cfg.TitleShare > 0) {
				return &evidence.InputError{Field: "distractors", Message: "--distractors: not with --titles or --title-share (a titled passage's first sentence is its title)"}
			}
			if cfg.EMA < 0 || cfg.EMA >= 1 {
				return &evidence.InputError{Field: "ema", Message: fmt.Sprintf("--ema %g: want a decay in [0, 1), for example 0.999", cfg.EMA)}
			}
			if oldWeight != -1 && (oldWeight < 0 || oldWeight >= 1) {
				return &evidence.InputError{Field: "old-weight", Message: fmt.Sprintf("--old-weight %g: want a weight in [0, 1), or -1 to choose it", oldWeight)}
			}
			for _, sw := range setWeights {
				name, val, ok := strings.Cut(sw, "=")
				w, err := strconv.ParseFloat(val, 64)
				if !ok || name == "" || err != nil {
					return &evidence.InputError{Field: "set-weight", Message: fmt.Sprintf("--set-weight %q: want SET=WEIGHT, for example vitaminc_real_a=2", sw)}
				}
				if cfg.Weights == nil {
					cfg.Weights = map[string]float64{}
				}
				cfg.Weights[name] = w
			}
			if err := cfg.EncoderOptions().Check(); err != nil {
				return &evidence.InputError{Field: "cousin-relation", Message: "--cousin-relation: not with --cousins (" + err.Error() + ")"}
			}
			if err := cfg.CheckShape(); err != nil {
				return &evidence.InputError{Field: "d", Message: "the network's shape: " + err.Error()}
			}
			cfg.DataDir = dataDir
			if st, err := os.Stat(dataDir); err != nil || !st.IsDir() {
				return fmt.Errorf("--data-dir %s: not a directory of labeled data", dataDir)
			}
			return runTrainNLI(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), cfg, oldWeight, out, devDir, calibDir, report, teacher)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&out, "out", "", "model file to write")
	fl.StringVar(&dataDir, "data-dir", "../shared/data", "labeled data directory")
	fl.StringVar(&devDir, "dev-dir", "", "also write each development split as a labeled JSONL set for 'verity eval'")
	fl.StringVar(&calibDir, "calib-dir", "", "also write each calibration split (where the temperature, the epoch and every choice are made) as a labeled JSONL set for 'verity eval'")
	fl.StringVar(&report, "report", "", "also write the development metrics as JSON to this file")
	fl.StringVar(&cfg.Checkpoint, "checkpoint", "", "checkpoint file: resume from it and rewrite it after every epoch")
	fl.StringVar(&cfg.Ablate, "ablate", "", "train without one part (wordnet, quantity, attention; none for the baseline) and only report")
	fl.IntVar(&cfg.MaxTrain, "max-train", 0, "train on this many pairs only (0 = all)")
	fl.Int64Var(&cfg.Seed, "seed", 1, "random seed")
	fl.IntVar(&cfg.Epochs, "epochs", 0, "training epochs (0 = default)")
	fl.IntVar(&cfg.D, "d", 0, "token projection width (0 = default)")
	fl.IntVar(&cfg.H, "hidden", 0, "hidden units (0 = default)")
	fl.BoolVar(&cfg.Negate, "negate", false, "also train on negated claims: each training pair labelled entailment or neutral with \"not\" after its claim's first auxiliary (entailment becomes contradiction, neutral stays)")
	fl.IntVar(&cfg.TuneWords, "tune-words", 0, "learn a correction of the word vectors of at most this many of the training split's most frequent words (0 = none)")
	fl.Float64Var(&cfg.WordDecay, "word-decay", 0, "with --tune-words, shrink the corrections towards zero by learning rate x this every step (0 = none)")
	fl.BoolVar(&cfg.DropAsides, "drop-asides", false, "read each passage without its bracketed asides that share no word or figure with the claim, in training and in the model's judging")
	fl.BoolVar(&cfg.Swap, "swap", false, "also train on the contradictions of SNLI, counterfactual SNLI, MultiNLI and TaxiNLI with claim and passage swapped (set swapped, weight 0.5)")
	fl.BoolVar(&cfg.Distractors, "distractors", false, "add to every split FEVER's pairs with the first sentence of another subject's passage before or after their passage, label unchanged (set fever_distractor)")
	fl.BoolVar(&cfg.Titles, "titles", false, "open the passages of the Wikipedia sets (FEVER, VitaminC, FoolMeTwice) with their page's title")
	fl.Float64Var(&cfg.TitleShare, "title-share", 0, "give this share of the training split's Wikipedia pairs their page's title, calibration and development pairs none (0 = none)")
	fl.BoolVar(&cfg.Cousins, "cousins", false, "widen the co-hyponym relation to words whose senses share a WordNet hypernym one or two steps up (\"dog\" and \"cat\"), in training and in the model's judging")
	fl.BoolVar(&cfg.CousinRelation, "cousin-relation", false, "give words whose senses share a WordNet hypernym one or two steps up and no closer relation (\"dog\" and \"cat\") a relation of their own beside the co-hyponyms' (not with --cousins), in training and in the model's judging")
	fl.BoolVar(&cfg.NegatedAntonyms, "negated-antonyms", false, "relate an antonym pair with one word inside a negation's scope as synonyms (\"has never closed\" against \"has been open\")")
	fl.StringArrayVar(&setWeights, "set-weight", nil, "give the pairs of one set this weight in training and calibration, SET=WEIGHT (repeatable; default weights in README)")
	fl.BoolVar(&cfg.ExactFigures, "exact-figures", false, "train with the judge's exact reading of figures (no one-unit tolerance, crores, scores out of ten), which the judge uses whatever the model was trained with")
	fl.BoolVar(&cfg.SourcePriors, "source-priors", false, "train on the logits plus the log label prior of each pair's source (logit adjustment); the judge runs without it")
	fl.BoolVar(&cfg.CompleteSourcesOnly, "complete-sources-only", false, "with --source-priors, adjust only the sources that use every label (each at least 1% of their pairs)")
	fl.Float64Var(&cfg.Adversarial, "adversarial", 0, "also train each pair with its token projections moved by this share of their norm in the direction that raises its loss most (0 = none)")
	fl.BoolVar(&cfg.AsJudged, "as-judged", false, "train on each training pair's passage as the judge reads it: its bearing sentences and, for a passage of more than two sentences, its focus window, each at half weight")
	fl.Float64Var(&cfg.WeightDecay, "weight-decay", 0, "shrink every network weight towards zero by the learning rate times this of itself each step (decoupled weight decay; 0 = none)")
	fl.Float64Var(&cfg.LabelSmoothing, "label-smoothing", 0, "train each pair's label term against a target that spreads this share evenly over the three labels (label smoothing; 0 = none)")
	fl.Float64Var(&cfg.Substitute, "substitute", 0, "with --distill and a teacher, add a copy of each training pair with this share of its plain words replaced by near words in the word vectors, trained on the teacher's probabilities alone (0 = none)")
	fl.BoolVar(&cfg.Compose, "compose", false, "add a composition layer: a width-3 convolution over each side's comparisons before pooling")
	fl.IntVar(&cfg.Members, "members", 1, "networks in the ensemble, each trained from other starting weights on the same data (1 to 8)")
	fl.Float64Var(&oldWeight, "old-weight", -1, "weight of the previous feature model in the ensemble, in [0, 1) (-1 = choose it on the calibration split)")
	fl.Float64Var(&cfg.EMA, "ema", 0, "keep a moving average of the weights with this decay per step and choose the epoch among the averages (0 = none; 0.999 averages about 1,000 steps)")
	fl.Float64Var(&cfg.Dropout, "dropout", 0, "dropout probability of the pooled comparisons and hidden units in training (0 = none)")
	fl.StringVar(&teacher, "teacher", "", "with --distill, the model file (from 'verity train nli') whose probabilities the networks also learn")
	fl.IntVar(&cfg.TeacherMembers, "teacher-members", 0, "with --distill, first train a teacher of this many networks with the same settings (checkpoints FILE.teacher*), then the networks on its probabilities (1 to 8)")
	fl.IntVar(&cfg.TeacherD, "teacher-d", 0, "with --teacher-members, the teacher's token projection width (0 = the students' --d)")
	fl.IntVar(&cfg.TeacherH, "teacher-hidden", 0, "with --teacher-members, the teacher's hidden units (0 = the students' --hidden)")
	fl.Float64Var(&cfg.Distill, "distill", 0, "weight of the teacher's probabilities in each training pair's loss, the label's being 1 minus it (0 = none)")
	fl.Float64Var(&cfg.DistillTemperature, "distill-temperature", 1, "with --distill, the temperature T of the teacher's and the networks' probabilities in the distillation term, which is scaled by T squared (1 = none)")
	fl.Float64Var(&cfg.WordDropout, "word-dropout", 0, "probability that a training token is read without its word vector, as an unknown word (0 = none)")
	fl.StringVar(&cfg.Context, "context", "conv", "contextual encoder before alignment: conv (width-3 convolution), convself (the convolution, then intra-sentence attention), gru (a bidirectional GRU) or none; or transformer, a small transformer over claim and passage as one sequence in place of the alignment (--d a multiple of 4)")
	fl.IntVar(&cfg.Layers, "layers", 0, "with --context transformer, its layers (0 = 2)")
	return cmd
}

// writeFile creates path and writes it with save.
func writeFile(path string, save func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := save(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func newTrainCalibrationCmd() *cobra.Command {
	var out, dataDir, modelPath string
	var seed int64
	cmd := &cobra.Command{
		Use:   "calibration --out FILE",
		Short: "Fit the learned 0-100 score (seed 004, section 7) on labeled claims",
		Long: `train calibration judges labeled claims (FEVER, VitaminC real_a, SciFact and the
neutral pairs 'train nli' builds) with the NLI model, each claim's own passage
among five passages of other claims, computes the seed-004 features and fits
a logistic regression from them to "supported". It fits on the calibration
split, which the NLI model never trained on, and prints log-loss, accuracy
and ECE on the development split beside those of the fixed sigmoid. The
shipped scoring/calibration.json is made with the defaults.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, _, err := loadFor(cmd)
			if err != nil {
				return err
			}
			if out == "" {
				return errors.New("--out FILE is required")
			}
			judge, err := loadJudge(modelPath)
			if err != nil {
				return err
			}
			sets, err := train.LoadSets(dataDir, seed)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			fixed := scoring.New(cfg.Scoring, nil)
			trainEx, err := train.CalibrationExamples(ctx, judge, fixed, sets.Claims(train.SplitCalib, seed))
			if err != nil {
				return err
			}
			cal, err := scoring.TrainCalibration(trainEx)
			if err != nil {
				return err
			}
			cal.Info = map[string]string{
				"data":  "calibration splits of FEVER paper_dev, VitaminC real_a, SciFact train pairs and FEVER neutral pairs",
				"judge": "built-in NLI model",
				"seed":  strconv.FormatInt(seed, 10),
				"n":     strconv.Itoa(len(trainEx)),
			}
			if err := writeFile(out, cal.Save); err != nil {
				return err
			}
			dev, err := train.CalibrationExamples(ctx, judge, fixed, sets.Claims(train.SplitDev, seed))
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintf(tw, "development claims\t%d\n", len(dev))
			fmt.Fprintln(tw, "score\tlog-loss\taccuracy\tbalanced acc.\tECE")
			for _, s := range []struct {
				name string
				sc   *scoring.Scorer
			}{{"fixed sigmoid", fixed}, {"calibrated", scoring.New(cfg.Scoring, cal)}} {
				r, ll := eval.ScoreCalibration(s.sc, dev)
				fmt.Fprintf(tw, "%s\t%.4f\t%.4f\t%.4f\t%.4f\n", s.name, ll, r.Accuracy, r.BalancedAccuracy, r.ECE)
			}
			return tw.Flush()
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&out, "out", "", "calibration JSON file to write")
	fl.StringVar(&dataDir, "data-dir", "../shared/data", "labeled data directory")
	fl.StringVar(&modelPath, "nli-model", "", "NLI model file (default: the built-in model)")
	fl.Int64Var(&seed, "seed", 1, "random seed (the same as 'train nli' keeps its splits)")
	return cmd
}
