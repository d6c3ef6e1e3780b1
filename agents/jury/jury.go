// Package jury runs the agentic jury of seed 002 on (claim, truth) pairs: a
// parser builds a fact frame, configurable jurors vote independently, a
// debate runs when the vote is split, the jurors revote, and a foreperson
// answers a binary rubric from which the verdict (Faithful, Mutated or
// Ambiguous) follows by a fixed rule.
//
// The rules fail closed: a debate happens only on a split vote and stops
// when a round adds nothing new or debate.max_rounds is reached; a juror
// whose call fails or whose output breaks its schema is excluded and
// reported, never counted; a pair with fewer successful jurors than
// min_jurors fails. Every role is built in (model name "verity/builtin",
// the default: rules grounded in the NLI judge and the quantity checks) or
// served by a chat model through the prompts package.
package jury

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"unicode/utf8"

	"golang.org/x/sync/errgroup"

	"github.com/verity-fc/verity/agents/internal/structured"
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/llm"
)

// Verdicts.
const (
	Faithful  = "Faithful"
	Mutated   = "Mutated"
	Ambiguous = "Ambiguous"
)

// Debate stages.
const (
	StageConstructive = "constructive"
	StageRebuttal     = "rebuttal"
)

// Pair is one (claim, truth) pair.
type Pair struct {
	// ID is the pair's row index in its CSV, or its index in a request.
	ID    int    `json:"id"`
	Claim string `json:"claim"`
	Truth string `json:"truth"`
}

// Quantity is a figure of the fact frame.
type Quantity struct {
	Value   string `json:"value"`
	Unit    string `json:"unit"`
	InClaim bool   `json:"in_claim"`
	InTruth bool   `json:"in_truth"`
}

// Scope is who, where and when a statement applies to; "" when not stated.
type Scope struct {
	Region    string `json:"region"`
	Group     string `json:"group"`
	Timeframe string `json:"timeframe"`
}

// FactFrame is the parser's structured reading of a pair. Only the fields
// fact_frame.fields lists are set.
type FactFrame struct {
	Entities   []string   `json:"entities,omitzero"`
	Quantities []Quantity `json:"quantities,omitzero"`
	Scope      *Scope     `json:"scope,omitzero"`
	// Modality is may, likely, caused, proved, approximately or other.
	Modality string `json:"modality,omitzero"`
	// RelationshipType is correlation, causation or description.
	RelationshipType string   `json:"relationship_type,omitzero"`
	Caveats          []string `json:"caveats,omitzero"`
}

// Evidence is one point a juror makes.
type Evidence struct {
	// Field is the fact frame field or aspect the point concerns.
	Field     string `json:"field"`
	ClaimSays string `json:"claim_says"`
	TruthSays string `json:"truth_says"`
	Issue     string `json:"issue"`
}

// Vote is a juror's round-0 output.
type Vote struct {
	// Verdict is Faithful or Mutated.
	Verdict string `json:"verdict"`
	// Confidence is in [0,1].
	Confidence  float64    `json:"confidence"`
	KeyEvidence []Evidence `json:"key_evidence"`
	Reasoning   string     `json:"reasoning"`
}

// Revote is a juror's round-2 output.
type Revote struct {
	Verdict    string  `json:"verdict"`
	Confidence float64 `json:"confidence"`
	Reasoning  string  `json:"reasoning"`
}

// Argument is what a juror says in one debate turn.
type Argument struct {
	Argument    string     `json:"argument"`
	KeyEvidence []Evidence `json:"key_evidence"`
}

// Turn is one debate turn.
type Turn struct {
	Round int    `json:"round"`
	Stage string `json:"stage"`
	// Side is the speaker's round-0 verdict.
	Side  string `json:"side"`
	Juror string `json:"juror"`
	Argument
}

// NoveltyCheck is the checker's answer after a debate round.
type NoveltyCheck struct {
	Round        int    `json:"round"`
	NewReasoning bool   `json:"new_reasoning"`
	Reason       string `json:"reason"`
}

