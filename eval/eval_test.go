package eval

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/verity-fc/verity/evidence"
)

func TestReadSet(t *testing.T) {
	in := `{"id": 7, "claim": "A is B.", "evidence": ["A is B indeed."], "label": "SUPPORTS", "extra": 1}

{"id": "x", "claim": "C.", "evidence": [], "label": "not_enough_info"}
`
	got, err := ReadSet(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Example{
		{ID: "7", Claim: "A is B.", Evidence: []string{"A is B indeed."}, Label: Supports},
		{ID: "x", Claim: "C.", Evidence: []string{}, Label: NotEnoughInfo},
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("ReadSet mismatch (-want +got):\n%s", diff)
	}
}

func TestReadSetErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"not json", "{\"claim\": \"a\", \"label\": \"SUPPORTS\"}\n{oops", "line 2: not a JSON object"},
		{"no claim", `{"label": "SUPPORTS"}`, `line 1: "claim" is missing`},
		{"blank claim", `{"claim": "  ", "label": "SUPPORTS"}`, `line 1: "claim" is missing or empty`},
		{"no label", `{"claim": "a"}`, `line 1: "label" is missing`},
		{"bad label", `{"claim": "a", "label": "TRUE"}`, `line 1: "label" "TRUE" is not one of`},
		{"mixed kinds", "{\"claim\": \"a\", \"label\": \"REFUTES\"}\n{\"claim\": \"b\", \"label\": \"NOT_SUPPORTED\"}", "line 2: label NOT_SUPPORTED mixes"},
		{"evidence not a list", `{"claim": "a", "evidence": "x", "label": "SUPPORTS"}`, "line 1: not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadSet(strings.NewReader(tt.in))
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("ReadSet error = %v, want prefix %q", err, tt.want)
			}
		})
	}
}

func TestReadSetLongLine(t *testing.T) {
	in := `{"claim": "` + strings.Repeat("a", MaxLineBytes) + `", "label": "SUPPORTS"}`
	if _, err := ReadSet(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("ReadSet error = %v, want a line-length error", err)
	}
}

func pred(label string, ps, pr, pn float64) Prediction {
	return Prediction{Label: label, Probs: map[string]float64{Supports: ps, Refutes: pr, NotEnoughInfo: pn}}
}

func TestScore(t *testing.T) {
	gold := []string{Supports, Supports, Supports, Refutes, Refutes, NotEnoughInfo}
	preds := []Prediction{
		pred(Supports, 0.9, 0.05, 0.05),    // right, conf .9
		pred(Supports, 0.85, 0.1, 0.05),    // right, conf .85
		pred(Refutes, 0.3, 0.65, 0.05),     // wrong, conf .65
		pred(Refutes, 0.1, 0.8, 0.1),       // right, conf .8
		pred(Supports, 0.55, 0.35, 0.1),    // wrong, conf .55
		pred(NotEnoughInfo, 0.1, 0.1, 0.8), // right, conf .8
	}
	got := Score(gold, preds, ThreeWayLabels)
	sP, sR := 2.0/3, 2.0/3
	rP, rR := 1.0/2, 1.0/2
	want := Report{
		N:                6,
		Accuracy:         4.0 / 6,
		BalancedAccuracy: (sR + rR + 1) / 3,
		MacroF1:          (2*sP*sR/(sP+sR) + 2*rP*rR/(rP+rR) + 1) / 3,
		PerLabel: map[string]LabelStats{
			Supports:      {Precision: sP, Recall: sR, F1: 2 * sP * sR / (sP + sR), N: 3},
			Refutes:       {Precision: rP, Recall: rR, F1: 0.5, N: 2},
			NotEnoughInfo: {Precision: 1, Recall: 1, F1: 1, N: 1},
		},
		// bins: .5-.6 {.55 wrong}, .6-.7 {.65 wrong}, .8-.9 {.85 right, .8 right, .8 right}, .9-1 {.9 right}
		ECE: (1.0/6)*0.55 + (1.0/6)*0.65 + (3.0/6)*(1-(0.85+0.8+0.8)/3) + (1.0/6)*0.1,
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("Score mismatch (-want +got):\n%s", diff)
	}
}

