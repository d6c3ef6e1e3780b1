package eval

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
)

// Prediction is a predictor's answer for one example: a label of the set's
// kind (three-way predictors may answer two-way sets; see [ToTwoWay]) and
// the probability of each label, summing to 1.
type Prediction struct {
	Label string
	Probs map[string]float64
}

// Predictor predicts the label of one example. Implementations must be safe
// for concurrent use when Options.Concurrency > 1.
type Predictor interface {
	Predict(ctx context.Context, ex Example) (Prediction, error)
}

// Options tune a run. The zero value works.
type Options struct {
	// Limit, when > 0, evaluates only the first Limit examples.
	Limit int
	// Concurrency is the number of examples predicted at once; default 1.
	Concurrency int
	// Now is the clock that times the run; default time.Now.
	Now func() time.Time
}

// Run predicts every example and scores the predictions. Two-way sets (a
// label is NOT_SUPPORTED) are scored two-way, three-way predictions mapped
// with [ToTwoWay]. progress, when not nil, is called after each example
// with the number done and the total; calls never overlap. The first
// prediction error stops the run and is returned with the example's id.
func Run(ctx context.Context, examples []Example, p Predictor, opts Options, progress func(done, total int)) (Report, error) {
	if p == nil {
		return Report{}, errors.New("eval: nil predictor")
	}
	if opts.Limit > 0 && opts.Limit < len(examples) {
		examples = examples[:opts.Limit]
	}
	if opts.Concurrency < 1 {
		opts.Concurrency = 1
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	twoWay := TwoWay(examples)
	labels := ThreeWayLabels
	if twoWay {
		labels = TwoWayLabels
	}

	start := now()
	preds := make([]Prediction, len(examples))
	var mu sync.Mutex
	done := 0
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(opts.Concurrency)
	for i, ex := range examples {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			pr, err := p.Predict(gctx, ex)
			if err != nil {
				return fmt.Errorf("predict example %d (id %q): %w", i+1, ex.ID, err)
			}
			if twoWay {
				pr = ToTwoWay(pr)
			}
			preds[i] = pr
			if progress != nil {
				mu.Lock()
				done++
				progress(done, len(examples))
				mu.Unlock()
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return Report{}, err
	}
	if err := ctx.Err(); err != nil {
		return Report{}, fmt.Errorf("eval: %w", err)
	}
	elapsed := now().Sub(start).Seconds()

	gold := make([]string, len(examples))
	for i, ex := range examples {
		gold[i] = ex.Label
	}
	r := Score(gold, preds, labels)
	if elapsed > 0 {
		r.ClaimsPerSec = float64(len(examples)) / elapsed
	}
	return r, nil
}
