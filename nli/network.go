package nli

import (
	"errors"
	"fmt"
	"math"
)

// input is what the network reads for one pair.
type input struct {
	x   []float64   // standardised scalar features
	rel [][]float32 // relation inputs, relDim each; may be empty
}

// activations keep a forward pass for the backward pass.
type activations struct {
	g      [][]float64 // relation layer outputs, RelHidden per relation input
	argmax []int       // which relation input won each max-pooled unit
	layer  []float64   // the first layer's input: x, max-pool, mean-pool
	hidden []float64
}

// Net is one member of the model's ensemble: a relation layer whose
// outputs are pooled over the relation inputs, then one tanh hidden layer
// and three logits.
type Net struct {
	// WR is RelHidden x relDim, the layer applied to each relation input
	// before max- and mean-pooling.
	RelHidden int       `json:"rel_hidden"`
	WR        []float64 `json:"wr"`
	BR        []float64 `json:"br"`
	// W1 is Hidden x (scalar features + 2 RelHidden), row-major; W2 is
	// 3 x Hidden.
	Hidden int       `json:"hidden"`
	W1     []float64 `json:"w1"`
	B1     []float64 `json:"b1"`
	W2     []float64 `json:"w2"`
	B2     []float64 `json:"b2"`
}

// inputs is the width of the first layer's input.
func (m *Net) inputs() int { return numFeatures + 2*m.RelHidden }

// forward runs the network and returns the logits. a, when not nil,
// receives the activations.
//
// The relation layer maps each relation input r to relu(WR r + BR); its
// outputs are max-pooled and mean-pooled over the relation inputs (zeros
// when there are none) and appended to the scalar features. One tanh
// hidden layer then gives three logits.
func (m *Net) forward(in input, a *activations) [numLabels]float64 {
	if a == nil {
		a = &activations{}
	}
	R := m.RelHidden
	nx := len(in.x)
	a.layer = append(a.layer[:0], in.x...)
	for range 2 * R {
		a.layer = append(a.layer, 0)
	}
	pooled := a.layer[nx:]
	a.argmax = append(a.argmax[:0], make([]int, R)...)
	for len(a.g) < len(in.rel) {
		a.g = append(a.g, make([]float64, R))
	}
	if n := len(in.rel); n > 0 {
		for idx, r := range in.rel {
			g := a.g[idx]
			for k := range R {
				s := m.BR[k]
				row := m.WR[k*relDim : (k+1)*relDim]
				for j, v := range r {
					s += row[j] * float64(v)
				}
				g[k] = math.Max(s, 0)
				if idx == 0 || g[k] > pooled[k] {
					pooled[k], a.argmax[k] = g[k], idx
				}
				pooled[R+k] += g[k] / float64(n)
			}
		}
	}
	nin := len(a.layer)
	if cap(a.hidden) < m.Hidden {
		a.hidden = make([]float64, m.Hidden)
	}
	a.hidden = a.hidden[:m.Hidden]
	for h := range m.Hidden {
		s := m.B1[h]
		row := m.W1[h*nin : (h+1)*nin]
		for i, v := range a.layer {
			s += row[i] * v
		}
		a.hidden[h] = math.Tanh(s)
	}
	var out [numLabels]float64
	for k := range numLabels {
		s := m.B2[k]
		row := m.W2[int(k)*m.Hidden : int(k+1)*m.Hidden]
		for h, v := range a.hidden {
			s += row[h] * v
		}
		out[k] = s
	}
	return out
}

// gradients has one slice per parameter, in the order of params.
type gradients [][]float64

// validate checks the shapes and values of the parameters.
func (m *Net) validate() error {
	nf, h := m.inputs(), m.Hidden
	switch {
	case h <= 0 || m.RelHidden <= 0:
		return errors.New("hidden sizes must be > 0")
	case len(m.WR) != m.RelHidden*relDim || len(m.BR) != m.RelHidden:
		return fmt.Errorf("relation layer is %d+%d weights, want %d+%d", len(m.WR), len(m.BR), m.RelHidden*relDim, m.RelHidden)
	case len(m.W1) != h*nf || len(m.B1) != h:
		return fmt.Errorf("layer 1 is %d+%d weights, want %d+%d", len(m.W1), len(m.B1), h*nf, h)
	case len(m.W2) != int(numLabels)*h || len(m.B2) != int(numLabels):
		return fmt.Errorf("layer 2 is %d+%d weights, want %d+%d", len(m.W2), len(m.B2), int(numLabels)*h, numLabels)
	}
	for _, w := range m.params() {
		for _, x := range w {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return errors.New("a weight is not a finite number")
			}
		}
	}
	return nil
}

// params lists the trainable parameters.
func (m *Net) params() [][]float64 { return [][]float64{m.WR, m.BR, m.W1, m.B1, m.W2, m.B2} }

// backward adds the gradient of w * cross-entropy for one example to g and
// returns the unweighted loss.
func (m *Net) backward(in input, y Label, w float64, a *activations, g gradients) float64 {
	z := m.forward(in, a)
	p := softmax(z, 1)
	gWR, gBR, gW1, gB1, gW2, gB2 := g[0], g[1], g[2], g[3], g[4], g[5]
	H, R := m.Hidden, m.RelHidden
	nin := len(a.layer)
	var dz [numLabels]float64
	for k := range numLabels {
		dz[k] = p[k] * w
		if k == y {
			dz[k] -= w
		}
		gB2[k] += dz[k]
		row := gW2[int(k)*H : int(k+1)*H]
		for j, v := range a.hidden {
			row[j] += dz[k] * v
		}
	}
	dlayer := make([]float64, 2*R)
	nx := nin - 2*R
	for j, v := range a.hidden {
		var dh float64
		for k := range numLabels {
			dh += m.W2[int(k)*H+j] * dz[k]
		}
		da := dh * (1 - v*v)
		gB1[j] += da
		row := gW1[j*nin : (j+1)*nin]
		for i, x := range a.layer {
			row[i] += da * x
		}
		wrow := m.W1[j*nin : (j+1)*nin]
		for i := range dlayer {
			dlayer[i] += da * wrow[nx+i]
		}
	}
	if n := len(in.rel); n > 0 {
		for idx, r := range in.rel {
			gv := a.g[idx]
			for k := range R {
				if gv[k] <= 0 {
					continue
				}
				d := dlayer[R+k] / float64(n)
				if a.argmax[k] == idx {
					d += dlayer[k]
				}
				gBR[k] += d
				row := gWR[k*relDim : (k+1)*relDim]
				for j, v := range r {
					row[j] += d * float64(v)
				}
			}
		}
	}
	return -math.Log(math.Max(p[y], 1e-12))
}
