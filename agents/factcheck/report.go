package factcheck

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Notes of seed 001 section F, in its words where it gives them.
const (
	noteNoClaims      = "No verifiable factual claims were identified in this content."
	noteNoClaimsShort = "No verifiable claims identified"
	noteOpinion       = "Limited verifiable factual content. This content is primarily opinion or analysis."
	noteFewClaims     = "Limited number of verifiable claims. The reliability score rests on a small sample and may not be representative."
	noteAllVerified   = "Every claim was verified: the content shows high factual accuracy."
	noteAllDisputed   = "Warning: every claim was disputed. The content has significant inaccuracies."
	noteAllUnverified = "No claim could be verified or disputed; the score reflects missing evidence, not accuracy."
	biasWarning       = "Generator and checker share model — results may be biased toward confirming generated content."
	noteGenFallback   = "The generator timed out; the question itself was fact-checked instead."
	noteReporterFail  = "The reporter model failed; this is the template report built from the consensus."
	noteNoScore       = "The reporter gave no reliability score; the score shown is computed from the consensus."
)

// truncationNote is appended when the content was cut.
func truncationNote(maxChars int) string {
	return fmt.Sprintf("[Content truncated to %d characters. Claims beyond this point were not analyzed.]", maxChars)
}

// reliabilityScore is the built-in reporter's score: the share of claims
// whose consensus is VERIFIED, counting an UNVERIFIABLE claim as half, in
// percent: round(100 * (verified + 0.5*unverifiable) / claims). All verified
// scores 100 and all disputed 0, inside the seed's 90-100 and 0-20 bands;
// an unverifiable claim neither earns nor loses trust. Nil with no claims.
func reliabilityScore(s Summary) *int {
	n := s.Verified + s.Disputed + s.Unverifiable
	if n == 0 {
		return nil
	}
	score := int(math.Round(100 * (float64(s.Verified) + 0.5*float64(s.Unverifiable)) / float64(n)))
	return &score
}

// band is the seed's scoring guide.
func band(score int) string {
	switch {
	case score >= 90:
		return "Highly reliable"
	case score >= 70:
		return "Mostly reliable with minor issues"
	case score >= 50:
		return "Mixed accuracy"
	case score >= 30:
		return "Significant inaccuracies"
	}
	return "Unreliable"
}

// scoreRe reads the reporter's "## Overall Reliability Score: 78".
var scoreRe = regexp.MustCompile(`(?i)Overall Reliability Score\s*:?[\s*]*(\d{1,3})\b`)

// parseScore returns the reporter's score clamped to 0-100, if it gave one.
func parseScore(report string) (int, bool) {
	m := scoreRe.FindStringSubmatch(report)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return 0, false
	}
	return min(max(n, 0), 100), true
}

// consensusNotes are the section F notes that follow from the consensus.
func consensusNotes(cs []ClaimConsensus, s Summary, opinionHeavy bool) []string {
	var notes []string
	if opinionHeavy {
		notes = append(notes, noteOpinion)
	}
	n := len(cs)
	switch {
	case n == 0:
		return append(notes, noteNoClaims)
	case n <= 2:
		notes = append(notes, noteFewClaims)
	}
	switch n {
	case s.Verified:
		notes = append(notes, noteAllVerified)
	case s.Disputed:
		notes = append(notes, noteAllDisputed)
	case s.Unverifiable:
		notes = append(notes, noteAllUnverified)
	}
	for _, c := range cs {
		if _, tied := majority(c.Verdicts); tied && len(c.Verdicts) > 0 {
			notes = append(notes, fmt.Sprintf("Checkers split evenly on %s (%s); it is reported as %s with LOW confidence.",
				c.ClaimID, countVerdicts(c.Verdicts), c.ConsensusVerdict))
		}
	}
	return notes
}

func countVerdicts(vs []ClaimVerification) string {
	s := summarizeVerifications(vs)
	var parts []string
	for _, p := range []struct {
		n    int
		name string
	}{{s.Verified, Verified}, {s.Disputed, Disputed}, {s.Unverifiable, Unverifiable}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.name))
		}
	}
	return strings.Join(parts, ", ")
}

// reportInput is what the template report is written from.
type reportInput struct {
	content   string
	consensus []ClaimConsensus
	summary   Summary
	score     *int
	extractor string
	// checkers are the checkers that completed; failed those that did not.
	checkers []string
	failed   []CheckerFailure
	reporter string
	notes    []string
}

