package nli

import (
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/verity-fc/verity/evidence"
)

// Label is an NLI class.
type Label int

// The three NLI classes, in the order of the model's outputs.
const (
	Entail Label = iota
	Contradict
	Neutral
	numLabels
)

func (l Label) String() string {
	switch l {
	case Entail:
		return "entail"
	case Contradict:
		return "contradict"
	case Neutral:
		return "neutral"
	}
	return fmt.Sprintf("Label(%d)", int(l))
}

// modelFormat is the version of the saved model file.
const modelFormat = 1

// Model is the built-in NLI model: relational features of (claim, passage)
// fed to a one-hidden-layer perceptron with three softmax outputs, the
// logits divided by a temperature fitted on held-out data. A Model is
// read-only after training or loading and safe for concurrent use.
type Model struct {
	Format   int      `json:"format"`
	Features []string `json:"features"`
	// Mean and Std standardise each feature before the network.
	Mean []float64 `json:"mean"`
	Std  []float64 `json:"std"`
	// Nets are the ensemble's members; their logits are averaged.
	Nets []*Net `json:"nets"`
	// Temperature divides the logits (temperature scaling); 1 = none.
	Temperature float64 `json:"temperature"`
	// IDF maps word stems to their inverse document frequency over the
	// training passages; MaxIDF is used for stems not listed.
	IDF    map[string]float64 `json:"idf"`
	MaxIDF float64            `json:"max_idf"`
	// Info describes how the model was made, for people.
	Info map[string]string `json:"info,omitempty"`
}

// MaxModelBytes bounds a model file after decompression: 64 MiB.
const MaxModelBytes = 64 << 20

// Save writes the model as gzip-compressed JSON. The bytes depend only on
// the model (map keys are sorted, the gzip header carries no time).
func (m *Model) Save(w io.Writer) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return fmt.Errorf("save model: %w", err)
	}
	enc := json.NewEncoder(zw)
	if err := enc.Encode(m); err != nil {
		return fmt.Errorf("save model: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("save model: %w", err)
	}
	return nil
}

// ReadModel reads a model written by [Model.Save] and checks that it fits
// the features this build computes.
func ReadModel(r io.Reader) (*Model, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("read model: not a gzip file: %w", err)
	}
	var m Model
	dec := json.NewDecoder(io.LimitReader(zr, MaxModelBytes))
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("read model: %w", err)
	}
	if err := m.validate(); err != nil {
		return nil, fmt.Errorf("read model: %w", err)
	}
	return &m, nil
}

func (m *Model) validate() error {
	if m.Format != modelFormat {
		return fmt.Errorf("format %d, this build reads format %d", m.Format, modelFormat)
	}
	if !slices.Equal(m.Features, featureSchema()) {
		return errors.New("the model's features differ from the ones this build computes; retrain it with 'verity train nli'")
	}
	switch {
	case len(m.Mean) != numFeatures || len(m.Std) != numFeatures:
		return fmt.Errorf("mean/std have %d/%d entries for %d features", len(m.Mean), len(m.Std), numFeatures)
	case len(m.Nets) == 0:
		return errors.New("no network")
	case !(m.Temperature > 0):
		return fmt.Errorf("temperature %g must be > 0", m.Temperature)
	}
	for _, x := range slices.Concat(m.Mean, m.Std) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return errors.New("a standardisation constant is not a finite number")
		}
	}
	for i, n := range m.Nets {
		if err := n.validate(); err != nil {
			return fmt.Errorf("network %d: %w", i+1, err)
		}
	}
	return nil
}

func (m *Model) idf(stem string) float64 {
	if v, ok := m.IDF[stem]; ok {
		return v
	}
	return m.MaxIDF
}

// input returns the network input of a pair: standardised scalar
// features and the relation inputs.
func (m *Model) input(c, p *text) input {
	x, rel := features(c, p, m.idf, m.MaxIDF)
	for i := range x {
		x[i] = (x[i] - m.Mean[i]) / m.Std[i]
	}
	return input{x: x, rel: rel}
}

// logits averages the members' logits.
func (m *Model) logits(in input) [numLabels]float64 {
	var z [numLabels]float64
	for _, n := range m.Nets {
		zn := n.forward(in, nil)
		for k := range z {
			z[k] += zn[k] / float64(len(m.Nets))
		}
	}
	return z
}

// probs applies the temperature and the softmax.
func (m *Model) probs(z [numLabels]float64) [numLabels]float64 {
	return softmax(z, m.Temperature)
}

func softmax(z [numLabels]float64, t float64) [numLabels]float64 {
	mx := math.Inf(-1)
	for _, v := range z {
		mx = math.Max(mx, v/t)
	}
	var p [numLabels]float64
	var sum float64
	for k, v := range z {
		p[k] = math.Exp(v/t - mx)
		sum += p[k]
	}
	for k := range p {
		p[k] /= sum
	}
	return p
}

// Predict judges one (claim, passage) pair, as [Builtin.Judge] does but
// without its cache.
func (m *Model) Predict(claim, passage string) evidence.Judgment {
	return m.judgePassage(analyse(claim), passage)
}

func (m *Model) judge(c, p *text) evidence.Judgment {
	pr := m.probs(m.logits(m.input(c, p)))
	return applyRules(c, p, evidence.Judgment{Entail: pr[Entail], Contradict: pr[Contradict], Neutral: pr[Neutral]})
}
