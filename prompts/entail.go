package prompts

import (
	"embed"
	"text/template"
)

// The four agents of seed 000 (multi-agent entailment audit). Each render
// function takes exactly the inputs the seed gives its agent, so a prompt
// cannot carry anything else: the reliability prompt has no claim and no
// excerpt, the judge's has no excerpt and no reliability rating.
//
//go:embed entail_*.tmpl
var entailFS embed.FS

var entailTmpl = template.Must(template.ParseFS(entailFS, "entail_*.tmpl"))

// EntailStatement is one extracted statement as the judge sees it.
type EntailStatement struct {
	ID   int    `json:"id"`
	Text string `json:"text"`
}

// EntailJudgeVerdict is the judge's output as the auditor sees it.
type EntailJudgeVerdict struct {
	// Verdict is SUPPORTED, CONTRADICTED or NOT ENOUGH INFO.
	Verdict string `json:"verdict"`
	// Confidence is in [0,100].
	Confidence int      `json:"confidence"`
	Reasoning  []string `json:"reasoning"`
}

// EntailExtractor renders the EXTRACTOR prompt: claim and source excerpt.
func EntailExtractor(claim, excerpt string) (string, error) {
	return withInput(entailTmpl, "entail_extractor.tmpl", struct {
		Claim   string `json:"claim"`
		Excerpt string `json:"source_excerpt"`
	}{claim, excerpt})
}

// EntailReliability renders the RELIABILITY prompt: the source type
// description only.
func EntailReliability(sourceType string) (string, error) {
	return withInput(entailTmpl, "entail_reliability.tmpl", struct {
		SourceType string `json:"source_type"`
	}{sourceType})
}

// EntailJudge renders the ENTAILMENT JUDGE prompt: the claim and the
// extracted statements.
func EntailJudge(claim string, statements []EntailStatement) (string, error) {
	if statements == nil {
		statements = []EntailStatement{}
	}
	return withInput(entailTmpl, "entail_judge.tmpl", struct {
		Claim      string            `json:"claim"`
		Statements []EntailStatement `json:"statements"`
	}{claim, statements})
}

// EntailAuditor renders the ADVERSARIAL AUDITOR prompt: the claim, the
// source excerpt and the judge's verdict.
func EntailAuditor(claim, excerpt string, verdict EntailJudgeVerdict) (string, error) {
	if verdict.Reasoning == nil {
		verdict.Reasoning = []string{}
	}
	return withInput(entailTmpl, "entail_auditor.tmpl", struct {
		Claim   string             `json:"claim"`
		Excerpt string             `json:"source_excerpt"`
		Verdict EntailJudgeVerdict `json:"judge_verdict"`
	}{claim, excerpt, verdict})
}
