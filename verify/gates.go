package verify

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/verity-fc/verity/evidence"
)

// Defaults of the gates; see [Limits].
const (
	// DefaultMinAbout is the aboutness below which a passage cannot
	// contradict a claim. 0.65 separates "The Golden Gate Bridge opened in
	// 1937." from "The Brooklyn Bridge opened in 1883." (0.6: the passage
	// lacks the name "Brooklyn", which weighs 2 of the claim's 5) while a
	// passage that states the claim's event with another figure, or with
	// another name beside most of the claim's words, still counts.
	DefaultMinAbout = 0.65
	// DefaultMinAboutEntail is the aboutness below which a passage cannot
	// entail a claim either.
	DefaultMinAboutEntail = 0.5
	// DefaultCredible is the source reliability from which a newer passage
	// may supersede an older one.
	DefaultCredible = 0.6
	// DefaultNearCopy is the Jaccard similarity of two passages' sets of
	// word 5-grams from which the later is a near-copy of the earlier and
	// counts as the same origin. Independent reports of one fact share a
	// few phrases (0.02 at most between two demo-corpus sources); a
	// syndicated or lightly edited copy shares most of them.
	DefaultNearCopy = 0.5
	// supersedeAfter is how much newer a passage must be to supersede
	// another: about six months.
	supersedeAfter = 182 * 24 * time.Hour
	// shingle is the length in words of the n-grams near-copies share.
	shingle = 5
)

// gate applies the gates that read no judgment to passages in place: it
// sets each passage's aboutness, keeps the numeric mismatches of the
// claim's slot, finds conflicts and sets aside the passages published
// before the time the claim names and those not about the claim. A passage
// set aside as before the claim's time or unrelated counts on neither
// side, so it need not be judged (see [mayCount]).
func (s *Service) gate(claim string, terms []term, claimYear int, js []evidence.Judged) {
	for i := range js {
		j := &js[i]
		j.About = round3(bestWindow(terms, j.Text).about)
		j.Num = sameSlot(terms, j.Text, j.Num, s.limits.MinAbout)
		switch {
		case claimYear > 0 && !j.PublishedAt.IsZero() && j.PublishedAt.Year() < claimYear:
			j.SetAside = evidence.SetAsideBeforeClaimTime
			continue
		case s.limits.Conflict > 0:
			if j.Conflict = conflict(claim, terms, j.Text, j.Num, s.limits.MinAbout); j.Conflict != nil {
				// A swapped name is about the claim's event, whatever
				// share of the claim's words the sentence covers.
				continue
			}
		}
		switch {
		case j.About < s.limits.MinAboutEntail:
			j.SetAside = evidence.SetAsideUnrelated
		case j.About < s.limits.MinAbout:
			j.SetAside = evidence.SetAsideNotAbout
		}
	}
}

// mayCount reports whether a gated passage's judgment can count toward
// the features: not when it is set aside as unrelated or as published
// before the claim's time.
func mayCount(j evidence.Judged) bool {
	return j.SetAside != evidence.SetAsideUnrelated && j.SetAside != evidence.SetAsideBeforeClaimTime
}

// gated applies the gates that read the judgments to passages [gate] has
// gated and the judge judged, in place - a conflict's contradiction, the
// superseded statements, the near-copies - and returns the passages that
// count toward the features (see [Counted]).
func (s *Service) gated(claim string, claimYear int, terms []term, js []evidence.Judged) []evidence.Judged {
	for i := range js {
		if js[i].Conflict != nil {
			js[i].Judgment = conflicted(js[i].Judgment, s.limits.Conflict)
		}
	}
	s.supersede(claim, claimYear > 0, terms, js)
	nearCopies(js, s.limits.NearCopy)
	return Counted(js)
}

// Counted returns the passages of a result (see [evidence.Result.Passages],
// gated) that count toward its features: those not set aside, with the
// contradiction of a passage not about the claim moved to neutral and its
// numeric check dropped. `verity eval --fit` scores them again under other
// thresholds.
func Counted(js []evidence.Judged) []evidence.Judged {
	counted := make([]evidence.Judged, 0, len(js))
	for _, j := range js {
		switch j.SetAside {
		case evidence.SetAsideSuperseded, evidence.SetAsideBeforeClaimTime:
			continue
		case evidence.SetAsideNotAbout:
			j.Neutral += j.Contradict
			j.Contradict = 0
			j.Num = evidence.NumCheck{}
		case evidence.SetAsideUnrelated:
			j.Neutral += j.Contradict + j.Entail
			j.Contradict, j.Entail = 0, 0
			j.Num = evidence.NumCheck{}
		}
		counted = append(counted, j)
	}
	return counted
}

// conflicted returns j with its contradiction raised to at least c and
// its entailment and neutral scaled down to keep the sum at 1.
func conflicted(j evidence.Judgment, c float64) evidence.Judgment {
	if j.Contradict >= c {
		return j
	}
	rest := j.Entail + j.Neutral
	if rest <= 0 {
		return evidence.Judgment{Contradict: 1}
	}
	k := (1 - c) / rest
	return evidence.Judgment{Entail: j.Entail * k, Contradict: c, Neutral: j.Neutral * k}
}

func round3(x float64) float64 { return float64(int(x*1000+0.5)) / 1000 }

// yearRe finds a year the claim places itself at: "in 2023", "as of 2024",
// "at the start of 2024", "by the end of 2023", "during 2019".
var yearRe = regexp.MustCompile(`(?i)\b(?:in|as of|during|by|at the (?:start|beginning|end) of|early|late|mid)\s+(?:(?:january|february|march|april|may|june|july|august|september|october|november|december)\s+)?((?:1[89]|20)\d\d)\b`)

