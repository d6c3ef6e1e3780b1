package scoring

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/verity-fc/verity/evidence"
)

// CalibrationFeatures name the inputs of the learned score, in order. The
// agree_dom input is min(agree_dom/3, 1), as in the raw score.
var CalibrationFeatures = []string{"e_max", "e_mean3", "c_max", "agree_dom", "rel_avg", "rec_max", "num_ok"}

// Calibration is the learned score of seed 004 section 7: a logistic
// regression from the seven features to the probability that the claim is
// supported, score = round(100 p). It implements [Calibrator].
type Calibration struct {
	Features []string `json:"features"`
	// Mean and Std standardise each input; Weights apply to the
	// standardised inputs.
	Mean    []float64 `json:"mean"`
	Std     []float64 `json:"std"`
	Weights []float64 `json:"weights"`
	Bias    float64   `json:"bias"`
	// Info says how the calibration was made, for people.
	Info map[string]string `json:"info,omitempty"`
}

var _ Calibrator = (*Calibration)(nil)

// CalibrationExample is a claim's features and whether it is supported.
type CalibrationExample struct {
	Features  evidence.Features
	Supported bool
}

func calibrationInputs(f evidence.Features) []float64 {
	return []float64{f.EMax, f.EMean3, f.CMax, math.Min(float64(f.AgreeDom)/3, 1), f.RelAvg, f.RecMax, f.NumOK}
}

// Probability implements [Calibrator].
func (c *Calibration) Probability(f evidence.Features) float64 {
	z := c.Bias
	for i, x := range calibrationInputs(f) {
		z += c.Weights[i] * (x - c.Mean[i]) / c.Std[i]
	}
	return Sigmoid(z)
}

// CalibrationL2 is the ridge penalty of TrainCalibration on the
// standardised weights, per example.
const CalibrationL2 = 1e-3

// TrainCalibration fits the logistic regression by Newton's method on the
// log-loss plus CalibrationL2 times the squared weights. It is
// deterministic. It needs examples of both classes.
//
// An input that does not vary in the examples cannot be learned: labeled
// sets carry no source reliability or date, so rel_avg and rec_max are 0.5
// throughout. Such an input keeps the effect the fixed formula gives it:
// weight w/sigmoid_scale of [DefaultConfig] on x minus the value seen, so
// that a more reliable or newer source still raises the score.
func TrainCalibration(examples []CalibrationExample) (*Calibration, error) {
	pos := 0
	for _, e := range examples {
		if e.Supported {
			pos++
		}
	}
	if pos == 0 || pos == len(examples) {
		return nil, errors.New("train calibration: need supported and unsupported examples")
	}
	d := len(CalibrationFeatures)
	n := float64(len(examples))
	c := &Calibration{Features: slices.Clone(CalibrationFeatures), Mean: make([]float64, d), Std: make([]float64, d), Weights: make([]float64, d)}
	xs := make([][]float64, len(examples))
	for i, e := range examples {
		xs[i] = calibrationInputs(e.Features)
		for j, v := range xs[i] {
			c.Mean[j] += v / n
		}
	}
	for _, x := range xs {
		for j, v := range x {
			c.Std[j] += (v - c.Mean[j]) * (v - c.Mean[j]) / n
		}
	}
	constant := make([]bool, d)
	for j := range c.Std {
		c.Std[j] = math.Sqrt(c.Std[j])
		if c.Std[j] < 1e-6 {
			// Pivot on the value seen, rounded off float noise, so the
			// input adds nothing there and the fixed weight elsewhere.
			constant[j] = true
			c.Mean[j], c.Std[j] = math.Round(c.Mean[j]*1e9)/1e9, 1
		}
	}
	for _, x := range xs {
		for j := range x {
			x[j] = (x[j] - c.Mean[j]) / c.Std[j]
		}
	}
	// Parameters: d weights, then the bias.
	beta := make([]float64, d+1)
	for range 50 {
		grad := make([]float64, d+1)
		hess := make([][]float64, d+1)
		for i := range hess {
			hess[i] = make([]float64, d+1)
		}
		for i, x := range xs {
			z := beta[d]
			for j, v := range x {
				z += beta[j] * v
			}
			p := Sigmoid(z)
			y := 0.0
			if examples[i].Supported {
				y = 1
			}
			w := p * (1 - p)
			xi := append(slices.Clone(x), 1)
			for a := range xi {
				grad[a] += (p - y) * xi[a] / n
				for b := range xi {
					hess[a][b] += w * xi[a] * xi[b] / n
				}
			}
		}
		for j := range d {
			grad[j] += 2 * CalibrationL2 * beta[j]
			hess[j][j] += 2 * CalibrationL2
		}
		step, err := solve(hess, grad)
		if err != nil {
			return nil, fmt.Errorf("train calibration: %w", err)
		}
		var size float64
		for j := range beta {
			beta[j] -= step[j]
			size = math.Max(size, math.Abs(step[j]))
		}
		if size < 1e-10 {
			break
		}
	}
	copy(c.Weights, beta[:d])
	c.Bias = beta[d]
	def := DefaultConfig()
	fixed := []float64{def.WEMax, def.WEMean3, -def.WCMax, def.WAgreeDom, def.WRelAvg, def.WRecMax, def.WNumOK}
	for j := range d {
		if constant[j] {
			c.Weights[j] = fixed[j] / def.SigmoidScale
		}
	}
	return c, nil
}

