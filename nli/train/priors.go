package train

import (
	"math"
	"strings"

	"github.com/verity-fc/verity/nli/align"
)

// priorCount is the weight of the pooled prior in each source's prior:
// a source's shares are (counts + priorCount * pooled) / (n + priorCount),
// so that a label a source never uses gets a small prior, not zero.
const priorCount = 100

// minShare is the share of its pairs below which a source is said not to
// use a label (SourcePriors with complete set).
const minShare = 0.01

// Source names the data a set's pairs come from: FEVER and the sets built
// from it (its neutrals, other subjects, distractors) are one source, the
// unchecked MultiNLI pairs are MultiNLI's; every other set is its own.
func Source(set string) string {
	switch {
	case strings.HasPrefix(set, SetFEVER):
		return SetFEVER
	case set == "mnli_dev_unverified":
		return "mnli_dev"
	}
	return set
}

// SourcePriors returns, for every set of data, the log of its source's
// label prior (Config.SourcePriors): the weighted share of each label among
// the source's pairs, a pair that allows two labels (NOT_SUPPORTED)
// counting half for each, smoothed towards the pooled shares of all
// pairs. With complete set, a source that does not use every label (a
// raw share below minShare: FoolMeTwice and VitaminC's synthetic pairs
// have next to no neutral) gets no prior, so that its pairs are trained
// unadjusted: a prior near zero would leave the network free to give such
// pairs the label the source lacks.
func SourcePriors(data []Encoded, complete bool) map[string][align.NumLabels]float64 {
	counts := map[string]*[align.NumLabels + 1]float64{} // labels, then the total
	var pooled [align.NumLabels + 1]float64
	for _, e := range data {
		if e.Target == 0 {
			continue // a copy without a label (Substitute)
		}
		src := Source(e.Set)
		c := counts[src]
		if c == nil {
			c = new([align.NumLabels + 1]float64)
			counts[src] = c
		}
		var allowed float64
		for k := range align.NumLabels {
			if e.Target&(1<<k) != 0 {
				allowed++
			}
		}
		for k := range align.NumLabels {
			if e.Target&(1<<k) != 0 {
				c[k] += e.Weight / allowed
				pooled[k] += e.Weight / allowed
			}
		}
		c[align.NumLabels] += e.Weight
		pooled[align.NumLabels] += e.Weight
	}
	out := map[string][align.NumLabels]float64{}
	for _, e := range data {
		if _, ok := out[e.Set]; ok {
			continue
		}
		c := counts[Source(e.Set)]
		if complete && !usesEvery(c) {
			continue
		}
		var lp [align.NumLabels]float64
		for k := range lp {
			share := (c[k] + priorCount*pooled[k]/pooled[align.NumLabels]) / (c[align.NumLabels] + priorCount)
			lp[k] = math.Log(share)
		}
		out[e.Set] = lp
	}
	return out
}

// usesEvery tells whether a source's weighted label counts (then the
// total) give every label a share of at least minShare.
func usesEvery(c *[align.NumLabels + 1]float64) bool {
	for k := range align.NumLabels {
		if c[k] < minShare*c[align.NumLabels] {
			return false
		}
	}
	return true
}

// adjust adds the log prior of set's source to z (unchanged when adj is
// nil or has no entry for the set).
func adjust(z [align.NumLabels]float64, adj map[string][align.NumLabels]float64, set string) [align.NumLabels]float64 {
	lp, ok := adj[set]
	if !ok {
		return z
	}
	for k := range z {
		z[k] += lp[k]
	}
	return z
}