// Debate records round 1.
type Debate struct {
	Held bool `json:"held"`
	// Rounds is how many debate rounds ran.
	Rounds int `json:"rounds"`
	// StopReason says why the debate ended or was skipped.
	StopReason    string         `json:"stop_reason"`
	Transcript    []Turn         `json:"transcript"`
	NoveltyChecks []NoveltyCheck `json:"novelty_checks"`
}

// AxisAnswer is the foreperson's answer on one rubric axis.
type AxisAnswer struct {
	Axis string `json:"axis"`
	// Answer is Yes or No.
	Answer string `json:"answer"`
	Reason string `json:"reason"`
}

// Ruling is the foreperson's output: one answer per rubric axis, in
// rubric order.
type Ruling struct {
	Answers   []AxisAnswer `json:"answers"`
	Reasoning string       `json:"reasoning"`
	// MinimalEdit is the smallest change to the claim that makes every
	// answer Yes; "" when every answer is Yes.
	MinimalEdit string `json:"minimal_edit"`
}

// RubricAnswer is an axis answer on the card, with its question.
type RubricAnswer struct {
	Axis     string `json:"axis"`
	Question string `json:"question"`
	Answer   string `json:"answer"`
	Reason   string `json:"reason"`
}

// JurorVote is a named juror's round-0 vote.
type JurorVote struct {
	Juror string `json:"juror"`
	Vote
}

// JurorRevote is a named juror's round-2 vote.
type JurorRevote struct {
	Juror string `json:"juror"`
	Revote
}

// JurorFailure reports a juror excluded from a pair.
type JurorFailure struct {
	Juror string `json:"juror"`
	// Stage is "round0", "debate" or "round2".
	Stage string `json:"stage"`
	Error string `json:"error"`
}

// Card is the verdict card of one pair.
type Card struct {
	PairID int    `json:"pair_id"`
	Claim  string `json:"claim"`
	Truth  string `json:"truth"`
	// Verdict is Faithful, Mutated or Ambiguous.
	Verdict string `json:"verdict"`
	// Confidence is in [0,1]; see Confidence.
	Confidence float64        `json:"confidence"`
	Rubric     []RubricAnswer `json:"rubric"`
	Reasoning  string         `json:"reasoning"`
	// MinimalEdit is set when the verdict is Mutated.
	MinimalEdit string `json:"minimal_edit,omitempty"`
	// DissentNote names the jurors who voted against the verdict; "" when
	// none did.
	DissentNote string        `json:"dissent_note"`
	FactFrame   FactFrame     `json:"fact_frame"`
	Round0      []JurorVote   `json:"round0_votes"`
	Round2      []JurorRevote `json:"round2_votes"`
	Debate      Debate        `json:"debate"`
	// Excluded lists jurors whose failure kept them out of the verdict.
	Excluded []JurorFailure `json:"excluded_jurors"`
}

// TooFewJurorsError fails a pair that kept fewer successful jurors than
// min_jurors. It unwraps to the jurors' errors.
type TooFewJurorsError struct {
	PairID   int
	Stage    string
	Have     int
	Need     int
	Failures []JurorFailure
	errs     []error
}

func (e *TooFewJurorsError) Error() string {
	names := make([]string, len(e.Failures))
	for i, f := range e.Failures {
		names[i] = f.Juror + " (" + f.Stage + "): " + f.Error
	}
	return fmt.Sprintf("pair %d: %d juror(s) left after %s, %d required (min_jurors); failed: %s", e.PairID, e.Have, e.Stage, e.Need, strings.Join(names, "; "))
}

func (e *TooFewJurorsError) Unwrap() []error { return e.errs }

// NLI judges whether passages entail, contradict or are neutral to a claim
// (the nli.Judge contract).
type NLI interface {
	Judge(ctx context.Context, claim string, passages []string) ([]evidence.Judgment, error)
}

