package jury

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/verity-fc/verity/agents/internal/structured"
)

// builtinJuror is one of four deterministic rule sets, each with its own
// lens (seed 002's Agents table):
//
//   - literal: do numbers, dates, names and the statement match? Figures
//     via the quantity comparison, the statement via NLI entailment.
//   - context: is nuance preserved? Qualifiers, place and group, hedges.
//   - steelman: the best reading: Mutated only on a figure the truth
//     contradicts or an NLI contradiction.
//   - sceptic: the worst reading: Faithful only when no rule finds an
//     issue and NLI entailment is at least 0.7.
//
// In debate a juror answers the other side's points on the fields of its
// lens with the rule for that field; at the revote a Faithful juror is
// persuaded when the other side raised a field it heeds and the rule for
// that field finds an issue, and a Mutated juror (never the sceptic) when
// the other side answered every field it objected to and the rules find no
// issue there.
type builtinJuror struct {
	name  string
	rules *ruleBook
}

// lenses are the fields each juror argues about in debate.
var lenses = map[string][]string{
	JurorLiteral:  {FieldQuantities, FieldEntities, FieldScope, fieldStatement},
	JurorContext:  {FieldCaveats, FieldScope, FieldModality, FieldRelationshipType},
	JurorSteelman: {FieldQuantities, FieldEntities, FieldScope, FieldModality, FieldRelationshipType, FieldCaveats, fieldStatement},
	JurorSceptic:  {FieldQuantities, FieldEntities, FieldScope, FieldModality, FieldRelationshipType, FieldCaveats, fieldStatement},
}

// heeds are the fields on which a Faithful juror can be persuaded.
var heeds = map[string][]string{
	JurorLiteral:  {FieldQuantities, FieldEntities, FieldScope},
	JurorContext:  {FieldQuantities, FieldCaveats, FieldScope, FieldModality, FieldRelationshipType},
	JurorSteelman: {FieldQuantities},
	JurorSceptic:  {FieldQuantities, FieldEntities, FieldScope, FieldModality, FieldRelationshipType, FieldCaveats},
}

// fieldStatement marks a point about the claim as a whole (the NLI
// reading); no rubric axis covers it.
const fieldStatement = "statement"

// strictEntail is the sceptic's bar for NLI entailment.
const strictEntail = 0.7

func (b builtinJuror) vote(ctx context.Context, in voteInput) (Vote, error) {
	f, err := b.rules.facts(ctx, in.Claim, in.Truth)
	if err != nil {
		return Vote{}, fmt.Errorf("juror %s: %w", b.name, err)
	}
	v := b.judge(f)
	return v, structured.Check("JUROR "+b.name, &v, checkVote)
}

func (b builtinJuror) judge(f *facts) Vote {
	nliPoint := func() Evidence {
		if f.entail >= 0.5 {
			return Evidence{fieldStatement, f.claim, f.truth, fmt.Sprintf("the truth entails the claim (NLI entailment %.2f)", f.entail)}
		}
		return Evidence{fieldStatement, f.claim, f.truth, fmt.Sprintf("the truth does not state the claim (NLI entailment %.2f, contradiction %.2f)", f.entail, f.contradict)}
	}
	var issues []Evidence
	mutatedConf := 0.75
	switch b.name {
	case JurorLiteral:
		issues = slices.Concat(f.issues(AxisNumeric), f.numericIssues(true), f.entityIssues())
		if hard(issues) {
			mutatedConf = 0.9
		}
		if len(issues) == 0 && f.entail < 0.5 {
			return Vote{Mutated, round2(1 - f.entail), []Evidence{nliPoint()}, "The figures and names raise no issue, but the truth does not state what the claim says."}
		}
	case JurorContext:
		issues = slices.Concat(f.issues(AxisContext), f.placeIssues(), f.issues(AxisCertainty), f.issues(AxisCausal))
	case JurorSteelman:
		for _, e := range f.issues(AxisNumeric) {
			if e.Issue == issueConflict {
				issues = append(issues, e)
			}
		}
		if f.contradict >= 0.5 && f.contradict > f.entail {
			issues = append(issues, nliPoint())
		}
		mutatedConf = 0.85
	case JurorSceptic:
		for _, axis := range []string{AxisNumeric, AxisScope, AxisCausal, AxisCertainty, AxisContext} {
			issues = append(issues, f.issues(axis)...)
		}
		if len(issues) == 0 && f.entail < strictEntail {
			return Vote{Mutated, 0.6, []Evidence{nliPoint()}, fmt.Sprintf("No rule finds a specific change, but NLI entailment %.2f is below the strict bar of %.2f: the claim may say more than the truth.", f.entail, strictEntail)}
		}
	}
	if len(issues) > 0 {
		return Vote{Mutated, mutatedConf, issues, reasonFor(b.name, Mutated, issues)}
	}
	points := append(f.agreeing(), nliPoint())
	conf := round2(max(0.55, f.entail))
	if b.name == JurorContext {
		conf = round2(0.6 + 0.3*f.entail)
	}
	return Vote{Faithful, conf, points, reasonFor(b.name, Faithful, points)}
}

