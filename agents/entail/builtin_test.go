package entail

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/agents/internal/rolestest"
	"github.com/verity-fc/verity/agents/internal/structured"
	"github.com/verity-fc/verity/evidence"
)

func TestBuiltinExtractor(t *testing.T) {
	const text = "Dr. Lee said the U.S. rate was 3.5% in 2020. It rose later!\n\nTable 1"
	out, err := builtinExtractor{max: 200}.extract(context.Background(), "ignored", text)
	if err != nil {
		t.Fatal(err)
	}
	want := []Statement{{1, "Dr. Lee said the U.S. rate was 3.5% in 2020."}, {2, "It rose later!"}, {3, "Table 1"}}
	if diff := cmp.Diff(want, out.Statements); diff != "" {
		t.Errorf("statements (-want +got):\n%s", diff)
	}
	out, err = builtinExtractor{max: 2}.extract(context.Background(), "", text)
	if err != nil || len(out.Statements) != 2 {
		t.Errorf("bounded: %d statements, err %v", len(out.Statements), err)
	}
}

func TestBuiltinReliability(t *testing.T) {
	tests := []struct {
		sourceType string
		want       string
		conf       int
	}{
		{"Peer-reviewed journal article", High, 75},
		{"Official statistics from the national statistics office", High, 85},
		{"Government report", High, 75},
		{"Newspaper article from a reputable outlet", Medium, 85},
		{"News", Medium, 75},
		{"Personal blog", Low, 75},
		{"Anonymous forum post", Low, 85},
		{"Press release from a government agency", Low, 55},
		{"Preprint, not peer-reviewed", Low, 55},
		{"Something", Low, 20},
		{"Newsletter", Low, 20},
	}
	for _, tt := range tests {
		t.Run(tt.sourceType, func(t *testing.T) {
			out, err := builtinReliability{}.assess(context.Background(), tt.sourceType)
			if err != nil {
				t.Fatal(err)
			}
			if out.Reliability != tt.want || out.Confidence != tt.conf || out.SourceType != tt.sourceType {
				t.Errorf("got %+v, want %s at %d", out, tt.want, tt.conf)
			}
		})
	}
}

func TestBuiltinJudge(t *testing.T) {
	const c = "The vaccine cut infections by 40% in adults."
	tests := []struct {
		name       string
		claim      string
		statements []string
		nli        map[[2]string]evidence.Judgment
		verdict    string
		conf       [2]int // inclusive range
		reason     string
	}{
		{"supported", c, []string{"The vaccine cut infections by 40% in adults.", "It was cheap."},
			map[[2]string]evidence.Judgment{{c, "The vaccine cut infections by 40% in adults."}: rolestest.Entails(0.97)},
			Supported, [2]int{90, 100}, "Statement 1 states or implies the claim"},
		{"strong but not explicit", c, []string{"Infections fell by 40% among vaccinated adults."},
			map[[2]string]evidence.Judgment{{c, "Infections fell by 40% among vaccinated adults."}: rolestest.Entails(0.85)},
			Supported, [2]int{70, 89}, "Statement 1"},
		{"coreference joins the previous statement", c, []string{"The vaccine was tested in adults.", "It cut infections by 40%."},
			map[[2]string]evidence.Judgment{{c, "The vaccine was tested in adults. It cut infections by 40%."}: rolestest.Entails(0.9)},
			Supported, [2]int{70, 89}, "Statements 1 and 2"},
		{"contradicted", c, []string{"The vaccine did not reduce infections."},
			map[[2]string]evidence.Judgment{{c, "The vaccine did not reduce infections."}: rolestest.Contradicts(0.92)},
			Contradicted, [2]int{70, 89}, "Statement 1 contradicts"},
		{"numbers differ", c, []string{"The vaccine cut infections by 14% in adults."},
			map[[2]string]evidence.Judgment{{c, "The vaccine cut infections by 14% in adults."}: rolestest.Entails(0.8)},
			Contradicted, [2]int{80, 80}, `Statement 1 gives "14%" where the claim says "40%"`},
		{"quantifier", "All adults were protected.", []string{"Most adults were protected."},
			map[[2]string]evidence.Judgment{{"All adults were protected.", "Most adults were protected."}: rolestest.Entails(0.7)},
			NotEnoughInfo, [2]int{0, 39}, "edge rule 5"},
		{"modal", "The vaccine protects adults.", []string{"The vaccine may protect adults."},
			map[[2]string]evidence.Judgment{{"The vaccine protects adults.", "The vaccine may protect adults."}: rolestest.Entails(0.8)},
			NotEnoughInfo, [2]int{0, 39}, "edge rule 6"},
		{"neutral", c, []string{"The weather was fine."}, nil,
			NotEnoughInfo, [2]int{20, 39}, "No statement explicitly states"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var st []Statement
			for i, s := range tt.statements {
				st = append(st, Statement{i + 1, s})
			}
			j := &builtinJudge{nli: &rolestest.NLI{Table: tt.nli}, cfg: Config{}.withDefaults().Judge}
			out, err := j.judge(context.Background(), tt.claim, st)
			if err != nil {
				t.Fatal(err)
			}
			if out.Verdict != tt.verdict || out.Confidence < tt.conf[0] || out.Confidence > tt.conf[1] || !strings.Contains(strings.Join(out.Reasoning, " "), tt.reason) {
				t.Errorf("got %+v, want %s in %v saying %q", out, tt.verdict, tt.conf, tt.reason)
			}
		})
	}
}

