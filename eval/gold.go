package eval

import (
	"context"
	"fmt"
	"strings"

	"github.com/verity-fc/verity/evidence"
)

// Judge is the NLI contract the gold-mode predictor consumes (see nli.Judge).
type Judge interface {
	Judge(ctx context.Context, claim string, passages []string) ([]evidence.Judgment, error)
}

// GoldPredictor judges each claim against its own gold evidence passages.
//
// Aggregation: each passage is judged on its own, and when there are several
// they are also judged joined into one passage (FEVER and VitaminC evidence
// often needs two sentences together). The claim takes the probabilities of
// the judgment with the strongest non-neutral signal, max(entail,
// contradict); ties go to the earlier judgment. The label is the argmax:
// entail -> SUPPORTS, contradict -> REFUTES, neutral -> NOT_ENOUGH_INFO.
//
// A claim with no evidence is NOT_ENOUGH_INFO with probability 1: there is
// nothing that could entail or contradict it.
type GoldPredictor struct {
	judge Judge
}

// NewGoldPredictor returns a gold-mode predictor over judge.
func NewGoldPredictor(judge Judge) *GoldPredictor { return &GoldPredictor{judge: judge} }

// Predict implements [Predictor].
func (g *GoldPredictor) Predict(ctx context.Context, ex Example) (Prediction, error) {
	var passages []string
	for _, p := range ex.Evidence {
		if strings.TrimSpace(p) != "" {
			passages = append(passages, p)
		}
	}
	if len(passages) == 0 {
		return FromJudgment(evidence.Judgment{Neutral: 1}), nil
	}
	if len(passages) > 1 {
		passages = append(passages, strings.Join(passages, " "))
	}
	js, err := g.judge.Judge(ctx, ex.Claim, passages)
	if err != nil {
		return Prediction{}, fmt.Errorf("judge: %w", err)
	}
	if len(js) != len(passages) {
		return Prediction{}, fmt.Errorf("judge returned %d judgments for %d passages", len(js), len(passages))
	}
	return FromJudgment(Strongest(js)), nil
}

// Strongest returns the judgment with the largest max(entail, contradict),
// the first on ties, or a neutral judgment when js is empty.
func Strongest(js []evidence.Judgment) evidence.Judgment {
	best := evidence.Judgment{Neutral: 1}
	bestSignal := -1.0
	for _, j := range js {
		if s := max(j.Entail, j.Contradict); s > bestSignal {
			best, bestSignal = j, s
		}
	}
	return best
}

// FromJudgment turns an NLI judgment into a three-way prediction, the label
// being the likeliest.
func FromJudgment(j evidence.Judgment) Prediction {
	p := Prediction{Probs: map[string]float64{Supports: j.Entail, Refutes: j.Contradict, NotEnoughInfo: j.Neutral}}
	switch {
	case j.Entail >= j.Contradict && j.Entail >= j.Neutral:
		p.Label = Supports
	case j.Contradict >= j.Neutral:
		p.Label = Refutes
	default:
		p.Label = NotEnoughInfo
	}
	return p
}
