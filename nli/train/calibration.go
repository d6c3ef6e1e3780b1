package train

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/nli"
	"github.com/verity-fc/verity/quantity"
	"github.com/verity-fc/verity/scoring"
)

// LabeledClaim is a claim with the passages a verify request would judge
// and whether the claim is supported.
type LabeledClaim struct {
	Claim     string
	Passages  []string
	Supported bool
}

// calibrationSets are the claim-verification sets the learned score is
// fitted on; SNLI (captions) and VitaminC synthetic are left out.
var calibrationSets = []string{SetFEVER, SetSamePage, SetRandom, SetVitaminC, SetSciFact}

// Distractors is the number of passages of other claims added to each
// claim's own passage, so that the features look like those of a verify
// request over six re-ranked passages.
const Distractors = 5

// Claims turns the pairs of one split into labeled claims: each pair's
// passage together with Distractors passages drawn (with seed) from other
// pairs of the split; supported when the pair is entailed.
func (s Sets) Claims(split Split, seed int64) []LabeledClaim {
	var pool []Pair
	for _, name := range calibrationSets {
		pool = append(pool, s[name][split]...)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0xca1))
	out := make([]LabeledClaim, 0, len(pool))
	for _, p := range pool {
		lc := LabeledClaim{Claim: p.Claim, Passages: []string{p.Passage}, Supported: p.Label == nli.Entail}
		for len(lc.Passages) < 1+Distractors && len(pool) > Distractors {
			q := pool[rng.IntN(len(pool))]
			if q.Group != p.Group {
				lc.Passages = append(lc.Passages, q.Passage)
			}
		}
		out = append(out, lc)
	}
	return out
}

// CalibrationExamples computes, for each claim, the seed-004 features the
// verify path would: every passage judged by j, from a source of its own,
// with reliability and recency 0.5 (unknown) and the quantity check.
func CalibrationExamples(ctx context.Context, j nli.Judge, scorer *scoring.Scorer, claims []LabeledClaim) ([]scoring.CalibrationExample, error) {
	out := make([]scoring.CalibrationExample, len(claims))
	for i, c := range claims {
		js, err := j.Judge(ctx, c.Claim, c.Passages)
		if err != nil {
			return nil, fmt.Errorf("calibration examples: %w", err)
		}
		judged := make([]evidence.Judged, len(js))
		for k, jd := range js {
			judged[k] = evidence.Judged{
				Passage:  evidence.Passage{ID: strconv.Itoa(k), SourceID: strconv.Itoa(k), Text: c.Passages[k], Reliability: 0.5},
				Judgment: jd,
				Recency:  0.5,
				Num:      quantity.Compare(c.Claim, c.Passages[k]),
			}
		}
		out[i] = scoring.CalibrationExample{Features: scorer.Features(judged), Supported: c.Supported}
	}
	return out, nil
}