func TestAnchor(t *testing.T) {
	for _, tt := range []struct {
		p    float64
		want int
	}{{0.5, 40}, {0.79, 68}, {0.8, 70}, {0.949, 89}, {0.95, 90}, {1, 100}} {
		if got := anchor(tt.p); got != tt.want {
			t.Errorf("anchor(%v) = %d, want %d", tt.p, got, tt.want)
		}
	}
}

func TestBuiltinAuditor(t *testing.T) {
	sup := JudgeOutput{AgentJudge, Supported, 85, []string{"Statement 1"}}
	con := JudgeOutput{AgentJudge, Contradicted, 85, []string{"Statement 1"}}
	nei := JudgeOutput{AgentJudge, NotEnoughInfo, 30, []string{"Statement 1"}}
	tests := []struct {
		name    string
		claim   string
		excerpt string
		judge   JudgeOutput
		verdict string
		adjust  int
		quote   string
	}{
		{"hedge under a definite claim", "Coffee prevents liver disease.", "Coffee may prevent liver disease in some drinkers.", sup, NotEnoughInfo, -15, "Coffee may prevent liver"},
		{"hedged denial keeps the verdict", "Coffee prevents liver disease.", "Coffee probably does not prevent liver disease.", con, Unchanged, -10, "probably"},
		{"hedge and quantifier add up, bounded", "All coffee drinkers avoid liver disease.", "Many coffee drinkers might avoid liver disease.", sup, NotEnoughInfo, -20, "Many coffee drinkers"},
		{"irrelevant hedge is not material", "Coffee prevents liver disease.", "Coffee prevents liver disease. Tea may be tasty.", sup, Unchanged, 0, ""},
		{"hedged claim", "Coffee may prevent liver disease.", "Coffee may prevent liver disease.", sup, Unchanged, 0, ""},
		{"unresolved pronoun", "Acme Corp doubled its revenue.", "It doubled its revenue last year.", sup, Unchanged, -10, "It doubled its"},
		{"pronoun resolved in the excerpt", "Acme Corp doubled its revenue.", "Acme Corp sells tools. It doubled its revenue last year.", sup, Unchanged, 0, ""},
		{"nothing to downgrade", "Coffee prevents liver disease.", "Coffee may prevent liver disease.", nei, Unchanged, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := builtinAuditor{}.audit(context.Background(), tt.claim, tt.excerpt, tt.judge)
			if err != nil {
				t.Fatal(err)
			}
			if out.FinalVerdict != tt.verdict || out.ConfidenceAdjustment != tt.adjust {
				t.Errorf("got %+v, want %s %d", out, tt.verdict, tt.adjust)
			}
			if tt.quote != "" && !strings.Contains(strings.Join(out.AuditorReasoning, " "), tt.quote) {
				t.Errorf("reasoning %q does not quote %q", out.AuditorReasoning, tt.quote)
			}
		})
	}
}

// TestBuiltinOutputsMatchTheSchemas holds the built-in roles to the JSON
// schemas the model-backed roles are sent.
func TestBuiltinOutputsMatchTheSchemas(t *testing.T) {
	const c = "Coffee prevents liver disease."
	nli := &rolestest.NLI{Table: map[[2]string]evidence.Judgment{{c, "Coffee may prevent liver disease."}: rolestest.Entails(0.9)}}
	p, err := New(Deps{NLI: nli}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, excerpt := range []string{"Coffee may prevent liver disease. It is cheap.", ""} {
		res, err := p.Run(context.Background(), Request{Claim: c, SourceExcerpt: excerpt, SourceType: "blog"})
		if err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct {
			schema []byte
			out    any
		}{{extractorSchema, res.Extractor}, {reliabilitySchema, res.Reliability}, {judgeSchema, res.Judge}, {auditorSchema, res.Auditor}} {
			b, _ := json.Marshal(tt.out)
			if err := structured.Validate(tt.schema, string(b)); err != nil {
				t.Errorf("%s: %v", b, err)
			}
		}
	}
}
