package main

import (
	"context"

	"github.com/verity-fc/verity/eval"
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/nli"
	"github.com/verity-fc/verity/nli/align"
	"github.com/verity-fc/verity/nli/train"
)

// scoreSet turns judgments of examples into metrics the way 'verity eval
// --mode gold' does: three-way, or two-way (SUPPORTS / NOT_SUPPORTED) for
// a set with NOT_SUPPORTED labels.
func scoreSet(set string, exs []train.Encoded, js []evidence.Judgment) train.Metrics {
	twoWay := false
	for _, e := range exs {
		if e.Target == 1<<nli.Contradict|1<<nli.Neutral {
			twoWay = true
		}
	}
	gold := make([]string, len(exs))
	preds := make([]eval.Prediction, len(exs))
	labels := eval.ThreeWayLabels
	if twoWay {
		labels = eval.TwoWayLabels
	}
	for i, e := range exs {
		p := eval.FromJudgment(js[i])
		gold[i] = eval.TargetLabel(e.Target)
		if twoWay {
			p = eval.ToTwoWay(p)
			if gold[i] != eval.Supports {
				gold[i] = eval.NotSupported
			}
		}
		preds[i] = p
	}
	r := eval.Score(gold, preds, labels)
	return train.Metrics{Set: set, N: r.N, TwoWay: twoWay, Accuracy: r.Accuracy, BalAcc: r.BalancedAccuracy, ECE: r.ECE}
}

// evaluateNet scores the network alone on the encoded inputs (whole
// passage, no rules): the measure of the ablation study.
func evaluateNet(nets []*align.Model, set string, exs []train.Encoded) train.Metrics {
	js := make([]evidence.Judgment, len(exs))
	var cache align.Cache
	for i := range exs {
		p := align.EnsembleProbs(nets, exs[i].In, &cache)
		js[i] = evidence.Judgment{Entail: p[nli.Entail], Contradict: p[nli.Contradict], Neutral: p[nli.Neutral]}
	}
	return scoreSet(set, exs, js)
}

// evaluateJudge scores a judge as verify uses it: each example's passage
// judged alone.
func evaluateJudge(ctx context.Context, j nli.Judge, set string, exs []train.Encoded) (train.Metrics, error) {
	js := make([]evidence.Judgment, len(exs))
	for i, e := range exs {
		out, err := j.Judge(ctx, e.Claim, []string{e.Passage})
		if err != nil {
			return train.Metrics{}, err
		}
		js[i] = out[0]
	}
	return scoreSet(set, exs, js), nil
}