// hard reports a point on a figure the truth gives differently.
func hard(es []Evidence) bool {
	return slices.ContainsFunc(es, func(e Evidence) bool { return e.Issue == issueConflict })
}

func reasonFor(juror, verdict string, points []Evidence) string {
	var ds []string
	for _, e := range points {
		ds = append(ds, describe(e))
	}
	if verdict == Faithful {
		return fmt.Sprintf("As %s juror I find the claim faithful: %s.", juror, strings.Join(ds, "; "))
	}
	return fmt.Sprintf("As %s juror I find the claim mutated: %s.", juror, strings.Join(ds, "; "))
}

func round2(x float64) float64 { return float64(int(x*100+0.5)) / 100 }

func (b builtinJuror) argue(ctx context.Context, in argueInput) (Argument, error) {
	f, err := b.rules.facts(ctx, in.Claim, in.Truth)
	if err != nil {
		return Argument{}, fmt.Errorf("juror %s: %w", b.name, err)
	}
	var a Argument
	if in.Stage == StageConstructive {
		a = Argument{Argument: in.Own.Reasoning, KeyEvidence: in.Own.KeyEvidence}
	} else {
		a = b.rebut(f, in)
	}
	return a, structured.Check("JUROR "+b.name, &a, checkArgument)
}

// rebut answers each field the other side raised that this juror's lens
// covers, once, with the rule for that field.
func (b builtinJuror) rebut(f *facts, in argueInput) Argument {
	a := Argument{KeyEvidence: []Evidence{}}
	answered := map[string]bool{}
	for _, t := range in.Transcript {
		if t.Side == in.Side {
			continue
		}
		for _, e := range t.KeyEvidence {
			if answered[e.Field] || !slices.Contains(lenses[b.name], e.Field) || strings.HasPrefix(e.Issue, "conceded:") {
				continue
			}
			answered[e.Field] = true
			if p, ok := b.answer(f, in.Side, e); ok {
				a.KeyEvidence = append(a.KeyEvidence, p)
			}
		}
	}
	if len(a.KeyEvidence) == 0 {
		a.Argument = "I have nothing to add on the points raised."
		return a
	}
	var ds []string
	for _, e := range a.KeyEvidence {
		ds = append(ds, e.Field+": "+e.Issue)
	}
	a.Argument = fmt.Sprintf("On the other side's points: %s.", strings.Join(ds, "; "))
	return a
}

// answer is this juror's reply on the field of an opposing point.
func (b builtinJuror) answer(f *facts, side string, e Evidence) (Evidence, bool) {
	reply := Evidence{Field: e.Field, ClaimSays: e.ClaimSays, TruthSays: e.TruthSays}
	if e.Field == fieldStatement {
		switch {
		case side == Faithful && f.contradict < 0.5:
			reply.Issue = fmt.Sprintf("rebuttal: on a charitable reading the truth does not contradict the claim (NLI contradiction %.2f, entailment %.2f)", f.contradict, f.entail)
		case side == Mutated && f.entail < strictEntail:
			reply.Issue = fmt.Sprintf("rebuttal: NLI entailment %.2f is below the strict bar of %.2f", f.entail, strictEntail)
		default:
			return Evidence{}, false
		}
		return reply, true
	}
	yes, why := f.answer(fieldAxis[e.Field])
	switch {
	case side == Faithful && yes:
		reply.Issue = "rebuttal: " + why
	case side == Faithful && slices.Contains(heeds[b.name], e.Field):
		// A point on a field this juror heeds, which the rules confirm,
		// is conceded; the revote follows from it.
		reply.Issue = "conceded: " + why
	case side == Faithful:
		reply.Issue = fmt.Sprintf("rebuttal: on the best reading the difference in %s leaves the claim's gist standing (NLI entailment %.2f)", e.Field, f.entail)
	case !yes:
		reply.Issue = "rebuttal: " + why
	default:
		return Evidence{}, false
	}
	return reply, true
}