// templateReport is the "verity/reporter" role and the reporter-failure
// fallback of seed 001: the consensus as a Markdown table with claim,
// verdict, agreement rate and correction, the findings by verdict, the
// content annotated with [VERDICT] markers, the notes and the methodology.
func templateReport(in reportInput) string {
	var b strings.Builder
	b.WriteString("# Fact-Check Report\n\n")
	if in.score == nil {
		b.WriteString("## Overall Reliability Score: n/a\n")
	} else {
		fmt.Fprintf(&b, "## Overall Reliability Score: %d\n%s. Verified claims count in full, unverifiable ones half, disputed ones not at all.\n",
			*in.score, band(*in.score))
	}
	if len(in.consensus) > 0 {
		b.WriteString("\n## Evidence Table\n\n| # | Claim | Verdict | Agreement | Correction |\n|---|-------|---------|:---------:|------------|\n")
		for _, c := range in.consensus {
			corr := "—"
			if c.Correction != nil {
				corr = *c.Correction
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s%% | %s |\n", cell(c.ClaimID), cell(c.Claim), c.ConsensusVerdict,
				strconv.FormatFloat(c.AgreementRate, 'f', -1, 64), cell(corr))
		}
		b.WriteString("\n## Detailed Findings\n")
		writeFindings(&b, "Verified Claims", Verified, in.consensus)
		writeFindings(&b, "Disputed Claims", Disputed, in.consensus)
		writeFindings(&b, "Unverifiable Claims", Unverifiable, in.consensus)
		if in.content != "" {
			fmt.Fprintf(&b, "\n## Annotated Content\n%s\n", annotate(in.content, in.consensus))
		}
	}
	if len(in.notes) > 0 {
		b.WriteString("\n## Notes\n")
		for _, n := range in.notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	b.WriteString("\n## Methodology\n")
	fmt.Fprintf(&b, "- Claims extracted by: %s\n", in.extractor)
	checkers := or(strings.Join(in.checkers, ", "), "none")
	if len(in.failed) > 0 {
		names := make([]string, len(in.failed))
		for i, f := range in.failed {
			names[i] = f.Model
		}
		checkers += fmt.Sprintf(" (%d of %d completed; failed: %s)", len(in.checkers), len(in.checkers)+len(in.failed), strings.Join(names, ", "))
	}
	fmt.Fprintf(&b, "- Independent checkers: %s\n", checkers)
	b.WriteString("- Consensus method: Majority verdict (ties broken conservatively toward DISPUTED)\n")
	fmt.Fprintf(&b, "- Report generated by: %s\n", in.reporter)
	return b.String()
}

func writeFindings(b *strings.Builder, title, verdict string, cs []ClaimConsensus) {
	var n int
	for _, c := range cs {
		if c.ConsensusVerdict == verdict {
			n++
		}
	}
	fmt.Fprintf(b, "\n### %s (%d)\n", title, n)
	for _, c := range cs {
		if c.ConsensusVerdict != verdict {
			continue
		}
		fmt.Fprintf(b, "- **%s** %s (%s%% agreement, %s confidence)", c.ClaimID, oneLine(c.Claim),
			strconv.FormatFloat(c.AgreementRate, 'f', -1, 64), c.ConsensusConfidence)
		if c.Correction != nil {
			fmt.Fprintf(b, ". Correction: %s", oneLine(*c.Correction))
		}
		b.WriteString("\n")
		for _, v := range c.Verdicts {
			if v.Verdict == verdict {
				fmt.Fprintf(b, "  - %s: %s\n", v.CheckerModel, oneLine(truncateRunes(v.Evidence, 2*snippetChars)))
			}
		}
	}
}

// annotate places " [VERDICT]" after each claim found verbatim in content
// (after its sentence's closing period when the claim ends there). Claims a
// model paraphrased are not found and not marked.
func annotate(content string, cs []ClaimConsensus) string {
	type mark struct {
		at   int
		text string
	}
	var marks []mark
	from := 0
	for _, c := range cs {
		claim := strings.TrimSpace(c.Claim)
		if claim == "" {
			continue
		}
		i := strings.Index(content[from:], claim)
		if i >= 0 {
			i += from
		} else if i = strings.Index(content, claim); i < 0 {
			continue
		}
		end := i + len(claim)
		if end < len(content) && strings.ContainsRune(".!", rune(content[end])) {
			end++
		}
		marks = append(marks, mark{end, " [" + c.ConsensusVerdict + "]"})
		from = end
	}
	slices.SortStableFunc(marks, func(a, b mark) int { return a.at - b.at })
	var b strings.Builder
	prev := 0
	for _, m := range marks {
		b.WriteString(content[prev:m.at])
		b.WriteString(m.text)
		prev = m.at
	}
	b.WriteString(content[prev:])
	return b.String()
}

// cell keeps a value on one Markdown table row.
func cell(s string) string {
	return strings.ReplaceAll(oneLine(s), "|", `\|`)
}

// RenderMarkdown renders a result as the Markdown report: the report's own
// text when there is one, otherwise (a result the global timeout cut short)
// the template report of what was done.
func RenderMarkdown(r Result) string {
	var b strings.Builder
	if r.Partial {
		fmt.Fprintf(&b, "> Partial result: the pipeline timed out and skipped %s.\n\n", strings.Join(r.Skipped, ", "))
	}
	if r.Report.ReportText != "" {
		b.WriteString(r.Report.ReportText)
		return b.String()
	}
	checkers := make([]string, len(r.Verification.Checkers))
	for i, c := range r.Verification.Checkers {
		checkers[i] = c.Model
	}
	s := summarize(r.Verification.Consensus)
	b.WriteString(templateReport(reportInput{
		content: r.Content.Text, consensus: r.Verification.Consensus, summary: s, score: reliabilityScore(s),
		extractor: r.Extraction.Model, checkers: checkers, failed: r.Verification.Failed, reporter: BuiltinReporter,
		notes: r.Report.Notes,
	}))
	return b.String()
}
