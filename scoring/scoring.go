// Package scoring turns judged passages into the seed-004 features, the raw
// score, the 0-100 score and the verdict, and picks the citations. Every
// function is pure: no I/O, no clocks.
package scoring

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/verity-fc/verity/evidence"
)

// Config holds the weights and thresholds of seed 004. Start from
// [DefaultConfig]; a zero weight is a legitimate setting, so the zero Config
// is not the default.
type Config struct {
	// Raw-score weights; WCMax is subtracted.
	WEMax     float64 `koanf:"w_e_max"`
	WEMean3   float64 `koanf:"w_e_mean3"`
	WAgreeDom float64 `koanf:"w_agree_dom"`
	WRelAvg   float64 `koanf:"w_rel_avg"`
	WRecMax   float64 `koanf:"w_rec_max"`
	WCMax     float64 `koanf:"w_c_max"`
	// WNumOK weighs the optional num_ok bonus (seed section 7). Its
	// default, 0, keeps the seed's formula exactly.
	WNumOK float64 `koanf:"w_num_ok"`

	// Calibration selects the learned score (seed 004, section 7):
	// "builtin" (the default) uses [DefaultCalibration], "off" keeps the
	// fixed sigmoid, anything else is the path of a calibration file
	// written by 'verity train calibration'. Only the 0-100 score changes;
	// the verdict rules read the features.
	Calibration string `koanf:"calibration"`

	// Score = round(100 * sigmoid((raw - SigmoidCenter) / SigmoidScale)),
	// when no calibration is used.
	SigmoidCenter float64 `koanf:"sigmoid_center"`
	SigmoidScale  float64 `koanf:"sigmoid_scale"`

	// A passage agrees when entail >= AgreeEntail and contradict < AgreeContradict.
	AgreeEntail     float64 `koanf:"agree_entail"`
	AgreeContradict float64 `koanf:"agree_contradict"`

	SupportedEMax       float64 `koanf:"supported_e_max"`
	SupportedMinDomains int     `koanf:"supported_min_domains"`
	SupportedCMax       float64 `koanf:"supported_c_max"`
	RefutedCMax         float64 `koanf:"refuted_c_max"`
	ContestedEMax       float64 `koanf:"contested_e_max"`
	ContestedCMax       float64 `koanf:"contested_c_max"`
}

// DefaultConfig returns the seed's weights and thresholds.
func DefaultConfig() Config {
	return Config{
		WEMax: 0.40, WEMean3: 0.20, WAgreeDom: 0.15, WRelAvg: 0.15, WRecMax: 0.10, WCMax: 0.25,
		SigmoidCenter: 0.5, SigmoidScale: 0.15, Calibration: "builtin",
		AgreeEntail: 0.6, AgreeContradict: 0.5,
		SupportedEMax: 0.70, SupportedMinDomains: 2, SupportedCMax: 0.40,
		RefutedCMax:   0.70,
		ContestedEMax: 0.70, ContestedCMax: 0.50,
	}
}

// Validate reports the first setting that cannot work.
func (c Config) Validate() error {
	if c.SigmoidScale <= 0 {
		return errors.New("scoring.sigmoid_scale must be > 0")
	}
	for name, v := range map[string]float64{
		"agree_entail": c.AgreeEntail, "agree_contradict": c.AgreeContradict,
		"supported_e_max": c.SupportedEMax, "supported_c_max": c.SupportedCMax,
		"refuted_c_max": c.RefutedCMax, "contested_e_max": c.ContestedEMax, "contested_c_max": c.ContestedCMax,
	} {
		if v < 0 || v > 1 {
			return fmt.Errorf("scoring.%s must be in [0,1], got %g", name, v)
		}
	}
	if c.SupportedMinDomains < 1 {
		return errors.New("scoring.supported_min_domains must be >= 1")
	}
	return nil
}

// Calibrator maps features to the probability that the claim is supported.
// A trained calibration (seed section 7) implements it; without one the
// fixed sigmoid is used.
type Calibrator interface {
	Probability(f evidence.Features) float64
}

