package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/verity-fc/verity/eval"
)

func runVerity(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := newRootCmd()
	var out, errOut bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

func writeSet(t *testing.T, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "set.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestEvalGoldJSON(t *testing.T) {
	set := writeSet(t,
		`{"id": 1, "claim": "The Eiffel Tower is in Paris.", "evidence": ["The Eiffel Tower is a wrought-iron lattice tower in Paris, France."], "label": "SUPPORTS"}`,
		`{"id": 2, "claim": "The Eiffel Tower is not in Paris.", "evidence": ["The Eiffel Tower is a wrought-iron lattice tower in Paris, France."], "label": "REFUTES"}`,
		`{"id": 3, "claim": "Barack Obama was born in Hawaii.", "evidence": [], "label": "NOT_ENOUGH_INFO"}`,
	)
	out, err := runVerity(t, "eval", "--set", set, "--mode", "gold", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var r eval.Report
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	if r.N != 3 || r.Accuracy != 1 || len(r.PerLabel) != 3 || !(r.ClaimsPerSec > 0) {
		t.Errorf("report %+v: want 3 claims all right, three labels, a throughput", r)
	}

	out, err = runVerity(t, "eval", "--set", set, "--limit", "1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "balanced accuracy") || !strings.Contains(out, "SUPPORTS") {
		t.Errorf("text report lacks its rows:\n%s", out)
	}
}

func TestEvalErrors(t *testing.T) {
	good := writeSet(t, `{"claim": "a", "evidence": [], "label": "SUPPORTS"}`)
	bad := writeSet(t, `{"claim": "a", "evidence": [], "label": "MAYBE"}`)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no set", []string{"eval"}, "--set FILE is required"},
		{"bad label", []string{"eval", "--set", bad}, `line 1: "label" "MAYBE"`},
		{"bad mode", []string{"eval", "--set", good, "--mode", "psychic"}, "is not gold, corpus or verdicts"},
		{"fit outside verdicts", []string{"eval", "--set", good, "--mode", "gold", "--fit"}, "--fit needs --mode verdicts"},
		{"write without fit", []string{"eval", "--mode", "verdicts", "--write-thresholds", "x.json"}, "--write-thresholds needs --fit"},
		{"negative limit", []string{"eval", "--set", good, "--limit", "-1"}, "--limit must be >= 0"},
		{"missing model", []string{"eval", "--set", good, "--nli-model", filepath.Join(t.TempDir(), "none")}, "no such file"},
		// The corpus pipeline judges with --nli-model too, not silently with the built-in judge.
		{"missing model, corpus", []string{"eval", "--set", good, "--mode", "corpus", "--data", t.TempDir(), "--nli-model", filepath.Join(t.TempDir(), "none")}, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := runVerity(t, tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestTrainErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"nli without out", []string{"train", "nli"}, "--out FILE is required"},
		{"nli without data", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--data-dir", filepath.Join(t.TempDir(), "none")}, "not a directory of labeled data"},
		{"nli unknown ablation", []string{"train", "nli", "--ablate", "rules"}, "want none, wordnet, quantity or attention"},
		{"nli unknown context", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--context", "lstm"}, "want conv, convself, gru, none or transformer"},
		{"nli layers without transformer", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--layers", "2"}, "--layers 2: want 1 to 8 (0 = 2), with --context transformer"},
		{"nli too many layers", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--context", "transformer", "--layers", "9"}, "--layers 9: want 1 to 8"},
		{"nli transformer with compose", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--context", "transformer", "--compose"}, "--context transformer: not with --adversarial, --compose or --ablate attention"},
		{"nli transformer width", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--context", "transformer", "--d", "30"}, "a transformer needs a width that is a multiple of 4, not 30"},
		{"nli dropout out of range", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--dropout", "1"}, "want a probability in [0, 1)"},
		{"nli distill without teacher", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--distill", "0.5"}, "--distill 0.5: want a weight in (0, 1] with --teacher FILE or --teacher-members N"},
		{"nli teacher without distill", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--teacher", "../../nli/model/aligner.json.gz"}, "and those only with it"},
		{"nli teacher members without distill", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--teacher-members", "3"}, "and those only with it"},
		{"nli teacher members and file", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--teacher-members", "3", "--teacher", "x.gz", "--distill", "0.5"}, "--teacher-members 3: want 1 to 8, and not with --teacher"},
		{"nli negative width", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--d", "-4"}, "--d -4: want 1 to 1024 (0 = default)"},
		{"nli wide hidden", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--hidden", "5000"}, "--hidden 5000: want 1 to 1024"},
		{"nli teacher width without teacher", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--teacher-d", "64"}, "want --teacher-members with them"},
		{"nli teacher width with file teacher", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--teacher-hidden", "96", "--teacher", "x.gz", "--distill", "0.5"}, "want --teacher-members with them"},
		{"nli too many teacher members", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--teacher-members", "9", "--distill", "0.5"}, "--teacher-members 9: want 1 to 8"},
		{"nli teacher missing", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--data-dir", t.TempDir(), "--teacher", filepath.Join(t.TempDir(), "none.gz"), "--distill", "0.5"}, "--teacher: open"},
		{"nli teacher not a model", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--data-dir", t.TempDir(), "--teacher", "../../go.mod", "--distill", "0.5"}, "not a gzip file"},
		{"nli teacher reads otherwise", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--data-dir", t.TempDir(), "--teacher", "../../nli/model/aligner.json.gz", "--distill", "0.5"}, "reads pairs otherwise than this run (tuned words 0, negated antonyms true"},
		{"nli teacher without cousins", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--data-dir", t.TempDir(), "--teacher", "../../nli/model/aligner.json.gz", "--distill", "0.5", "--negated-antonyms", "--cousins"}, "exact figures false, cousins false, cousin relation false); train with the options it was trained with"},
		{"nli teacher without the cousin relation", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--data-dir", t.TempDir(), "--teacher", "../../nli/model/aligner.json.gz", "--distill", "0.5", "--negated-antonyms", "--cousin-relation"}, "cousins false, cousin relation false); train with the options it was trained with"},
		{"nli cousins two ways", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--cousins", "--cousin-relation"}, "--cousin-relation: not with --cousins"},
		{"nli word dropout out of range", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--word-dropout", "-0.1"}, "--word-dropout -0.1: want a probability in [0, 1)"},
		{"nli distill temperature without distill", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--distill-temperature", "2"}, "--distill-temperature 2: want a temperature in [1, 10], with --distill"},
		{"nli negative weight decay", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--weight-decay", "-0.1"}, "--weight-decay -0.1: want a rate in [0, 10] (0 = none)"},
		{"nli weight decay not a number", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--weight-decay", "NaN"}, "--weight-decay NaN: want a rate in [0, 10]"},
		{"nli label smoothing out of range", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--label-smoothing", "0.7"}, "--label-smoothing 0.7: want a share in [0, 0.5]"},
		{"nli substitute without a teacher", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--substitute", "0.3"}, "--substitute 0.3: want a share in [0, 1] of the words replaced (0 = none), with --distill and a teacher"},
		{"nli substitute out of range", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--teacher-members", "1", "--distill", "0.5", "--substitute", "1.5"}, "--substitute 1.5: want a share in [0, 1]"},
		{"nli label smoothing not a number", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--label-smoothing", "NaN"}, "--label-smoothing NaN: want a share in [0, 0.5]"},
		{"nli distill temperature below one", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--teacher-members", "3", "--distill", "0.5", "--distill-temperature", "0.5"}, "--distill-temperature 0.5: want a temperature in [1, 10]"},
		{"nli complete sources without priors", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--complete-sources-only"}, "give it with --source-priors"},
		{"nli no members", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--members", "0"}, "--members 0: want 1 to 8"},
		{"nli too many members", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--members", "9"}, "--members 9: want 1 to 8"},
		{"nli distractors with titles", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--distractors", "--titles"}, "--distractors: not with --titles or --title-share"},
		{"nli old weight", []string{"train", "nli", "--out", filepath.Join(t.TempDir(), "m"), "--old-weight", "1"}, "--old-weight 1: want a weight in [0, 1), or -1 to choose it"},
		{"wordnet without out", []string{"train", "wordnet"}, "--out FILE is required"},
		{"wordnet without database", []string{"train", "wordnet", "--out", filepath.Join(t.TempDir(), "w"), "--dict", filepath.Join(t.TempDir(), "none")}, "not a WordNet database directory"},
		{"calibration without out", []string{"train", "calibration"}, "--out FILE is required"},
		{"calibration without data", []string{"train", "calibration", "--out", filepath.Join(t.TempDir(), "c"), "--data-dir", t.TempDir()}, "paper_dev.jsonl"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := runVerity(t, tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestEvalSetDir(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, lines ...string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("eiffel.jsonl",
		`{"id": 1, "claim": "The Eiffel Tower is in Paris.", "evidence": ["The Eiffel Tower is a wrought-iron lattice tower in Paris, France."], "label": "SUPPORTS"}`,
		`{"id": 2, "claim": "The Eiffel Tower is not in Paris.", "evidence": ["The Eiffel Tower is a wrought-iron lattice tower in Paris, France."], "label": "REFUTES"}`,
		`{"id": 3, "claim": "Barack Obama was born in Hawaii.", "evidence": [], "label": "NOT_ENOUGH_INFO"}`,
	)
	write("wrong.jsonl",
		`{"id": 1, "claim": "The Eiffel Tower is in Paris.", "evidence": ["The Eiffel Tower is a wrought-iron lattice tower in Paris, France."], "label": "SUPPORTS"}`,
		`{"id": 2, "claim": "The Eiffel Tower is in Rome.", "evidence": ["The Eiffel Tower is a wrought-iron lattice tower in Paris, France."], "label": "NOT_ENOUGH_INFO"}`,
	)
	write("mixed.jsonl",
		`{"claim": "a", "evidence": [], "label": "NOT_SUPPORTED"}`,
		`{"claim": "b", "evidence": [], "label": "REFUTES"}`,
	)
	write("notes.txt", "not a set")
	out, err := runVerity(t, "eval", "--set-dir", dir, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rep SetDirReport
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	e, w := rep.Sets["eiffel"], rep.Sets["wrong"]
	if len(rep.Sets) != 2 || e.N != 3 || e.BalancedAccuracy != 1 || w.N != 2 {
		t.Fatalf("sets %+v: want eiffel (3 claims, all right) and wrong (2)", rep.Sets)
	}
	if !strings.Contains(rep.Skipped["mixed"], "mixes a two-way set") || len(rep.Skipped) != 1 {
		t.Errorf("skipped %v: want mixed.jsonl with its reason, and nothing else", rep.Skipped)
	}
	if want := (e.BalancedAccuracy + w.BalancedAccuracy) / 2; rep.MeanBalancedAccuracy != want {
		t.Errorf("mean balanced accuracy %g, want %g", rep.MeanBalancedAccuracy, want)
	}
	// Neither set has 100 claims.
	if rep.LargeSets != 0 || rep.MeanBalancedAccuracyLarge != 0 {
		t.Errorf("%d large sets (mean %g), want none", rep.LargeSets, rep.MeanBalancedAccuracyLarge)
	}
	calibrated := 0
	for _, r := range rep.Sets {
		if r.ECE <= 0.05 {
			calibrated++
		}
	}
	if rep.Calibrated != calibrated {
		t.Errorf("%d sets counted with ECE <= 0.05, the reports have %d", rep.Calibrated, calibrated)
	}

	out, err = runVerity(t, "eval", "--set-dir", dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"eiffel", "mean balanced accuracy", "skipped mixed", "ECE at most 0.05"} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--set-dir", dir, "--set", filepath.Join(dir, "eiffel.jsonl")}, "give one"},
		{[]string{"--set-dir", dir, "--mode", "corpus"}, "--set-dir needs --mode gold"},
		{[]string{"--set-dir", t.TempDir()}, "no *.jsonl set"},
		{[]string{"--set-dir", filepath.Join(dir, "none")}, "no such file"},
		{[]string{"--set-dir", filepath.Join(dir, "notes.txt")}, "not a directory"},
	} {
		if _, err := runVerity(t, append([]string{"eval"}, tt.args...)...); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("eval %q: error %v, want one containing %q", tt.args, err, tt.want)
		}
	}
}
