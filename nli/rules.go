package nli

import (
	"maps"
	"slices"
	"strings"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/quantity"
	"github.com/verity-fc/verity/sentences"
)

// The edge-case rules of seed 000 are mandatory, and the labeled data has
// too few quantifier and modal contrasts for the network to learn them, so
// they are applied to its output by hand:
//
//   - Quantifier sensitivity: a claim that quantifies more strongly than its
//     passage ("most" or "all" against "many", "many" against "some") is not
//     entailed by it. Its entailment is multiplied by quantKeep and the
//     difference goes to neutral. A passage with no quantifier at all is
//     left to the network: "Animals depend on trees for shelter." does
//     entail "Many animals depend on plants for shelter.", and "the entire
//     nation" is "the nation".
//   - Modal sensitivity: a hedged passage ("may", "could", "suggests",
//     "likely" near at least half of the claim's words that the passage
//     has) does not settle a definitive claim
//     either way. Entailment and contradiction are multiplied by modalKeep
//     and the difference goes to neutral. A hedged claim against a
//     definitive passage is left to the model: "X causes Y" does entail
//     "X may cause Y".
//   - Negation: when the passage covers most of the claim's content words
//     (negCoverage) and a content word both share is negated on one side
//     only ("grew" against "did not grow"), the passage cannot entail the
//     claim: entailment is multiplied by negKeep and the difference goes to
//     contradiction. The training data has negation almost only on the
//     claim side (FEVER), so the network learned the rule one way round.
//     The aligning judge applies a narrower form, plainNegation.
//   - Another subject: when the passage has none of the claim's content
//     words, not even a near spelling, and one side names something (a
//     word capitalised inside a sentence: a person, place or work), the
//     two are about different subjects, and a passage about something else
//     does not contradict the claim ("The bridge opened in 1937." against
//     "Paris is the capital of France."). Contradiction is multiplied by
//     offTopicKeep and the difference goes to neutral. SNLI, where a
//     hypothesis that shares no word with its premise usually describes
//     the same scene otherwise and is labeled a contradiction, taught the
//     network the opposite; its captions rarely name anything, so the
//     names keep the rule away from that convention. A passage with a
//     third-person pronoun ("He played ...") may be about the claim's
//     subject under another name, and a passage whose numbers or dates
//     bear on the claim's ("505 persons have recovered" against "Fewer
//     than 510 cases were healed") is about the same facts, so the rule
//     leaves both alone.
const (
	// offTopicKeep is the share of contradiction kept by the
	// another-subject rule.
	offTopicKeep = 0.3
	negKeep      = 0.3
	negCoverage  = 0.8
	quantKeep    = 0.15
	// placeKeep is the share of entailment (or contradiction)
	// narrowerPlace keeps.
	placeKeep = 0.15
	modalKeep = 0.3
	// hedgeWindow is how many words on each side of a passage hedge it
	// governs: the hedge counts when at least half of the claim's words
	// that the passage has stand that near it, so that a hedge on another
	// part of the passage ("doctors warned the outbreak could overwhelm
	// emergency rooms") does not make the rest of it tentative.
	hedgeWindow = 4
)

// strictHedges are the modal and evidential words the modal rule acts on: a
// narrower list than the hedge feature's, without "can", whose ability
// sense is definitive.
var strictHedges = set("may", "might", "could", "possibly", "perhaps", "probably", "likely", "suggest", "suggests",
	"suggested", "suggesting", "appear", "appears", "seem", "seems", "reportedly", "allegedly", "potentially",
	"presumably", "maybe", "speculated", "rumored", "rumoured", "hypothesized", "hypothesised", "unclear")

// applyRules adjusts a judgment of the network by the edge-case rules.
func applyRules(c, p *text, j evidence.Judgment) evidence.Judgment {
	if negationFlip(c, p) {
		j = toContradiction(j)
	}
	j = quantifierAndModalRules(c, p, j)
	if otherSubject(c, p) {
		j = toNeutral(j)
	}
	return j
}