func (b builtinJuror) revote(ctx context.Context, in revoteInput) (Revote, error) {
	f, err := b.rules.facts(ctx, in.Claim, in.Truth)
	if err != nil {
		return Revote{}, fmt.Errorf("juror %s: %w", b.name, err)
	}
	r := b.reconsider(f, in)
	return r, structured.Check("JUROR "+b.name, &r, checkRevote)
}

func (b builtinJuror) reconsider(f *facts, in revoteInput) Revote {
	i := slices.IndexFunc(in.Round0, func(v JurorVote) bool { return v.Juror == in.Agent.Name })
	if i < 0 {
		v := b.judge(f)
		return Revote{v.Verdict, v.Confidence, v.Reasoning}
	}
	own := in.Round0[i].Vote
	raised := map[string]bool{}
	for _, v := range in.Round0 {
		if v.Verdict != own.Verdict {
			for _, e := range v.KeyEvidence {
				raised[e.Field] = true
			}
		}
	}
	for _, t := range in.Transcript {
		if t.Side != own.Verdict {
			for _, e := range t.KeyEvidence {
				raised[e.Field] = true
			}
		}
	}
	if own.Verdict == Faithful {
		for _, field := range heeds[b.name] {
			if !raised[field] {
				continue
			}
			if yes, why := f.answer(fieldAxis[field]); !yes {
				return Revote{Mutated, 0.7, fmt.Sprintf("Persuaded by the other side on %s: %s.", field, why)}
			}
		}
		return Revote{Faithful, own.Confidence, "No point raised against the claim holds on the fields I weigh; I keep Faithful."}
	}
	if b.name != JurorSceptic {
		settled := len(own.KeyEvidence) > 0
		for _, e := range own.KeyEvidence {
			axis, ok := fieldAxis[e.Field]
			if !ok || !raised[e.Field] {
				settled = false
				break
			}
			if yes, _ := f.answer(axis); !yes {
				settled = false
				break
			}
		}
		if settled {
			return Revote{Faithful, 0.6, "The other side answered every point I raised and the rules find no issue there; I change to Faithful."}
		}
	}
	return Revote{Mutated, own.Confidence, "The issues I raised stand after the debate; I keep Mutated."}
}

// builtinNovelty says a round added new reasoning when it brought a point
// (field, what each side says, issue) seen neither in round 0 nor in an
// earlier turn.
type builtinNovelty struct{}

func (builtinNovelty) novel(_ context.Context, in noveltyInput) (NoveltyCheck, error) {
	key := func(e Evidence) string {
		return strings.ToLower(strings.Join([]string{e.Field, e.ClaimSays, e.TruthSays, e.Issue}, "\x00"))
	}
	seen := map[string]bool{}
	for _, v := range in.Round0 {
		for _, e := range v.KeyEvidence {
			seen[key(e)] = true
		}
	}
	for _, t := range in.Before {
		for _, e := range t.KeyEvidence {
			seen[key(e)] = true
		}
	}
	var fresh []string
	for _, t := range in.Last {
		for _, e := range t.KeyEvidence {
			if k := key(e); !seen[k] {
				seen[k] = true
				fresh = append(fresh, t.Juror+" on "+e.Field)
			}
		}
	}
	c := NoveltyCheck{NewReasoning: len(fresh) > 0}
	if c.NewReasoning {
		c.Reason = fmt.Sprintf("%d new point(s): %s", len(fresh), strings.Join(fresh, ", "))
	} else {
		c.Reason = "every point of the round was made before"
	}
	return c, structured.Check("NOVELTY", &c, checkNovelty)
}
