package entail

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/agents/internal/rolestest"
)

func TestCheckExtractor(t *testing.T) {
	const text = "Rates rose in May.\nThey fell in June."
	tests := []struct {
		name    string
		out     ExtractorOutput
		wantErr string
	}{
		{"valid", ExtractorOutput{AgentExtractor, []Statement{{1, "Rates rose in May."}, {2, "They fell in June."}}}, ""},
		{"line break folded", ExtractorOutput{AgentExtractor, []Statement{{1, "Rates rose in May. They fell"}}}, ""},
		{"empty list", ExtractorOutput{AgentExtractor, []Statement{}}, ""},
		{"wrong agent", ExtractorOutput{"EXTRACT", nil}, "agent"},
		{"ids from 0", ExtractorOutput{AgentExtractor, []Statement{{0, "Rates rose in May."}}}, "statements[0].id"},
		{"ids skip", ExtractorOutput{AgentExtractor, []Statement{{1, "Rates rose in May."}, {3, "They fell in June."}}}, "statements[1].id"},
		{"paraphrase", ExtractorOutput{AgentExtractor, []Statement{{1, "Rates increased in May."}}}, "word for word"},
		{"empty text", ExtractorOutput{AgentExtractor, []Statement{{1, " "}}}, "must not be empty"},
		{"too many", ExtractorOutput{AgentExtractor, []Statement{{1, "Rates"}, {2, "rose"}, {3, "May"}}}, "limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rolestest.AssertErr(t, checkExtractor(text, 2)(&tt.out), tt.wantErr)
		})
	}
}

func TestCheckReliability(t *testing.T) {
	ok := ReliabilityOutput{AgentReliability, "blog", Low, 70}
	tests := []struct {
		name    string
		edit    func(*ReliabilityOutput)
		wantErr string
	}{
		{"valid", func(*ReliabilityOutput) {}, ""},
		{"lower case rating", func(o *ReliabilityOutput) { o.Reliability = "low" }, "reliability"},
		{"confidence over 100", func(o *ReliabilityOutput) { o.Confidence = 101 }, "confidence"},
		{"negative confidence", func(o *ReliabilityOutput) { o.Confidence = -1 }, "confidence"},
		{"no source type", func(o *ReliabilityOutput) { o.SourceType = "" }, "source_type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := ok
			tt.edit(&o)
			rolestest.AssertErr(t, checkReliability(&o), tt.wantErr)
		})
	}
}

func TestCheckJudge(t *testing.T) {
	two := []Statement{{1, "a"}, {2, "b"}}
	tests := []struct {
		name       string
		statements []Statement
		out        JudgeOutput
		wantErr    string
	}{
		{"valid", two, JudgeOutput{AgentJudge, Supported, 90, []string{"Statement 2 explicitly states it."}}, ""},
		{"plural reference", two, JudgeOutput{AgentJudge, Contradicted, 75, []string{"Statements 1 and 2 together deny it."}}, ""},
		{"no reference", two, JudgeOutput{AgentJudge, Supported, 90, []string{"The source says so."}}, "must reference statement IDs"},
		{"reference out of range", two, JudgeOutput{AgentJudge, Supported, 90, []string{"Statement 3 says so."}}, "cites Statement 3"},
		{"no reasoning", two, JudgeOutput{AgentJudge, Supported, 90, nil}, "reasoning"},
		{"bad verdict", two, JudgeOutput{AgentJudge, "NOT ENOUGH INFORMATION", 10, []string{"Statement 1"}}, "verdict"},
		{"confidence", two, JudgeOutput{AgentJudge, Supported, 120, []string{"Statement 1"}}, "confidence"},
		{"empty source NEI 20", nil, JudgeOutput{AgentJudge, NotEnoughInfo, 20, []string{"No statements."}}, ""},
		{"empty source NEI 21", nil, JudgeOutput{AgentJudge, NotEnoughInfo, 21, []string{"No statements."}}, "edge rule 1"},
		{"empty source supported", nil, JudgeOutput{AgentJudge, Supported, 10, []string{"No statements."}}, "edge rule 1"},
		{"inconsistency not NEI", two, JudgeOutput{AgentJudge, Contradicted, 70, []string{"Internal source inconsistency: Statement 1 and Statement 2."}}, "edge rule 2"},
		{"inconsistency NEI", two, JudgeOutput{AgentJudge, NotEnoughInfo, 30, []string{"Internal source inconsistency: Statement 1 and Statement 2."}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rolestest.AssertErr(t, checkJudge(tt.statements)(&tt.out), tt.wantErr)
		})
	}
}