// quantifierAndModalRules applies the quantifier and the modal rule.
func quantifierAndModalRules(c, p *text, j evidence.Judgment) evidence.Judgment {
	if c.quant >= 2 && p.quant >= 1 && quantOverstates(c, p) {
		j = entailToNeutral(j, quantKeep)
	}
	if !claimHedged(c) && passageHedgesClaim(c, p) {
		e, k := j.Entail*modalKeep, j.Contradict*modalKeep
		j.Neutral += j.Entail - e + j.Contradict - k
		j.Entail, j.Contradict = e, k
	}
	return j
}

// toContradiction moves all but negKeep of the entailment to
// contradiction: the negation and the same-slot rule.
func toContradiction(j evidence.Judgment) evidence.Judgment {
	shift(&j.Entail, &j.Contradict, negKeep)
	return j
}

// shift moves all but keep of the probability *from to *to.
func shift(from, to *float64, keep float64) {
	k := *from * keep
	*to += *from - k
	*from = k
}

// narrowerPlace applies a claim's narrower place: the claim names a place
// within the passage's place, and the judge read it as the passage's
// (encoder.encodePair), so that the rest of the pair decides between
// agreement and conflict. A passage that says "born in Sweden" cannot say
// "born in Stockholm", so all but placeKeep of the entailment goes to
// neutral; nor can it deny "not born in Stockholm", so under a negation
// all but placeKeep of the contradiction does (docs/nli-development.md,
// "A place within the passage's").
func narrowerPlace(j evidence.Judgment, n narrowing) evidence.Judgment {
	switch n {
	case narrower:
		return entailToNeutral(j, placeKeep)
	case narrowerNegated:
		return contradictToNeutral(j, placeKeep)
	}
	return j
}

// toNeutral moves all but offTopicKeep of the contradiction to neutral.
func toNeutral(j evidence.Judgment) evidence.Judgment { return contradictToNeutral(j, offTopicKeep) }

// entailToNeutral moves all but keep of the entailment to neutral.
func entailToNeutral(j evidence.Judgment, keep float64) evidence.Judgment {
	shift(&j.Entail, &j.Neutral, keep)
	return j
}

// contradictToNeutral moves all but keep of the contradiction to neutral.
func contradictToNeutral(j evidence.Judgment, keep float64) evidence.Judgment {
	shift(&j.Contradict, &j.Neutral, keep)
	return j
}

// contradictToEntail moves all but keep of the contradiction to
// entailment.
func contradictToEntail(j evidence.Judgment, keep float64) evidence.Judgment {
	shift(&j.Contradict, &j.Entail, keep)
	return j
}

// otherSubject reports whether the passage shares no content word with the
// claim, exactly or by a near spelling (see fuzzyIn), has no third-person
// pronoun, no number or date compared with the claim's (see
// [quantity.Check]), and the claim or the passage names something: a capitalised
// word that is not a stopword.
func otherSubject(c, p *text) bool {
	if len(c.content) == 0 {
		return false
	}
	for _, s := range c.content {
		if p.stems[s] || fuzzyIn(s, p.stems) {
			return false
		}
	}
	for _, tk := range p.toks {
		if pronouns[tk.Lower] {
			return false
		}
	}
	for _, fd := range quantity.Check(c.raw, p.raw) {
		if fd.Outcome != quantity.NotCompared {
			return false
		}
	}
	return namesSomething(c) || namesSomething(p)
}

// pronouns are the third-person pronouns by which a passage can refer to a
// subject named elsewhere.
var pronouns = set("he", "she", "it", "they", "him", "her", "them", "his", "hers", "its", "their", "theirs")

// namesSomething reports whether t has a word capitalised inside a
// sentence that is not a stopword.
func namesSomething(t *text) bool {
	for _, tk := range t.toks {
		if tk.Cap && !stopwords[tk.Lower] {
			return true
		}
	}
	return false
}

// strictHedge reports whether toks[i] is a strict hedge. "May" is the
// month, not the modal, when it stands next to a number ("born May 13,
// 1964", "in May 2014", "13 May"), and a name when capitalised inside a
// sentence ("Theresa May"). "Likely" after "more", "less" or "as"
// compares chances and hedges nothing: "Smokers are 15 times more likely
// to get lung cancer than non-smokers." states a finding, and was read
// as hedging "Smoking increases the risk of lung cancer." (neutral 0.74).
func strictHedge(toks []token, i int) bool {
	tk := toks[i]
	if !strictHedges[tk.Lower] {
		return false
	}
	switch tk.Lower {
	case "may":
		return !tk.Cap && !(i > 0 && toks[i-1].Num) && !(i+1 < len(toks) && toks[i+1].Num)
	case "likely":
		return i == 0 || !likelyCompared[toks[i-1].Lower]
	}
	return true
}