// futureRe marks a claim about plans or forecasts, whose year is no time
// the evidence must come from.
var futureRe = regexp.MustCompile(`(?i)\b(?:will|plans?|planned|expected|forecasts?|projected|until|by then)\b`)

// explicitYear returns the latest year a claim explicitly places itself at,
// when it is not in the future of now and the claim is not a plan or
// forecast; 0 otherwise. Evidence published before that year holds nothing
// about it.
func explicitYear(claim string, now time.Time) int {
	if futureRe.MatchString(claim) {
		return 0
	}
	year := 0
	for _, m := range yearRe.FindAllStringSubmatch(claim, -1) {
		y, err := strconv.Atoi(m[1])
		if err == nil && y <= now.Year() && y > year {
			year = y
		}
	}
	return year
}

// timeMarkerRe finds words that make a statement true only as of when it
// was written: records, "so far", "currently", yearly figures.
var timeMarkerRe = regexp.MustCompile(`(?i)\b(?:records?|so far|as of|currently|current|now|today|nowadays|latest|to date|at present|presently|every year|each year|a year|per year|annually|annual|this year|most recent|yet|still)\b`)

// timeDependent reports whether a statement may be superseded by a later
// one: it carries a time marker, or it states a figure without saying
// when (a present statistic).
func timeDependent(text string, hasYear bool) bool {
	if timeMarkerRe.MatchString(text) {
		return true
	}
	return !hasYear && figureRe.MatchString(text)
}

// figureRe finds a figure that is no year: "1 percent", "8 million",
// "9,000".
var figureRe = regexp.MustCompile(`\b\d[\d,.]*\s*(?:%|percent|per cent|million|billion|thousand|tonnes|ppm|gigawatts)|\b\d{1,3}(?:,\d{3})+\b`)

// supersede sets aside the time-dependent statements that a newer,
// credible passage on the other side supersedes: an older passage that
// agrees with the claim when a newer one contradicts it, or the reverse.
// Only passages about the claim take part. The newer passage must be at
// least six months newer, at least as reliable as the older one and
// credible (reliability >= Limits.Credible).
func (s *Service) supersede(claim string, claimHasYear bool, terms []term, js []evidence.Judged) {
	agree := func(j evidence.Judged) bool {
		return j.Entail >= 0.6 && j.Entail > j.Contradict
	}
	disagree := func(j evidence.Judged) bool {
		return j.Contradict >= 0.5 && j.Contradict > j.Entail
	}
	claimDependent := timeDependent(claim, claimHasYear)
	for i := range js {
		old := &js[i]
		if old.SetAside != "" || old.PublishedAt.IsZero() {
			continue
		}
		var opposite func(evidence.Judged) bool
		switch {
		case agree(*old):
			opposite = disagree
		case disagree(*old):
			opposite = agree
		default:
			continue
		}
		if !claimDependent && !timeDependent(bestWindow(terms, old.Text).text, claimHasYear) {
			continue
		}
		for k, n := range js {
			if k == i || n.SetAside != "" || n.PublishedAt.IsZero() || !opposite(n) {
				continue
			}
			if n.PublishedAt.Sub(old.PublishedAt) < supersedeAfter || n.Reliability < s.limits.Credible || n.Reliability < old.Reliability {
				continue
			}
			old.SetAside = evidence.SetAsideSuperseded
			old.SupersededBy = n.ID
			break
		}
	}
}

// sameSlot keeps the numeric mismatches whose passage figure fills the
// claim's slot: the sentence that holds the passage's figure must be about
// the claim (aboutness >= minAbout). "A dozen satellites crossing the sky
// in an hour" does not dispute "more than 9,000 active spacecraft".
func sameSlot(terms []term, text string, nc evidence.NumCheck, minAbout float64) evidence.NumCheck {
	if len(nc.Mismatches) == 0 {
		return nc
	}
	sents := resolvedSentences(text)
	var kept []evidence.Mismatch
	for _, m := range nc.Mismatches {
		for _, sent := range sents {
			if strings.Contains(sent, m.Source) && bestWindow(terms, sent).about >= minAbout {
				kept = append(kept, m)
				break
			}
		}
	}
	switch {
	case len(kept) > 0:
		return evidence.NumCheck{Applicable: true, OK: false, Mismatches: kept}
	default:
		return evidence.NumCheck{}
	}
}

// nearCopies marks each passage whose text nearly copies an earlier one
// from another origin (earlier by publication date, then by rank) with
// that passage's origin.
func nearCopies(js []evidence.Judged, threshold float64) {
	if threshold <= 0 || threshold > 1 || len(js) < 2 {
		return
	}
	sh := make([]map[string]bool, len(js))
	for i, j := range js {
		sh[i] = shingles(j.Text)
	}
	for i := range js {
		for k := range js {
			if k == i || js[k].Origin() == js[i].Origin() {
				continue
			}
			earlier := js[k].PublishedAt.Before(js[i].PublishedAt) ||
				(js[k].PublishedAt.Equal(js[i].PublishedAt) && k < i)
			if !earlier || jaccard(sh[i], sh[k]) < threshold {
				continue
			}
			js[i].SameOriginAs = js[k].CountingOrigin()
			break
		}
	}
}

// shingles returns the set of word n-grams of text, lower-cased.
func shingles(text string) map[string]bool {
	ws := strings.Fields(strings.ToLower(text))
	for i, w := range ws {
		ws[i] = strings.Trim(w, `.,;:!?"'()[]“”‘’`)
	}
	out := map[string]bool{}
	for i := 0; i+shingle <= len(ws); i++ {
		out[strings.Join(ws[i:i+shingle], " ")] = true
	}
	if len(out) == 0 && len(ws) > 0 {
		out[strings.Join(ws, " ")] = true
	}
	return out
}

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	inter := 0
	for k := range a {
		if b[k] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}
