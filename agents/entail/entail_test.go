package entail

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/agents/internal/rolestest"
	"github.com/verity-fc/verity/agents/internal/structured"
	"github.com/verity-fc/verity/evidence"
)

const (
	claim      = "The Zephyr bridge opened in 1932."
	excerpt    = "The Zephyr bridge opened to traffic in 1932. Its toll was abolished decades later."
	sourceType = "zebra-striped quarterly newsletter"
)

var allModels = Models{Extractor: "m-extractor", Reliability: "m-reliability", Judge: "m-judge", Auditor: "m-auditor"}

// validModels answers every agent with a valid output; the extractor
// extracts the first sentence only.
func validModels() *rolestest.Models {
	return &rolestest.Models{Answer: map[string]func(string) (string, error){
		"m-extractor":   rolestest.Reply(`{"agent": "EXTRACTOR", "statements": [{"id": 1, "text": "The Zephyr bridge opened to traffic in 1932."}]}`),
		"m-reliability": rolestest.Reply(`{"agent": "RELIABILITY", "source_type": "zebra-striped quarterly newsletter", "reliability": "LOW", "confidence": 61}`),
		"m-judge":       rolestest.Reply(`{"agent": "ENTAILMENT_JUDGE", "verdict": "SUPPORTED", "confidence": 92, "reasoning": ["Statement 1 explicitly states the opening year."]}`),
		"m-auditor":     rolestest.Reply(`{"agent": "ADVERSARIAL_AUDITOR", "final_verdict": "UNCHANGED", "confidence_adjustment": -3, "auditor_reasoning": ["Ambiguity in phrase 'opened to traffic' slightly affects the meaning of opened."]}`),
	}}
}

func newPipeline(t *testing.T, deps Deps, cfg Config) *Pipeline {
	t.Helper()
	p, err := New(deps, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestAgentIsolation proves, for each agent, that its prompt is built only
// from the inputs the seed gives it.
func TestAgentIsolation(t *testing.T) {
	m := validModels()
	p := newPipeline(t, Deps{Chatter: m}, Config{Models: allModels})
	if _, err := p.Run(context.Background(), Request{Claim: claim, SourceExcerpt: excerpt, SourceType: sourceType}); err != nil {
		t.Fatal(err)
	}
	const secondSentence = "Its toll was abolished"
	tests := []struct {
		model   string
		must    []string
		mustNot []string
	}{
		{"m-extractor", []string{claim, "The Zephyr bridge opened to traffic in 1932. Its toll"}, []string{sourceType}},
		{"m-reliability", []string{sourceType}, []string{"Zephyr", "1932", secondSentence}},
		// The judge sees the claim and the extracted statement, never the
		// rest of the excerpt nor the reliability output.
		{"m-judge", []string{claim, "The Zephyr bridge opened to traffic in 1932."}, []string{secondSentence, sourceType, "LOW", "61"}},
		{"m-auditor", []string{claim, excerpt, "SUPPORTED", "92", "Statement 1 explicitly states"}, []string{sourceType, "LOW"}},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			ps := m.Prompts(tt.model)
			if len(ps) != 1 {
				t.Fatalf("%d prompts, want 1", len(ps))
			}
			for _, s := range tt.must {
				if !strings.Contains(ps[0], s) {
					t.Errorf("prompt lacks %q", s)
				}
			}
			for _, s := range tt.mustNot {
				if strings.Contains(ps[0], s) {
					t.Errorf("prompt contains %q, which this agent may not see", s)
				}
			}
		})
	}
}

// TestBuiltinJudgeSeesOnlyClaimAndStatements runs the built-in roles and
// checks what reached the NLI judge: the claim against statements, never
// the source type.
func TestBuiltinJudgeSeesOnlyClaimAndStatements(t *testing.T) {
	nli := &rolestest.NLI{}
	p := newPipeline(t, Deps{NLI: nli}, Config{})
	if _, err := p.Run(context.Background(), Request{Claim: claim, SourceExcerpt: excerpt, SourceType: sourceType}); err != nil {
		t.Fatal(err)
	}
	if len(nli.Seen()) == 0 {
		t.Fatal("the NLI judge was not called")
	}
	for _, pair := range nli.Seen() {
		for _, s := range pair {
			if strings.Contains(s, "zebra") {
				t.Errorf("the judge saw the source type: %q", pair)
			}
		}
	}
}