// Deps are the jury's collaborators.
type Deps struct {
	// Chatter serves every role that names a model; required when one does.
	Chatter llm.Chatter
	// NLI grounds the built-in roles; required when any role is built in.
	NLI NLI
	// Logger defaults to slog.Default().
	Logger *slog.Logger
}

// Limits bound a pair.
const (
	// MaxClaimChars and MaxTruthChars bound a pair's texts, in characters.
	MaxClaimChars = 2000
	MaxTruthChars = 5000
)

// Jury runs pairs through the protocol. It is safe for concurrent use.
type Jury struct {
	cfg        Config
	log        *slog.Logger
	parser     parser
	jurors     []juror
	novelty    noveltyChecker
	foreperson foreperson
}

// The roles. Each method's input is everything its role may see.
type (
	parser interface {
		parse(ctx context.Context, claim, truth string, fields []string) (FactFrame, error)
	}
	juror interface {
		vote(ctx context.Context, in voteInput) (Vote, error)
		argue(ctx context.Context, in argueInput) (Argument, error)
		revote(ctx context.Context, in revoteInput) (Revote, error)
	}
	noveltyChecker interface {
		novel(ctx context.Context, in noveltyInput) (NoveltyCheck, error)
	}
	foreperson interface {
		rule(ctx context.Context, in forepersonInput) (Ruling, error)
	}
)

// voteInput is a juror's round-0 input: the pair and the frame, nothing
// from another juror.
type voteInput struct {
	Agent        AgentConfig
	Claim, Truth string
	Frame        FactFrame
}

// argueInput is a juror's debate-turn input.
type argueInput struct {
	Agent        AgentConfig
	Claim, Truth string
	Frame        FactFrame
	Own          Vote
	Side, Stage  string
	Round        int
	Transcript   []Turn
}

// revoteInput is a juror's round-2 input: the transcript and every
// round-0 output.
type revoteInput struct {
	Agent        AgentConfig
	Claim, Truth string
	Frame        FactFrame
	Round0       []JurorVote
	Transcript   []Turn
}

// noveltyInput is the checker's input: what came before the last round
// (round-0 outputs and earlier turns) and the last round.
type noveltyInput struct {
	Round0 []JurorVote
	Before []Turn
	Last   []Turn
}

// forepersonInput is the foreperson's input: the frame, the transcript and
// the round-2 votes, with the pair, which the rubric questions and the
// minimal edit are about. Round-0 votes are not part of it.
type forepersonInput struct {
	Claim, Truth string
	Frame        FactFrame
	Rubric       []RubricAxis
	Transcript   []Turn
	Round2       []JurorRevote
}

// New returns a jury. cfg must have passed Validate (LoadConfig does
// that); New validates it again and fails when a role needs a
// collaborator that deps lacks.
func New(deps Deps, cfg Config) (*Jury, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("jury config: %w", err)
	}
	j := &Jury{cfg: cfg, log: deps.Logger}
	if j.log == nil {
		j.log = slog.Default()
	}
	needsNLI := false
	var modelRole, modelName string // the first role that names a model
	use := func(role, model string) {
		if model == Builtin {
			needsNLI = true
		} else if modelRole == "" {
			modelRole, modelName = role, model
		}
	}
	use("parser", cfg.Models.Parser)
	use("foreperson", cfg.Models.Foreperson)
	use("novelty", cfg.Models.Novelty)
	for _, a := range cfg.Agents {
		use("agent "+a.Name, a.Model)
	}
	if modelRole != "" && deps.Chatter == nil {
		return nil, fmt.Errorf("jury: the %s names model %q but no model backend is configured", modelRole, modelName)
	}
	if needsNLI && deps.NLI == nil {
		return nil, errors.New("jury: the built-in roles need an NLI judge")
	}
	rules := newRuleBook(deps.NLI)
	model := func(name string) structured.Model {
		return structured.Model{Chatter: deps.Chatter, Name: name, Attempts: cfg.Attempts}
	}
	if cfg.Models.Parser == Builtin {
		j.parser = builtinParser{}
	} else {
		j.parser = modelParser{model(cfg.Models.Parser)}
	}
	for _, a := range cfg.Agents {
		if a.Model == Builtin {
			j.jurors = append(j.jurors, builtinJuror{name: a.Name, rules: rules})
		} else {
			j.jurors = append(j.jurors, modelJuror{model(a.Model)})
		}
	}
	if cfg.Models.Novelty == Builtin {
		j.novelty = builtinNovelty{}
	} else {
		j.novelty = modelNovelty{model(cfg.Models.Novelty)}
	}
	if cfg.Models.Foreperson == Builtin {
		j.foreperson = builtinForeperson{rules: rules}
	} else {
		j.foreperson = modelForeperson{model(cfg.Models.Foreperson)}
	}
	return j, nil
}

