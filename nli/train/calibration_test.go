package train

import (
	"context"
	"strings"
	"testing"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/nli"
	"github.com/verity-fc/verity/scoring"
)

// wordJudge entails passages that contain the claim's last word.
type wordJudge struct{}

func (wordJudge) Judge(_ context.Context, claim string, ps []string) ([]evidence.Judgment, error) {
	f := strings.Fields(strings.TrimSuffix(claim, "."))
	last := f[len(f)-1]
	out := make([]evidence.Judgment, len(ps))
	for i, p := range ps {
		out[i] = evidence.Judgment{Entail: 0.05, Contradict: 0.05, Neutral: 0.9}
		if strings.Contains(p, last) {
			out[i] = evidence.Judgment{Entail: 0.9, Contradict: 0.05, Neutral: 0.05}
		}
	}
	return out, nil
}

func TestCalibrationExamples(t *testing.T) {
	var sets = Sets{}
	for i, w := range []string{"apple", "pear", "plum", "fig", "lime", "kiwi", "date", "yuzu"} {
		l := nli.Entail
		if i%2 == 1 {
			l = nli.Contradict
		}
		v := sets[SetFEVER]
		v[SplitCalib] = append(v[SplitCalib], Pair{Claim: "It is a " + w + ".", Passage: "A " + w + " it is, in 2001.", Label: l, Group: w})
		sets[SetFEVER] = v
	}
	claims := sets.Claims(SplitCalib, 1)
	if len(claims) != 8 {
		t.Fatalf("%d claims, want 8", len(claims))
	}
	for _, c := range claims {
		if len(c.Passages) != 1+Distractors {
			t.Errorf("%q has %d passages, want %d", c.Claim, len(c.Passages), 1+Distractors)
		}
		word := strings.TrimSuffix(strings.TrimPrefix(c.Claim, "It is a "), ".")
		for _, p := range c.Passages[1:] {
			if strings.Contains(p, " "+word+" ") {
				t.Errorf("%q has its own passage as a distractor", c.Claim)
			}
		}
	}
	ex, err := CalibrationExamples(context.Background(), wordJudge{}, scoring.New(scoring.DefaultConfig(), nil), claims)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range ex {
		f := e.Features
		if f.EMax != 0.9 || f.AgreeDom != 1 || f.RelAvg != 0.5 || f.RecMax != 0.5 {
			t.Errorf("claim %d features %+v: want e_max 0.9 from one origin, reliability and recency 0.5", i, f)
		}
		if e.Supported != (i%2 == 0) {
			t.Errorf("claim %d supported = %v", i, e.Supported)
		}
	}
}