// likelyCompared are the words before "likely" that make it a comparison
// of chances ("more likely", "less likely", "twice as likely").
var likelyCompared = set("more", "less", "as")

// passageHedgesClaim reports whether a strict hedge of the passage stands
// within hedgeWindow words of at least half of the claim's content words
// that the passage has (and of one at least).
func passageHedgesClaim(c, p *text) bool {
	var claim, near map[string]bool
	shared := 0 // the claim's content words the passage has
	for i := range p.toks {
		if !strictHedge(p.toks, i) {
			continue
		}
		if claim == nil { // the first hedge: most passages have none
			claim, near = map[string]bool{}, map[string]bool{}
			for _, s := range c.content {
				if !claim[s] && p.stems[s] {
					shared++
				}
				claim[s] = true
			}
		}
		clear(near)
		for k := max(0, i-hedgeWindow); k < min(len(p.toks), i+hedgeWindow+1); k++ {
			if claim[p.toks[k].Stem] {
				near[p.toks[k].Stem] = true
			}
		}
		if len(near) > 0 && 2*len(near) >= shared {
			return true
		}
	}
	return false
}

// negationFlip reports whether the passage covers at least negCoverage of
// the claim's content words and negates one of them that the claim does
// not, or the other way round.
func negationFlip(c, p *text) bool {
	if len(c.content) == 0 {
		return false
	}
	covered, flipped := 0, false
	for _, s := range c.content {
		if !p.stems[s] {
			continue
		}
		covered++
		if c.negated[s] != p.negated[s] {
			flipped = true
		}
	}
	return flipped && float64(covered) >= negCoverage*float64(len(c.content))
}

// grammaticalNegations are the negations that deny a statement as a
// whole, without the verbs of refusal and lack ("refused", "lacked") that
// negations also holds: "lacked early campaigning" against "although
// lacking early campaigning" says the same thing twice.
var grammaticalNegations = set("not", "no", "never", "none", "nobody", "nothing", "neither", "nor", "nowhere")

// negatesGrammatically reports whether t has a grammatical negation.
func negatesGrammatically(t *text) bool { return mentions(t, grammaticalNegations) }

// mentions reports whether t has one of the lower-case words.
func mentions(t *text, words map[string]bool) bool {
	for w := range words {
		if t.lowers[w] {
			return true
		}
	}
	return false
}

// coversAll reports whether t has every content word of the claim c (and
// c has one at least).
func coversAll(c, t *text) bool { return coversBut(c, t.stems, nil) }

// coversBut reports whether stems hold every content word of the claim c
// but those of except, and c has one such word at least: the passage
// says all the claim says but, for instance, how an amount changed
// (oppositeChange) or who did it (otherOpeningName).
func coversBut(c *text, stems, except map[string]bool) bool {
	rest := 0
	for _, s := range c.content {
		if except[s] {
			continue
		}
		if !stems[s] {
			return false
		}
		rest++
	}
	return rest > 0
}

// stemsWhere returns the stems of t's words whose lower-case form is
// one that in holds: the words of a claim that coversBut leaves out.
func stemsWhere(t *text, in func(lower string) bool) map[string]bool {
	out := map[string]bool{}
	for _, tk := range t.toks {
		if in(tk.Lower) {
			out[tk.Stem] = true
		}
	}
	return out
}

// failures are the verbs that deny the verb after their "to": "failed to
// reduce mortality" did not reduce it, "refused to resign" did not
// resign. A refusal is read so only against a text with no word of
// refusal or rejection (see refusedOnly): "refused to host podcasts" is
// no denial of "rejected offers to host podcasts", which says it in
// other words.
var failures = set("fail", "fails", "failed", "failing", "unable", "refused")

// rejections are the stems of words of refusal or rejection.
var rejections = set("refus", "reject", "declin", "deni", "turn")

// denial reports whether the i-th token of toks denies what follows: a
// grammatical negation, or a verb of failure before "to".
func denial(toks []token, i int) bool {
	return grammaticalNegations[toks[i].Lower] || failures[toks[i].Lower] && i+1 < len(toks) && toks[i+1].Lower == "to"
}

