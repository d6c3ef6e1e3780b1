package jury

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/verity-fc/verity/agents/internal/rolestest"
	"github.com/verity-fc/verity/agents/internal/structured"
)

var pair = Pair{ID: 7, Claim: "Coffee prevents liver cancer.", Truth: "Coffee may be associated with lower liver cancer risk."}

const frameReply = `{"entities": ["coffee"], "quantities": [], "scope": {"region": "", "group": "", "timeframe": ""}, "modality": "may", "relationship_type": "correlation", "caveats": []}`

// fakeJuror answers each of its prompts by stage, with markers that tell its
// outputs apart: REASON-name in round 0, ARGUE-name in debate, REVOTE-name
// at the revote.
func fakeJuror(name, verdict, revote string) func(string) (string, error) {
	return func(prompt string) (string, error) {
		switch {
		case strings.Contains(prompt, "This is round 0"):
			return fmt.Sprintf(`{"verdict": %q, "confidence": 0.8, "key_evidence": [{"field": "modality", "claim_says": "prevents", "truth_says": "may", "issue": "point of %s"}], "reasoning": "REASON-%s"}`, verdict, name, name), nil
		case strings.Contains(prompt, "of the debate"):
			return fmt.Sprintf(`{"argument": "ARGUE-%s", "key_evidence": []}`, name), nil
		case strings.Contains(prompt, "This is round 2"):
			return fmt.Sprintf(`{"verdict": %q, "confidence": 0.7, "reasoning": "REVOTE-%s"}`, revote, name), nil
		}
		return "", errors.New("unexpected prompt")
	}
}

func ruling(answers ...string) string {
	axes := []string{AxisNumeric, AxisScope, AxisCausal, AxisCertainty, AxisContext}
	var parts []string
	edit := ""
	for i, a := range answers {
		parts = append(parts, fmt.Sprintf(`{"axis": %q, "answer": %q, "reason": "because"}`, axes[i], a))
		if a == "No" {
			edit = "Coffee may be associated with lower liver cancer risk."
		}
	}
	return fmt.Sprintf(`{"answers": [%s], "reasoning": "FOREPERSON-REASONING", "minimal_edit": %q}`, strings.Join(parts, ", "), edit)
}

