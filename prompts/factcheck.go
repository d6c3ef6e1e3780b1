// Package prompts holds the prompts verity sends to models, as embedded
// text/template files with typed render functions and golden tests. It never
// calls a model.
//
// Values are substituted as data: text/template does not interpret template
// actions inside the content, claims or model output it is given, so an
// untrusted page cannot change a prompt's structure through its text.
package prompts

import (
	"embed"
	"fmt"
	"strconv"
	"strings"
	"text/template"
)

// The fact-check prompts of seed 001 (fact-check mode), in its Handlebars
// wording translated to text/template.
//
//go:embed factcheck_*.tmpl
var factcheckFS embed.FS

var factcheckTmpl = template.Must(template.New("factcheck").Funcs(template.FuncMap{
	"pct":  formatPercent,
	"cell": tableCell,
	"join": strings.Join,
}).ParseFS(factcheckFS, "factcheck_*.tmpl"))

// FactCheckClaim is one extracted claim as the verification prompt lists it.
type FactCheckClaim struct {
	// ID is the claim's id, e.g. "claim_1".
	ID      string
	Claim   string
	Context string
	// Type is one of STATISTIC, DATE, ATTRIBUTION, TECHNICAL, COMPARISON,
	// CAUSAL.
	Type string
}

// FactCheckVerdict is one checker's verdict on a claim in the report prompt.
type FactCheckVerdict struct {
	CheckerModel string
	// Verdict is VERIFIED, DISPUTED or UNVERIFIABLE.
	Verdict string
	// Confidence is HIGH, MEDIUM or LOW.
	Confidence string
	Evidence   string
}

// FactCheckConsensus is the consensus on one claim in the report prompt.
type FactCheckConsensus struct {
	ClaimID          string
	Claim            string
	Type             string
	ConsensusVerdict string
	// AgreementRate is the percentage of checkers that agree with the
	// consensus verdict, in [0,100].
	AgreementRate float64
	Verdicts      []FactCheckVerdict
	// Correction is the majority correction when the consensus is DISPUTED,
	// "" otherwise.
	Correction string
}

// FactCheckReportData fills the report prompt.
type FactCheckReportData struct {
	Content        string
	Consensus      []FactCheckConsensus
	TotalClaims    int
	CheckerCount   int
	Verified       int
	Disputed       int
	Unverifiable   int
	ExtractorModel string
	CheckerModels  []string
	ReporterModel  string
}

// FactCheckGenerate renders the prompt that asks a generator model to answer
// question with content worth fact-checking.
func FactCheckGenerate(question string) (string, error) {
	return render("factcheck_generate.tmpl", struct{ Question string }{question})
}

// FactCheckExtract renders the claim-extraction prompt for content.
func FactCheckExtract(content string) (string, error) {
	return render("factcheck_extract.tmpl", struct{ Content string }{content})
}

// FactCheckVerify renders the prompt that asks one checker to verify every
// claim, with content as context.
func FactCheckVerify(content string, claims []FactCheckClaim) (string, error) {
	return render("factcheck_verify.tmpl", struct {
		Content string
		Claims  []FactCheckClaim
	}{content, claims})
}

// FactCheckReport renders the prompt that asks the reporter for the final
// report from the consensus.
func FactCheckReport(d FactCheckReportData) (string, error) {
	return render("factcheck_report.tmpl", d)
}

func render(name string, data any) (string, error) {
	var b strings.Builder
	if err := factcheckTmpl.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("render prompt %s: %w", name, err)
	}
	return b.String(), nil
}

// formatPercent writes a percentage with at most one decimal and no trailing
// zeros: 100, 66.7, 50.
func formatPercent(p float64) string {
	return strconv.FormatFloat(float64(int64(p*10+0.5))/10, 'f', -1, 64)
}

// tableCell keeps a value on one Markdown table row: pipes are escaped and
// line breaks become spaces.
func tableCell(s string) string {
	s = strings.NewReplacer("|", `\|`, "\r\n", " ", "\n", " ", "\r", " ").Replace(s)
	return strings.TrimSpace(s)
}
