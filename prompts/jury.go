package prompts

import (
	"embed"
	"encoding/json"
	"text/template"
)

// The agentic jury of seed 002: the parser that builds the fact frame,
// the jurors' independent vote, debate turns and revote, the checker that
// stops a debate with nothing new, and the foreperson's rubric. Structured
// values (the fact frame, votes, the transcript) arrive as JSON the jury
// has already validated, so that this package does not depend on it.
//
//go:embed jury_*.tmpl
var juryFS embed.FS

var juryTmpl = template.Must(template.ParseFS(juryFS, "jury_*.tmpl"))

// JuryJuror is a juror as its prompts name it; both come from the
// operator's configuration, not from the pair.
type JuryJuror struct {
	Name string
	Role string
}

// JuryAxis is one rubric question.
type JuryAxis struct {
	Axis     string `json:"axis"`
	Question string `json:"question"`
}

// JuryArgueData fills a debate turn.
type JuryArgueData struct {
	Juror JuryJuror
	// Side is the juror's round-0 verdict, Faithful or Mutated.
	Side string
	// Stage is "constructive" or "rebuttal".
	Stage string
	Round int
	Claim string
	Truth string
	// FactFrame, OwnVote and Transcript are JSON.
	FactFrame  json.RawMessage
	OwnVote    json.RawMessage
	Transcript json.RawMessage
}

// JuryRevoteData fills a juror's round-2 revote.
type JuryRevoteData struct {
	Juror JuryJuror
	Claim string
	Truth string
	// FactFrame, Round0 (every juror's round-0 output) and Transcript are
	// JSON; Transcript is [] when there was no debate.
	FactFrame  json.RawMessage
	Round0     json.RawMessage
	Transcript json.RawMessage
}

// JuryForepersonData fills the foreperson's prompt.
type JuryForepersonData struct {
	Claim  string
	Truth  string
	Rubric []JuryAxis
	// FactFrame, Transcript and Round2 (the revotes) are JSON.
	FactFrame  json.RawMessage
	Transcript json.RawMessage
	Round2     json.RawMessage
}

// JuryParser renders the parser prompt that turns a pair into a fact frame
// with the given fields.
func JuryParser(claim, truth string, fields []string) (string, error) {
	in, err := inputJSON(struct {
		Claim string `json:"claim"`
		Truth string `json:"truth"`
	}{claim, truth})
	if err != nil {
		return "", err
	}
	return execute(juryTmpl, "jury_parser.tmpl", struct {
		Fields []string
		Input  string
	}{fields, in})
}

// JuryVote renders a juror's round-0 prompt: the claim, the truth and the
// fact frame, and nothing from any other juror.
func JuryVote(j JuryJuror, claim, truth string, frame json.RawMessage) (string, error) {
	in, err := inputJSON(struct {
		Claim     string          `json:"claim"`
		Truth     string          `json:"truth"`
		FactFrame json.RawMessage `json:"fact_frame"`
	}{claim, truth, frame})
	if err != nil {
		return "", err
	}
	return execute(juryTmpl, "jury_vote.tmpl", struct {
		Juror JuryJuror
		Input string
	}{j, in})
}

// JuryArgue renders a juror's debate turn.
func JuryArgue(d JuryArgueData) (string, error) {
	in, err := inputJSON(struct {
		Claim      string          `json:"claim"`
		Truth      string          `json:"truth"`
		FactFrame  json.RawMessage `json:"fact_frame"`
		OwnVote    json.RawMessage `json:"your_round0_vote"`
		Transcript json.RawMessage `json:"transcript_so_far"`
	}{d.Claim, d.Truth, d.FactFrame, d.OwnVote, d.Transcript})
	if err != nil {
		return "", err
	}
	return execute(juryTmpl, "jury_argue.tmpl", struct {
		JuryArgueData
		Input string
	}{d, in})
}

// JuryRevote renders a juror's round-2 prompt.
func JuryRevote(d JuryRevoteData) (string, error) {
	in, err := inputJSON(struct {
		Claim      string          `json:"claim"`
		Truth      string          `json:"truth"`
		FactFrame  json.RawMessage `json:"fact_frame"`
		Round0     json.RawMessage `json:"round0_outputs"`
		Transcript json.RawMessage `json:"debate_transcript"`
	}{d.Claim, d.Truth, d.FactFrame, d.Round0, d.Transcript})
	if err != nil {
		return "", err
	}
	return execute(juryTmpl, "jury_revote.tmpl", struct {
		Juror JuryJuror
		Input string
	}{d.Juror, in})
}

// JuryNovelty renders the checker's prompt: did the last round add
// substantive new reasoning to what came before it? before and last are
// JSON.
func JuryNovelty(before, last json.RawMessage) (string, error) {
	return withInput(juryTmpl, "jury_novelty.tmpl", struct {
		Before json.RawMessage `json:"before"`
		Last   json.RawMessage `json:"last_round"`
	}{before, last})
}

// JuryForeperson renders the foreperson's rubric prompt.
func JuryForeperson(d JuryForepersonData) (string, error) {
	in, err := inputJSON(struct {
		Claim      string          `json:"claim"`
		Truth      string          `json:"truth"`
		FactFrame  json.RawMessage `json:"fact_frame"`
		Transcript json.RawMessage `json:"debate_transcript"`
		Round2     json.RawMessage `json:"round2_votes"`
	}{d.Claim, d.Truth, d.FactFrame, d.Transcript, d.Round2})
	if err != nil {
		return "", err
	}
	return execute(juryTmpl, "jury_foreperson.tmpl", struct {
		Rubric []JuryAxis
		Input  string
	}{d.Rubric, in})
}
