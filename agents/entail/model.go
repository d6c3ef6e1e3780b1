package entail

import (
	"context"
	"encoding/json"

	"github.com/verity-fc/verity/agents/internal/structured"
	"github.com/verity-fc/verity/prompts"
)

// The JSON schemas of the seed's agent outputs, sent to backends that
// constrain decoding to a schema. The strict decoder and the checks in
// check.go hold every reply to them whether or not the backend does.
var (
	extractorSchema = json.RawMessage(`{"type":"object","additionalProperties":false,"required":["agent","statements"],"properties":{` +
		`"agent":{"const":"EXTRACTOR"},` +
		`"statements":{"type":"array","items":{"type":"object","additionalProperties":false,"required":["id","text"],"properties":{"id":{"type":"integer","minimum":1},"text":{"type":"string","minLength":1}}}}}}`)
	reliabilitySchema = json.RawMessage(`{"type":"object","additionalProperties":false,"required":["agent","source_type","reliability","confidence"],"properties":{` +
		`"agent":{"const":"RELIABILITY"},"source_type":{"type":"string","minLength":1},` +
		`"reliability":{"enum":["HIGH","MEDIUM","LOW"]},"confidence":{"type":"integer","minimum":0,"maximum":100}}}`)
	judgeSchema = json.RawMessage(`{"type":"object","additionalProperties":false,"required":["agent","verdict","confidence","reasoning"],"properties":{` +
		`"agent":{"const":"ENTAILMENT_JUDGE"},"verdict":{"enum":["SUPPORTED","CONTRADICTED","NOT ENOUGH INFO"]},` +
		`"confidence":{"type":"integer","minimum":0,"maximum":100},"reasoning":{"type":"array","minItems":1,"items":{"type":"string","minLength":1}}}}`)
	auditorSchema = json.RawMessage(`{"type":"object","additionalProperties":false,"required":["agent","final_verdict","confidence_adjustment","auditor_reasoning"],"properties":{` +
		`"agent":{"const":"ADVERSARIAL_AUDITOR"},"final_verdict":{"enum":["SUPPORTED","CONTRADICTED","NOT ENOUGH INFO","UNCHANGED"]},` +
		`"confidence_adjustment":{"type":"integer","minimum":-20,"maximum":0},"auditor_reasoning":{"type":"array","items":{"type":"string","minLength":1}}}}`)
)

type modelExtractor struct {
	structured.Model
	max int
}

func (m modelExtractor) extract(ctx context.Context, claim, excerpt string) (ExtractorOutput, error) {
	prompt, err := prompts.EntailExtractor(claim, excerpt)
	if err != nil {
		return ExtractorOutput{}, err
	}
	return structured.Ask(ctx, m.Chatter, AgentExtractor, m.Request(prompt, extractorSchema), m.Attempts, checkExtractor(excerpt, m.max))
}

type modelReliability struct{ structured.Model }

func (m modelReliability) assess(ctx context.Context, sourceType string) (ReliabilityOutput, error) {
	prompt, err := prompts.EntailReliability(sourceType)
	if err != nil {
		return ReliabilityOutput{}, err
	}
	return structured.Ask(ctx, m.Chatter, AgentReliability, m.Request(prompt, reliabilitySchema), m.Attempts, checkReliability)
}

type modelJudge struct{ structured.Model }

func (m modelJudge) judge(ctx context.Context, claim string, statements []Statement) (JudgeOutput, error) {
	ps := make([]prompts.EntailStatement, len(statements))
	for i, s := range statements {
		ps[i] = prompts.EntailStatement{ID: s.ID, Text: s.Text}
	}
	prompt, err := prompts.EntailJudge(claim, ps)
	if err != nil {
		return JudgeOutput{}, err
	}
	return structured.Ask(ctx, m.Chatter, AgentJudge, m.Request(prompt, judgeSchema), m.Attempts, checkJudge(statements))
}

type modelAuditor struct{ structured.Model }

func (m modelAuditor) audit(ctx context.Context, claim, excerpt string, v JudgeOutput) (AuditorOutput, error) {
	prompt, err := prompts.EntailAuditor(claim, excerpt, prompts.EntailJudgeVerdict{Verdict: v.Verdict, Confidence: v.Confidence, Reasoning: v.Reasoning})
	if err != nil {
		return AuditorOutput{}, err
	}
	return structured.Ask(ctx, m.Chatter, AgentAuditor, m.Request(prompt, auditorSchema), m.Attempts, checkAuditor(v))
}