// refusedOnly reports whether t's only denial is a refusal ("refused to
// resign") and the other text has a word of refusal or rejection, which
// may say the refusal in other words.
func refusedOnly(t, other *text) bool {
	refusal := false
	for i, tk := range t.toks {
		if denial(t.toks, i) {
			if tk.Lower != "refused" {
				return false
			}
			refusal = true
		}
	}
	return refusal && slices.ContainsFunc(other.toks, func(tk token) bool { return rejections[tk.Stem] })
}

// denied returns the stems a denial of t denies (a grammatical negation,
// or a verb of failure before "to"): the first content word after it,
// within negScope words ("does not make cars" denies make, "is not the
// capital" capital, "no weaver" weaver, "failed to reduce mortality"
// reduce). A negation of a quantifier or of "only" ("not all masks", "not
// only cars") denies nothing: it weakens the statement, which the
// quantifier rule reads.
func denied(t *text) map[string]bool {
	var d map[string]bool
	for i := range t.toks {
		if !denial(t.toks, i) {
			continue
		}
		if i+1 < len(t.toks) && (quantLevel[t.toks[i+1].Lower] > 0 || exclusives[t.toks[i+1].Lower]) {
			continue
		}
		for _, w := range t.toks[i+1 : min(len(t.toks), i+1+negScope)] {
			if !stopwords[w.Lower] && !negations[w.Lower] && len(w.Lower) > 1 {
				if d == nil {
					d = map[string]bool{}
				}
				d[w.Stem] = true
				break
			}
		}
	}
	return d
}

// plainNegation reports whether the passage says what the claim says with
// a negation on one side only: the passage has every content word of the
// claim, one side denies one of them with "not", "no", "never" or a verb
// of failure (see denied) and the other side has no negation at all ("The company makes
// cars." against "The company does not make cars."). The networks leave
// such pairs near a tie (entailment 0.33, contradiction 0.60 there):
// FEVER, where most negations are, negates claims, not passages, and its
// negated claims are rarely word for word its passages. A negation of
// another word ("has never closed since" against "has been open since"),
// or in a passage another sentence of which states the claim whole
// (statesWhole), is left to the network.
func plainNegation(c, p *text) bool {
	var d map[string]bool
	switch {
	case c.negs == 0 && p.negs > 0 && !refusedOnly(p, c):
		d = denied(p)
	case p.negs == 0 && c.negs > 0 && !refusedOnly(c, p):
		d = denied(c)
	default:
		return false
	}
	if !coversAll(c, p) || !slices.ContainsFunc(c.content, func(s string) bool { return d[s] }) {
		return false
	}
	return !(c.negs == 0 && statesWhole(c, p))
}

// sameDenial reports whether both texts deny the same word of the claim
// once each, and the passage has every content word of the claim: "The
// drug did not reduce mortality." against "The drug failed to reduce
// mortality in the trial." The networks, which saw few passages that
// negate, read the two negations as unlike (contradiction 0.52).
func sameDenial(c, p *text) bool {
	if c.negs != 1 || p.negs != 1 || !coversAll(c, p) {
		return false
	}
	dc, dp := denied(c), denied(p)
	return len(dc) == 1 && maps.Equal(dc, dp)
}

// statesThenDenies reports whether the passage states the claim whole and
// only then denies something else: the claim has no negation, the passage
// has every content word of the claim before its first negation, and
// each of the passage's negations denies a word the claim lacks ("The
// company makes cars." against "The company makes cars but not trucks.",
// "The United States signed the treaty." against "... signed the treaty in
// 1997 but never ratified it."). The networks read any negation in such a
// passage as a near tie (contradiction 0.48 and 0.54 there). A negation
// before the claim's words may govern them ("It is not true that the
// company makes cars."), and is left to the networks.
func statesThenDenies(c, p *text) bool {
	if c.negs > 0 || p.negs == 0 || len(c.content) == 0 {
		return false
	}
	first := slices.IndexFunc(p.toks, func(tk token) bool { return negations[tk.Lower] })
	before := map[string]bool{}
	for _, tk := range p.toks[:first] {
		before[tk.Stem] = true
	}
	if !coversBut(c, before, nil) {
		return false
	}
	d, denials := denied(p), 0
	for i := range p.toks {
		if denial(p.toks, i) {
			denials++
		}
	}
	return denials == p.negs && len(d) > 0 && !slices.ContainsFunc(c.content, func(s string) bool { return d[s] })
}