// Scorer computes features, scores and verdicts with one configuration.
type Scorer struct {
	cfg Config
	cal Calibrator
}

// New returns a Scorer. cal may be nil, in which case the fixed sigmoid maps
// the raw score to 0-100.
func New(cfg Config, cal Calibrator) *Scorer { return &Scorer{cfg: cfg, cal: cal} }

// WithConfig returns a Scorer with cfg and the same calibration.
func (s *Scorer) WithConfig(cfg Config) *Scorer { return &Scorer{cfg: cfg, cal: s.cal} }

// Config returns the scorer's configuration.
func (s *Scorer) Config() Config { return s.cfg }

// Features computes the seed-004 features over the re-ranked passages.
//
// e_mean3 and rel_avg are taken over the three passages with the highest
// entailment (fewer when fewer were judged): those are the passages that
// carry the evidence, whatever their retrieval rank. num_ok is computed over
// the same three; see [evidence.Features.NumOK].
func (s *Scorer) Features(js []evidence.Judged) evidence.Features {
	var f evidence.Features
	f.NumOK = 0.5
	if len(js) == 0 {
		return f
	}
	agree := map[string]bool{}
	for _, j := range js {
		f.EMax = math.Max(f.EMax, j.Entail)
		f.CMax = math.Max(f.CMax, j.Contradict)
		f.RecMax = math.Max(f.RecMax, j.Recency)
		// A passage whose figure for the claim's quantity differs (a
		// numeric mismatch verify kept as the same slot) does not agree,
		// whatever its entailment: "completed in 2024" beside "started in
		// 1933" is not a second origin for the start.
		if j.Entail >= s.cfg.AgreeEntail && j.Contradict < s.cfg.AgreeContradict && !(j.Num.Applicable && !j.Num.OK) {
			agree[j.CountingOrigin()] = true
		}
	}
	f.AgreeDom = len(agree)

	top := TopByEntailment(js, 3)
	applicable, ok := 0, true
	for _, j := range top {
		f.EMean3 += j.Entail
		f.RelAvg += j.Reliability
		if j.Num.Applicable {
			applicable++
			ok = ok && j.Num.OK
		}
	}
	f.EMean3 /= float64(len(top))
	f.RelAvg /= float64(len(top))
	if applicable > 0 {
		f.NumOK = 0
		if ok {
			f.NumOK = 1
		}
	}
	return f
}

// TopByEntailment returns up to n passages with the highest entailment,
// ties broken by retrieval order. The input is not modified.
func TopByEntailment(js []evidence.Judged, n int) []evidence.Judged {
	idx := make([]int, len(js))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return js[idx[a]].Entail > js[idx[b]].Entail })
	if n > len(idx) {
		n = len(idx)
	}
	out := make([]evidence.Judged, n)
	for i := range out {
		out[i] = js[idx[i]]
	}
	return out
}

// Raw is the seed's weighted sum:
//
//	0.40 e_max + 0.20 e_mean3 + 0.15 min(agree_dom/3, 1) + 0.15 rel_avg + 0.10 rec_max - 0.25 c_max
//
// with the configured weights, plus WNumOK*(num_ok-0.5) when WNumOK is set.
func (s *Scorer) Raw(f evidence.Features) float64 {
	c := s.cfg
	return c.WEMax*f.EMax +
		c.WEMean3*f.EMean3 +
		c.WAgreeDom*math.Min(float64(f.AgreeDom)/3, 1) +
		c.WRelAvg*f.RelAvg +
		c.WRecMax*f.RecMax -
		c.WCMax*f.CMax +
		c.WNumOK*(f.NumOK-0.5)
}

// Score maps features to 0-100: the calibration when one is set, else
// round(100 * sigmoid((raw - center) / scale)).
func (s *Scorer) Score(f evidence.Features) int {
	var p float64
	if s.cal != nil {
		p = s.cal.Probability(f)
	} else {
		p = Sigmoid((s.Raw(f) - s.cfg.SigmoidCenter) / s.cfg.SigmoidScale)
	}
	return int(math.Round(100 * clamp01(p)))
}