func TestScoreAbsentLabelExcludedFromMacro(t *testing.T) {
	gold := []string{Supports, Refutes}
	preds := []Prediction{pred(Supports, 1, 0, 0), pred(NotEnoughInfo, 0, 0, 1)}
	got := Score(gold, preds, ThreeWayLabels)
	if got.BalancedAccuracy != 0.5 {
		t.Errorf("balanced accuracy = %g, want 0.5 (mean over SUPPORTS and REFUTES)", got.BalancedAccuracy)
	}
	if got.MacroF1 != 0.5 {
		t.Errorf("macro F1 = %g, want 0.5", got.MacroF1)
	}
	if got.PerLabel[NotEnoughInfo].N != 0 {
		t.Errorf("NEI n = %d, want 0", got.PerLabel[NotEnoughInfo].N)
	}
}

func TestReportJSONKeys(t *testing.T) {
	b, err := json.Marshal(Score([]string{Supports}, []Prediction{pred(Supports, 1, 0, 0)}, TwoWayLabels))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	want := []string{"accuracy", "balanced_accuracy", "claims_per_sec", "ece", "macro_f1", "n", "per_label"}
	if diff := cmp.Diff(want, keys, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("report keys (-want +got):\n%s", diff)
	}
	var per map[string]map[string]any
	if err := json.Unmarshal(m["per_label"], &per); err != nil {
		t.Fatal(err)
	}
	if _, ok := per[Supports]["precision"]; !ok || len(per[Supports]) != 4 {
		t.Errorf("per_label entry = %v, want precision, recall, f1, n", per[Supports])
	}
}

