package entail

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The checks below are each agent's schema and the seed's rules that bind
// it. Model-backed roles that break them are asked again; built-in roles
// are held to the same checks.

// checkExtractor: ids count up from 1, and every statement is the excerpt's
// exact wording (white space aside).
func checkExtractor(excerpt string, max int) func(*ExtractorOutput) error {
	flat := collapse(excerpt)
	return func(o *ExtractorOutput) error {
		if o.Agent != AgentExtractor {
			return fmt.Errorf("agent: must be %q, got %q", AgentExtractor, o.Agent)
		}
		if len(o.Statements) > max {
			return fmt.Errorf("statements: has %d entries; the limit is %d", len(o.Statements), max)
		}
		for i, s := range o.Statements {
			if s.ID != i+1 {
				return fmt.Errorf("statements[%d].id: ids must count up from 1; want %d, got %d", i, i+1, s.ID)
			}
			text := collapse(s.Text)
			if text == "" {
				return fmt.Errorf("statements[%d].text: must not be empty", i)
			}
			if !strings.Contains(flat, text) {
				return fmt.Errorf("statements[%d].text: must be copied word for word from the source excerpt; %q is not in it", i, clip(s.Text, 120))
			}
		}
		return nil
	}
}

func checkReliability(o *ReliabilityOutput) error {
	switch {
	case o.Agent != AgentReliability:
		return fmt.Errorf("agent: must be %q, got %q", AgentReliability, o.Agent)
	case strings.TrimSpace(o.SourceType) == "":
		return errors.New("source_type: must not be empty")
	case !slices.Contains([]string{High, Medium, Low}, o.Reliability):
		return fmt.Errorf("reliability: must be HIGH, MEDIUM or LOW, got %q", o.Reliability)
	case o.Confidence < 0 || o.Confidence > 100:
		return fmt.Errorf("confidence: must be between 0 and 100, got %d", o.Confidence)
	}
	return nil
}

// statementRef finds "Statement 3" and "Statements 1 and 2" in reasoning.
var statementRef = regexp.MustCompile(`(?i)\bstatements?\s+(\d+(?:\s*(?:,|and|&|-)\s*\d+)*)`)

var digits = regexp.MustCompile(`\d+`)

// InconsistencyNote is the seed's note for an internally inconsistent
// source (edge rule 2).
const InconsistencyNote = "Internal source inconsistency"

// checkJudge holds the judge to the seed's rules: reasoning cites
// statements that exist, an empty source gives NOT ENOUGH INFO with
// confidence at most 20, and an internal inconsistency gives NOT ENOUGH
// INFO.
func checkJudge(statements []Statement) func(*JudgeOutput) error {
	return func(o *JudgeOutput) error {
		switch {
		case o.Agent != AgentJudge:
			return fmt.Errorf("agent: must be %q, got %q", AgentJudge, o.Agent)
		case !slices.Contains([]string{Supported, Contradicted, NotEnoughInfo}, o.Verdict):
			return fmt.Errorf("verdict: must be SUPPORTED, CONTRADICTED or NOT ENOUGH INFO, got %q", o.Verdict)
		case o.Confidence < 0 || o.Confidence > 100:
			return fmt.Errorf("confidence: must be between 0 and 100, got %d", o.Confidence)
		case len(o.Reasoning) == 0:
			return errors.New("reasoning: must give at least one reason")
		}
		refs := 0
		for i, r := range o.Reasoning {
			if strings.TrimSpace(r) == "" {
				return fmt.Errorf("reasoning[%d]: must not be empty", i)
			}
			for _, m := range statementRef.FindAllStringSubmatch(r, -1) {
				for _, d := range digits.FindAllString(m[1], -1) {
					id, _ := strconv.Atoi(d)
					if id < 1 || id > len(statements) {
						return fmt.Errorf("reasoning[%d]: cites Statement %d, but there are %d statements", i, id, len(statements))
					}
					refs++
				}
			}
			if strings.Contains(strings.ToLower(r), strings.ToLower(InconsistencyNote)) && o.Verdict != NotEnoughInfo {
				return fmt.Errorf("verdict: an internal source inconsistency requires NOT ENOUGH INFO (edge rule 2), got %s", o.Verdict)
			}
		}
		if len(statements) == 0 {
			if o.Verdict != NotEnoughInfo || o.Confidence > 20 {
				return fmt.Errorf("verdict: with no extracted statements the verdict is NOT ENOUGH INFO with confidence at most 20 (edge rule 1), got %s at %d", o.Verdict, o.Confidence)
			}
			return nil
		}
		if refs == 0 {
			return errors.New(`reasoning: must reference statement IDs, as "Statement 1"`)
		}
		return nil
	}
}