// Verdict applies the verdict policy. Contested is checked first, so a claim
// with strong evidence both ways is never reported as Supported or Refuted.
func (s *Scorer) Verdict(f evidence.Features) evidence.Verdict {
	c := s.cfg
	switch {
	case f.EMax >= c.ContestedEMax && f.CMax >= c.ContestedCMax:
		return evidence.Contested
	case f.EMax >= c.SupportedEMax && f.AgreeDom >= c.SupportedMinDomains && f.CMax < c.SupportedCMax:
		return evidence.Supported
	case f.CMax >= c.RefutedCMax:
		return evidence.Refuted
	default:
		return evidence.NotEnoughEvidence
	}
}

// Sigmoid is the logistic function.
func Sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func clamp01(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return 0
	case x < 0:
		return 0
	case x > 1:
		return 1
	}
	return x
}

// SnippetChars bounds a citation snippet, in characters.
const SnippetChars = 280

// Citations picks up to max (2-3) passages to cite, as the seed says:
// highest entailment, diverse domains, newest. For a Refuted verdict the
// evidence is contradiction, so passages are ranked by contradiction
// instead; for Contested the strongest passage of each side leads.
// Passages are taken one origin at a time; a second passage from an origin
// already cited is used only to reach two citations. Among passages whose
// rank score falls in the same 0.05 band, the newer comes first.
func Citations(js []evidence.Judged, v evidence.Verdict, max int) []evidence.Citation {
	if max <= 0 || len(js) == 0 {
		return nil
	}
	key := func(j evidence.Judged) float64 { return j.Entail }
	if v == evidence.Refuted {
		key = func(j evidence.Judged) float64 { return j.Contradict }
	}
	order := make([]evidence.Judged, len(js))
	copy(order, js)
	// Bands of 0.05 keep the order transitive: within a band the newer
	// passage leads, across bands the stronger one.
	band := func(j evidence.Judged) int { return int(math.Floor(key(j) * 20)) }
	sort.SliceStable(order, func(a, b int) bool {
		ba, bb := band(order[a]), band(order[b])
		if ba != bb {
			return ba > bb
		}
		if !order[a].PublishedAt.Equal(order[b].PublishedAt) {
			return order[a].PublishedAt.After(order[b].PublishedAt)
		}
		return key(order[a]) > key(order[b])
	})
	if v == evidence.Contested {
		// Lead with the most contradicting passage after the most entailing one.
		best := 0
		for i, j := range order {
			if j.Contradict > order[best].Contradict {
				best = i
			}
		}
		if best > 1 {
			c := order[best]
			copy(order[2:best+1], order[1:best])
			order[1] = c
		}
	}

	var picked []evidence.Judged
	used := make([]bool, len(order))
	seenOrigin := map[string]bool{}
	for i, j := range order {
		if len(picked) == max {
			break
		}
		if !seenOrigin[j.Origin()] {
			seenOrigin[j.Origin()] = true
			used[i] = true
			picked = append(picked, j)
		}
	}
	for i, j := range order {
		if len(picked) >= 2 || len(picked) == max {
			break
		}
		if !used[i] {
			used[i] = true
			picked = append(picked, j)
		}
	}
	out := make([]evidence.Citation, len(picked))
	for i, j := range picked {
		out[i] = evidence.Citation{
			URL: j.URL, Title: j.Title, Domain: j.Domain, PublishedAt: j.PublishedAt,
			Snippet: Snippet(j.Text, SnippetChars), SourceID: j.SourceID,
		}
	}
	return out
}

// Snippet shortens text to at most n characters at a word boundary, adding
// an ellipsis when it cuts.
func Snippet(text string, n int) string {
	text = strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(text) <= n {
		return text
	}
	r := []rune(text)[:n]
	s := string(r)
	if i := strings.LastIndexByte(s, ' '); i > n/2 {
		s = s[:i]
	}
	return strings.TrimRight(s, " ,;:") + "…"
}
