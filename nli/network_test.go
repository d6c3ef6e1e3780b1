package nli

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestBackwardMatchesNumericGradient checks the hand-written backward pass
// against central differences of the loss.
func TestBackwardMatchesNumericGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	m := &Net{Hidden: 5, RelHidden: 3}
	nin := m.inputs()
	randn := func(n int, s float64) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = rng.NormFloat64() * s
		}
		return out
	}
	m.WR, m.BR = randn(3*relDim, 0.1), randn(3, 0.5)
	m.W1, m.B1 = randn(5*nin, 0.3), randn(5, 0.1)
	m.W2, m.B2 = randn(15, 0.5), randn(3, 0.1)
	in := input{x: randn(numFeatures, 1)}
	for range 3 {
		r := make([]float32, relDim)
		for j := range r {
			r[j] = float32(rng.NormFloat64())
		}
		in.rel = append(in.rel, r)
	}
	const y, w = Contradict, 1.5
	loss := func() float64 {
		p := softmax(m.forward(in, nil), 1)
		return -w * math.Log(p[y])
	}
	grads := make(gradients, len(m.params()))
	for i, p := range m.params() {
		grads[i] = make([]float64, len(p))
	}
	m.backward(in, y, w, &activations{}, grads)
	names := []string{"WR", "BR", "W1", "B1", "W2", "B2"}
	for i, p := range m.params() {
		for _, j := range []int{0, len(p) / 2, len(p) - 1} {
			const h = 1e-6
			old := p[j]
			p[j] = old + h
			up := loss()
			p[j] = old - h
			down := loss()
			p[j] = old
			num := (up - down) / (2 * h)
			if math.Abs(num-grads[i][j]) > 1e-5*math.Max(1, math.Abs(num)) {
				t.Errorf("%s[%d]: backward %.8f, numeric %.8f", names[i], j, grads[i][j], num)
			}
		}
	}
}
