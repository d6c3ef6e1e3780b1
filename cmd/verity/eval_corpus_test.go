package main

import (
	"math"
	"testing"

	"github.com/verity-fc/verity/eval"
	"github.com/verity-fc/verity/evidence"
)

func TestVerdictProbs(t *testing.T) {
	for _, tt := range []struct {
		score int
		cmax  float64
		want  map[string]float64
	}{
		{90, 0.1, map[string]float64{eval.Supports: 0.9, eval.Refutes: 0.01, eval.NotEnoughInfo: 0.09}},
		{4, 0.9, map[string]float64{eval.Supports: 0.04, eval.Refutes: 0.864, eval.NotEnoughInfo: 0.096}},
		{3, 0, map[string]float64{eval.Supports: 0.03, eval.Refutes: 0, eval.NotEnoughInfo: 0.97}},
	} {
		got := verdictProbs(evidence.Result{Score: tt.score, Features: evidence.Features{CMax: tt.cmax}})
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