// Config returns the jury's validated configuration.
func (j *Jury) Config() Config { return j.cfg }

// ValidatePair checks a pair's texts; field names the offending field with
// prefix (e.g. "pairs[3]."), as an *evidence.InputError.
func ValidatePair(p Pair, prefix string) error {
	for _, f := range []struct {
		name, v string
		limit   int
	}{{"claim", p.Claim, MaxClaimChars}, {"truth", p.Truth, MaxTruthChars}} {
		n := utf8.RuneCountInString(strings.TrimSpace(f.v))
		switch {
		case !utf8.ValidString(f.v):
			return evidence.Invalid(prefix+f.name, "must be valid UTF-8")
		case n == 0:
			return evidence.Invalid(prefix+f.name, "must not be empty")
		case n > f.limit:
			return evidence.Invalid(prefix+f.name, "is %d characters; the limit is %d", n, f.limit)
		}
	}
	return nil
}

// Run takes one pair through parse, round-0 vote, debate when split,
// revote and foreperson, and returns its card.
func (j *Jury) Run(ctx context.Context, p Pair) (Card, error) {
	if err := ValidatePair(p, ""); err != nil {
		return Card{}, err
	}
	p.Claim, p.Truth = strings.TrimSpace(p.Claim), strings.TrimSpace(p.Truth)
	card := Card{PairID: p.ID, Claim: p.Claim, Truth: p.Truth, Excluded: []JurorFailure{}}

	frame, err := j.parser.parse(ctx, p.Claim, p.Truth, j.cfg.FactFrame.Fields)
	if err != nil {
		return Card{}, fmt.Errorf("pair %d: parse: %w", p.ID, err)
	}
	card.FactFrame = frame

	r := &run{j: j, pair: p, frame: frame, card: &card, active: make([]bool, len(j.jurors))}
	for i := range r.active {
		r.active[i] = true
	}
	if err := r.round0(ctx); err != nil {
		return Card{}, err
	}
	if err := r.debate(ctx); err != nil {
		return Card{}, err
	}
	if err := r.round2(ctx); err != nil {
		return Card{}, err
	}
	ruling, err := j.foreperson.rule(ctx, forepersonInput{Claim: p.Claim, Truth: p.Truth, Frame: frame, Rubric: j.cfg.Foreperson.Rubric,
		Transcript: card.Debate.Transcript, Round2: card.Round2})
	if err != nil {
		return Card{}, fmt.Errorf("pair %d: foreperson: %w", p.ID, err)
	}
	j.decide(&card, ruling)
	j.log.Debug("jury pair done", "pair", p.ID, "verdict", card.Verdict, "debate_rounds", card.Debate.Rounds, "excluded", len(card.Excluded))
	return card, nil
}

// run is one pair's progress through the protocol.
type run struct {
	j      *Jury
	pair   Pair
	frame  FactFrame
	card   *Card
	active []bool // jurors not excluded
	votes  []Vote // round-0 votes by juror index
	errs   []error
}

