package jury

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/agents/internal/rolestest"
	"github.com/verity-fc/verity/agents/internal/structured"
	"github.com/verity-fc/verity/evidence"
)

func builtinJury(t *testing.T, nli *rolestest.NLI) *Jury {
	t.Helper()
	j, err := New(Deps{NLI: nli, Logger: quiet}, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestBuiltinParser(t *testing.T) {
	claim := "Unemployment in France reached 9.3% in 2023 among young adults."
	truth := "According to INSEE, unemployment in France may have reached 7.3% in 2023, except in overseas regions."
	got, err := builtinParser{}.parse(context.Background(), claim, truth, frameFields)
	if err != nil {
		t.Fatal(err)
	}
	want := FactFrame{
		Entities: []string{"France", "INSEE"},
		Quantities: []Quantity{
			{Value: "9.3%", Unit: "%", InClaim: true},
			{Value: "2023", Unit: "year", InClaim: true, InTruth: true},
			{Value: "7.3%", Unit: "%", InTruth: true},
		},
		Scope:            &Scope{Region: "France", Group: "claim: young adults", Timeframe: "2023"},
		Modality:         "may",
		RelationshipType: "description",
		Caveats:          []string{"except in overseas regions"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("frame (-want +got):\n%s", diff)
	}
	got, err = builtinParser{}.parse(context.Background(), claim, truth, []string{FieldModality, FieldCaveats})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(FactFrame{Modality: "may", Caveats: []string{"except in overseas regions"}}, got); diff != "" {
		t.Errorf("two fields (-want +got):\n%s", diff)
	}
}

func TestCheckFrame(t *testing.T) {
	fields := []string{FieldEntities, FieldModality}
	tests := []struct {
		name    string
		f       FactFrame
		wantErr string
	}{
		{"exact", FactFrame{Entities: []string{}, Modality: "may"}, ""},
		{"missing", FactFrame{Entities: []string{"x"}}, "modality: is required"},
		{"extra", FactFrame{Entities: []string{}, Modality: "may", Caveats: []string{}}, "caveats: is not one of the configured fields"},
		{"bad modality", FactFrame{Entities: []string{}, Modality: "certain"}, "modality: must be"},
		{"empty entity", FactFrame{Entities: []string{" "}, Modality: "may"}, "entities[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rolestest.AssertErr(t, checkFrame(fields)(&tt.f), tt.wantErr)
		})
	}
}

// TestBuiltinJury runs the whole protocol with every role built in.
func TestBuiltinJury(t *testing.T) {
	tests := []struct {
		name    string
		pair    Pair
		nli     evidence.Judgment
		verdict string
		no      []string // axes answered No
		debate  bool
		edit    string
	}{
		{"faithful paraphrase",
			Pair{1, "France's unemployment rate was 7.3% in 2023.", "In 2023 the unemployment rate in France stood at 7.3%."},
			rolestest.Entails(0.93), Faithful, nil, false, ""},
		{"a changed figure",
			Pair{2, "France's unemployment rate was 9.3% in 2023.", "In 2023 the unemployment rate in France stood at 7.3%."},
			rolestest.Entails(0.6), Mutated, []string{AxisNumeric}, true, "France's unemployment rate was 7.3% in 2023."},
		{"a dropped hedge splits the jury",
			Pair{3, "Coffee lowers liver cancer risk.", "Coffee may lower liver cancer risk."},
			rolestest.Entails(0.8), Ambiguous, []string{AxisCertainty}, true, ""},
		{"a causal leap and a widened quantifier",
			Pair{4, "Smoking causes lung disease in all miners.", "Smoking is associated with lung disease in some miners."},
			rolestest.Entails(0.4), Mutated, []string{AxisCausal, AxisContext}, true, "Smoking is associated with lung disease in some miners."},
		{"added certainty",
			Pair{5, "The trial proves the drug works.", "The trial suggests the drug works."},
			rolestest.Entails(0.75), Ambiguous, []string{AxisCertainty}, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nli := &rolestest.NLI{Table: map[[2]string]evidence.Judgment{{tt.pair.Claim, tt.pair.Truth}: tt.nli}}
			card, err := builtinJury(t, nli).Run(context.Background(), tt.pair)
			if err != nil {
				t.Fatal(err)
			}
			var no []string
			for _, a := range card.Rubric {
				if a.Answer == "No" {
					no = append(no, a.Axis)
				}
			}
			if card.Verdict != tt.verdict || !cmp.Equal(no, tt.no) || card.Debate.Held != tt.debate || card.MinimalEdit != tt.edit {
				t.Errorf("verdict %s, No on %v, debate %v, edit %q; want %s, %v, %v, %q\nround 0: %s\nround 2: %s\ndissent: %s",
					card.Verdict, no, card.Debate.Held, card.MinimalEdit, tt.verdict, tt.no, tt.debate, tt.edit, votesOf(card.Round0), revotesOf(card.Round2), card.DissentNote)
			}
			// Every built-in role shares one NLI call per pair.
			if n := len(nli.Seen()); n != 1 {
				t.Errorf("NLI judged %d pairs, want 1", n)
			}
		})
	}
}

func votesOf(vs []JurorVote) string {
	var s []string
	for _, v := range vs {
		s = append(s, fmt.Sprintf("%s=%s", v.Juror, v.Verdict))
	}
	return strings.Join(s, " ")
}

func revotesOf(vs []JurorRevote) string {
	var s []string
	for _, v := range vs {
		s = append(s, fmt.Sprintf("%s=%s (%s)", v.Juror, v.Verdict, v.Reasoning))
	}
	return strings.Join(s, " ")
}

func TestBuiltinPersuasion(t *testing.T) {
	// Context sees no issue of its own with a changed figure; literal
	// raises it, and context, which heeds quantities, changes its vote.
	p := Pair{1, "Sales rose 12% in 2022.", "Sales rose 21% in 2022."}
	nli := &rolestest.NLI{Table: map[[2]string]evidence.Judgment{{p.Claim, p.Truth}: rolestest.Entails(0.7)}}
	card, err := builtinJury(t, nli).Run(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if got := votesOf(card.Round0); got != "literal=Mutated context=Faithful steelman=Mutated sceptic=Mutated" {
		t.Errorf("round 0: %s", got)
	}
	if card.Round2[1].Verdict != Mutated || !strings.Contains(card.Round2[1].Reasoning, "Persuaded by the other side on quantities") {
		t.Errorf("context's revote: %+v", card.Round2[1])
	}
}

func TestBuiltinNovelty(t *testing.T) {
	e := func(issue string) Evidence { return Evidence{"scope", "a", "b", issue} }
	round0 := []JurorVote{{Juror: "x", Vote: Vote{KeyEvidence: []Evidence{e("old")}}}}
	tests := []struct {
		name   string
		before []Turn
		last   []Turn
		want   bool
	}{
		{"repeats round 0", nil, []Turn{{Juror: "x", Argument: Argument{"a", []Evidence{e("old")}}}}, false},
		{"repeats an earlier turn", []Turn{{Argument: Argument{"a", []Evidence{e("turn")}}}}, []Turn{{Argument: Argument{"a", []Evidence{e("TURN")}}}}, false},
		{"a new point", nil, []Turn{{Juror: "y", Argument: Argument{"a", []Evidence{e("old"), e("new")}}}}, true},
		{"no points", nil, []Turn{{Argument: Argument{"nothing", []Evidence{}}}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := builtinNovelty{}.novel(context.Background(), noveltyInput{Round0: round0, Before: tt.before, Last: tt.last})
			if err != nil {
				t.Fatal(err)
			}
			if c.NewReasoning != tt.want || c.Reason == "" {
				t.Errorf("got %+v", c)
			}
		})
	}
}

func TestRuleBookIsBounded(t *testing.T) {
	rb := newRuleBook(&rolestest.NLI{})
	for i := 0; i < memoPairs+10; i++ {
		if _, err := rb.facts(context.Background(), fmt.Sprint("claim ", i), "truth"); err != nil {
			t.Fatal(err)
		}
	}
	if len(rb.memo) != memoPairs || len(rb.order) != memoPairs {
		t.Errorf("memo holds %d pairs", len(rb.memo))
	}
}

func TestRuleBookDoesNotKeepErrors(t *testing.T) {
	nli := &rolestest.NLI{Err: fmt.Errorf("down")}
	rb := newRuleBook(nli)
	if _, err := rb.facts(context.Background(), "c", "t"); err == nil {
		t.Fatal("no error")
	}
	nli.Err = nil
	if _, err := rb.facts(context.Background(), "c", "t"); err != nil {
		t.Errorf("a failed derivation was memoised: %v", err)
	}
}

func TestNewNeedsCollaborators(t *testing.T) {
	if _, err := New(Deps{}, DefaultConfig()); err == nil || !strings.Contains(err.Error(), "NLI") {
		t.Errorf("built-in roles without NLI: %v", err)
	}
	cfg := DefaultConfig()
	cfg.Models.Parser = "llama3"
	if _, err := New(Deps{NLI: &rolestest.NLI{}}, cfg); err == nil || !strings.Contains(err.Error(), "model backend") {
		t.Errorf("a model role without a backend: %v", err)
	}
	cfg = DefaultConfig()
	cfg.Debate.MaxRounds = -1
	if _, err := New(Deps{NLI: &rolestest.NLI{}}, cfg); err == nil {
		t.Error("an invalid config was accepted")
	}
}

func TestValidatePair(t *testing.T) {
	j := builtinJury(t, &rolestest.NLI{})
	for _, tt := range []struct {
		p     Pair
		field string
	}{
		{Pair{Claim: " ", Truth: "t"}, "claim"},
		{Pair{Claim: "c", Truth: ""}, "truth"},
		{Pair{Claim: strings.Repeat("c", MaxClaimChars+1), Truth: "t"}, "claim"},
		{Pair{Claim: "c", Truth: "t\xff"}, "truth"},
	} {
		_, err := j.Run(context.Background(), tt.p)
		rolestest.AssertErr(t, err, tt.field)
	}
}

// TestBuiltinOutputsMatchTheSchemas holds the built-in roles to the JSON
// schemas the model-backed roles are sent.
func TestBuiltinOutputsMatchTheSchemas(t *testing.T) {
	p := Pair{1, "Coffee lowers liver cancer risk in 2020.", "Coffee may lower liver cancer risk in 2021."}
	nli := &rolestest.NLI{Table: map[[2]string]evidence.Judgment{{p.Claim, p.Truth}: rolestest.Entails(0.8)}}
	j := builtinJury(t, nli)
	card, err := j.Run(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if !card.Debate.Held {
		t.Fatal("the pair was meant to split the jury")
	}
	check := func(schema []byte, v any) {
		t.Helper()
		b, _ := json.Marshal(v)
		if err := structured.Validate(schema, string(b)); err != nil {
			t.Errorf("%s: %v", b, err)
		}
	}
	check(frameSchema(frameFields), card.FactFrame)
	for _, v := range card.Round0 {
		check(voteSchema, v.Vote)
	}
	for _, turn := range card.Debate.Transcript {
		check(argueSchema, turn.Argument)
	}
	for _, v := range card.Round2 {
		check(revoteSchema, v.Revote)
	}
	ruling := Ruling{Reasoning: card.Reasoning, MinimalEdit: card.MinimalEdit}
	for _, a := range card.Rubric {
		ruling.Answers = append(ruling.Answers, AxisAnswer{a.Axis, a.Answer, a.Reason})
	}
	check(rulingSchema(j.cfg.Foreperson.Rubric), ruling)
	for _, c := range card.Debate.NoveltyChecks {
		check(noveltySchema, noveltyReply{c.NewReasoning, c.Reason})
	}
}