// modelJury is a jury whose every role is a fake model: jurors literal,
// context, steelman and sceptic vote as given (round 0, then revote).
func modelJury(t *testing.T, votes map[string][2]string, edit func(*Config, *rolestest.Models)) (*Jury, *rolestest.Models) {
	t.Helper()
	m := &rolestest.Models{Answer: map[string]func(string) (string, error){
		"m-parser":  rolestest.Reply(frameReply),
		"m-novelty": rolestest.Reply(`{"new_reasoning": false, "reason": "nothing new"}`),
		"m-fore":    rolestest.Reply(ruling("Yes", "Yes", "Yes", "Yes", "Yes")),
	}}
	cfg := DefaultConfig()
	cfg.Models = ModelsConfig{Parser: "m-parser", Agents: "unused", Foreperson: "m-fore", Novelty: "m-novelty"}
	for i := range cfg.Agents {
		name := cfg.Agents[i].Name
		cfg.Agents[i].Model = "m-" + name
		m.Answer["m-"+name] = fakeJuror(name, votes[name][0], votes[name][1])
	}
	if edit != nil {
		edit(&cfg, m)
	}
	j, err := New(Deps{Chatter: m, Logger: quiet}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return j, m
}

var (
	allFaithful = map[string][2]string{"literal": {Faithful, Faithful}, "context": {Faithful, Faithful}, "steelman": {Faithful, Faithful}, "sceptic": {Faithful, Faithful}}
	split       = map[string][2]string{"literal": {Mutated, Mutated}, "context": {Mutated, Mutated}, "steelman": {Faithful, Faithful}, "sceptic": {Faithful, Mutated}}
)

func TestUnanimousVoteSkipsTheDebate(t *testing.T) {
	j, m := modelJury(t, allFaithful, nil)
	card, err := j.Run(context.Background(), pair)
	if err != nil {
		t.Fatal(err)
	}
	if card.Debate.Held || card.Debate.Rounds != 0 || len(card.Debate.Transcript) != 0 || !strings.Contains(card.Debate.StopReason, "unanimous") {
		t.Errorf("debate = %+v", card.Debate)
	}
	if n := len(m.Prompts("m-novelty")); n != 0 {
		t.Errorf("novelty checked %d times without a debate", n)
	}
	// The revote still happens, with an empty transcript.
	for _, name := range []string{"literal", "context", "steelman", "sceptic"} {
		if ps := m.Prompts("m-" + name); len(ps) != 2 || !strings.Contains(ps[1], `"debate_transcript": []`) {
			t.Errorf("%s prompts = %d", name, len(ps))
		}
	}
	if card.Verdict != Faithful || card.Confidence != 0.7 || card.DissentNote != "" || card.MinimalEdit != "" || len(card.Rubric) != 5 || card.PairID != 7 {
		t.Errorf("card = %+v", card)
	}
}

func TestSplitVoteIsDebated(t *testing.T) {
	j, m := modelJury(t, split, nil)
	card, err := j.Run(context.Background(), pair)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, turn := range card.Debate.Transcript {
		order = append(order, fmt.Sprintf("%d %s %s %s", turn.Round, turn.Stage, turn.Side, turn.Juror))
	}
	want := []string{
		"1 constructive Mutated literal", "1 constructive Mutated context",
		"1 constructive Faithful steelman", "1 constructive Faithful sceptic",
		"1 rebuttal Mutated literal", "1 rebuttal Mutated context",
		"1 rebuttal Faithful steelman", "1 rebuttal Faithful sceptic",
	}
	if strings.Join(order, "\n") != strings.Join(want, "\n") {
		t.Errorf("transcript order:\n%s\nwant:\n%s", strings.Join(order, "\n"), strings.Join(want, "\n"))
	}
	if !card.Debate.Held || card.Debate.Rounds != 1 || len(card.Debate.NoveltyChecks) != 1 || !strings.Contains(card.Debate.StopReason, "no new reasoning") {
		t.Errorf("debate = %+v", card.Debate)
	}
	if len(m.Prompts("m-novelty")) != 1 {
		t.Errorf("novelty checked %d times", len(m.Prompts("m-novelty")))
	}
	// Each speaker saw the turns before it.
	if ps := m.Prompts("m-literal"); !strings.Contains(ps[1], `"transcript_so_far": []`) {
		t.Errorf("the first speaker saw turns")
	}
	if ps := m.Prompts("m-sceptic"); !strings.Contains(ps[1], "ARGUE-steelman") || strings.Contains(ps[1], "ARGUE-sceptic") {
		t.Errorf("sceptic's constructive did not see exactly the earlier turns")
	}
	// Round 2: 3 Mutated, 1 Faithful; all axes Yes gives Faithful anyway,
	// and the note names the three.
	if card.Verdict != Faithful || card.DissentNote != "literal, context, sceptic voted Mutated (3 of 4), not a strong dissent (threshold 2)." {
		t.Errorf("verdict %s, note %q", card.Verdict, card.DissentNote)
	}
}

func TestDebateStopsAtMaxRounds(t *testing.T) {
	j, m := modelJury(t, split, func(c *Config, m *rolestest.Models) {
		c.Debate.MaxRounds = 3
		m.Answer["m-novelty"] = rolestest.Reply(`{"new_reasoning": true, "reason": "a new point"}`)
	})
	card, err := j.Run(context.Background(), pair)
	if err != nil {
		t.Fatal(err)
	}
	if card.Debate.Rounds != 3 || len(card.Debate.NoveltyChecks) != 3 || len(card.Debate.Transcript) != 8+4+4 ||
		!strings.Contains(card.Debate.StopReason, "max_rounds (3)") || len(m.Prompts("m-novelty")) != 3 {
		t.Errorf("debate = %d rounds, %d checks, %d turns, %q", card.Debate.Rounds, len(card.Debate.NoveltyChecks), len(card.Debate.Transcript), card.Debate.StopReason)
	}
	if last := card.Debate.Transcript[len(card.Debate.Transcript)-1]; last.Round != 3 || last.Stage != StageRebuttal {
		t.Errorf("last turn = %+v", last)
	}
}

func TestDebateMaxRoundsZero(t *testing.T) {
	j, _ := modelJury(t, split, func(c *Config, _ *rolestest.Models) { c.Debate.MaxRounds = 0 })
	card, err := j.Run(context.Background(), pair)
	if err != nil {
		t.Fatal(err)
	}
	if card.Debate.Held || !strings.Contains(card.Debate.StopReason, "max_rounds is 0") {
		t.Errorf("debate = %+v", card.Debate)
	}
}

func TestNoveltyFailureStopsTheDebate(t *testing.T) {
	j, _ := modelJury(t, split, func(_ *Config, m *rolestest.Models) {
		m.Answer["m-novelty"] = rolestest.Reply(`{"new_reasoning": "maybe"}`)
	})
	card, err := j.Run(context.Background(), pair)
	if err != nil {
		t.Fatal(err)
	}
	if card.Debate.Rounds != 1 || !strings.Contains(card.Debate.StopReason, "novelty check failed") || len(card.Round2) != 4 {
		t.Errorf("debate = %+v", card.Debate)
	}
}

var errBackend = errors.New("connection refused")

func failing(string) (string, error) { return "", errBackend }

func TestFailedJurorIsExcludedAndReported(t *testing.T) {
	j, _ := modelJury(t, split, func(_ *Config, m *rolestest.Models) { m.Answer["m-sceptic"] = failing })
	card, err := j.Run(context.Background(), pair)
	if err != nil {
		t.Fatal(err)
	}
	if len(card.Excluded) != 1 || card.Excluded[0].Juror != "sceptic" || card.Excluded[0].Stage != "round0" || !strings.Contains(card.Excluded[0].Error, "connection refused") {
		t.Errorf("excluded = %+v", card.Excluded)
	}
	for _, v := range card.Round0 {
		if v.Juror == "sceptic" {
			t.Error("the failed juror's vote was counted in round 0")
		}
	}
	if len(card.Round0) != 3 || len(card.Round2) != 3 {
		t.Errorf("round 0 %d votes, round 2 %d", len(card.Round0), len(card.Round2))
	}
	for _, turn := range card.Debate.Transcript {
		if turn.Juror == "sceptic" {
			t.Error("the failed juror spoke in the debate")
		}
	}
}

func TestInvalidJurorOutputIsRetriedThenExcluded(t *testing.T) {
	j, m := modelJury(t, allFaithful, func(c *Config, m *rolestest.Models) {
		c.Attempts = 2
		m.Answer["m-context"] = rolestest.Reply(`{"verdict": "Unsure", "confidence": 0.5, "key_evidence": [], "reasoning": "hmm"}`)
	})
	card, err := j.Run(context.Background(), pair)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(m.Prompts("m-context")); n != 2 {
		t.Errorf("context was asked %d times, want 2", n)
	}
	if len(card.Excluded) != 1 || !strings.Contains(card.Excluded[0].Error, "JUROR context") || !strings.Contains(card.Excluded[0].Error, "Faithful or Mutated") {
		t.Errorf("excluded = %+v", card.Excluded)
	}
}

func TestTooFewJurorsFailsThePair(t *testing.T) {
	j, _ := modelJury(t, split, func(_ *Config, m *rolestest.Models) {
		m.Answer["m-sceptic"] = failing
		m.Answer["m-literal"] = rolestest.Reply(`not json`)
	})
	_, err := j.Run(context.Background(), pair)
	var tf *TooFewJurorsError
	if !errors.As(err, &tf) || tf.Have != 2 || tf.Need != 3 || tf.Stage != "round0" || tf.PairID != 7 {
		t.Fatalf("err = %v", err)
	}
	if !errors.Is(err, errBackend) {
		t.Error("the error does not unwrap to the backend's")
	}
	var se *structured.Error
	if !errors.As(err, &se) || se.Agent != "JUROR literal" {
		t.Errorf("the error does not unwrap to the invalid output: %v", err)
	}
	if !strings.Contains(err.Error(), "min_jurors") || !strings.Contains(err.Error(), "sceptic") {
		t.Errorf("message: %v", err)
	}
}

func TestJurorFailingInDebateIsExcludedFromTheRevote(t *testing.T) {
	j, _ := modelJury(t, split, func(_ *Config, m *rolestest.Models) {
		good := m.Answer["m-steelman"]
		m.Answer["m-steelman"] = func(p string) (string, error) {
			if strings.Contains(p, "of the debate") {
				return "", errBackend
			}
			return good(p)
		}
	})
	card, err := j.Run(context.Background(), pair)
	if err != nil {
		t.Fatal(err)
	}
	if len(card.Excluded) != 1 || card.Excluded[0].Stage != "debate" || len(card.Round2) != 3 {
		t.Errorf("excluded %+v, round 2 %+v", card.Excluded, card.Round2)
	}
	for _, v := range card.Round2 {
		if v.Juror == "steelman" {
			t.Error("the juror that failed in debate was counted at the revote")
		}
	}
}

// TestRoleIsolation proves what each role's prompt may and may not hold.
func TestRoleIsolation(t *testing.T) {
	j, m := modelJury(t, split, nil)
	if _, err := j.Run(context.Background(), pair); err != nil {
		t.Fatal(err)
	}
	names := []string{"literal", "context", "steelman", "sceptic"}
	parser := m.Prompts("m-parser")[0]
	if !strings.Contains(parser, pair.Claim) || !strings.Contains(parser, pair.Truth) || strings.Contains(parser, "REASON-") {
		t.Error("parser prompt")
	}
	for _, name := range names {
		ps := m.Prompts("m-" + name)
		round0, revote := ps[0], ps[len(ps)-1]
		// Round 0 is independent: no other juror's output.
		if strings.Contains(round0, "REASON-") || strings.Contains(round0, "ARGUE-") || !strings.Contains(round0, `"modality": "may"`) {
			t.Errorf("%s round-0 prompt holds another juror's output or lacks the frame", name)
		}
		// The revote sees every round-0 output and the transcript.
		for _, other := range names {
			if !strings.Contains(revote, "REASON-"+other) || !strings.Contains(revote, "ARGUE-"+other) {
				t.Errorf("%s revote prompt lacks %s's round-0 output or turn", name, other)
			}
		}
	}
	// The foreperson sees the transcript and the round-2 votes, never the
	// round-0 outputs.
	fore := m.Prompts("m-fore")[0]
	for _, name := range names {
		if !strings.Contains(fore, "REVOTE-"+name) || !strings.Contains(fore, "ARGUE-"+name) || strings.Contains(fore, "REASON-"+name) {
			t.Errorf("foreperson prompt and %s", name)
		}
	}
}

func TestVerdictFromTheRubric(t *testing.T) {
	tests := []struct {
		name    string
		answers []string
		votes   map[string][2]string
		verdict string
	}{
		{"all yes", []string{"Yes", "Yes", "Yes", "Yes", "Yes"}, split, Faithful},
		{"four yes and a 2-2 split", []string{"Yes", "Yes", "No", "Yes", "Yes"},
			map[string][2]string{"literal": {Mutated, Mutated}, "context": {Mutated, Mutated}, "steelman": {Faithful, Faithful}, "sceptic": {Faithful, Faithful}}, Ambiguous},
		{"four yes and a 3-1 split", []string{"Yes", "Yes", "No", "Yes", "Yes"}, split, Mutated},
		{"two yes and a 2-2 split", []string{"No", "Yes", "No", "Yes", "No"},
			map[string][2]string{"literal": {Mutated, Mutated}, "context": {Mutated, Mutated}, "steelman": {Faithful, Faithful}, "sceptic": {Faithful, Faithful}}, Mutated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, _ := modelJury(t, tt.votes, func(_ *Config, m *rolestest.Models) { m.Answer["m-fore"] = rolestest.Reply(ruling(tt.answers...)) })
			card, err := j.Run(context.Background(), pair)
			if err != nil {
				t.Fatal(err)
			}
			if card.Verdict != tt.verdict {
				t.Errorf("verdict = %s, want %s", card.Verdict, tt.verdict)
			}
			if (card.MinimalEdit != "") != (tt.verdict == Mutated) {
				t.Errorf("minimal_edit = %q with verdict %s", card.MinimalEdit, card.Verdict)
			}
			if card.Rubric[2].Question == "" || card.Reasoning != "FOREPERSON-REASONING" {
				t.Errorf("card = %+v", card)
			}
		})
	}
}