// solve solves a x = b by Gaussian elimination with partial pivoting; a and
// b are overwritten.
func solve(a [][]float64, b []float64) ([]float64, error) {
	n := len(b)
	for col := range n {
		piv := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[piv][col]) {
				piv = r
			}
		}
		if math.Abs(a[piv][col]) < 1e-12 {
			return nil, errors.New("singular system")
		}
		a[col], a[piv] = a[piv], a[col]
		b[col], b[piv] = b[piv], b[col]
		for r := col + 1; r < n; r++ {
			f := a[r][col] / a[col][col]
			for k := col; k < n; k++ {
				a[r][k] -= f * a[col][k]
			}
			b[r] -= f * b[col]
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := b[r]
		for k := r + 1; k < n; k++ {
			s -= a[r][k] * x[k]
		}
		x[r] = s / a[r][r]
	}
	return x, nil
}

// Save writes the calibration as indented JSON.
func (c *Calibration) Save(w io.Writer) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return fmt.Errorf("save calibration: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// MaxCalibrationBytes bounds a calibration file: 1 MiB.
const MaxCalibrationBytes = 1 << 20

// ReadCalibration reads a calibration written by [Calibration.Save] and
// checks that it has the inputs this build computes.
func ReadCalibration(r io.Reader) (*Calibration, error) {
	var c Calibration
	dec := json.NewDecoder(io.LimitReader(r, MaxCalibrationBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("read calibration: %w", err)
	}
	d := len(CalibrationFeatures)
	switch {
	case !slices.Equal(c.Features, CalibrationFeatures):
		return nil, fmt.Errorf("read calibration: features %v, want %v", c.Features, CalibrationFeatures)
	case len(c.Mean) != d || len(c.Std) != d || len(c.Weights) != d:
		return nil, fmt.Errorf("read calibration: mean, std and weights need %d entries each", d)
	}
	for _, v := range slices.Concat(c.Mean, c.Std, c.Weights, []float64{c.Bias}) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, errors.New("read calibration: a parameter is not a finite number")
		}
	}
	for _, s := range c.Std {
		if s <= 0 {
			return nil, errors.New("read calibration: std must be > 0")
		}
	}
	return &c, nil
}

//go:embed calibration.json
var shippedCalibration []byte

// DefaultCalibration returns the calibration shipped with verity, trained
// by 'verity train calibration' on labeled claims judged by the built-in
// NLI model (see the README). Pass it to [New] to score with it; pass nil
// to keep the fixed sigmoid.
func DefaultCalibration() (*Calibration, error) {
	return ReadCalibration(bytes.NewReader(shippedCalibration))
}
