package jury

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/verity-fc/verity/agents/internal/structured"
	"github.com/verity-fc/verity/prompts"
)

// JSON schemas of the seed's outputs, for backends that constrain
// decoding; the strict decoder and the checks below hold every reply to
// them either way.
const evidenceSchema = `{"type":"array","maxItems":20,"items":{"type":"object","additionalProperties":false,"required":["field","claim_says","truth_says","issue"],` +
	`"properties":{"field":{"type":"string","minLength":1},"claim_says":{"type":"string"},"truth_says":{"type":"string"},"issue":{"type":"string"}}}}`

var (
	voteSchema = json.RawMessage(`{"type":"object","additionalProperties":false,"required":["verdict","confidence","key_evidence","reasoning"],"properties":{` +
		`"verdict":{"enum":["Faithful","Mutated"]},"confidence":{"type":"number","minimum":0,"maximum":1},"key_evidence":` + evidenceSchema + `,"reasoning":{"type":"string","minLength":1}}}`)
	argueSchema = json.RawMessage(`{"type":"object","additionalProperties":false,"required":["argument","key_evidence"],"properties":{` +
		`"argument":{"type":"string","minLength":1},"key_evidence":` + evidenceSchema + `}}`)
	revoteSchema = json.RawMessage(`{"type":"object","additionalProperties":false,"required":["verdict","confidence","reasoning"],"properties":{` +
		`"verdict":{"enum":["Faithful","Mutated"]},"confidence":{"type":"number","minimum":0,"maximum":1},"reasoning":{"type":"string","minLength":1}}}`)
	noveltySchema = json.RawMessage(`{"type":"object","additionalProperties":false,"required":["new_reasoning","reason"],"properties":{` +
		`"new_reasoning":{"type":"boolean"},"reason":{"type":"string","minLength":1}}}`)
)

// frameSchema is the parser's schema for the configured fields.
func frameSchema(fields []string) json.RawMessage {
	props := map[string]string{
		FieldEntities:         `{"type":"array","items":{"type":"string","minLength":1}}`,
		FieldQuantities:       `{"type":"array","items":{"type":"object","additionalProperties":false,"required":["value","unit","in_claim","in_truth"],"properties":{"value":{"type":"string","minLength":1},"unit":{"type":"string"},"in_claim":{"type":"boolean"},"in_truth":{"type":"boolean"}}}}`,
		FieldScope:            `{"type":"object","additionalProperties":false,"required":["region","group","timeframe"],"properties":{"region":{"type":"string"},"group":{"type":"string"},"timeframe":{"type":"string"}}}`,
		FieldModality:         `{"enum":["may","likely","caused","proved","approximately","other"]}`,
		FieldRelationshipType: `{"enum":["correlation","causation","description"]}`,
		FieldCaveats:          `{"type":"array","items":{"type":"string","minLength":1}}`,
	}
	var ps []string
	for _, f := range fields {
		ps = append(ps, fmt.Sprintf("%q:%s", f, props[f]))
	}
	req, _ := json.Marshal(fields)
	return json.RawMessage(`{"type":"object","additionalProperties":false,"required":` + string(req) + `,"properties":{` + strings.Join(ps, ",") + `}}`)
}

// rulingSchema is the foreperson's schema for the rubric.
func rulingSchema(rubric []RubricAxis) json.RawMessage {
	axes := make([]string, len(rubric))
	for i, a := range rubric {
		axes[i] = a.Axis
	}
	enum, _ := json.Marshal(axes)
	return json.RawMessage(fmt.Sprintf(`{"type":"object","additionalProperties":false,"required":["answers","reasoning","minimal_edit"],"properties":{`+
		`"answers":{"type":"array","minItems":%d,"maxItems":%d,"items":{"type":"object","additionalProperties":false,"required":["axis","answer","reason"],`+
		`"properties":{"axis":{"enum":%s},"answer":{"enum":["Yes","No"]},"reason":{"type":"string","minLength":1}}}},`+
		`"reasoning":{"type":"string","minLength":1},"minimal_edit":{"type":"string"}}}`, len(rubric), len(rubric), enum))
}

// maxEvidence bounds the points of one vote or turn.
const maxEvidence = 20

func checkEvidence(es []Evidence) error {
	if es == nil {
		return errors.New("key_evidence: is required")
	}
	if len(es) > maxEvidence {
		return fmt.Errorf("key_evidence: has %d points; the limit is %d", len(es), maxEvidence)
	}
	for i, e := range es {
		if strings.TrimSpace(e.Field) == "" {
			return fmt.Errorf("key_evidence[%d].field: must not be empty", i)
		}
	}
	return nil
}

