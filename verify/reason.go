package verify

import (
	"fmt"
	"sort"
	"strings"

	"github.com/verity-fc/verity/evidence"
)

// explain gives the reason for verdict v: a stable code and one sentence
// that names the passages and the rule. judged are all the passages judged,
// counted those that count toward features f (see gated).
func (s *Service) explain(v evidence.Verdict, f evidence.Features, judged, counted []evidence.Judged) evidence.Reason {
	c := s.scorer.Config()
	bestE, bestC := strongest(counted, func(j evidence.Judged) float64 { return j.Entail }),
		strongest(counted, func(j evidence.Judged) float64 { return j.Contradict })
	switch v {
	case evidence.Contested:
		return evidence.Reason{Code: evidence.ReasonContested, Text: fmt.Sprintf(
			"%s entails the claim (%.2f) while %s contradicts it (%.2f): Contested is entailment >= %.2f and contradiction >= %.2f.",
			cap1(label(bestE)), bestE.Entail, label(bestC), bestC.Contradict, c.ContestedEMax, c.ContestedCMax)}
	case evidence.Supported:
		text := fmt.Sprintf("%d independent origins entail the claim (%s; strongest %.2f) and no passage about it contradicts it above %.2f.",
			f.AgreeDom, strings.Join(agreeing(counted, c.AgreeEntail, c.AgreeContradict), ", "), f.EMax, c.SupportedCMax)
		if old, newer, ok := superseded(judged, func(j evidence.Judged) bool { return j.Contradict > j.Entail }); ok {
			text += fmt.Sprintf(" The older statement of %s that disagrees is set aside: newer %s supersedes it.", label(old), label(newer))
		}
		return evidence.Reason{Code: evidence.ReasonSupported, Text: text}
	case evidence.Refuted:
		if old, newer, ok := superseded(judged, func(j evidence.Judged) bool { return j.Entail > j.Contradict }); ok {
			return evidence.Reason{Code: evidence.ReasonSuperseded, Text: fmt.Sprintf(
				"%s agreed with the claim, but newer %s contradicts it (%.2f) and supersedes it: between passages that disagree on a time-dependent fact, the newer credible one leads.",
				cap1(label(old)), label(newer), bestC.Contradict)}
		}
		if cf := bestC.Conflict; cf != nil {
			return evidence.Reason{Code: evidence.ReasonRefuted, Text: fmt.Sprintf(
				"%s states the claim's event with %s %q where the claim has %q, which counts as contradiction %.2f (Refuted from %.2f), and no passage about the claim entails it strongly.",
				cap1(label(bestC)), conflictNoun(cf.Kind), cf.Source, cf.Claim, bestC.Contradict, c.RefutedCMax)}
		}
		return evidence.Reason{Code: evidence.ReasonRefuted, Text: fmt.Sprintf(
			"%s contradicts the claim (%.2f, Refuted from %.2f) and no passage about it entails it strongly.",
			cap1(label(bestC)), bestC.Contradict, c.RefutedCMax)}
	}

	// Not enough evidence.
	relevant := 0
	bestAbout := 0.0
	for _, j := range counted {
		if j.SetAside == "" {
			relevant++
		}
	}
	for _, j := range judged {
		bestAbout = max(bestAbout, j.About)
	}
	if relevant == 0 {
		text := "No passage in the corpus is about the claim's subject and event"
		if len(judged) > 0 {
			text += fmt.Sprintf(" (of %d passages found, the closest covers %.0f%% of the claim's words, %.0f%% needed)", len(judged), 100*bestAbout, 100*s.limits.MinAbout)
		}
		if n := count(judged, evidence.SetAsideBeforeClaimTime); n > 0 {
			text += fmt.Sprintf("; %d passages were published before the time the claim names", n)
		}
		return evidence.Reason{Code: evidence.ReasonNoRelevantEvidence, Text: text + "."}
	}
	one := f
	one.AgreeDom = max(f.AgreeDom, c.SupportedMinDomains)
	if s.scorer.Verdict(one) == evidence.Supported {
		return evidence.Reason{Code: evidence.ReasonSingleOrigin, Text: fmt.Sprintf(
			"Only %d independent origin entails the claim (%s, %.2f); the policy needs %d (scoring.supported_min_domains), with %d it would be Supported.",
			f.AgreeDom, label(bestE), bestE.Entail, c.SupportedMinDomains, max(f.AgreeDom, 1))}
	}
	if f.EMax >= c.SupportedEMax {
		return evidence.Reason{Code: evidence.ReasonPartlyContradicted, Text: fmt.Sprintf(
			"%s entails the claim (%.2f), but %s contradicts it (%.2f): too much for Supported (below %.2f), too little for Contested (%.2f).",
			cap1(label(bestE)), bestE.Entail, label(bestC), bestC.Contradict, c.SupportedCMax, c.ContestedCMax)}
	}
	if f.EMax >= f.CMax {
		return evidence.Reason{Code: evidence.ReasonWeakEntailment, Text: fmt.Sprintf(
			"The passage that entails the claim most, %s, does so at %.2f, below the %.2f Supported needs; none contradicts it at %.2f or more.",
			label(bestE), bestE.Entail, c.SupportedEMax, c.RefutedCMax)}
	}
	return evidence.Reason{Code: evidence.ReasonWeakContradiction, Text: fmt.Sprintf(
		"The passage that contradicts the claim most, %s, does so at %.2f, below the %.2f Refuted needs; none entails it at %.2f or more.",
		label(bestC), bestC.Contradict, c.RefutedCMax, c.SupportedEMax)}
}