func (r *run) exclude(i int, stage string, err error) {
	r.active[i] = false
	r.errs = append(r.errs, err)
	r.card.Excluded = append(r.card.Excluded, JurorFailure{Juror: r.j.cfg.Agents[i].Name, Stage: stage, Error: err.Error()})
	r.j.log.Warn("juror excluded", "pair", r.pair.ID, "juror", r.j.cfg.Agents[i].Name, "stage", stage, "err", err)
}

// enough fails the pair when fewer than min_jurors remain after stage.
func (r *run) enough(ctx context.Context, stage string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("pair %d: %w", r.pair.ID, err)
	}
	have := 0
	for _, a := range r.active {
		if a {
			have++
		}
	}
	if have < r.j.cfg.MinJurors {
		return &TooFewJurorsError{PairID: r.pair.ID, Stage: stage, Have: have, Need: r.j.cfg.MinJurors, Failures: r.card.Excluded, errs: r.errs}
	}
	return nil
}

// parallel runs f for every active juror at once and excludes those whose
// f fails; f writes its result by index.
func (r *run) parallel(ctx context.Context, stage string, f func(ctx context.Context, i int) error) error {
	errs := make([]error, len(r.j.jurors))
	var g errgroup.Group
	for i := range r.j.jurors {
		if !r.active[i] {
			continue
		}
		g.Go(func() error {
			errs[i] = f(ctx, i)
			return nil
		})
	}
	_ = g.Wait()
	for i, err := range errs {
		if err != nil {
			r.exclude(i, stage, err)
		}
	}
	return r.enough(ctx, stage)
}

func (r *run) round0(ctx context.Context) error {
	r.votes = make([]Vote, len(r.j.jurors))
	err := r.parallel(ctx, "round0", func(ctx context.Context, i int) error {
		v, err := r.j.jurors[i].vote(ctx, voteInput{Agent: r.j.cfg.Agents[i], Claim: r.pair.Claim, Truth: r.pair.Truth, Frame: r.frame})
		r.votes[i] = v
		return err
	})
	if err != nil {
		return err
	}
	r.card.Round0 = []JurorVote{}
	for i, v := range r.votes {
		if r.active[i] {
			r.card.Round0 = append(r.card.Round0, JurorVote{Juror: r.j.cfg.Agents[i].Name, Vote: v})
		}
	}
	return nil
}

// sides lists the active jurors by their round-0 verdict, in config order.
func (r *run) sides() (mutated, faithful []int) {
	for i, v := range r.votes {
		if !r.active[i] {
			continue
		}
		if v.Verdict == Mutated {
			mutated = append(mutated, i)
		} else {
			faithful = append(faithful, i)
		}
	}
	return mutated, faithful
}

// debate runs round 1 when the round-0 vote is split: constructives
// (Mutated, then Faithful) and rebuttals in the first round, rebuttals in
// later ones; after each round the novelty checker decides whether to go
// on, up to debate.max_rounds.
func (r *run) debate(ctx context.Context) error {
	d := &r.card.Debate
	d.Transcript, d.NoveltyChecks = []Turn{}, []NoveltyCheck{}
	mutated, faithful := r.sides()
	switch {
	case len(mutated) == 0 || len(faithful) == 0:
		d.StopReason = "skipped: the round-0 vote was unanimous"
		return nil
	case r.j.cfg.Debate.MaxRounds == 0:
		d.StopReason = "skipped: debate.max_rounds is 0"
		return nil
	}
	d.Held = true
	for round := 1; ; round++ {
		before := len(d.Transcript)
		stages := []string{StageConstructive, StageRebuttal}
		if round > 1 {
			stages = stages[1:]
		}
		for _, stage := range stages {
			for _, side := range []string{Mutated, Faithful} {
				if err := r.speak(ctx, round, stage, side); err != nil {
					return err
				}
			}
		}
		d.Rounds = round
		if m, f := r.sides(); len(m) == 0 || len(f) == 0 {
			d.StopReason = "stopped: a side has no juror left"
			return nil
		}
		check, err := r.j.novelty.novel(ctx, noveltyInput{Round0: r.card.Round0, Before: d.Transcript[:before], Last: d.Transcript[before:]})
		if err != nil {
			// Fail closed: without a working check the debate ends.
			r.j.log.Warn("novelty check failed", "pair", r.pair.ID, "round", round, "err", err)
			d.StopReason = fmt.Sprintf("stopped: the novelty check failed after round %d: %v", round, err)
			return r.enough(ctx, "debate")
		}
		check.Round = round
		d.NoveltyChecks = append(d.NoveltyChecks, check)
		switch {
		case !check.NewReasoning:
			d.StopReason = fmt.Sprintf("stopped: round %d added no new reasoning", round)
			return nil
		case round >= r.j.cfg.Debate.MaxRounds:
			d.StopReason = fmt.Sprintf("stopped: debate.max_rounds (%d) reached", r.j.cfg.Debate.MaxRounds)
			return nil
		}
	}
}