// checkAuditor holds the auditor to downgrading only: its final verdict is
// UNCHANGED, the judge's own or NOT ENOUGH INFO, its adjustment is in
// [-20,0], and any change comes with its reasons.
func checkAuditor(j JudgeOutput) func(*AuditorOutput) error {
	return func(o *AuditorOutput) error {
		switch {
		case o.Agent != AgentAuditor:
			return fmt.Errorf("agent: must be %q, got %q", AgentAuditor, o.Agent)
		case !slices.Contains([]string{Supported, Contradicted, NotEnoughInfo, Unchanged}, o.FinalVerdict):
			return fmt.Errorf("final_verdict: must be SUPPORTED, CONTRADICTED, NOT ENOUGH INFO or UNCHANGED, got %q", o.FinalVerdict)
		case o.FinalVerdict != Unchanged && o.FinalVerdict != NotEnoughInfo && o.FinalVerdict != j.Verdict:
			return fmt.Errorf("final_verdict: the auditor may only downgrade to NOT ENOUGH INFO; it may not change %s to %s", j.Verdict, o.FinalVerdict)
		case o.ConfidenceAdjustment < -20 || o.ConfidenceAdjustment > 0:
			return fmt.Errorf("confidence_adjustment: must be between -20 and 0, got %d", o.ConfidenceAdjustment)
		}
		for i, r := range o.AuditorReasoning {
			if strings.TrimSpace(r) == "" {
				return fmt.Errorf("auditor_reasoning[%d]: must not be empty", i)
			}
		}
		changed := o.ConfidenceAdjustment < 0 || (o.FinalVerdict == NotEnoughInfo && j.Verdict != NotEnoughInfo)
		if changed && len(o.AuditorReasoning) == 0 {
			return errors.New("auditor_reasoning: a downgrade must identify the ambiguous text and its material impact")
		}
		return nil
	}
}

// Aggregate builds the seed's final object. It is pure: the verdict is the
// judge's unless the auditor downgraded it, the confidence is the judge's
// plus the auditor's adjustment clamped to [0,100], and reliability only
// adds notes; it never decides the verdict.
func Aggregate(claim string, rel ReliabilityOutput, j JudgeOutput, a AuditorOutput) Final {
	verdict := j.Verdict
	if a.FinalVerdict == NotEnoughInfo {
		verdict = NotEnoughInfo
	}
	notes := []string{"Reliability rating does NOT determine entailment."}
	if rel.Reliability == Low {
		notes = append(notes, "Supported only within provided source.")
	}
	for _, r := range j.Reasoning {
		if strings.Contains(strings.ToLower(r), strings.ToLower(InconsistencyNote)) {
			notes = append(notes, InconsistencyNote)
			break
		}
	}
	if verdict != j.Verdict {
		notes = append(notes, fmt.Sprintf("The adversarial auditor downgraded the judge's %s to NOT ENOUGH INFO.", j.Verdict))
	}
	return Final{
		Claim:                claim,
		FinalVerdict:         verdict,
		FinalConfidence:      min(100, max(0, j.Confidence+a.ConfidenceAdjustment)),
		EntailmentConfidence: j.Confidence,
		ReliabilityRating:    rel.Reliability,
		Notes:                notes,
	}
}

// collapse folds runs of white space into one space, for comparing wording
// across line breaks.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
