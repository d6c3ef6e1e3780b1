package eval

import (
	"bufio"
	"encoding/json"
	"io"
	"math"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/nli"
	"github.com/verity-fc/verity/scoring"
)

// TargetLabel is the label of an NLI training target, the bits of the NLI
// labels an example allows (1<<nli.Entail, ...): SUPPORTS, REFUTES,
// NOT_SUPPORTED for "contradiction or neutral" (binary sets), and
// NOT_ENOUGH_INFO otherwise.
func TargetLabel(target uint8) string {
	switch target {
	case 1 << nli.Entail:
		return Supports
	case 1 << nli.Contradict:
		return Refutes
	case 1<<nli.Contradict | 1<<nli.Neutral:
		return NotSupported
	}
	return NotEnoughInfo
}

// VerdictLabel is the three-way label of a verdict: Supported is SUPPORTS,
// Refuted REFUTES, anything else (Contested, Not enough evidence)
// NOT_ENOUGH_INFO.
func VerdictLabel(v evidence.Verdict) string {
	switch v {
	case evidence.Supported:
		return Supports
	case evidence.Refuted:
		return Refutes
	}
	return NotEnoughInfo
}

// FromResult is the prediction a verify result makes: its verdict's label,
// and label probabilities for calibration error. The 0-100 score is the
// probability of support (the calibrated probability when a calibration is
// shipped), the strongest contradiction claims the rest in proportion, and
// what is left is NOT_ENOUGH_INFO.
func FromResult(res evidence.Result) Prediction {
	pS := float64(res.Score) / 100
	pR := res.Features.CMax * (1 - pS)
	return Prediction{Label: VerdictLabel(res.Verdict), Probs: map[string]float64{Supports: pS, Refutes: pR, NotEnoughInfo: 1 - pS - pR}}
}

// ScoreCalibration reads s's 0-100 score of each example's features as
// P(supported) and scores it two-way; it also returns the mean log-loss,
// with each probability clipped below at 0.0001.
func ScoreCalibration(s *scoring.Scorer, examples []scoring.CalibrationExample) (r Report, logLoss float64) {
	gold := make([]string, len(examples))
	preds := make([]Prediction, len(examples))
	for i, e := range examples {
		p := float64(s.Score(e.Features)) / 100
		gold[i] = NotSupported
		y := 1 - p
		if e.Supported {
			gold[i] = Supports
			y = p
		}
		logLoss -= math.Log(math.Max(y, 1e-4))
		preds[i] = Prediction{Label: NotSupported, Probs: map[string]float64{Supports: p, NotSupported: 1 - p}}
		if p >= 0.5 {
			preds[i].Label = Supports
		}
	}
	if len(examples) > 0 {
		logLoss /= float64(len(examples))
	}
	return Score(gold, preds, TwoWayLabels), logLoss
}

// WriteSet writes examples as a labeled set, one JSON object a line, that
// ReadSet reads back.
func WriteSet(w io.Writer, examples []Example) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	for _, e := range examples {
		id, err := json.Marshal(e.ID)
		if err != nil {
			return err
		}
		claim, label := e.Claim, e.Label
		ev := e.Evidence
		if ev == nil {
			ev = []string{}
		}
		if err := enc.Encode(line{ID: id, Claim: &claim, Evidence: ev, Label: &label}); err != nil {
			return err
		}
	}
	return bw.Flush()
}