// speak lets every active juror of side speak once at stage, in config
// order; each sees the transcript so far.
func (r *run) speak(ctx context.Context, round int, stage, side string) error {
	d := &r.card.Debate
	for i, v := range r.votes {
		if !r.active[i] || v.Verdict != side {
			continue
		}
		a := r.j.cfg.Agents[i]
		arg, err := r.j.jurors[i].argue(ctx, argueInput{Agent: a, Claim: r.pair.Claim, Truth: r.pair.Truth, Frame: r.frame, Own: v,
			Side: side, Stage: stage, Round: round, Transcript: d.Transcript})
		if err != nil {
			r.exclude(i, "debate", err)
			if err := r.enough(ctx, "debate"); err != nil {
				return err
			}
			continue
		}
		d.Transcript = append(d.Transcript, Turn{Round: round, Stage: stage, Side: side, Juror: a.Name, Argument: arg})
	}
	return nil
}

func (r *run) round2(ctx context.Context) error {
	revotes := make([]Revote, len(r.j.jurors))
	err := r.parallel(ctx, "round2", func(ctx context.Context, i int) error {
		v, err := r.j.jurors[i].revote(ctx, revoteInput{Agent: r.j.cfg.Agents[i], Claim: r.pair.Claim, Truth: r.pair.Truth, Frame: r.frame,
			Round0: r.card.Round0, Transcript: r.card.Debate.Transcript})
		revotes[i] = v
		return err
	})
	if err != nil {
		return err
	}
	r.card.Round2 = []JurorRevote{}
	for i, v := range revotes {
		if r.active[i] {
			r.card.Round2 = append(r.card.Round2, JurorRevote{Juror: r.j.cfg.Agents[i].Name, Revote: v})
		}
	}
	return nil
}

// decide fills the card's verdict from the ruling and the round-2 votes.
func (j *Jury) decide(card *Card, ruling Ruling) {
	yes := 0
	card.Rubric = make([]RubricAnswer, len(ruling.Answers))
	for i, a := range ruling.Answers {
		card.Rubric[i] = RubricAnswer{Axis: a.Axis, Question: j.cfg.Foreperson.Rubric[i].Question, Answer: a.Answer, Reason: a.Reason}
		if a.Answer == "Yes" {
			yes++
		}
	}
	faithful, mutated := Tally(card.Round2)
	card.Verdict = Aggregate(yes, len(ruling.Answers), StrongDissent(faithful, mutated, j.cfg.Foreperson.DissentThreshold))
	card.Confidence = Confidence(card.Verdict, card.Round2)
	card.DissentNote = DissentNote(card.Verdict, card.Round2, j.cfg.Foreperson.DissentThreshold)
	card.Reasoning = ruling.Reasoning
	if card.Verdict == Mutated {
		card.MinimalEdit = ruling.MinimalEdit
	}
}
