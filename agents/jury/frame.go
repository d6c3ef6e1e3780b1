package jury

import (
	"context"
	"slices"
	"strings"

	"github.com/verity-fc/verity/agents/internal/lexicon"
	"github.com/verity-fc/verity/agents/internal/structured"
	"github.com/verity-fc/verity/quantity"
	txt "github.com/verity-fc/verity/text"
)

// builtinParser builds the fact frame by rules: entities are proper
// names, quantities come from the quantity package, scope from places
// after "in", "across", ..., groups of people and dates, modality and
// relationship type from hedge, certainty and causal phrases, caveats from
// qualifying words ("only", "except", "among", ...).
type builtinParser struct{}

func (builtinParser) parse(_ context.Context, claim, truth string, fields []string) (FactFrame, error) {
	var f FactFrame
	for _, field := range fields {
		switch field {
		case FieldEntities:
			f.Entities = union(lexicon.ProperNames(claim), lexicon.ProperNames(truth))
		case FieldQuantities:
			f.Quantities = quantitiesOf(claim, truth)
		case FieldScope:
			s := mergeScope(scopeOf(truth), scopeOf(claim))
			f.Scope = &s
		case FieldModality:
			f.Modality = modalityOf(truth)
		case FieldRelationshipType:
			f.RelationshipType = relationOf(truth)
		case FieldCaveats:
			f.Caveats = append([]string{}, caveatsOf(truth)...)
		}
	}
	return f, structured.Check("PARSER", &f, checkFrame(fields))
}

func union(a, b []string) []string {
	out := append([]string{}, a...)
	for _, s := range b {
		if !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, s) }) {
			out = append(out, s)
		}
	}
	return out
}

// quantitiesOf lists the claim's figures, marked in_truth when the truth
// agrees, then the truth's figures the claim does not have.
func quantitiesOf(claim, truth string) []Quantity {
	out := []Quantity{}
	matched := map[int]bool{}
	for _, fd := range quantity.Check(claim, truth) {
		q := Quantity{Value: fd.Claim.Text, Unit: fd.Claim.Unit, InClaim: true}
		if fd.Outcome == quantity.Agrees {
			q.InTruth = true
			matched[fd.Source.Start] = true
		}
		out = append(out, q)
	}
	for _, q := range quantity.Extract(truth) {
		if !matched[q.Start] {
			out = append(out, Quantity{Value: q.Text, Unit: q.Unit, InTruth: true})
		}
	}
	return out
}

// regionPrepositions introduce a place.
var regionPrepositions = []string{"in", "across", "throughout", "within", "from", "of"}

// groupNouns name groups of people a statement may be limited to.
var groupNouns = []string{
	"adults", "children", "kids", "teenagers", "adolescents", "infants", "babies", "women", "men", "girls", "boys",
	"patients", "students", "workers", "employees", "smokers", "drinkers", "users", "voters", "residents", "citizens",
	"seniors", "elderly", "veterans", "mothers", "fathers", "parents", "households", "families", "participants",
	"mice", "rats", "animals", "volunteers", "immigrants", "farmers", "doctors", "nurses", "teachers", "consumers",
}

// scopeOf reads where, for whom and when text applies.
func scopeOf(text string) Scope {
	var s Scope
	var regions, groups, times []string
	for _, name := range lexicon.ProperNames(text) {
		if i := strings.Index(text, name); i > 0 {
			before := txt.PhraseWords(text[:i])
			if len(before) > 0 && slices.Contains(regionPrepositions, before[len(before)-1]) && !slices.Contains(regions, name) {
				regions = append(regions, name)
			}
		}
	}
	ws := txt.PhraseWords(text)
	for i, w := range ws {
		if !slices.Contains(groupNouns, w) {
			continue
		}
		g := w
		if i > 0 && !isStopword(ws[i-1]) && !startsWithDigit(ws[i-1]) {
			g = ws[i-1] + " " + w
		}
		if !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
	}
	for _, q := range quantity.Extract(text) {
		if isTime(q) && !slices.Contains(times, q.Text) {
			times = append(times, q.Text)
		}
	}
	s.Region, s.Group, s.Timeframe = strings.Join(regions, ", "), strings.Join(groups, ", "), strings.Join(times, ", ")
	return s
}

func isStopword(w string) bool { return len(lexicon.ContentWords(w)) == 0 }

func startsWithDigit(w string) bool { return w != "" && w[0] >= '0' && w[0] <= '9' }

// mergeScope gives the truth's scope, noting where the claim's differs.
func mergeScope(truth, claim Scope) Scope {
	merge := func(t, c string) string {
		switch {
		case c == "" || c == t:
			return t
		case t == "":
			return "claim: " + c
		}
		return t + " (claim: " + c + ")"
	}
	return Scope{merge(truth.Region, claim.Region), merge(truth.Group, claim.Group), merge(truth.Timeframe, claim.Timeframe)}
}

// modalityOf names the truth's certainty in the seed's terms, checking
// them in the seed's order.
func modalityOf(text string) string {
	hedges := lexicon.Phrases(text, lexicon.Hedges)
	has := func(ws ...string) bool {
		return slices.ContainsFunc(hedges, func(h string) bool { return slices.Contains(ws, h) })
	}
	switch {
	case has("may", "might", "could", "can be", "possibly", "possible", "perhaps", "potentially", "potential"):
		return "may"
	case len(hedges) > 0:
		return "likely"
	case len(lexicon.Phrases(text, lexicon.CausalPhrases)) > 0:
		return "caused"
	case len(lexicon.Phrases(text, []string{"proves", "proved", "proven", "confirms", "confirmed", "demonstrates", "demonstrated", "established"})) > 0:
		return "proved"
	case len(lexicon.Phrases(text, lexicon.Approximations)) > 0:
		return "approximately"
	}
	return "other"
}

func relationOf(text string) string {
	switch {
	case len(lexicon.Phrases(text, lexicon.CausalPhrases)) > 0:
		return "causation"
	case len(lexicon.Phrases(text, lexicon.CorrelationPhrases)) > 0:
		return "correlation"
	}
	return "description"
}
