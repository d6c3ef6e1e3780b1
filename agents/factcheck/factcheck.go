// Package factcheck is seed 001's fact-check mode: generate content (or take
// the user's), extract its verifiable claims, have up to four independent
// checkers verify every claim in parallel, reach a majority consensus per
// claim and write a report with a 0-100 reliability score. Each stage is
// stored in deliberation_stages as it completes, and the whole result can be
// rebuilt from those rows.
//
// Every role is a model name. Names starting with "verity/" select a
// built-in role that needs no model: "verity/extractor" (sentence splitting
// and check-worthiness rules), "verity/evidence" (each claim verified against
// the corpus by the evidence layer) and "verity/reporter" (the seed's
// template report). Any other name is sent to the configured Chatter with the
// seed's prompts, and its text answer is parsed as the seed specifies.
package factcheck

import "time"

// Built-in role names.
const (
	BuiltinExtractor = "verity/extractor"
	BuiltinEvidence  = "verity/evidence"
	BuiltinReporter  = "verity/reporter"
	builtinPrefix    = "verity/"
)

// Verdicts a checker gives a claim.
const (
	Verified     = "VERIFIED"
	Disputed     = "DISPUTED"
	Unverifiable = "UNVERIFIABLE"
)

// Confidence levels.
const (
	High   = "HIGH"
	Medium = "MEDIUM"
	Low    = "LOW"
)

// ClaimTypes are the seed's six claim types.
var ClaimTypes = []string{"STATISTIC", "DATE", "ATTRIBUTION", "TECHNICAL", "COMPARISON", "CAUSAL"}

// Content sources.
const (
	SourceGenerated    = "generated"
	SourceUserProvided = "user_provided"
)

// Request is the body of POST /v1/factcheck (seed 001, FactCheckStreamRequest).
type Request struct {
	// Question is the question to answer (when generating) or a description
	// of what is checked. Required.
	Question string `json:"question"`
	// Mode must be "fact_check".
	Mode           string      `json:"mode"`
	ConversationID string      `json:"conversationId,omitempty"`
	ModeConfig     *ModeConfig `json:"modeConfig,omitempty"`
}

// ModeConfig is seed 001's FactCheckConfig. Either ContentToCheck or
// GeneratorModel is required; unset models take the pipeline's defaults.
type ModeConfig struct {
	// ContentToCheck, when set, skips the generate stage.
	ContentToCheck string `json:"contentToCheck,omitempty"`
	// GeneratorModel answers Question when ContentToCheck is empty.
	GeneratorModel string `json:"generatorModel,omitempty"`
	ExtractorModel string `json:"extractorModel,omitempty"`
	// CheckerModels holds 1 to 4 checkers.
	CheckerModels []string `json:"checkerModels,omitempty"`
	ReporterModel string   `json:"reporterModel,omitempty"`
	// MaxContentLength truncates the content, in characters: 500 to 50,000,
	// default 20,000.
	MaxContentLength *int `json:"maxContentLength,omitempty"`
	// TimeoutMs is the per-stage timeout in milliseconds: 30,000 to 180,000,
	// default 120,000.
	TimeoutMs *int `json:"timeoutMs,omitempty"`
}

// ExtractedClaim is one verifiable claim.
type ExtractedClaim struct {
	// ID is "claim_1", "claim_2", ... in extraction order.
	ID    string `json:"id"`
	Claim string `json:"claim"`
	// Original is the sentence as the text wrote it, when Claim differs
	// from it because its subject was resolved from the sentences before
	// ("It opened in 1937." -> "The Golden Gate Bridge opened in 1937.");
	// empty otherwise.
	Original string `json:"original,omitempty"`
	Context  string `json:"context"`
	// Type is one of ClaimTypes.
	Type string `json:"type"`
}

// Citation is a passage the evidence checker cites for its verdict.
type Citation struct {
	URL         string    `json:"url,omitempty"`
	Title       string    `json:"title,omitempty"`
	Domain      string    `json:"domain,omitempty"`
	PublishedAt time.Time `json:"publishedAt,omitzero"`
	Snippet     string    `json:"snippet"`
	SourceID    string    `json:"sourceId,omitempty"`
}

// ClaimVerification is one checker's verdict on one claim.
type ClaimVerification struct {
	ClaimID string `json:"claimId"`
	// Verdict is Verified, Disputed or Unverifiable.
	Verdict  string `json:"verdict"`
	Evidence string `json:"evidence"`
	// Correction is set only when Verdict is Disputed and the checker gave
	// one.
	Correction *string `json:"correction"`
	// Confidence is High, Medium or Low.
	Confidence   string `json:"confidence"`
	CheckerModel string `json:"checkerModel"`
	// Citations are the evidence checker's passages; model checkers give
	// none.
	Citations []Citation `json:"citations,omitempty"`
}

