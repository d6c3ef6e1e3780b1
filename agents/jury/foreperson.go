package jury

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/verity-fc/verity/agents/internal/lexicon"
	"github.com/verity-fc/verity/agents/internal/structured"
	"github.com/verity-fc/verity/quantity"
	"github.com/verity-fc/verity/sentences"
)

// Aggregate is the seed's verdict rule over a rubric of axes answers, yes
// of them Yes: Faithful when every axis is Yes; Ambiguous when axes-2 to
// axes-1 are Yes (3-4 of the seed's five) and the dissent is strong;
// Mutated otherwise.
func Aggregate(yes, axes int, strongDissent bool) string {
	switch {
	case yes == axes:
		return Faithful
	case yes >= axes-2 && strongDissent:
		return Ambiguous
	}
	return Mutated
}

// Tally counts the round-2 votes.
func Tally(votes []JurorRevote) (faithful, mutated int) {
	for _, v := range votes {
		if v.Verdict == Faithful {
			faithful++
		} else {
			mutated++
		}
	}
	return faithful, mutated
}

// StrongDissent reports whether the minority verdict (the smaller side,
// either side on a tie) has at least threshold votes: the seed's "2+
// agents on minority verdict".
func StrongDissent(faithful, mutated, threshold int) bool {
	return min(faithful, mutated) >= threshold
}

// Confidence is the card's confidence in [0,1], from the round-2 votes:
// a juror who voted v with confidence c gives verdict v probability c and
// the other 1-c. For Faithful or Mutated it is the mean probability of the
// verdict; for Ambiguous it is 1 - |P(Faithful) - P(Mutated)|, highest
// when the jury is evenly split. With no votes it is 0.
func Confidence(verdict string, votes []JurorRevote) float64 {
	if len(votes) == 0 {
		return 0
	}
	pFaithful := 0.0
	for _, v := range votes {
		c := min(1, max(0, v.Confidence))
		if v.Verdict == Faithful {
			pFaithful += c
		} else {
			pFaithful += 1 - c
		}
	}
	pFaithful /= float64(len(votes))
	var p float64
	switch verdict {
	case Faithful:
		p = pFaithful
	case Mutated:
		p = 1 - pFaithful
	default:
		p = 1 - math.Abs(2*pFaithful-1)
	}
	return math.Round(p*100) / 100
}

// DissentNote names the round-2 votes against the verdict, or describes
// the split behind an Ambiguous verdict; "" when every juror voted the
// verdict.
func DissentNote(verdict string, votes []JurorRevote, threshold int) string {
	var faithful, mutated []string
	for _, v := range votes {
		if v.Verdict == Faithful {
			faithful = append(faithful, v.Juror)
		} else {
			mutated = append(mutated, v.Juror)
		}
	}
	strength := "not a strong dissent"
	if StrongDissent(len(faithful), len(mutated), threshold) {
		strength = "a strong dissent"
	}
	switch verdict {
	case Ambiguous:
		return fmt.Sprintf("The jury split %d Faithful (%s) to %d Mutated (%s), %s (threshold %d).",
			len(faithful), strings.Join(faithful, ", "), len(mutated), strings.Join(mutated, ", "), strength, threshold)
	case Faithful:
		if len(mutated) == 0 {
			return ""
		}
		return fmt.Sprintf("%s voted Mutated (%d of %d), %s (threshold %d).", strings.Join(mutated, ", "), len(mutated), len(votes), strength, threshold)
	default:
		if len(faithful) == 0 {
			return ""
		}
		return fmt.Sprintf("%s voted Faithful (%d of %d), %s (threshold %d).", strings.Join(faithful, ", "), len(faithful), len(votes), strength, threshold)
	}
}

// builtinForeperson answers each rubric axis with the rule for it and
// proposes a minimal edit when an axis is No.
type builtinForeperson struct{ rules *ruleBook }

