package prompts

import (
	"encoding/json"
	"strings"
	"testing"
)

const (
	juryClaim = "Coffee prevents liver cancer in all adults."
	juryTruth = "Drinking coffee may be associated with a lower risk of liver cancer in some adults."
)

var (
	juryFrame  = json.RawMessage(`{"entities": ["coffee", "liver cancer"], "modality": "may", "relationship_type": "correlation", "caveats": ["some adults"]}`)
	juryVote   = json.RawMessage(`{"verdict": "Mutated", "confidence": 0.9, "key_evidence": [{"field": "modality", "claim_says": "prevents", "truth_says": "may be associated", "issue": "certainty upgraded"}], "reasoning": "Hedge dropped."}`)
	juryTurns  = json.RawMessage(`[{"round": 1, "stage": "constructive", "side": "Mutated", "juror": "sceptic", "argument": "Hedge dropped.", "key_evidence": []}]`)
	juryRound2 = json.RawMessage(`[{"juror": "sceptic", "verdict": "Mutated", "confidence": 0.9, "reasoning": "Unchanged."}]`)
)

func TestJuryPrompts(t *testing.T) {
	sceptic := JuryJuror{Name: "sceptic", Role: "Sceptic"}
	rubric := []JuryAxis{{"numeric_fidelity", "Are all numbers supported?"}, {"certainty_fidelity", "Are hedges preserved?"}}
	checkGoldens(t, []goldenCase{
		{"jury_parser.golden", func() (string, error) {
			return JuryParser(juryClaim, juryTruth, []string{"entities", "quantities", "scope", "modality", "relationship_type", "caveats"})
		}},
		{"jury_parser_two_fields.golden", func() (string, error) { return JuryParser(juryClaim, juryTruth, []string{"entities", "caveats"}) }},
		{"jury_vote.golden", func() (string, error) { return JuryVote(sceptic, juryClaim, juryTruth, juryFrame) }},
		{"jury_vote_custom.golden", func() (string, error) {
			return JuryVote(JuryJuror{Name: "historian", Role: "Historian"}, juryClaim, juryTruth, juryFrame)
		}},
		{"jury_argue.golden", func() (string, error) {
			return JuryArgue(JuryArgueData{Juror: sceptic, Side: "Mutated", Stage: "rebuttal", Round: 1, Claim: juryClaim, Truth: juryTruth,
				FactFrame: juryFrame, OwnVote: juryVote, Transcript: juryTurns})
		}},
		{"jury_revote.golden", func() (string, error) {
			return JuryRevote(JuryRevoteData{Juror: sceptic, Claim: juryClaim, Truth: juryTruth, FactFrame: juryFrame,
				Round0: json.RawMessage(`[{"juror": "sceptic", "verdict": "Mutated"}]`), Transcript: json.RawMessage(`[]`)})
		}},
		{"jury_novelty.golden", func() (string, error) { return JuryNovelty(juryTurns, juryTurns) }},
		{"jury_foreperson.golden", func() (string, error) {
			return JuryForeperson(JuryForepersonData{Claim: juryClaim, Truth: juryTruth, Rubric: rubric, FactFrame: juryFrame, Transcript: juryTurns, Round2: juryRound2})
		}},
	})
}

// TestJuryVoteCarriesNoOtherJuror: the round-0 prompt has no slot for
// another juror's output.
func TestJuryVoteCarriesNoOtherJuror(t *testing.T) {
	p, err := JuryVote(JuryJuror{Name: "literal", Role: "Literal Fact-Checker"}, juryClaim, juryTruth, juryFrame)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"transcript", "round0_outputs", "Hedge dropped", "sceptic"} {
		if strings.Contains(p, s) {
			t.Errorf("round-0 prompt contains %q", s)
		}
	}
}

func TestJuryPromptRejectsInvalidJSON(t *testing.T) {
	if _, err := JuryVote(JuryJuror{Name: "x", Role: "X"}, "c", "t", json.RawMessage(`{not json`)); err == nil {
		t.Error("an invalid fact frame was rendered")
	}
}
