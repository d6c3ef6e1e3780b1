package main

import (
	"context"
	"log/slog"

	"github.com/spf13/cobra"

	"github.com/verity-fc/verity/eval"
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/verify"
)

func init() {
	corpusPredictor = func(cmd *cobra.Command, cfg Config) (eval.Predictor, func(), error) {
		// The run logs nothing per claim; the progress bar tells.
		a, err := openApp(cmd.Context(), cfg, slog.New(slog.DiscardHandler))
		if err != nil {
			return nil, nil, err
		}
		if err := a.warnIfEmpty(cmd.Context(), cmd.ErrOrStderr()); err != nil {
			a.Close()
			return nil, nil, err
		}
		return verifyPredictor{a.verify}, func() { a.Close() }, nil
	}
}

// verifyPredictor labels a claim with the verify pipeline over the corpus:
// Supported -> SUPPORTS, Refuted -> REFUTES, anything else (Contested, Not
// enough evidence) -> NOT_ENOUGH_INFO.
type verifyPredictor struct{ v *verify.Service }

func (p verifyPredictor) Predict(ctx context.Context, ex eval.Example) (eval.Prediction, error) {
	res, err := p.v.Verify(ctx, verify.Request{Claim: ex.Claim})
	if err != nil {
		return eval.Prediction{}, err
	}
	label := eval.NotEnoughInfo
	switch res.Verdict {
	case evidence.Supported:
		label = eval.Supports
	case evidence.Refuted:
		label = eval.Refutes
	}
	return eval.Prediction{Label: label, Probs: verdictProbs(res)}, nil
}

// verdictProbs turns a result into label probabilities for calibration
// error: the 0-100 score is the probability of support (it is the
// calibrated probability when a calibration is shipped), the strongest
// contradiction claims the rest in proportion, and what is left is
// NOT_ENOUGH_INFO.
func verdictProbs(res evidence.Result) map[string]float64 {
	pS := float64(res.Score) / 100
	pR := res.Features.CMax * (1 - pS)
	return map[string]float64{eval.Supports: pS, eval.Refutes: pR, eval.NotEnoughInfo: 1 - pS - pR}
}
