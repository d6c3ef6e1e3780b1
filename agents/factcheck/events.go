package factcheck

// Event names of seed 001 section C, in the order Run emits them.
const (
	EventStart            = "factcheck_start"
	EventGenerateStart    = "generate_start"
	EventGenerateComplete = "generate_complete"
	EventExtractStart     = "extract_start"
	EventExtractComplete  = "extract_complete"
	EventVerifyStart      = "verify_start"
	EventCheckerComplete  = "checker_complete"
	EventAllCheckers      = "all_checkers_complete"
	EventReportStart      = "report_start"
	EventReportComplete   = "report_complete"
	EventTitleComplete    = "title_complete"
	EventComplete         = "complete"
	EventError            = "error"
)

// StartPayload is factcheck_start.
type StartPayload struct {
	ConversationID string      `json:"conversationId"`
	MessageID      string      `json:"messageId"`
	Config         StartConfig `json:"config"`
}

// StartConfig is the resolved configuration in factcheck_start.
type StartConfig struct {
	// ContentSource is SourceGenerated or SourceUserProvided.
	ContentSource  string   `json:"contentSource"`
	GeneratorModel string   `json:"generatorModel,omitempty"`
	ExtractorModel string   `json:"extractorModel"`
	CheckerModels  []string `json:"checkerModels"`
	ReporterModel  string   `json:"reporterModel"`
	// BiasWarning is set when the generator is also a checker.
	BiasWarning string `json:"biasWarning,omitempty"`
}

// Empty is the payload of the events that carry none ({}).
type Empty struct{}

// GenerateCompletePayload is generate_complete.
type GenerateCompletePayload struct {
	Model          string `json:"model"`
	Content        string `json:"content"`
	ResponseTimeMs int64  `json:"responseTimeMs"`
}

// ClaimBrief is a claim in extract_complete.
type ClaimBrief struct {
	ID    string `json:"id"`
	Claim string `json:"claim"`
	// Original is the sentence as written when Claim resolves its subject
	// from the sentences before; empty otherwise.
	Original string `json:"original,omitempty"`
	Type     string `json:"type"`
}

// ExtractCompletePayload is extract_complete.
type ExtractCompletePayload struct {
	Model          string         `json:"model"`
	Claims         []ClaimBrief   `json:"claims"`
	TotalClaims    int            `json:"totalClaims"`
	TypeBreakdown  map[string]int `json:"typeBreakdown"`
	ResponseTimeMs int64          `json:"responseTimeMs"`
}

// VerifyStartPayload is verify_start.
type VerifyStartPayload struct {
	CheckerCount int `json:"checkerCount"`
	ClaimCount   int `json:"claimCount"`
}

// VerdictBrief is a verification in checker_complete.
type VerdictBrief struct {
	ClaimID    string `json:"claimId"`
	Verdict    string `json:"verdict"`
	Confidence string `json:"confidence"`
}

// CheckerCompletePayload is checker_complete, one per checker as it
// finishes.
type CheckerCompletePayload struct {
	Model          string         `json:"model"`
	Verifications  []VerdictBrief `json:"verifications"`
	Summary        Summary        `json:"summary"`
	ResponseTimeMs int64          `json:"responseTimeMs"`
}

// ConsensusBrief is a claim's consensus in all_checkers_complete.
type ConsensusBrief struct {
	ClaimID string `json:"claimId"`
	Claim   string `json:"claim"`
	// Original is the sentence as written when Claim resolves its subject.
	Original         string  `json:"original,omitempty"`
	ConsensusVerdict string  `json:"consensusVerdict"`
	AgreementRate    float64 `json:"agreementRate"`
	Correction       *string `json:"correction"`
}

// AllCheckersPayload is all_checkers_complete. FailedCheckers names the
// checkers that failed or timed out, when any did.
type AllCheckersPayload struct {
	Consensus      []ConsensusBrief `json:"consensus"`
	FailedCheckers []CheckerFailure `json:"failedCheckers,omitempty"`
}

// ReportSummary is report_complete's summary; Note carries the section F
// notes that apply, joined.
type ReportSummary struct {
	Verified     int    `json:"verified"`
	Disputed     int    `json:"disputed"`
	Unverifiable int    `json:"unverifiable"`
	Note         string `json:"note,omitempty"`
}

// ReportCompletePayload is report_complete.
type ReportCompletePayload struct {
	Model            string        `json:"model"`
	ReliabilityScore *int          `json:"reliabilityScore"`
	Summary          ReportSummary `json:"summary"`
	ResponseTimeMs   int64         `json:"responseTimeMs"`
}

// TitlePayload is title_complete.
type TitlePayload struct {
	Title string `json:"title"`
}

// CompletePayload is complete: {} normally, and on a global timeout the
// stages that were skipped.
type CompletePayload struct {
	Partial       bool     `json:"partial,omitempty"`
	SkippedStages []string `json:"skippedStages,omitempty"`
}

// ErrorPayload is error.
type ErrorPayload struct {
	Message string `json:"message"`
}
