package eval

import "math"

// Report is what `verity eval --json` prints. It marshals to exactly the
// keys n, accuracy, balanced_accuracy, macro_f1, per_label, ece and
// claims_per_sec.
type Report struct {
	N        int     `json:"n"`
	Accuracy float64 `json:"accuracy"`
	// BalancedAccuracy is the mean recall over the labels that occur in the
	// gold labels.
	BalancedAccuracy float64 `json:"balanced_accuracy"`
	// MacroF1 is the mean F1 over the labels that occur in the gold labels.
	MacroF1 float64 `json:"macro_f1"`
	// PerLabel holds every label of the task (three-way or two-way), also
	// those with no gold example (n = 0).
	PerLabel map[string]LabelStats `json:"per_label"`
	// ECE is the expected calibration error of the predicted label's
	// probability over ECEBins equal-width bins, in [0,1].
	ECE float64 `json:"ece"`
	// ClaimsPerSec is the throughput of the run: examples / wall-clock
	// seconds.
	ClaimsPerSec float64 `json:"claims_per_sec"`
}

// LabelStats are the precision, recall and F1 of one label; N counts its
// gold examples.
type LabelStats struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	N         int     `json:"n"`
}

// ECEBins is the number of equal-width confidence bins of the expected
// calibration error.
const ECEBins = 10

// ThreeWayLabels and TwoWayLabels are the label sets of the two kinds of
// task, in report order.
var (
	ThreeWayLabels = []string{Supports, Refutes, NotEnoughInfo}
	TwoWayLabels   = []string{Supports, NotSupported}
)

// Score computes every metric but the throughput. gold[i] is the label of
// the example that preds[i] predicts; both use the same label set: labels.
// A prediction's confidence is Probs[Label] renormalised over labels; a
// prediction without probabilities counts as confidence 1.
func Score(gold []string, preds []Prediction, labels []string) Report {
	r := Report{N: len(gold), PerLabel: make(map[string]LabelStats, len(labels))}
	if len(gold) == 0 {
		for _, l := range labels {
			r.PerLabel[l] = LabelStats{}
		}
		return r
	}
	tp := map[string]int{}
	predicted := map[string]int{}
	goldN := map[string]int{}
	correct := 0
	var binConf, binAcc [ECEBins]float64
	var binN [ECEBins]int
	for i, g := range gold {
		p := preds[i]
		goldN[g]++
		predicted[p.Label]++
		hit := p.Label == g
		if hit {
			tp[g]++
			correct++
		}
		conf := confidence(p, labels)
		b := int(conf * ECEBins)
		if b >= ECEBins {
			b = ECEBins - 1
		}
		binN[b]++
		binConf[b] += conf
		if hit {
			binAcc[b]++
		}
	}
	n := float64(len(gold))
	r.Accuracy = float64(correct) / n
	for b := range ECEBins {
		if binN[b] > 0 {
			k := float64(binN[b])
			r.ECE += k / n * math.Abs(binAcc[b]/k-binConf[b]/k)
		}
	}
	present := 0
	for _, l := range labels {
		s := LabelStats{N: goldN[l]}
		if predicted[l] > 0 {
			s.Precision = float64(tp[l]) / float64(predicted[l])
		}
		if s.N > 0 {
			s.Recall = float64(tp[l]) / float64(s.N)
		}
		if s.Precision+s.Recall > 0 {
			s.F1 = 2 * s.Precision * s.Recall / (s.Precision + s.Recall)
		}
		r.PerLabel[l] = s
		if s.N > 0 {
			present++
			r.BalancedAccuracy += s.Recall
			r.MacroF1 += s.F1
		}
	}
	r.BalancedAccuracy /= float64(present)
	r.MacroF1 /= float64(present)
	return r
}

func confidence(p Prediction, labels []string) float64 {
	if len(p.Probs) == 0 {
		return 1
	}
	var sum float64
	for _, l := range labels {
		sum += p.Probs[l]
	}
	if sum <= 0 || math.IsNaN(sum) {
		return 0
	}
	c := p.Probs[p.Label] / sum
	return math.Min(math.Max(c, 0), 1)
}

// ToTwoWay maps a three-way prediction onto SUPPORTS / NOT_SUPPORTED:
// P(NOT_SUPPORTED) = 1 - P(SUPPORTS), and the label is SUPPORTS when
// P(SUPPORTS) >= 0.5, so that the reported confidence is the probability
// of the label reported. A prediction without probabilities keeps its
// decision. A prediction already two-way is returned unchanged.
func ToTwoWay(p Prediction) Prediction {
	if hasOnly(p.Probs, Supports, NotSupported) || (len(p.Probs) == 0 && p.Label == NotSupported) {
		return p
	}
	if len(p.Probs) == 0 {
		if p.Label != Supports {
			p.Label = NotSupported
		}
		return p
	}
	ps := math.Min(math.Max(p.Probs[Supports], 0), 1)
	out := Prediction{Label: NotSupported, Probs: map[string]float64{Supports: ps, NotSupported: 1 - ps}}
	if ps >= 0.5 {
		out.Label = Supports
	}
	return out
}

func hasOnly(m map[string]float64, keys ...string) bool {
	if len(m) == 0 {
		return false
	}
	allowed := map[string]bool{}
	for _, k := range keys {
		allowed[k] = true
	}
	for k := range m {
		if !allowed[k] {
			return false
		}
	}
	return true
}
