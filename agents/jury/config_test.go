package jury

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/evidence"
)

// seedExample is the example configuration of seed 002, as written there.
const seedExample = `data:
  source: "data/Nova.csv"
  claim_col: "claim"
  truth_col: "truth"
  pair_ids: [0, 5, 9, 10, 13]

agents:
  - name: literal
    role: "Literal Fact-Checker"
  - name: context
    role: "Context Guardian"
  - name: steelman
    role: "Steelman Advocate"
  - name: sceptic
    role: "Sceptic"

foreperson:
  rubric:
    - axis: numeric_fidelity
      question: "Are all numbers, units, and percentages in the claim supported by the truth?"
    - axis: scope_fidelity
      question: "Are who/where/when correctly represented?"
    - axis: causal_fidelity
      question: "Does the claim avoid causal leaps not supported by the truth?"
    - axis: certainty_fidelity
      question: "Are hedges and certainty preserved?"
    - axis: context_sufficiency
      question: "Are key caveats, qualifiers, or denominators reflected or not contradicted?"
  dissent_threshold: 2  # min agents on minority for "strong dissent"

debate:
  max_rounds: 2

models:
  parser: "gpt-4o-mini"
  agents: "gpt-4o-mini"
  foreperson: "gpt-4o-mini"
`

func TestLoadConfigDefaults(t *testing.T) {
	for _, text := range []string{"", "\n# nothing but a comment\n"} {
		got, err := LoadConfig(strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		want := DefaultConfig()
		want.MinJurors = 3
		for i := range want.Agents {
			want.Agents[i].Model = Builtin
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("defaults (-want +got):\n%s", diff)
		}
	}
}

func TestLoadConfigSeedExample(t *testing.T) {
	got, err := LoadConfig(strings.NewReader(seedExample))
	if err != nil {
		t.Fatal(err)
	}
	if got.Data.Source != "data/Nova.csv" || !cmp.Equal(got.Data.PairIDs, []int{0, 5, 9, 10, 13}) ||
		got.Debate.MaxRounds != 2 || got.Foreperson.DissentThreshold != 2 || len(got.Foreperson.Rubric) != 5 {
		t.Errorf("config = %+v", got)
	}
	// models.agents applies to each agent; the novelty checker, which the
	// seed does not name, stays built in.
	if got.Agents[2].Model != "gpt-4o-mini" || got.Models.Novelty != Builtin || got.Models.Parser != "gpt-4o-mini" {
		t.Errorf("models = %+v, agents = %+v", got.Models, got.Agents)
	}
}

func TestLoadConfigOverridesOnlyWhatIsGiven(t *testing.T) {
	got, err := LoadConfig(strings.NewReader("debate:\n  max_rounds: 4\nagents:\n  - {name: literal, role: Literal}\n  - {name: sceptic, role: Sceptic, model: llama3}\nmin_jurors: 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultConfig()
	want.Debate.MaxRounds = 4
	want.Agents = []AgentConfig{{Name: "literal", Role: "Literal", Model: Builtin}, {Name: "sceptic", Role: "Sceptic", Model: "llama3"}}
	want.MinJurors = 2
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestLoadConfigErrorsNameTheKey(t *testing.T) {
	tests := []struct {
		name, yaml, key string
	}{
		{"unknown top-level key", "bogus: 1\n", "bogus"},
		{"unknown nested key", "debate:\n  rounds: 3\n", "debate.rounds"},
		{"wrong type", "debate:\n  max_rounds: two\n", "debate.max_rounds"},
		{"wrong type in a list", "data:\n  pair_ids: [1, x]\n", "data.pair_ids[1]"},
		{"negative pair id", "data:\n  pair_ids: [1, -2]\n", "data.pair_ids[1]"},
		{"repeated pair id", "data:\n  pair_ids: [3, 3]\n", "data.pair_ids[1]"},
		{"empty claim column", "data:\n  claim_col: ''\n", "data.claim_col"},
		{"same columns", "data:\n  claim_col: text\n  truth_col: text\n", "data.truth_col"},
		{"one agent", "agents:\n  - {name: literal, role: L}\n", "agents"},
		{"unknown built-in juror", "agents:\n  - {name: literal, role: L}\n  - {name: historian, role: H}\n", "agents[1].name"},
		{"bad agent name", "agents:\n  - {name: Literal Checker, role: L}\n  - {name: sceptic, role: S}\n", "agents[0].name"},
		{"repeated agent", "agents:\n  - {name: literal, role: L}\n  - {name: literal, role: S}\n", "agents[1].name"},
		{"missing role", "agents:\n  - {name: literal}\n  - {name: sceptic, role: S}\n", "agents[0].role"},
		{"unknown frame field", "fact_frame:\n  fields: [entities, mood]\n", "fact_frame.fields[1]"},
		{"no frame fields", "fact_frame:\n  fields: []\n", "fact_frame.fields"},
		{"axis the built-in foreperson cannot answer", "foreperson:\n  rubric:\n    - {axis: numeric_fidelity, question: q}\n    - {axis: tone, question: q}\n    - {axis: scope_fidelity, question: q}\n", "foreperson.rubric[1].axis"},
		{"too few axes", "foreperson:\n  rubric:\n    - {axis: numeric_fidelity, question: q}\n", "foreperson.rubric"},
		{"dissent threshold", "foreperson:\n  dissent_threshold: 5\n", "foreperson.dissent_threshold"},
		{"max rounds", "debate:\n  max_rounds: 11\n", "debate.max_rounds"},
		{"min jurors", "min_jurors: 5\n", "min_jurors"},
		{"attempts", "attempts: 0\n", "attempts"},
		{"parallelism", "parallelism: 100\n", "parallelism"},
		{"not YAML", "data: [unclosed\n", "config"},
		{"too large", strings.Repeat("#", maxConfigBytes+1), "config"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadConfig(strings.NewReader(tt.yaml))
			var ie *evidence.InputError
			if !errors.As(err, &ie) || ie.Field != tt.key {
				t.Fatalf("err = %v, want an input error on %q", err, tt.key)
			}
		})
	}
}

func TestCustomRubricWithAModelForeperson(t *testing.T) {
	cfg, err := LoadConfig(strings.NewReader("models:\n  foreperson: llama3\nforeperson:\n  rubric:\n    - {axis: tone, question: \"Is the tone kept?\"}\n    - {axis: numeric_fidelity, question: q}\n    - {axis: scope_fidelity, question: q}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Foreperson.Rubric[0].Axis != "tone" {
		t.Errorf("rubric = %+v", cfg.Foreperson.Rubric)
	}
}