func TestInvalidForepersonFailsThePair(t *testing.T) {
	j, _ := modelJury(t, allFaithful, func(_ *Config, m *rolestest.Models) {
		m.Answer["m-fore"] = rolestest.Reply(`{"answers": [], "reasoning": "r", "minimal_edit": ""}`)
	})
	_, err := j.Run(context.Background(), pair)
	var se *structured.Error
	if !errors.As(err, &se) || se.Agent != "FOREPERSON" {
		t.Errorf("err = %v", err)
	}
}

func TestRunBatch(t *testing.T) {
	var calls atomic.Int32
	j, _ := modelJury(t, allFaithful, func(c *Config, m *rolestest.Models) {
		c.Parallelism = 3
		m.Answer["m-parser"] = func(string) (string, error) { calls.Add(1); return frameReply, nil }
	})
	pairs := []Pair{{0, "a", "b"}, {1, "c", ""}, {2, "e", "f"}, {3, "g", "h"}}
	out := j.RunBatch(context.Background(), pairs)
	if len(out) != 4 || calls.Load() != 3 {
		t.Fatalf("%d outcomes, %d parser calls", len(out), calls.Load())
	}
	for i, o := range out {
		if o.PairID != i {
			t.Errorf("outcome %d is pair %d", i, o.PairID)
		}
		if (o.Card == nil) != (i == 1) || (o.Error != "") != (i == 1) {
			t.Errorf("outcome %d = %+v", i, o)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, o := range j.RunBatch(ctx, pairs) {
		if !errors.Is(o.Err, context.Canceled) {
			t.Errorf("cancelled batch: %+v", o)
		}
	}
}