func TestResultKeepsOutputsAsProduced(t *testing.T) {
	m := validModels()
	p := newPipeline(t, Deps{Chatter: m}, Config{Models: allModels})
	res, err := p.Run(context.Background(), Request{Claim: " " + claim + " ", SourceExcerpt: excerpt, SourceType: sourceType})
	if err != nil {
		t.Fatal(err)
	}
	want := Result{
		Extractor:   ExtractorOutput{Agent: AgentExtractor, Statements: []Statement{{1, "The Zephyr bridge opened to traffic in 1932."}}},
		Reliability: ReliabilityOutput{Agent: AgentReliability, SourceType: sourceType, Reliability: Low, Confidence: 61},
		Judge:       JudgeOutput{Agent: AgentJudge, Verdict: Supported, Confidence: 92, Reasoning: []string{"Statement 1 explicitly states the opening year."}},
		Auditor:     AuditorOutput{Agent: AgentAuditor, FinalVerdict: Unchanged, ConfidenceAdjustment: -3, AuditorReasoning: []string{"Ambiguity in phrase 'opened to traffic' slightly affects the meaning of opened."}},
		Final: Final{Claim: claim, FinalVerdict: Supported, FinalConfidence: 89, EntailmentConfidence: 92, ReliabilityRating: Low,
			Notes: []string{"Reliability rating does NOT determine entailment.", "Supported only within provided source."}},
	}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
}

// TestInvalidOutputIsRetriedThenFails: each agent in turn answers
// invalidly every time; the run fails after the configured attempts with
// an error naming that agent.
func TestInvalidOutputIsRetriedThenFails(t *testing.T) {
	tests := []struct {
		model, agent, bad string
	}{
		{"m-extractor", AgentExtractor, `{"agent": "EXTRACTOR", "statements": [{"id": 1, "text": "The bridge is made of cheese."}]}`},
		{"m-reliability", AgentReliability, `{"agent": "RELIABILITY", "source_type": "x", "reliability": "VERY HIGH", "confidence": 50}`},
		{"m-judge", AgentJudge, "```json\n{\"agent\": \"ENTAILMENT_JUDGE\", \"verdict\": \"SUPPORTED\", \"confidence\": 90, \"reasoning\": [\"Statement 1\"]}\n```"},
		{"m-judge", AgentJudge, `{"agent": "ENTAILMENT_JUDGE", "verdict": "SUPPORTED", "confidence": 90, "reasoning": ["It says so."]}`},
		{"m-auditor", AgentAuditor, `{"agent": "ADVERSARIAL_AUDITOR", "final_verdict": "CONTRADICTED", "confidence_adjustment": 0, "auditor_reasoning": ["x"]}`},
		{"m-auditor", AgentAuditor, `{"agent": "ADVERSARIAL_AUDITOR", "final_verdict": "UNCHANGED", "confidence_adjustment": -35, "auditor_reasoning": ["x"]}`},
		{"m-auditor", AgentAuditor, `{"agent": "ADVERSARIAL_AUDITOR", "final_verdict": "UNCHANGED", "confidence_adjustment": 0}`},
	}
	for _, tt := range tests {
		t.Run(tt.agent, func(t *testing.T) {
			m := validModels()
			m.Answer[tt.model] = rolestest.Reply(tt.bad)
			p := newPipeline(t, Deps{Chatter: m}, Config{Models: allModels, Attempts: 2})
			_, err := p.Run(context.Background(), Request{Claim: claim, SourceExcerpt: excerpt, SourceType: sourceType})
			var se *structured.Error
			if !errors.As(err, &se) || se.Agent != tt.agent || se.Attempts != 2 {
				t.Fatalf("err = %v, want a *structured.Error naming %s after 2 attempts", err, tt.agent)
			}
			if !strings.Contains(err.Error(), tt.agent) {
				t.Errorf("the message does not name the agent: %v", err)
			}
			if n := len(m.Prompts(tt.model)); n != 2 {
				t.Errorf("%s was asked %d times, want 2", tt.model, n)
			}
		})
	}
}

func TestRetryRecovers(t *testing.T) {
	m := validModels()
	good := m.Answer["m-judge"]
	calls := 0
	m.Answer["m-judge"] = func(p string) (string, error) {
		calls++
		if calls == 1 {
			return `{"agent": "ENTAILMENT_JUDGE", "verdict": "TRUE", "confidence": 90, "reasoning": ["Statement 1"]}`, nil
		}
		return good(p)
	}
	p := newPipeline(t, Deps{Chatter: m}, Config{Models: allModels})
	res, err := p.Run(context.Background(), Request{Claim: claim, SourceExcerpt: excerpt, SourceType: sourceType})
	if err != nil {
		t.Fatal(err)
	}
	if res.Judge.Verdict != Supported || calls != 2 {
		t.Errorf("judge = %+v after %d calls", res.Judge, calls)
	}
	if !strings.Contains(m.Prompts("m-judge")[1], `verdict: must be SUPPORTED, CONTRADICTED or NOT ENOUGH INFO, got "TRUE"`) {
		t.Errorf("the retry does not tell the model what was wrong:\n%s", m.Prompts("m-judge")[1])
	}
}