func (b builtinForeperson) rule(ctx context.Context, in forepersonInput) (Ruling, error) {
	f, err := b.rules.facts(ctx, in.Claim, in.Truth)
	if err != nil {
		return Ruling{}, fmt.Errorf("foreperson: %w", err)
	}
	r := Ruling{}
	var no []string
	for _, ax := range in.Rubric {
		yes, why := f.answer(ax.Axis)
		a := AxisAnswer{Axis: ax.Axis, Answer: "Yes", Reason: why}
		if !yes {
			a.Answer = "No"
			no = append(no, ax.Axis)
		}
		r.Answers = append(r.Answers, a)
	}
	fa, mu := Tally(in.Round2)
	if len(no) == 0 {
		r.Reasoning = fmt.Sprintf("All %d rubric axes are Yes. Round-2 votes: %d Faithful, %d Mutated; %d debate turn(s).", len(in.Rubric), fa, mu, len(in.Transcript))
	} else {
		r.Reasoning = fmt.Sprintf("%d of %d rubric axes are Yes; No on %s. Round-2 votes: %d Faithful, %d Mutated; %d debate turn(s).",
			len(in.Rubric)-len(no), len(in.Rubric), strings.Join(no, ", "), fa, mu, len(in.Transcript))
		r.MinimalEdit = minimalEdit(f)
	}
	return r, structured.Check("FOREPERSON", &r, checkRuling(in.Rubric))
}

// minimalEdit rewrites the claim where the rules know how: figures and
// dates the truth gives differently, added certainty, a widened
// quantifier. A causal leap is not rewritten: swapping the verb for the
// truth's "associated with" can reverse what the claim says. When the
// edited claim still breaks a rule, it falls back to the truth's sentence
// closest to the claim: faithful by construction, if not minimal.
func minimalEdit(f *facts) string {
	edit := f.claim
	for _, e := range slices.Concat(f.issues(AxisNumeric), f.numericIssues(true)) {
		if e.ClaimSays != "" && e.TruthSays != "" {
			edit = strings.Replace(edit, e.ClaimSays, e.TruthSays, 1)
		}
	}
	for _, e := range f.issues(AxisCertainty) {
		if softer, ok := softenings[strings.ToLower(e.ClaimSays)]; ok {
			edit = replaceWord(edit, e.ClaimSays, softer)
		}
	}
	for _, e := range f.issues(AxisContext) {
		if e.Issue == "the claim widens the truth's quantifier" {
			edit = replaceWord(edit, e.ClaimSays, e.TruthSays)
		}
	}
	// Check the edit by the same rules; NLI is not asked again, so the
	// rules that read it are set to pass.
	g := &facts{claim: edit, truth: f.truth, entail: 1, findings: quantity.Check(edit, f.truth),
		claimScope: scopeOf(edit), truthScope: f.truthScope}
	clean := true
	for _, axis := range []string{AxisNumeric, AxisScope, AxisCausal, AxisCertainty, AxisContext} {
		clean = clean && len(g.issues(axis)) == 0
	}
	if edit != f.claim && clean {
		return edit
	}
	best, score := f.truth, -1.0
	for _, s := range sentences.Split(f.truth) {
		if o := lexicon.Overlap(f.claim, s.Text); o > score {
			best, score = s.Text, o
		}
	}
	return best
}

// softenings replace words of added certainty.
var softenings = map[string]string{
	"proves": "suggests", "proved": "suggested", "proven": "suggested", "prove": "suggest",
	"confirms": "suggests", "confirmed": "suggested", "definitely": "possibly", "certainly": "possibly",
	"undoubtedly": "possibly", "always": "often", "never": "rarely", "guarantees": "may ensure",
	"will": "may", "demonstrates": "suggests", "demonstrated": "suggested", "establishes": "suggests",
}

// replaceWord replaces the first whole-word occurrence of old in s, case
// ignored.
func replaceWord(s, old, new string) string {
	ls, lo := strings.ToLower(s), strings.ToLower(old)
	for off := 0; ; {
		i := strings.Index(ls[off:], lo)
		if i < 0 {
			return s
		}
		i += off
		end := i + len(lo)
		if (i == 0 || !isLetter(ls[i-1])) && (end == len(ls) || !isLetter(ls[end])) {
			if i < len(s) && s[i] >= 'A' && s[i] <= 'Z' && new != "" {
				new = strings.ToUpper(new[:1]) + new[1:]
			}
			return s[:i] + new + s[end:]
		}
		off = i + 1
	}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