// Summary counts verdicts.
type Summary struct {
	Verified     int `json:"verified"`
	Disputed     int `json:"disputed"`
	Unverifiable int `json:"unverifiable"`
}

// ClaimConsensus is the checkers' majority verdict on one claim.
type ClaimConsensus struct {
	ClaimID string `json:"claimId"`
	Claim   string `json:"claim"`
	// Original is the sentence as written when Claim resolves its subject
	// (see ExtractedClaim.Original).
	Original         string              `json:"original,omitempty"`
	Context          string              `json:"context"`
	Type             string              `json:"type"`
	Verdicts         []ClaimVerification `json:"verdicts"`
	ConsensusVerdict string              `json:"consensusVerdict"`
	// ConsensusConfidence is the most common confidence among the checkers
	// that gave the consensus verdict; Low when a tie decided the verdict.
	ConsensusConfidence string `json:"consensusConfidence"`
	// AgreementRate is the percentage of checkers that gave the consensus
	// verdict, in [0,100], rounded to one decimal.
	AgreementRate float64 `json:"agreementRate"`
	// Correction is the most common correction among the Disputed verdicts
	// when the consensus is Disputed.
	Correction *string `json:"correction"`
}

// Result is seed 001's FactCheckResult, what POST /v1/factcheck answers and
// GET /v1/factchecks/{messageId} rebuilds.
type Result struct {
	ConversationID string       `json:"conversationId,omitempty"`
	MessageID      string       `json:"messageId"`
	Content        Content      `json:"content"`
	Extraction     Extraction   `json:"extraction"`
	Verification   Verification `json:"verification"`
	Report         Report       `json:"report"`
	Title          string       `json:"title,omitempty"`
	// Partial is true when the global timeout skipped stages; Skipped names
	// them.
	Partial bool     `json:"partial,omitempty"`
	Skipped []string `json:"skippedStages,omitempty"`
}

// Content is the text that was checked.
type Content struct {
	// Source is SourceGenerated or SourceUserProvided.
	Source string `json:"source"`
	// Model is the generator, when generated.
	Model string `json:"model,omitempty"`
	Text  string `json:"text"`
	// ResponseTimeMs is the generator's time, when generated.
	ResponseTimeMs *int64 `json:"responseTimeMs,omitempty"`
	// Truncated is true when the content was cut to maxContentLength; Note
	// then says so.
	Truncated bool   `json:"truncated,omitempty"`
	Note      string `json:"note,omitempty"`
}

// Extraction is the extract stage's result.
type Extraction struct {
	Model          string           `json:"model"`
	Claims         []ExtractedClaim `json:"claims"`
	TypeBreakdown  map[string]int   `json:"typeBreakdown"`
	ResponseTimeMs int64            `json:"responseTimeMs"`
}

// CheckerResult is one checker's verifications.
type CheckerResult struct {
	Model          string              `json:"model"`
	Verifications  []ClaimVerification `json:"verifications"`
	Summary        Summary             `json:"summary"`
	ResponseTimeMs int64               `json:"responseTimeMs"`
}

// CheckerFailure names a checker that failed or timed out.
type CheckerFailure struct {
	Model string `json:"model"`
	Error string `json:"error"`
}

// Verification is the verify stage's result.
type Verification struct {
	Checkers  []CheckerResult  `json:"checkers"`
	Consensus []ClaimConsensus `json:"consensus"`
	// Failed lists checkers that produced no verifications.
	Failed []CheckerFailure `json:"failedCheckers,omitempty"`
}

// Report is the report stage's result.
type Report struct {
	Model string `json:"model"`
	// ReliabilityScore is 0-100, or nil when no claim was extracted.
	ReliabilityScore *int    `json:"reliabilityScore"`
	ReportText       string  `json:"reportText"`
	Summary          Summary `json:"summary"`
	ResponseTimeMs   int64   `json:"responseTimeMs"`
	// Fallback is true when the reporter model failed and the template
	// report stands in for it.
	Fallback bool `json:"fallback,omitempty"`
	// Notes are the edge-case remarks of seed 001 section F that apply.
	Notes []string `json:"notes,omitempty"`
}

// Event is one server-sent event of seed 001 section C: Name is the event
// name and Data its JSON payload.
type Event struct {
	Name string
	Data any
}