func TestCheckAuditor(t *testing.T) {
	sup := JudgeOutput{AgentJudge, Supported, 80, []string{"Statement 1"}}
	nei := JudgeOutput{AgentJudge, NotEnoughInfo, 30, []string{"Statement 1"}}
	why := []string{"Ambiguity in 'may' is material."}
	tests := []struct {
		name    string
		judge   JudgeOutput
		out     AuditorOutput
		wantErr string
	}{
		{"unchanged", sup, AuditorOutput{AgentAuditor, Unchanged, 0, []string{}}, ""},
		{"downgrade", sup, AuditorOutput{AgentAuditor, NotEnoughInfo, -20, why}, ""},
		{"same verdict lower confidence", sup, AuditorOutput{AgentAuditor, Supported, -5, why}, ""},
		{"adjustment below -20", sup, AuditorOutput{AgentAuditor, NotEnoughInfo, -21, why}, "confidence_adjustment"},
		{"positive adjustment", sup, AuditorOutput{AgentAuditor, Unchanged, 5, why}, "confidence_adjustment"},
		{"flip", sup, AuditorOutput{AgentAuditor, Contradicted, 0, why}, "only downgrade"},
		{"upgrade from NEI", nei, AuditorOutput{AgentAuditor, Supported, 0, why}, "only downgrade"},
		{"downgrade without reasons", sup, AuditorOutput{AgentAuditor, NotEnoughInfo, 0, nil}, "auditor_reasoning"},
		{"adjustment without reasons", sup, AuditorOutput{AgentAuditor, Unchanged, -10, []string{}}, "auditor_reasoning"},
		{"unknown verdict", sup, AuditorOutput{AgentAuditor, "DOWNGRADED", 0, nil}, "final_verdict"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rolestest.AssertErr(t, checkAuditor(tt.judge)(&tt.out), tt.wantErr)
		})
	}
}

func TestAggregate(t *testing.T) {
	const base = "Reliability rating does NOT determine entailment."
	const low = "Supported only within provided source."
	rel := func(r string) ReliabilityOutput { return ReliabilityOutput{AgentReliability, "x", r, 80} }
	judge := func(v string, c int, why ...string) JudgeOutput { return JudgeOutput{AgentJudge, v, c, why} }
	audit := func(v string, adj int) AuditorOutput { return AuditorOutput{AgentAuditor, v, adj, []string{"r"}} }
	tests := []struct {
		name  string
		rel   ReliabilityOutput
		judge JudgeOutput
		audit AuditorOutput
		want  Final
	}{
		{"unchanged", rel(High), judge(Supported, 90, "Statement 1"), audit(Unchanged, 0),
			Final{"c", Supported, 90, 90, High, []string{base}}},
		{"adjusted", rel(Medium), judge(Contradicted, 75, "Statement 1"), audit(Contradicted, -10),
			Final{"c", Contradicted, 65, 75, Medium, []string{base}}},
		{"clamped at 0", rel(High), judge(Supported, 12, "Statement 1"), audit(NotEnoughInfo, -20),
			Final{"c", NotEnoughInfo, 0, 12, High, []string{base, "The adversarial auditor downgraded the judge's SUPPORTED to NOT ENOUGH INFO."}}},
		{"low reliability never changes the verdict", rel(Low), judge(Supported, 95, "Statement 1"), audit(Unchanged, 0),
			Final{"c", Supported, 95, 95, Low, []string{base, low}}},
		{"inconsistency note", rel(High), judge(NotEnoughInfo, 30, "Internal source inconsistency: Statement 1 and Statement 2"), audit(Unchanged, 0),
			Final{"c", NotEnoughInfo, 30, 30, High, []string{base, InconsistencyNote}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Aggregate("c", tt.rel, tt.judge, tt.audit)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	// The clamp holds at 100 too, for any adjustment the auditor may make.
	for adj := -20; adj <= 0; adj++ {
		for c := 0; c <= 100; c += 5 {
			f := Aggregate("c", rel(High), judge(Supported, c), audit(Unchanged, adj))
			if f.FinalConfidence < 0 || f.FinalConfidence > 100 || f.FinalConfidence > c {
				t.Fatalf("judge %d adjustment %d: final %d", c, adj, f.FinalConfidence)
			}
		}
	}
}
