package main

import (
	"errors"

	"context"
	"github.com/verity-fc/verity/claim"
	"log/slog"

	"github.com/spf13/cobra"

	"github.com/verity-fc/verity/eval"
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

// verifyPredictor labels a claim with the verify pipeline over the corpus
// (see eval.FromResult).
type verifyPredictor struct{ v *verify.Service }

func (p verifyPredictor) Predict(ctx context.Context, ex eval.Example) (eval.Prediction, error) {
	res, err := p.v.Verify(ctx, verify.Request{Claim: ex.Claim})
	var nc *claim.NotCheckable
	if errors.As(err, &nc) {
		// verify refuses it (422): no verdict, which a labeled set reads
		// as not enough information, rather than ending the whole run.
		return eval.Prediction{Label: eval.NotEnoughInfo, Probs: map[string]float64{eval.NotEnoughInfo: 1}}, nil
	}
	if err != nil {
		return eval.Prediction{}, err
	}
	return eval.FromResult(res), nil
}