func checkVerdict(verdict string, confidence float64, reasoning string) error {
	switch {
	case verdict != Faithful && verdict != Mutated:
		return fmt.Errorf("verdict: must be Faithful or Mutated, got %q", verdict)
	case math.IsNaN(confidence) || confidence < 0 || confidence > 1:
		return fmt.Errorf("confidence: must be between 0.0 and 1.0, got %v", confidence)
	case strings.TrimSpace(reasoning) == "":
		return errors.New("reasoning: must not be empty")
	}
	return nil
}

func checkVote(v *Vote) error {
	if err := checkVerdict(v.Verdict, v.Confidence, v.Reasoning); err != nil {
		return err
	}
	return checkEvidence(v.KeyEvidence)
}

func checkRevote(v *Revote) error { return checkVerdict(v.Verdict, v.Confidence, v.Reasoning) }

func checkArgument(a *Argument) error {
	if strings.TrimSpace(a.Argument) == "" {
		return errors.New("argument: must not be empty")
	}
	return checkEvidence(a.KeyEvidence)
}

func checkNovelty(c *NoveltyCheck) error {
	if strings.TrimSpace(c.Reason) == "" {
		return errors.New("reason: must not be empty")
	}
	return nil
}

// checkFrame requires exactly the configured fields, with valid values.
func checkFrame(fields []string) func(*FactFrame) error {
	return func(f *FactFrame) error {
		present := map[string]bool{
			FieldEntities: f.Entities != nil, FieldQuantities: f.Quantities != nil, FieldScope: f.Scope != nil,
			FieldModality: f.Modality != "", FieldRelationshipType: f.RelationshipType != "", FieldCaveats: f.Caveats != nil,
		}
		for _, name := range frameFields {
			switch want := slices.Contains(fields, name); {
			case want && !present[name]:
				return fmt.Errorf("%s: is required", name)
			case !want && present[name]:
				return fmt.Errorf("%s: is not one of the configured fields (%s)", name, strings.Join(fields, ", "))
			}
		}
		if f.Modality != "" && !slices.Contains([]string{"may", "likely", "caused", "proved", "approximately", "other"}, f.Modality) {
			return fmt.Errorf("modality: must be may, likely, caused, proved, approximately or other, got %q", f.Modality)
		}
		if f.RelationshipType != "" && !slices.Contains([]string{"correlation", "causation", "description"}, f.RelationshipType) {
			return fmt.Errorf("relationship_type: must be correlation, causation or description, got %q", f.RelationshipType)
		}
		for name, list := range map[string][]string{FieldEntities: f.Entities, FieldCaveats: f.Caveats} {
			if len(list) > 50 {
				return fmt.Errorf("%s: has %d entries; the limit is 50", name, len(list))
			}
			for i, s := range list {
				if strings.TrimSpace(s) == "" {
					return fmt.Errorf("%s[%d]: must not be empty", name, i)
				}
			}
		}
		if len(f.Quantities) > 50 {
			return fmt.Errorf("quantities: has %d entries; the limit is 50", len(f.Quantities))
		}
		for i, q := range f.Quantities {
			if strings.TrimSpace(q.Value) == "" {
				return fmt.Errorf("quantities[%d].value: must not be empty", i)
			}
		}
		return nil
	}
}

// checkRuling requires one Yes/No answer per rubric axis, in order, and a
// minimal edit exactly when an answer is No.
func checkRuling(rubric []RubricAxis) func(*Ruling) error {
	return func(r *Ruling) error {
		if len(r.Answers) != len(rubric) {
			return fmt.Errorf("answers: must answer the %d rubric axes, got %d answers", len(rubric), len(r.Answers))
		}
		no := false
		for i, a := range r.Answers {
			switch {
			case a.Axis != rubric[i].Axis:
				return fmt.Errorf("answers[%d].axis: must be %q (rubric order), got %q", i, rubric[i].Axis, a.Axis)
			case a.Answer != "Yes" && a.Answer != "No":
				return fmt.Errorf("answers[%d].answer: must be Yes or No, got %q", i, a.Answer)
			case strings.TrimSpace(a.Reason) == "":
				return fmt.Errorf("answers[%d].reason: must not be empty", i)
			}
			no = no || a.Answer == "No"
		}
		switch {
		case strings.TrimSpace(r.Reasoning) == "":
			return errors.New("reasoning: must not be empty")
		case no && strings.TrimSpace(r.MinimalEdit) == "":
			return errors.New("minimal_edit: must give the smallest change to the claim when an answer is No")
		case !no && r.MinimalEdit != "":
			return errors.New(`minimal_edit: must be "" when every answer is Yes`)
		}
		return nil
	}
}

type modelParser struct{ structured.Model }

func (m modelParser) parse(ctx context.Context, claim, truth string, fields []string) (FactFrame, error) {
	prompt, err := prompts.JuryParser(claim, truth, fields)
	if err != nil {
		return FactFrame{}, err
	}
	return structured.Ask(ctx, m.Chatter, "PARSER", m.Request(prompt, frameSchema(fields)), m.Attempts, checkFrame(fields))
}