func TestEmptySource(t *testing.T) {
	t.Run("builtin", func(t *testing.T) {
		p := newPipeline(t, Deps{NLI: &rolestest.NLI{}}, Config{})
		res, err := p.Run(context.Background(), Request{Claim: claim, SourceExcerpt: "  \n ", SourceType: "peer-reviewed journal"})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Extractor.Statements) != 0 || res.Judge.Verdict != NotEnoughInfo || res.Judge.Confidence > 20 ||
			res.Final.FinalVerdict != NotEnoughInfo || res.Final.FinalConfidence > 20 {
			t.Errorf("result = %+v", res)
		}
	})
	t.Run("a model judge that ignores the rule fails", func(t *testing.T) {
		m := validModels()
		m.Answer["m-extractor"] = rolestest.Reply(`{"agent": "EXTRACTOR", "statements": []}`)
		m.Answer["m-judge"] = rolestest.Reply(`{"agent": "ENTAILMENT_JUDGE", "verdict": "NOT ENOUGH INFO", "confidence": 60, "reasoning": ["Nothing to go on."]}`)
		p := newPipeline(t, Deps{Chatter: m}, Config{Models: allModels})
		_, err := p.Run(context.Background(), Request{Claim: claim, SourceExcerpt: excerpt, SourceType: sourceType})
		var se *structured.Error
		if !errors.As(err, &se) || se.Agent != AgentJudge || !strings.Contains(se.Err.Error(), "edge rule 1") {
			t.Errorf("err = %v", err)
		}
	})
}

func TestInternalInconsistency(t *testing.T) {
	const (
		c  = "Lake Orin froze in 1999."
		s1 = "Lake Orin froze over in the winter of 1999."
		s2 = "Lake Orin has never frozen over."
	)
	nli := &rolestest.NLI{Table: map[[2]string]evidence.Judgment{
		{c, s1}:  rolestest.Entails(0.9),
		{c, s2}:  rolestest.Contradicts(0.8),
		{s2, s1}: rolestest.Contradicts(0.95),
	}}
	p := newPipeline(t, Deps{NLI: nli}, Config{})
	res, err := p.Run(context.Background(), Request{Claim: c, SourceExcerpt: s1 + " " + s2, SourceType: "government report"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Judge.Verdict != NotEnoughInfo || !strings.Contains(res.Judge.Reasoning[0], "Internal source inconsistency: Statement 1 and Statement 2") {
		t.Errorf("judge = %+v", res.Judge)
	}
	if res.Final.FinalVerdict != NotEnoughInfo || !containsString(res.Final.Notes, InconsistencyNote) {
		t.Errorf("final = %+v", res.Final)
	}
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func TestValidate(t *testing.T) {
	p := newPipeline(t, Deps{NLI: &rolestest.NLI{}}, Config{MaxExcerptChars: 50})
	tests := []struct {
		name  string
		req   Request
		field string
	}{
		{"empty claim", Request{Claim: " ", SourceType: "news"}, "claim"},
		{"long claim", Request{Claim: strings.Repeat("a", 1001), SourceType: "news"}, "claim"},
		{"long excerpt", Request{Claim: "x", SourceExcerpt: strings.Repeat("b", 51), SourceType: "news"}, "source_excerpt"},
		{"no source type", Request{Claim: "x"}, "source_type"},
		{"bad utf-8", Request{Claim: "x\xff", SourceType: "news"}, "claim"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := p.Run(context.Background(), tt.req)
			var ie *evidence.InputError
			if !errors.As(err, &ie) || ie.Field != tt.field {
				t.Errorf("err = %v, want an input error on %q", err, tt.field)
			}
		})
	}
}

func TestNewNeedsCollaborators(t *testing.T) {
	if _, err := New(Deps{}, Config{}); err == nil {
		t.Error("a built-in judge without NLI was accepted")
	}
	if _, err := New(Deps{NLI: &rolestest.NLI{}}, Config{Models: Models{Auditor: "llama3"}}); err == nil || !strings.Contains(err.Error(), "auditor") {
		t.Errorf("a model role without a backend: err = %v", err)
	}
}

func TestBackendErrorsPassThrough(t *testing.T) {
	p := newPipeline(t, Deps{NLI: &rolestest.NLI{Err: errors.New("nli down")}}, Config{})
	_, err := p.Run(context.Background(), Request{Claim: claim, SourceExcerpt: excerpt, SourceType: sourceType})
	if err == nil || !strings.Contains(err.Error(), "nli down") || !strings.Contains(err.Error(), AgentJudge) {
		t.Errorf("err = %v", err)
	}
}