// statesWhole reports whether a sentence of the passage without a
// negation has every content word of the claim: "The museum is open on
// Monday. It is not open on Sunday." denies "open", but its first
// sentence states "The museum is open on Monday." whole.
func statesWhole(c, p *text) bool {
	spans := sentences.Texts(p.raw)
	if len(spans) < 2 {
		return false
	}
	for _, sent := range spans {
		if t := analyse(sent); t.negs == 0 && coversAll(c, t) {
			return true
		}
	}
	return false
}

// applySeedRules adjusts a judgment of the aligning network, in this
// order:
//
//   - a claim the passage repeats with a negation on one side only
//     (plainNegation) is contradicted; one whose one denial the passage
//     makes of the same word (sameDenial), or that the passage states
//     before it denies something else (statesThenDenies), is entailed.
//     The rest of applyRules' negation rule is left to the network, which
//     has negation-scope channels and sees the whole alignment (on the
//     calibration split the rule costs balanced accuracy);
//   - a passage that says the claim's amount changed the other way
//     (changeRule), that measures the claim's change over a window that
//     opens in another year (neutral: "since 1975" for "since 1980",
//     windowRule), that orders the claim's event the other way against
//     the same event ("after the author died" for "before the author's
//     death", orderRule), that calls the claim's event off
//     ("cancelled", "called off", "postponed": cancelRule), or by another factor than the claim's "doubled" or
//     "halved" (multipleRule), a life that allows the claim's age at
//     death or does not (ageRule; none, for a passage with no life),
//     another rank of the claim's
//     superlative (rankRule), a move away from the claim's place
//     (movedRule), a schedule missed or kept the other way (scheduleRule), that there is no link between the things
//     the claim says one causes in the other (noLinkRule), that calls the
//     claim a myth or false (debunkRule), or a ratio
//     of risks or a comparison of chances the other way than the
//     claim's (ratioRule), that its
//     subject ended against "still" or "no
//     longer" (cessationRule), that a role was held over a span now
//     closed (tenureRule), or that its subject is another kind of
//     thing (otherKind);
//   - what a passage excepts (exceptionRule), a claim's quantified share
//     against a passage's percentage (shareRule), a claim's vague amount
//     against a passage's count (fewRule), a claim's comparison of
//     two things against the passage's figures (comparisonRule);
//   - a claim of a birth without a figure against a death
//     (otherEndOfLife), and the first of another kind of thing
//     (otherFirst), are neutral;
//   - a passage that fills a slot of the claim's event with another name
//     contradicts it (sameSlotRule), and so does one that names another
//     maker of the claim's work (makerRule; a claim that denies its maker
//     made the work is entailed); one that lacks the name opening the
//     claim but has the rest of it does not entail it (openingNameRule),
//     unless the definite-role or the maker rule reads the pair;
//   - the mandatory quantifier and modal rules of seed 000 (as in
//     applyRules);
//   - the subject rules, unless the maker rule applied: a passage that
//     shares no word with the claim when both name something
//     (otherSubject), and evidence about another named subject
//     (otherNamedSubject), are neutral. applyRules also acts
//     on a passage sharing no word when only one side names something;
//     for the network that made SNLI's contradictions neutral, whose
//     captions name nothing but carry a capital by a typo or a
//     nationality ("A Man in a blue shirt", "An Asian woman");
//   - last, a passage that gives the claim's definite role to another
//     subject contradicts it, or at another time leaves it unsettled
//     (uniqueRole).
func applySeedRules(c, p *text, j evidence.Judgment) evidence.Judgment {
	switch {
	case plainNegation(c, p):
		j = toContradiction(j)
	case sameDenial(c, p), statesThenDenies(c, p):
		j = contradictToEntail(j, negKeep)
	}
	j = swapRule(c, p, j)
	j = changeRule(c, p, j)
	j = windowRule(c, p, j)
	j = orderRule(c, p, j)
	j = cancelRule(c, p, j)
	j = multipleRule(c, p, j)
	j = timesRule(c, p, j)
	j = bidRule(c, p, j)
	j = ageRule(c, p, j)
	j = rankRule(c, p, j)
	j = movedRule(c, p, j)
	j = scheduleRule(c, p, j)
	j = noLinkRule(c, p, j)
	j = debunkRule(c, p, j)
	j = ratioRule(c, p, j)
	j = cessationRule(c, p, j)
	j = tenureRule(c, p, j)
	if otherKind(c, p) {
		j = toContradiction(j)
	}
	j = exceptionRule(c, p, j)
	j = shareRule(c, p, j)
	j = fewRule(c, p, j)
	j = comparisonRule(c, p, j)
	if otherEndOfLife(c, p) && !dated(c) || otherEdition(c, p) {
		j = toNeutral(j)
	}
	if otherFirst(c, p) {
		j = entailToNeutral(toNeutral(j), offTopicKeep)
	}
	j = sameSlotRule(c, p, j)
	j, maker := makerRule(c, p, j)
	role := uniqueRole(c, p)
	if role == roleUnread && !maker {
		j = openingNameRule(c, p, j)
	}
	j = quantifierAndModalRules(c, p, j)
	if !maker && (otherSubject(c, p) && namesSomething(c) && namesSomething(p) || otherNamedSubject(c, p)) {
		j = toNeutral(j)
	}
	switch role {
	case roleTaken:
		j = toContradiction(j)
	case roleOtherTime:
		j = entailToNeutral(j, offTopicKeep)
	}
	return j
}