func conflictNoun(kind string) string {
	switch kind {
	case evidence.ConflictName:
		return "the name"
	case evidence.ConflictOpposite:
		return "the opposite word"
	case evidence.ConflictNegation:
		return "the negation"
	}
	return "the figure"
}

// strongest returns the passage with the highest key; the zero passage
// when there is none.
func strongest(js []evidence.Judged, key func(evidence.Judged) float64) evidence.Judged {
	var best evidence.Judged
	for i, j := range js {
		if i == 0 || key(j) > key(best) {
			best = j
		}
	}
	return best
}

// agreeing lists the origins of the passages that agree, sorted.
func agreeing(js []evidence.Judged, entail, contradict float64) []string {
	seen := map[string]bool{}
	var out []string
	for _, j := range js {
		o := j.CountingOrigin()
		if j.Entail >= entail && j.Contradict < contradict && !seen[o] {
			seen[o] = true
			out = append(out, originName(o))
		}
	}
	sort.Strings(out)
	return out
}

// superseded finds a passage set aside as superseded whose side is side,
// and the passage that supersedes it.
func superseded(js []evidence.Judged, side func(evidence.Judged) bool) (old, newer evidence.Judged, ok bool) {
	for _, j := range js {
		if j.SetAside != evidence.SetAsideSuperseded || !side(j) {
			continue
		}
		for _, n := range js {
			if n.ID == j.SupersededBy {
				return j, n, true
			}
		}
	}
	return old, newer, false
}

func count(js []evidence.Judged, setAside string) int {
	n := 0
	for _, j := range js {
		if j.SetAside == setAside {
			n++
		}
	}
	return n
}

// label names a passage for a reason: its origin and, when known, the
// year it was published.
func label(j evidence.Judged) string {
	if j.ID == "" && j.Text == "" {
		return "no passage"
	}
	l := "the passage from " + originName(j.Origin())
	if !j.PublishedAt.IsZero() {
		l += fmt.Sprintf(" (%d)", j.PublishedAt.Year())
	}
	return l
}

func originName(o string) string {
	if id, ok := strings.CutPrefix(o, "source:"); ok {
		return "source " + id
	}
	return o
}

func cap1(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
