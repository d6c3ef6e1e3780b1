package eval

import (
	"bytes"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/nli"
	"github.com/verity-fc/verity/scoring"
)

// TestVerdictProbs moved here from cmd/verity with FromResult.
func TestVerdictProbs(t *testing.T) {
	for _, tt := range []struct {
		score int
		cmax  float64
		want  map[string]float64
	}{
		{90, 0.1, map[string]float64{Supports: 0.9, Refutes: 0.01, NotEnoughInfo: 0.09}},
		{4, 0.9, map[string]float64{Supports: 0.04, Refutes: 0.864, NotEnoughInfo: 0.096}},
		{3, 0, map[string]float64{Supports: 0.03, Refutes: 0, NotEnoughInfo: 0.97}},
	} {
		got := FromResult(evidence.Result{Score: tt.score, Features: evidence.Features{CMax: tt.cmax}}).Probs
		sum := 0.0
		for k, w := range tt.want {
			if math.Abs(got[k]-w) > 1e-9 {
				t.Errorf("score %d c_max %v: P(%s) = %v, want %v", tt.score, tt.cmax, k, got[k], w)
			}
			sum += got[k]
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("probabilities sum to %v", sum)
		}
	}
}

func TestLabels(t *testing.T) {
	for v, want := range map[evidence.Verdict]string{
		evidence.Supported: Supports, evidence.Refuted: Refutes, evidence.Contested: NotEnoughInfo, evidence.NotEnoughEvidence: NotEnoughInfo,
	} {
		if got := VerdictLabel(v); got != want {
			t.Errorf("VerdictLabel(%v) = %s, want %s", v, got, want)
		}
		if got := FromResult(evidence.Result{Verdict: v}).Label; got != want {
			t.Errorf("FromResult(%v).Label = %s, want %s", v, got, want)
		}
	}
	for target, want := range map[uint8]string{
		1 << nli.Entail: Supports, 1 << nli.Contradict: Refutes, 1 << nli.Neutral: NotEnoughInfo,
		1<<nli.Contradict | 1<<nli.Neutral: NotSupported,
	} {
		if got := TargetLabel(target); got != want {
			t.Errorf("TargetLabel(%b) = %s, want %s", target, got, want)
		}
	}
}

func TestWriteSetRoundTrip(t *testing.T) {
	in := []Example{
		{ID: "0", Claim: "The bridge opened in 1937.", Evidence: []string{"It opened in 1937."}, Label: Supports},
		{ID: "1", Claim: "Water boils at 50 C.", Evidence: []string{}, Label: NotEnoughInfo},
	}
	var buf bytes.Buffer
	if err := WriteSet(&buf, in); err != nil {
		t.Fatal(err)
	}
	out, err := ReadSet(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(in, out); d != "" {
		t.Errorf("read back (-wrote +read):\n%s", d)
	}
}

func TestScoreCalibration(t *testing.T) {
	cfg := scoring.DefaultConfig()
	cfg.Calibration = "off"
	s := scoring.New(cfg, nil)
	strong := evidence.Features{EMax: 0.95, EMean3: 0.9, AgreeDom: 3, RelAvg: 0.9, RecMax: 1}
	weak := evidence.Features{CMax: 0.9}
	exs := []scoring.CalibrationExample{{Features: strong, Supported: true}, {Features: weak, Supported: false}}
	r, ll := ScoreCalibration(s, exs)
	if r.N != 2 || r.Accuracy != 1 {
		t.Errorf("report %+v, want both right", r)
	}
	pS, pW := float64(s.Score(strong))/100, float64(s.Score(weak))/100
	want := -(math.Log(math.Max(pS, 1e-4)) + math.Log(math.Max(1-pW, 1e-4))) / 2
	if math.Abs(ll-want) > 1e-12 || ll <= 0 {
		t.Errorf("log-loss %v, want %v", ll, want)
	}
	if _, ll := ScoreCalibration(s, nil); ll != 0 {
		t.Errorf("log-loss of no examples = %v, want 0", ll)
	}
}