// birthWords and deathWords name the two ends of a life.
var (
	birthWords = set("born", "birth")
	deathWords = set("died", "dies", "death")
)

// otherEndOfLife reports whether one text speaks of a birth and not of a
// death and the other of a death and not of a birth: "The poet was born
// in Rome." against "The poet died in Rome in 1989." says nothing of the
// birth. The networks read "born" and "died" as antonyms (on purpose, for
// "born in 1795" against "died in 1795", "Born against died" in
// docs/nli-development.md) and called such pairs contradictions (0.75 to
// 0.78); applySeedRules moves their contradiction to neutral when the
// claim has no figure and names no month (dated). A claim's date is left to the networks and the
// exact reading of figures, which reads a birth in the year of the death
// or after it as a conflict, but not every date's role ("On the morning
// of November 22, 1997, Hutchence was born", "born Colin Lionel Emm; 20
// November 1932 – 2 June 2012").
func otherEndOfLife(c, p *text) bool {
	cb, cd, pb, pd := mentions(c, birthWords), mentions(c, deathWords), mentions(p, birthWords), mentions(p, deathWords)
	return cb && !cd && pd && !pb || cd && !cb && pb && !pd
}

// monthNames name the months, which date a text without a figure ("born
// in December").
var monthNames = set("january", "february", "march", "april", "may", "june", "july", "august", "september",
	"october", "november", "december")

// dated reports whether t has a figure or names a month.
func dated(t *text) bool {
	for _, tk := range t.toks {
		if tk.Num || monthNames[tk.Lower] {
			return true
		}
	}
	return quantity.HasQuantity(t.raw)
}

// subjectName returns the name that opens the claim, after an article: its
// run of capitalised words ("The Harbour Bridge opened ..." gives harbour,
// bridge; "Marie Curie won ..." gives marie, curie), or nil when the claim
// does not open with a name inside the sentence ("Exports rose ...",
// "Paris is ...": a sentence's first word is capitalised anyway), nor
// with a function word ("On Rotten Tomatoes, the second season ...").
func subjectName(c *text) []token {
	t := c.toks
	i := 0
	if len(t) > 0 && (t[0].Lower == "the" || t[0].Lower == "a" || t[0].Lower == "an") {
		i = 1
	}
	j := i
	for j < len(t) && (t[j].Cap || (j == 0 && len(t) > 1 && t[1].Cap && !stopwords[t[0].Lower])) {
		j++
	}
	if j == i || (j == 1 && i == 0) {
		return nil
	}
	return t[i:j]
}

