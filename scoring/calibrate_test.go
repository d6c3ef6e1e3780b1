package scoring

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/verity-fc/verity/evidence"
)

// drawExamples samples features and labels from a known logistic model in
// e_max and c_max; reliability and recency stay at 0.5 as in labeled sets.
func drawExamples(n int, seed uint64) []CalibrationExample {
	rng := rand.New(rand.NewPCG(seed, 2))
	out := make([]CalibrationExample, n)
	for i := range out {
		f := evidence.Features{EMax: rng.Float64(), CMax: rng.Float64(), RelAvg: 0.5, RecMax: 0.5, NumOK: 0.5}
		f.EMean3 = f.EMax * rng.Float64()
		p := Sigmoid(6*f.EMax - 4*f.CMax - 1)
		out[i] = CalibrationExample{Features: f, Supported: rng.Float64() < p}
	}
	return out
}

func TestTrainCalibrationRecoversModel(t *testing.T) {
	c, err := TrainCalibration(drawExamples(4000, 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []evidence.Features{
		{EMax: 0.9, CMax: 0.1, EMean3: 0.5, RelAvg: 0.5, RecMax: 0.5, NumOK: 0.5},
		{EMax: 0.2, CMax: 0.8, EMean3: 0.1, RelAvg: 0.5, RecMax: 0.5, NumOK: 0.5},
		{EMax: 0.5, CMax: 0.5, EMean3: 0.3, RelAvg: 0.5, RecMax: 0.5, NumOK: 0.5},
	} {
		want := Sigmoid(6*f.EMax - 4*f.CMax - 1)
		if got := c.Probability(f); math.Abs(got-want) > 0.06 {
			t.Errorf("Probability(%+v) = %.3f, want about %.3f", f, got, want)
		}
	}
	// Inputs that never varied keep the fixed formula's direction.
	base := evidence.Features{EMax: 0.6, CMax: 0.2, RelAvg: 0.5, RecMax: 0.5, NumOK: 0.5}
	better := base
	better.RelAvg, better.RecMax = 0.9, 1
	if c.Probability(better) <= c.Probability(base) {
		t.Errorf("a reliable, recent source does not raise the probability: %.3f <= %.3f", c.Probability(better), c.Probability(base))
	}
	want := DefaultConfig().WRelAvg / DefaultConfig().SigmoidScale
	if got := c.Weights[4]; math.Abs(got-want) > 1e-12 {
		t.Errorf("rel_avg weight = %g, want the fixed formula's %g", got, want)
	}
}

func TestTrainCalibrationDeterministic(t *testing.T) {
	a, err := TrainCalibration(drawExamples(500, 3))
	if err != nil {
		t.Fatal(err)
	}
	b, err := TrainCalibration(drawExamples(500, 3))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two fits differ:\n%s", diff)
	}
}

func TestTrainCalibrationErrors(t *testing.T) {
	one := []CalibrationExample{{Supported: true}, {Supported: true}}
	if _, err := TrainCalibration(one); err == nil {
		t.Error("one class only: want an error")
	}
	if _, err := TrainCalibration(nil); err == nil {
		t.Error("no examples: want an error")
	}
}

func TestCalibrationSaveRead(t *testing.T) {
	c, err := TrainCalibration(drawExamples(300, 4))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := c.Save(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCalibration(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(c, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("round trip mismatch (-saved +read):\n%s", diff)
	}
}

func TestReadCalibrationErrors(t *testing.T) {
	good := `"features": ["e_max","e_mean3","c_max","agree_dom","rel_avg","rec_max","num_ok"], "mean": [0,0,0,0,0,0,0], "weights": [1,1,1,1,1,1,1], "bias": 0`
	tests := []struct{ name, in, want string }{
		{"not json", "nope", "read calibration"},
		{"unknown key", `{` + good + `, "std": [1,1,1,1,1,1,1], "extra": 1}`, "unknown field"},
		{"other features", `{"features": ["e_max"], "mean": [0], "std": [1], "weights": [1], "bias": 0}`, "features"},
		{"short std", `{` + good + `, "std": [1]}`, "entries"},
		{"zero std", `{` + good + `, "std": [1,1,1,0,1,1,1]}`, "std must be > 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadCalibration(strings.NewReader(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ReadCalibration error = %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

func TestDefaultCalibration(t *testing.T) {
	c, err := DefaultCalibration()
	if err != nil {
		t.Fatal(err)
	}
	s := New(DefaultConfig(), c)
	strong := evidence.Features{EMax: 0.95, EMean3: 0.7, CMax: 0.05, AgreeDom: 2, RelAvg: 0.5, RecMax: 0.5, NumOK: 1}
	weak := evidence.Features{EMax: 0.1, EMean3: 0.05, CMax: 0.9, RelAvg: 0.5, RecMax: 0.5, NumOK: 0}
	if hi, lo := s.Score(strong), s.Score(weak); hi <= 50 || lo >= 50 {
		t.Errorf("scores strong %d, weak %d: want above and below 50", hi, lo)
	}
}