type modelJuror struct{ structured.Model }

// jsons encodes the structured parts of a prompt.
func jsons(vs ...any) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(vs))
	for i, v := range vs {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("encode %T for the prompt: %w", v, err)
		}
		out[i] = b
	}
	return out, nil
}

func (m modelJuror) vote(ctx context.Context, in voteInput) (Vote, error) {
	js, err := jsons(in.Frame)
	if err != nil {
		return Vote{}, err
	}
	prompt, err := prompts.JuryVote(prompts.JuryJuror{Name: in.Agent.Name, Role: in.Agent.Role}, in.Claim, in.Truth, js[0])
	if err != nil {
		return Vote{}, err
	}
	return structured.Ask(ctx, m.Chatter, "JUROR "+in.Agent.Name, m.Request(prompt, voteSchema), m.Attempts, checkVote)
}

func (m modelJuror) argue(ctx context.Context, in argueInput) (Argument, error) {
	js, err := jsons(in.Frame, in.Own, nonNil(in.Transcript))
	if err != nil {
		return Argument{}, err
	}
	prompt, err := prompts.JuryArgue(prompts.JuryArgueData{Juror: prompts.JuryJuror{Name: in.Agent.Name, Role: in.Agent.Role},
		Side: in.Side, Stage: in.Stage, Round: in.Round, Claim: in.Claim, Truth: in.Truth,
		FactFrame: js[0], OwnVote: js[1], Transcript: js[2]})
	if err != nil {
		return Argument{}, err
	}
	return structured.Ask(ctx, m.Chatter, "JUROR "+in.Agent.Name, m.Request(prompt, argueSchema), m.Attempts, checkArgument)
}

func (m modelJuror) revote(ctx context.Context, in revoteInput) (Revote, error) {
	js, err := jsons(in.Frame, in.Round0, nonNil(in.Transcript))
	if err != nil {
		return Revote{}, err
	}
	prompt, err := prompts.JuryRevote(prompts.JuryRevoteData{Juror: prompts.JuryJuror{Name: in.Agent.Name, Role: in.Agent.Role},
		Claim: in.Claim, Truth: in.Truth, FactFrame: js[0], Round0: js[1], Transcript: js[2]})
	if err != nil {
		return Revote{}, err
	}
	return structured.Ask(ctx, m.Chatter, "JUROR "+in.Agent.Name, m.Request(prompt, revoteSchema), m.Attempts, checkRevote)
}

func nonNil(ts []Turn) []Turn {
	if ts == nil {
		return []Turn{}
	}
	return ts
}

type modelNovelty struct{ structured.Model }

// noveltyReply is the checker's output schema.
type noveltyReply struct {
	NewReasoning bool   `json:"new_reasoning"`
	Reason       string `json:"reason"`
}

func (m modelNovelty) novel(ctx context.Context, in noveltyInput) (NoveltyCheck, error) {
	before := struct {
		Round0 []JurorVote `json:"round0_outputs"`
		Turns  []Turn      `json:"earlier_turns"`
	}{in.Round0, nonNil(in.Before)}
	js, err := jsons(before, nonNil(in.Last))
	if err != nil {
		return NoveltyCheck{}, err
	}
	prompt, err := prompts.JuryNovelty(js[0], js[1])
	if err != nil {
		return NoveltyCheck{}, err
	}
	r, err := structured.Ask(ctx, m.Chatter, "NOVELTY", m.Request(prompt, noveltySchema), m.Attempts, func(r *noveltyReply) error {
		return checkNovelty(&NoveltyCheck{Reason: r.Reason})
	})
	return NoveltyCheck{NewReasoning: r.NewReasoning, Reason: r.Reason}, err
}

type modelForeperson struct{ structured.Model }

func (m modelForeperson) rule(ctx context.Context, in forepersonInput) (Ruling, error) {
	axes := make([]prompts.JuryAxis, len(in.Rubric))
	for i, a := range in.Rubric {
		axes[i] = prompts.JuryAxis{Axis: a.Axis, Question: a.Question}
	}
	js, err := jsons(in.Frame, nonNil(in.Transcript), in.Round2)
	if err != nil {
		return Ruling{}, err
	}
	prompt, err := prompts.JuryForeperson(prompts.JuryForepersonData{Claim: in.Claim, Truth: in.Truth, Rubric: axes,
		FactFrame: js[0], Transcript: js[1], Round2: js[2]})
	if err != nil {
		return Ruling{}, err
	}
	return structured.Ask(ctx, m.Chatter, "FOREPERSON", m.Request(prompt, rulingSchema(in.Rubric)), m.Attempts, checkRuling(in.Rubric))
}