// otherNamedSubject reports whether the claim opens with a name of two
// words or more (or of one word after "the", when the passage too opens
// with "the" and a name: "The Amazon ..." against "The Nile ...") that
// the passage lacks at least half of (a word that
// begins a passage word, "Sam" of "Samuel", is not lacking), while the
// passage opens with a name of its own whose words are not all in the
// claim (a short form of the claim's, "The F-35" for "Lockheed Martin F-35
// Lightning II", or a name the claim mentions further on, "Rotten
// Tomatoes gives the film ..." for "Inside Llewyn Davis's score on Rotten
// Tomatoes ..."), and has no
// third-person pronoun that could stand for the claim's subject: "The
// Harbour Bridge opened in 1932." against "The Golden Gate Bridge opened
// in 1937." is about another bridge, not a contradiction.
// A claim that only fills a slot differently ("The Eiffel Tower is in
// Berlin.", "proposed by a researcher at NASA") keeps its subject and is
// left alone.
func otherNamedSubject(c, p *text) bool {
	name, pname := subjectName(c), subjectName(p)
	if len(pname) == 0 || len(name) == 0 || len(name) == 1 && !(c.toks[0].Lower == "the" && p.toks[0].Lower == "the") {
		return false
	}
	for _, tk := range p.toks {
		if pronouns[tk.Lower] {
			return false
		}
	}
	if allIn(pname, c.stems) {
		return false
	}
	missing := 0
	for _, tk := range name {
		if !p.stems[tk.Stem] && !prefixOf(tk, p.toks) {
			missing++
		}
	}
	return 2*missing >= len(name)
}

// prefixOf reports whether the name word tk (three letters or more)
// begins a word of toks, "Sam" of "Samuel", or is an initial that begins a
// capitalised one, "B." of "Birchard".
func prefixOf(tk token, toks []token) bool {
	initial := len(tk.Lower) == 1 && tk.Cap
	if len(tk.Lower) < 3 && !initial {
		return false
	}
	for _, t := range toks {
		if len(t.Lower) > len(tk.Lower) && strings.HasPrefix(t.Lower, tk.Lower) && (!initial || t.Cap) {
			return true
		}
	}
	return false
}

// allIn reports whether the stem of every word of words is in stems.
func allIn(words []token, stems map[string]bool) bool {
	for _, w := range words {
		if !stems[w.Stem] {
			return false
		}
	}
	return true
}

// ruleQuant is t's strongest quantifier as the quantifier rule reads it:
// "several" counts with "many" ("Many dancers" against "Several
// dancers"), a superlative ("the most", "most likely") quantifies nothing,
// nor does a rate ("every 1,000 children"), and "not all" is "some". The
// encoder's quantifier channel keeps quantLevel as it is.
func ruleQuant(t *text) int {
	q := 0
	for i, tk := range t.toks {
		l := quantLevel[tk.Lower]
		if l == 0 || quantIdiom(t.toks, i) {
			continue
		}
		prev, next := "", token{}
		if i > 0 {
			prev = t.toks[i-1].Lower
		}
		if i+1 < len(t.toks) {
			next = t.toks[i+1]
		}
		switch {
		case tk.Lower == "several":
			l = 2
		case tk.Lower == "most" && (prev == "the" || prev == "a" || next.Lower == "likely"):
			l = 0
		case (tk.Lower == "every" || tk.Lower == "each") && next.Num:
			l = 0
		case l == 4 && negations[prev]:
			l = 1
		}
		q = max(q, l)
	}
	return q
}

// quantOverstates reports whether the claim quantifies more strongly than
// the passage, which quantifies too.
func quantOverstates(c, p *text) bool {
	cq := ruleQuant(c)
	if cq < 2 {
		return false
	}
	pq := ruleQuant(p)
	return pq >= 1 && pq < cq
}

// claimHedged reports whether the claim is tentative itself: a strict
// hedge, or a word that makes a claim tentative though it hedges no
// passage for the modal rule ("It is possible that ...").
func claimHedged(c *text) bool {
	for i, tk := range c.toks {
		if strictHedge(c.toks, i) || claimHedges[tk.Lower] {
			return true
		}
	}
	return false
}

// claimHedges are the words besides the strict hedges that make a claim
// tentative. "Can" is among them: "The drug can cause weight loss." says
// what may happen, as "The drug may cause weight loss in some patients."
// does, so a hedged passage does not make it less sure (it is no strict
// hedge of a passage: "can" there is as often what something is able to
// do).
var claimHedges = set("possible", "probable", "unlikely", "potential", "believed", "speculated", "can")