func TestToTwoWay(t *testing.T) {
	tests := []struct {
		name string
		in   Prediction
		want Prediction
	}{
		{"supports", pred(Supports, 0.7, 0.2, 0.1), Prediction{Supports, map[string]float64{Supports: 0.7, NotSupported: 0.3}}},
		{"refutes", pred(Refutes, 0.2, 0.7, 0.1), Prediction{NotSupported, map[string]float64{Supports: 0.2, NotSupported: 0.8}}},
		{"weak supports is not supported", pred(Supports, 0.45, 0.3, 0.25), Prediction{NotSupported, map[string]float64{Supports: 0.45, NotSupported: 0.55}}},
		{"already two-way", Prediction{Supports, map[string]float64{Supports: 0.6, NotSupported: 0.4}}, Prediction{Supports, map[string]float64{Supports: 0.6, NotSupported: 0.4}}},
		{"no probabilities", Prediction{Label: NotEnoughInfo}, Prediction{Label: NotSupported}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ToTwoWay(tt.in), cmpopts.EquateApprox(0, 1e-12)); diff != "" {
				t.Errorf("ToTwoWay mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// labelPredictor answers the label written at the start of the claim.
type labelPredictor struct{ fail string }

func (l labelPredictor) Predict(_ context.Context, ex Example) (Prediction, error) {
	if l.fail != "" && ex.ID == l.fail {
		return Prediction{}, errors.New("boom")
	}
	label, _, _ := strings.Cut(ex.Claim, " ")
	probs := map[string]float64{Supports: 0.1, Refutes: 0.1, NotEnoughInfo: 0.1}
	probs[label] = 0.8
	return Prediction{Label: label, Probs: probs}, nil
}

// stepClock advances one second each time it is read.
type stepClock struct{ t time.Time }

func (c *stepClock) now() time.Time { c.t = c.t.Add(time.Second); return c.t }

func TestRun(t *testing.T) {
	exs := []Example{
		{ID: "1", Claim: "SUPPORTS a", Label: Supports},
		{ID: "2", Claim: "REFUTES b", Label: NotSupported},
		{ID: "3", Claim: "SUPPORTS c", Label: NotSupported},
		{ID: "4", Claim: "SUPPORTS d", Label: Supports},
	}
	var calls []int
	clock := &stepClock{}
	r, err := Run(context.Background(), exs, labelPredictor{}, Options{Limit: 3, Concurrency: 2, Now: clock.now}, func(done, total int) {
		if total != 3 {
			t.Errorf("progress total = %d, want 3", total)
		}
		calls = append(calls, done)
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{1, 2, 3}, calls); diff != "" {
		t.Errorf("progress calls (-want +got):\n%s", diff)
	}
	if r.N != 3 || r.Accuracy != 2.0/3 {
		t.Errorf("n, accuracy = %d, %g; want 3, 2/3", r.N, r.Accuracy)
	}
	if _, ok := r.PerLabel[NotSupported]; !ok || len(r.PerLabel) != 2 {
		t.Errorf("per_label = %v, want the two-way labels", r.PerLabel)
	}
	if r.ClaimsPerSec != 3 {
		t.Errorf("claims/s = %g, want 3 (3 examples in the 1 s between two clock reads)", r.ClaimsPerSec)
	}
}

func TestRunError(t *testing.T) {
	exs := []Example{{ID: "1", Claim: "SUPPORTS a", Label: Supports}, {ID: "bad", Claim: "SUPPORTS b", Label: Supports}}
	_, err := Run(context.Background(), exs, labelPredictor{fail: "bad"}, Options{}, nil)
	if err == nil || !strings.Contains(err.Error(), `"bad"`) {
		t.Errorf("Run error = %v, want one naming example bad", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, exs, labelPredictor{}, Options{}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Run on a cancelled context = %v, want context.Canceled", err)
	}
}

// fakeJudge entails passages containing "yes", contradicts those containing
// "no" and is neutral otherwise; it records what it was asked.
type fakeJudge struct{ asked [][]string }

func (f *fakeJudge) Judge(_ context.Context, _ string, ps []string) ([]evidence.Judgment, error) {
	f.asked = append(f.asked, ps)
	out := make([]evidence.Judgment, len(ps))
	for i, p := range ps {
		switch {
		case strings.Contains(p, "yes") && strings.Contains(p, "no"):
			out[i] = evidence.Judgment{Entail: 0.1, Contradict: 0.9}
		case strings.Contains(p, "yes"):
			out[i] = evidence.Judgment{Entail: 0.7, Contradict: 0.1, Neutral: 0.2}
		case strings.Contains(p, "no"):
			out[i] = evidence.Judgment{Entail: 0.1, Contradict: 0.6, Neutral: 0.3}
		default:
			out[i] = evidence.Judgment{Entail: 0.1, Contradict: 0.1, Neutral: 0.8}
		}
	}
	return out, nil
}

func TestGoldPredictor(t *testing.T) {
	tests := []struct {
		name      string
		evidence  []string
		want      Prediction
		wantAsked []string
	}{
		{"no evidence", nil, pred(NotEnoughInfo, 0, 0, 1), nil},
		{"blank evidence", []string{" "}, pred(NotEnoughInfo, 0, 0, 1), nil},
		{"one passage", []string{"yes"}, pred(Supports, 0.7, 0.1, 0.2), []string{"yes"}},
		{"strongest signal wins", []string{"maybe", "no"}, pred(Refutes, 0.1, 0.6, 0.3), []string{"maybe", "no", "maybe no"}},
		{"joined passage counts", []string{"yes", "no"}, pred(Refutes, 0.1, 0.9, 0), []string{"yes", "no", "yes no"}},
		{"all neutral", []string{"a", "b"}, pred(NotEnoughInfo, 0.1, 0.1, 0.8), []string{"a", "b", "a b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := &fakeJudge{}
			got, err := NewGoldPredictor(j).Predict(context.Background(), Example{Claim: "c", Evidence: tt.evidence})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Predict mismatch (-want +got):\n%s", diff)
			}
			var asked []string
			if len(j.asked) > 0 {
				asked = j.asked[0]
			}
			if diff := cmp.Diff(tt.wantAsked, asked); diff != "" {
				t.Errorf("passages judged (-want +got):\n%s", diff)
			}
		})
	}
}
