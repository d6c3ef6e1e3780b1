package nli

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/verity-fc/verity/nli/align"
	"github.com/verity-fc/verity/quantity"
	txt "github.com/verity-fc/verity/text"
	"github.com/verity-fc/verity/wordvec"
)

// Token channels of the aligning model (bits of align.Token.Chan).
const (
	chOOV = iota
	chNumber
	chYear
	chName
	chNegation
	chNegated
	chQuantSome
	chQuantMost
	chQuantAll
	chHedge
	chStop
	chExclusive
	chUp
	chDown
	chPronoun
	chTime
)

// Relations of an aligned (claim token, passage token) pair (bits of
// align.Rel.Bits).
const (
	relSame = iota
	relStem
	relSynonym
	relAntonym
	relHypernym
	relHyponym
	relCoHyponym
	relDirSame
	relDirOpposite
	relNumEqual
	relNumDiffer
	relNameClash
	// relCousin is read only by networks trained with
	// EncoderOptions.CousinRelation (align.Config.Rels 13).
	relCousin
)

// Check reports options that cannot go together: Cousins and
// CousinRelation read the same words two ways. Training and ReadAligner
// both ask it.
func (opts EncoderOptions) Check() error {
	if opts.Cousins && opts.CousinRelation {
		return errors.New("cousins and cousin_relation are two readings of the same words; choose one")
	}
	return nil
}

// relations is the number of relation bits the encoder gives a network
// trained with opts.
func (opts EncoderOptions) relations() int {
	if opts.CousinRelation {
		return relCousin + 1
	}
	return align.NumRelations
}

// Global features of a pair (align.Input.Global).
const (
	glQuantAgree = iota
	glQuantConflict
	glCoverage
	glCoverageRelated
	glPassageLength
	glNamesMissing
)

// Encoding limits: the claim's and the passage's first words.
const (
	maxClaimTokens   = 64
	maxPassageTokens = 128
)

// direction is +1 for words of rising, gaining, more and later, -1 for
// falling, losing, fewer and earlier. Two aligned words of opposite
// direction reach the model as a relation, whatever their vectors say.
var direction = directions(
	`rise rises rose risen rising increase increases increased increasing grow grows grew grown
		growing gain gains gained gaining climb climbs climbed soar soars soared surge surged jump jumped up higher
		highest more most greater larger bigger expand expanded expands boost boosted raise raised raises exceed exceeded
		above over after later since following win wins won winning improve improved improves ahead top peak peaked
		upward upwards double doubled triple tripled advance advanced strengthen strengthened add added`,
	`fall falls fell fallen falling decline declines declined declining decrease decreases
		decreased decreasing drop drops dropped dropping shrink shrinks shrank shrunk lose loses lost losing sink sank
		plunge plunged slump slumped down lower lowest less least fewer smaller reduce reduced reduces cut cuts cutting
		below under before earlier prior preceding lose worsen worsened weaken weakened downward downwards halve halved
		retreat retreated behind bottom slip slipped contract contracted`,
)

// judgeDirections are direction words the training encoder's list
// (direction) lacks, which the judge reads (encoder.moreDirections):
// other forms of its verbs of amount and verbs of change it leaves out,
// not verbs of motion that captions use of bodies ("jumps", "climbing",
// "slides", "lifted").
var judgeDirections = directions(
	`boosts boosting surges surging doubles triples heighten heightens heightened
		strengthens improves improving rocketed widened widens expanding soaring doubling tripling strengthening`,
	`lowers lowered lowering reducing lessen lessens lessened diminish diminishes
		diminished shrinking plunges plunging slumps slashed halves weakens worsens sinks sinking slumping halving
		weakening worsening`,
)

// directions maps the words of up to +1 and those of down to -1.
func directions(up, down string) map[string]int8 {
	m := map[string]int8{}
	for _, w := range strings.Fields(up) {
		m[w] = 1
	}
	for _, w := range strings.Fields(down) {
		m[w] = -1
	}
	return m
}

// dir is the direction a word tells (direction), for the judge with
// judgeDirections.
func (e *encoder) dir(w string) int8 {
	if !e.moreDirections {
		return direction[w]
	}
	return judgeDir(w)
}

// judgeDir is the direction a word tells the judge: direction's, else
// judgeDirections'.
func judgeDir(w string) int8 {
	if d := direction[w]; d != 0 {
		return d
	}
	return judgeDirections[w]
}

var timeWords = set("before", "after", "since", "until", "till", "during", "earlier", "later", "prior", "following", "when", "while")

// encoder turns texts into the aligning model's inputs. With memo set it
// remembers word vectors and WordNet analyses (training); without it, it
// is safe for concurrent use.
type encoder struct {
	vecs      *wordvec.Table
	wn        *wordvec.WordNet
	memo      *encodeMemo
	words     map[string]int32 // tuned words' rows, 1-based (align.Token.Word)
	negAnt    bool             // EncoderOptions.NegatedAntonyms
	cousin    bool             // EncoderOptions.Cousins
	cousinRel bool             // EncoderOptions.CousinRelation
	// places reads places and their adjectives as WordNet relates them
	// (placed), as the judge does; the training encoder does not (see
	// Aligner.init).
	places bool
	// exact compares the claim's figures with the passage's without the
	// one-unit tolerance (quantity.CompareExact), as the judge does; the
	// training encoder does not (see Aligner.init).
	exact bool
	// dims reads the words of claim and passage that measure one
	// dimension as its noun (sameDimensions), as the judge does; the
	// training encoder does not (see Aligner.init).
	dims bool
	// opposites relates the verbs of verdict of judgeAntonyms as
	// antonyms too, and WordNet's synonyms of the word opposed
	// (verdictOpposed: "approved" against "declined"), and a converse
	// verb (converses) in the passive without its agent as a synonym of
	// its converse in the active, as the judge does; the training
	// encoder does not (see Aligner.init).
	opposites bool
	// phrasal reads a verb of two words ("stepped down") as WordNet
	// relates the whole verb ("step_down", a synonym of "resign"), and
	// writes it as the other side's one-word synonym of it (samePhrasal),
	// as the judge does; the training encoder does not (see
	// Aligner.init).
	phrasal bool
	// derived reads a word whose stem opens another's, of at least
	// minDerivedStem letters ("bankrupt", "bankruptcy"), as that word's
	// stem (relStem), as the judge does; the training encoder does not
	// (see Aligner.init).
	derived bool
	// similar reads an adjective and the head of its cluster as hyponym
	// and hypernym (wordvec.RelateSimilar: "poisonous" and "toxic"), as
	// the judge does; the training encoder does not (see Aligner.init).
	similar bool
	// nouns reads an adjective and a noun it pertains to or is derived
	// with as synonyms (wordvec.RelateNouns: "dramatic" and "drama"), as
	// the judge does; the training encoder does not (see Aligner.init).
	nouns bool
	// moreDirections reads judgeDirections as direction words too
	// ("lowers" as "reduces"), as the judge does; the training encoder
	// does not (see Aligner.init).
	moreDirections bool
	// scaled reads a figure followed by a scale or a unit in its base
	// unit ("2,000 grams" as 2, "2 kg" as 2, "1.5 million" as 1,500,000)
	// when it relates two figures (relNumEqual, relNumDiffer), as the
	// judge does; the training encoder does not (see Aligner.init).
	scaled bool
	// opposedInfos is opposedInfoOf(wn), read on first use.
	opposedInfos func() map[string][]*wordvec.WordInfo
}

// EncoderOptions are the choices of how pairs become network inputs that
// a model is trained with and must be judged with: they are saved with
// the model (Aligner).
type EncoderOptions struct {
	// Vocab is the tuned words (align.Config.Words), in the order of
	// their rows: a token whose lower-case form is Vocab[i] reads row i.
	Vocab []string `json:"vocab,omitempty"`
	// NegatedAntonyms relates an antonym pair with exactly one of its
	// words inside a negation's scope as synonyms, not antonyms: "has
	// never closed" says what "has been open" says, and "is not dead"
	// what "is alive" says. (Gradable antonyms are looser, "not hot" is
	// not "cold", but neither contradicts the other.)
	NegatedAntonyms bool `json:"negated_antonyms,omitempty"`
	// DropAsides reads each passage without its bracketed asides that
	// share nothing with the claim (dropAsides), in training and in
	// judging.
	DropAsides bool `json:"drop_asides,omitempty"`
	// ExactFigures trains with the judge's exact reading of figures
	// (quantity.CompareExact) too; the judge reads them exactly whatever
	// the model was trained with.
	ExactFigures bool `json:"exact_figures,omitempty"`
	// Cousins widens the co-hyponym relation to words that share a
	// hypernym one or two steps up (wordvec.WordNet.RelateCousins):
	// "dog" and "cat", "guitar" and "violin".
	Cousins bool `json:"cousins,omitempty"`
	// CousinRelation gives cousins (wordvec.WordNet.RelateWide) a
	// relation of their own instead of the co-hyponyms' bit, so that a
	// network can weigh the two kinds apart; its networks read 13
	// relations. Not with Cousins.
	CousinRelation bool `json:"cousin_relation,omitempty"`
}

type encodeMemo struct {
	vec  map[string][]float32
	info map[string]*wordvec.WordInfo
}

func newEncoder(memo bool, opts EncoderOptions) *encoder {
	e := &encoder{vecs: wordvec.Default(), wn: wordvec.DefaultWordNet(), negAnt: opts.NegatedAntonyms, cousin: opts.Cousins, cousinRel: opts.CousinRelation, exact: opts.ExactFigures}
	e.opposedInfos = sync.OnceValue(func() map[string][]*wordvec.WordInfo { return opposedInfoOf(e.wn) })
	if len(opts.Vocab) > 0 {
		e.words = make(map[string]int32, len(opts.Vocab))
		for i, w := range opts.Vocab {
			e.words[w] = int32(i + 1)
		}
	}
	if memo {
		e.memo = &encodeMemo{vec: map[string][]float32{}, info: map[string]*wordvec.WordInfo{}}
	}
	return e
}

func (e *encoder) vector(w string) []float32 {
	if e.memo != nil {
		if v, ok := e.memo.vec[w]; ok {
			return v
		}
	}
	v, _ := e.vecs.Vector(w)
	if e.memo != nil {
		e.memo.vec[w] = v
	}
	return v
}

func (e *encoder) info(w string) *wordvec.WordInfo {
	if e.memo != nil {
		if v, ok := e.memo.info[w]; ok {
			return v
		}
	}
	v := e.wn.Info(w)
	if e.memo != nil {
		e.memo.info[w] = v
	}
	return v
}

// side is one text prepared for encoding.
type side struct {
	toks  []token
	chans []uint16
	vals  []float64 // number value, NaN when not a number
	infos []*wordvec.WordInfo
	// locs marks, under places, the words of a name a locative opens
	// (locative), read before function words go.
	locs []bool
	// dims are, under dims, the dimension each word measures
	// (measuredDimension).
	dims []string
	// voice is, under opposites, each verb's voice (voiceOf), read
	// before function words go.
	voice []uint8
	// syns are, under phrasal, the one-word synonyms of each verb of two
	// words (phrasalVerbs); nil when the text has none.
	syns [][]string
}

func (e *encoder) side(t *text, limit int) side {
	toks := slices.Clone(t.toks[:min(len(t.toks), limit)])
	s := side{toks: toks, chans: make([]uint16, len(toks)), vals: make([]float64, len(toks)), infos: make([]*wordvec.WordInfo, len(toks))}
	lastNeg := -100
	for i, tk := range toks {
		var c uint16
		set := func(b int) { c |= 1 << b }
		s.vals[i] = math.NaN()
		if v, ok := numberValue(tk); ok {
			set(chNumber)
			s.vals[i] = v
			if isYear(tk) {
				set(chYear)
			}
		}
		if tk.Cap {
			set(chName)
		}
		if negations[tk.Lower] {
			set(chNegation)
			lastNeg = i
		} else if i-lastNeg <= negScope {
			set(chNegated)
		}
		switch q := quantLevel[tk.Lower]; {
		case q == 1:
			set(chQuantSome)
		case q == 2 || q == 3:
			set(chQuantMost)
		case q == 4:
			set(chQuantAll)
		}
		if hedges[tk.Lower] || strictHedges[tk.Lower] {
			set(chHedge)
		}
		if stopwords[tk.Lower] {
			set(chStop)
		}
		if exclusives[tk.Lower] {
			set(chExclusive)
		}
		switch e.dir(tk.Lower) {
		case 1:
			set(chUp)
		case -1:
			set(chDown)
		}
		if pronouns[tk.Lower] {
			set(chPronoun)
		}
		if timeWords[tk.Lower] {
			set(chTime)
		}
		if !tk.Num && !stopwords[tk.Lower] && len(tk.Lower) > 1 {
			s.infos[i] = e.info(tk.Lower)
		}
		s.chans[i] = c
	}
	// The readings of the judge's own are read before function words go.
	if e.places {
		e.placeNames(toks, s.infos)
		e.placesBeside(toks, s.infos)
		s.locs = each(toks, func(i int) bool { return toks[i].Cap && locative(toks, i) })
	}
	if e.dims {
		s.dims = each(toks, func(i int) string { return measuredDimension(toks, i) })
	}
	if e.opposites {
		s.voice = each(toks, func(i int) uint8 { return voiceOf(toks, i) })
	}
	if e.phrasal {
		s.syns = e.phrasalVerbs(toks, s.infos, s.chans)
	}
	// Function words go, unless they carry a channel of their own
	// (negation, quantifier, modal, direction, pronoun, "only", time).
	const marked = 1<<chNegation | 1<<chQuantSome | 1<<chQuantMost | 1<<chQuantAll | 1<<chHedge | 1<<chExclusive |
		1<<chUp | 1<<chDown | 1<<chPronoun | 1<<chTime
	kept := make([]int, 0, len(toks))
	for i, c := range s.chans {
		if c&(1<<chStop) == 0 || c&marked != 0 {
			kept = append(kept, i)
		}
	}
	s.keep(kept)
	if e.scaled {
		scaleFigures(s.toks, s.vals)
	}
	return s
}

// keep keeps the tokens at the indices kept, in order, and what is read
// of each.
func (s *side) keep(kept []int) {
	s.toks, s.chans, s.vals, s.infos = keepAt(s.toks, kept), keepAt(s.chans, kept), keepAt(s.vals, kept), keepAt(s.infos, kept)
	s.locs, s.dims, s.voice, s.syns = keepAt(s.locs, kept), keepAt(s.dims, kept), keepAt(s.voice, kept), keepAt(s.syns, kept)
}

// drop removes the k-th token.
func (s *side) drop(k int) {
	kept := make([]int, 0, len(s.toks)-1)
	for i := range s.toks {
		if i != k {
			kept = append(kept, i)
		}
	}
	s.keep(kept)
}

// each returns f of each token's index.
func each[T any](toks []token, f func(i int) T) []T {
	out := make([]T, len(toks))
	for i := range toks {
		out[i] = f(i)
	}
	return out
}

// keepAt keeps, in place and in order, the elements of s at the indices
// kept (ascending); nil stays nil.
func keepAt[T any](s []T, kept []int) []T {
	if s == nil {
		return nil
	}
	for k, i := range kept {
		s[k] = s[i]
	}
	return s[:len(kept)]
}

// placeNames gives the words of a place's name of three or two words
// ("United States", "New York") the WordNet analysis of the whole name,
// so that each relates as the place does ("American" against "United
// States", "California" against "San Francisco"), and likewise the
// letters of an abbreviation ("U.S.", which the tokenizer splits into
// "u" and "s"). A name is read only when none of its words is a figure
// and its last word is capitalised or every word is a single letter (the
// letters after a full stop count as opening a sentence).
func (e *encoder) placeNames(toks []token, infos []*wordvec.WordInfo) {
	for i := 0; i < len(toks); i++ {
		for n := min(3, len(toks)-i); n >= 2; n-- {
			run := toks[i : i+n]
			figure, letters := false, true
			for _, tk := range run {
				figure = figure || tk.Num
				letters = letters && len(tk.Lower) == 1
			}
			if figure || !letters && !run[n-1].Cap {
				continue
			}
			// Only a candidate name is joined and looked up: this runs
			// for every token the judge reads.
			words := make([]string, n)
			for k, tk := range run {
				words[k] = tk.Lower
			}
			if info := e.info(strings.Join(words, "_")); info.Known() {
				for k := i; k < i+n; k++ {
					infos[k] = info
				}
				i += n - 1
				break
			}
		}
	}
}

// placesBeside reads two names of places written one after the other
// ("Toronto, Ontario"; a name of several words counts as one, see
// placeNames) in the senses in which the first lies within the second
// (wordvec.WordNet.Beside): the Ontario of "Toronto, Ontario" is the
// province, not the lake WordNet names first, which the United States
// holds.
func (e *encoder) placesBeside(toks []token, infos []*wordvec.WordInfo) {
	for i := 0; i < len(toks); {
		j := nameEnd(infos, i)
		if j < len(toks) && toks[i].Cap && toks[j].Cap && infos[i].Place() && infos[j].Place() {
			k := nameEnd(infos, j)
			part, whole := e.wn.Beside(infos[i], infos[j])
			fill(infos[i:j], part)
			fill(infos[j:k], whole)
		}
		i = j
	}
}

// nameEnd is the end of the name that opens at i: the tokens from i that
// share its analysis (placeNames gives a name of several words one).
func nameEnd(infos []*wordvec.WordInfo, i int) int {
	j := i + 1
	for j < len(infos) && infos[i] != nil && infos[j] == infos[i] {
		j++
	}
	return j
}

// fill sets each element of s to v.
func fill[T any](s []T, v T) {
	for i := range s {
		s[i] = v
	}
}

// verdictOpposed reports whether a word of verdict is opposed to a
// synonym of what judgeAntonyms opposes to it: "approved" against
// "turned down", which WordNet reads as "reject" (a verb of two words,
// encoder.phrasal).
func (e *encoder) verdictOpposed(t token, other *wordvec.WordInfo) bool {
	for _, info := range e.opposedInfos()[t.Stem] {
		if e.wn.RelateInfo(info, other)&wordvec.Synonym != 0 {
			return true
		}
	}
	return false
}

// opposedInfoOf gives, for each stem of judgeAntonyms, WordNet's analysis
// of the words opposed to it as written (verdictOpposed), read once.
func opposedInfoOf(wn *wordvec.WordNet) map[string][]*wordvec.WordInfo {
	out := map[string][]*wordvec.WordInfo{}
	for i, p := range judgeAntonymStems {
		for k, stem := range p {
			out[stem] = append(out[stem], wn.Info(judgeAntonymWords[i][1-k]))
		}
	}
	return out
}

// phrasalVerbs gives a verb directly followed by its particle the
// WordNet analysis of the verb of two words ("stepped down": step_down,
// which shares a sense with "resign"; "turned down": turn_down, an
// antonym of "accept"), where the verb alone relates to neither, and
// keeps a verb the stop list has ("called off", "made up"). A verb parted
// from its particle ("turned the offer down") is read as before. It
// returns the one-word verbs of each such verb's senses
// (wordvec.PhrasalSynonyms), which samePhrasal reads.
func (e *encoder) phrasalVerbs(toks []token, infos []*wordvec.WordInfo, chans []uint16) [][]string {
	var syns [][]string
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].Num || toks[i].Cap && i > 0 {
			continue
		}
		p := particleAfter(toks, i)
		if p < 0 {
			continue
		}
		if info, ok := e.wn.PhrasalInfo(toks[i].Lower, toks[p].Lower); ok {
			infos[i] = info
			chans[i] &^= 1 << chStop
			if syns == nil {
				syns = make([][]string, len(toks))
			}
			syns[i] = e.wn.PhrasalSynonyms(toks[i].Lower, toks[p].Lower)
		}
	}
	return syns
}

// objectPronouns may stand between a verb and its particle ("turned it
// down").
var objectPronouns = set("it", "them", "him", "her", "us", "me", "you", "this", "that")

// particleAfter returns the index of the particle of a verb at toks[i]:
// the next word, or the word after an object pronoun ("turned it down"),
// or after a determiner and a noun ("turned the offer down"); -1 for none.
func particleAfter(toks []token, i int) int {
	switch {
	case i+1 < len(toks) && wordvec.Particle(toks[i+1].Lower):
		return i + 1
	case i+2 < len(toks) && objectPronouns[toks[i+1].Lower] && wordvec.Particle(toks[i+2].Lower):
		return i + 2
	case i+3 < len(toks) && (toks[i+1].Lower == "the" || toks[i+1].Lower == "a" || toks[i+1].Lower == "an") &&
		!stopwords[toks[i+2].Lower] && !toks[i+2].Num && wordvec.Particle(toks[i+3].Lower):
		return i + 3
	}
	return -1
}

// minDerivedStem is the shortest stem derivedFrom reads as opening
// another word: "bankrupt" opens "bankruptci", but "port" does not open
// "portabl".
const minDerivedStem = 6

// derivedFrom reports whether one stem opens the other and has at least
// minDerivedStem letters: a word and one made from it by a suffix
// ("bankrupt" and "bankruptcy", "pollute" and "pollutant").
func derivedFrom(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return len(a) >= minDerivedStem && len(b) > len(a) && strings.HasPrefix(b, a)
}

// samePhrasal writes a verb of two words as the other side's one-word
// synonym of it (not the verb itself: "sat down" against "sat"), or as
// the synonym that judgeAntonyms opposes to the other side's word, and
// drops its particle: "The council rejected the proposal." against "The
// council turned down the proposal." reaches the networks as "rejected"
// on both sides, where they read the vector of "turned" and an unaligned
// "down" as a contradiction (0.51), and "approved" against it as
// "approved" against "rejected".
func (e *encoder) samePhrasal(a, b *side) {
	for _, pair := range [2][2]*side{{a, b}, {b, a}} {
		s, other := pair[0], pair[1]
		for i := len(s.syns) - 1; i >= 0; i-- {
			if w := phrasalAs(s.syns[i], s.toks[i], other.toks); w != "" {
				s.toks[i].Lower, s.toks[i].Stem = w, txt.Stem(w)
				// The particle, next or after the object (function
				// words gone: "turned offer down").
				for k := i + 1; k < min(len(s.toks), i+3); k++ {
					if wordvec.Particle(s.toks[k].Lower) {
						s.drop(k)
						break
					}
				}
			}
		}
	}
}

// phrasalAs returns the word samePhrasal writes a verb of two words as,
// given its one-word synonyms and the other side's tokens; "" for none.
func phrasalAs(syns []string, verb token, other []token) string {
	if len(syns) == 0 {
		return ""
	}
	stems := make(map[string]bool, len(syns))
	for _, w := range syns {
		stems[txt.Stem(w)] = true
	}
	has := func(stem string) bool { return stems[stem] }
	for _, tk := range other {
		if tk.Stem != verb.Stem && has(tk.Stem) {
			return tk.Lower
		}
	}
	// The opposite as judgeAntonymWords (or judgeOnlyAntonymWords)
	// writes it beside the other side's word as written ("approved":
	// "rejected"; "survived": "died", for "passed away"), else beside its
	// stem ("approves": "reject").
	for _, exact := range []bool{true, false} {
		for _, tk := range other {
			for i, p := range phrasalOpposites {
				for k, w := range p {
					if (exact && w == tk.Lower || !exact && phrasalOppositeStems[i][k] == tk.Stem) && has(phrasalOppositeStems[i][1-k]) {
						return p[1-k]
					}
				}
			}
		}
	}
	return ""
}

// phrasalOpposites are the pairs of opposites phrasalAs writes a verb of
// two words as, and phrasalOppositeStems their stems.
var (
	phrasalOpposites     = slices.Concat(judgeAntonymWords, judgeOnlyAntonymWords)
	phrasalOppositeStems = stemPairs(phrasalOpposites)
)

// placed folds RelatePlaces' answer p into the relations r of a claim
// word and a passage word: a place and its adjective ("England" against
// "English") are read as synonyms, and a claim's place that holds the
// passage's ("England" against "Liverpool", "Europe" against "Paris",
// "German" against "Munich") as its hypernym, as "animal" against "dog";
// neither is then a co-hyponym or cousin. The networks entail from a
// synonym or a hypernym, where two unrelated names in one slot read as a
// contradiction. The reverse, a claim's place within the passage's
// ("Liverpool" against "England"), is not read here: read as a hyponym,
// the shipped networks call "The band was formed in Stockholm." against
// "... formed in Sweden in 1972." an entailment (0.49 against 0.40)
// rather than neutral (docs/nli-development.md, "Places within places");
// encodePair reads it as a synonym and narrowerPlace takes the
// entailment away.
func placed(r, p wordvec.Rel) wordvec.Rel {
	switch {
	case p&wordvec.Synonym != 0:
		return r&^(wordvec.CoHyponym|wordvec.Cousin) | wordvec.Synonym
	case p&wordvec.Whole != 0:
		return r&^(wordvec.CoHyponym|wordvec.Cousin) | wordvec.Hypernym
	}
	return r
}

// locatives are the words that place what comes before them at a place
// named after them: "born in Stockholm", "moved to Paris".
var locatives = set("in", "at", "from", "near", "to", "into", "outside", "inside", "within")

// locative reports whether token i of toks is within a name (a run of
// capitalised words, perhaps after "the") that a locative opens.
func locative(toks []token, i int) bool {
	for i > 0 && (toks[i-1].Cap || toks[i-1].Lower == "the") {
		i--
	}
	return i > 0 && locatives[toks[i-1].Lower]
}

// measuredDimension returns the dimension token i of toks names: the noun
// of an adjective of a dimension right after a unit of length ("324
// metres tall": height), or a dimension's noun itself; "" for none
// (quantity.Dimension).
func measuredDimension(toks []token, i int) string {
	n, adjective := quantity.Dimension(toks[i].Lower)
	if adjective && (i == 0 || !quantity.LengthUnit(toks[i-1].Lower)) {
		return ""
	}
	return n
}

// sameDimensions rewrites the words of claim and passage that measure one
// dimension as its noun: "324 metres tall" against "324 metres high" or
// "a height of 324 metres" then share the word "height". WordNet relates
// neither "tall" with "high" nor either with "height" (they share an
// attribute, as "tall" and "short" do), so the networks read those pairs
// as neutral, the words unaligned. Words of two dimensions are left as
// they are: as nouns the networks would align "length" with "depth"; so
// are the words of a dimension both texts write alike.
func (e *encoder) sameDimensions(a, b *side) {
	for _, d := range a.dims {
		// Once rewritten, a dimension is written alike on both sides, so
		// dimensionWords skips it for the claim's other words of it.
		if d == "" || !slices.Contains(b.dims, d) || !e.dimensionWords(a, b, d) {
			continue
		}
		for _, s := range []*side{a, b} {
			for k, dk := range s.dims {
				if dk == d && s.toks[k].Lower != d {
					s.toks[k].Lower, s.toks[k].Stem = d, txt.Stem(d)
					s.infos[k] = e.info(d)
				}
			}
		}
	}
}

// dimensionWords reports whether claim and passage measure dimension d
// in more than one word ("tall" and "high"; not "long" on both sides, which
// the networks read as they are).
func (e *encoder) dimensionWords(a, b *side, d string) bool {
	first := ""
	for _, s := range []*side{a, b} {
		for k, dk := range s.dims {
			switch {
			case dk != d:
			case first == "":
				first = s.toks[k].Lower
			case s.toks[k].Lower != first:
				return true
			}
		}
	}
	return false
}

// placeApart reports whether claim token i names a place and the passage
// names another that WordNet neither holds in it nor places it within
// ("New York" against "San Francisco"): both named, capitalised.
func (e *encoder) placeApart(a, b *side, i int) bool {
	ai := a.infos[i]
	if !a.toks[i].Cap || !ai.Place() {
		return false
	}
	for j, tb := range b.toks {
		bi := b.infos[j]
		if !tb.Cap || !bi.Place() || tb.Stem == a.toks[i].Stem {
			continue
		}
		if e.wn.RelatePlaces(ai, bi) == 0 && e.wn.RelateInfo(ai, bi)&sameOrKind == 0 {
			return true
		}
	}
	return false
}

// partsOfPassage reports whether the claim names a place apart from each
// of narrowed that also lies within a place the passage names.
func (e *encoder) partsOfPassage(a, b *side, narrowed []*wordvec.WordInfo) bool {
	for i, qi := range a.infos {
		if !a.toks[i].Cap || !qi.Place() || slices.Contains(narrowed, qi) {
			continue
		}
		apart := true
		for _, p := range narrowed {
			if e.wn.RelatePlaces(p, qi) != 0 || e.wn.RelateInfo(p, qi)&wordvec.Synonym != 0 {
				apart = false
			}
		}
		if !apart {
			continue
		}
		for j, bj := range b.infos {
			if b.toks[j].Cap && e.wn.RelatePlaces(qi, bj)&wordvec.Part != 0 {
				return true
			}
		}
	}
	return false
}

// encode builds the model input of claim c and passage p.
func (e *encoder) encode(c, p *text) *align.Input {
	in, _ := e.encodePair(c, p)
	return in
}

// A narrowing is how a claim names a place within a place its passage
// names, found by encodePair under places.
type narrowing int

const (
	// notNarrower: the claim names no place only by one within the
	// passage's.
	notNarrower narrowing = iota
	// narrower: "born in Stockholm" against "born in Sweden".
	narrower
	// narrowerNegated: "not born in Stockholm" against "born in Sweden".
	narrowerNegated
)

// encodePair is encode that also reports, under places, whether the claim
// names a place only by one within a place the passage names, and the
// passage names no other place that holds neither ("New York" against
// "San Francisco, United States" is a conflict): the place is then read
// as the passage's, a synonym, and the judge leaves the claim's narrower
// reading to narrowerPlace.
func (e *encoder) encodePair(c, p *text) (*align.Input, narrowing) {
	a, b := e.side(c, maxClaimTokens), e.side(p, maxPassageTokens)
	if e.dims {
		e.sameDimensions(&a, &b)
	}
	if e.scaled {
		e.sameUnits(&a, &b)
	}
	if e.phrasal {
		e.samePhrasal(&a, &b)
	}
	in := &align.Input{A: make([]align.Token, len(a.toks)), B: make([]align.Token, len(b.toks))}
	for i, tk := range a.toks {
		in.A[i] = e.token(tk, a.chans[i])
	}
	for j, tk := range b.toks {
		in.B[j] = e.token(tk, b.chans[j])
	}
	relate := e.wn.RelateInfo
	switch {
	case e.cousin:
		relate = e.wn.RelateCousins
	case e.cousinRel:
		relate = e.wn.RelateWide
	}
	content, covered, related, names, namesMissing := 0, 0, 0, 0, 0
	narrow := notNarrower
	var narrowed []*wordvec.WordInfo
	for i, ta := range a.toks {
		contentWord := a.chans[i]&(1<<chStop) == 0 && len(ta.Lower) > 1
		best := uint16(0)
		nameHit, within := false, false
		// placeApart for token i, read only when a place of the passage
		// holds it: most tokens name no place.
		apartRead, apart := false, false
		for j, tb := range b.toks {
			var bits uint16
			set := func(r int) { bits |= 1 << r }
			switch {
			case ta.Lower == tb.Lower:
				set(relSame)
			case ta.Stem == tb.Stem, e.derived && derivedFrom(ta.Stem, tb.Stem):
				set(relStem)
			}
			na, nb := !math.IsNaN(a.vals[i]), !math.IsNaN(b.vals[j])
			if na && nb {
				if quantity.RelativeError(a.vals[i], b.vals[j]) <= numEqualTolerance {
					set(relNumEqual)
				} else {
					set(relNumDiffer)
				}
			}
			if bits&(1<<relSame|1<<relStem) == 0 && a.infos[i] != nil && b.infos[j] != nil {
				r := relate(a.infos[i], b.infos[j])
				if e.similar && r == 0 {
					r = e.wn.RelateSimilar(a.infos[i], b.infos[j])
				}
				if e.nouns && r == 0 {
					r = e.wn.RelateNouns(a.infos[i], b.infos[j])
				}
				if e.places {
					pr := e.wn.RelatePlaces(a.infos[i], b.infos[j])
					if pr&(wordvec.Part|wordvec.Whole|wordvec.Synonym) == wordvec.Part && a.locs[i] && tb.Cap {
						if !apartRead {
							apart, apartRead = e.placeApart(&a, &b, i), true
						}
						if !apart {
							within = true
							pr |= wordvec.Synonym
						}
					}
					r = placed(r, pr)
				}
				if e.moreDirections && r&(wordvec.CoHyponym|wordvec.Hypernym|wordvec.Hyponym) != 0 && r&wordvec.Antonym == 0 {
					// Two verbs of change the same way that WordNet
					// files under one ("reduce" and "lower", both
					// "decrease") say the same of an amount.
					if da := e.dir(ta.Lower); da != 0 && da == e.dir(tb.Lower) {
						r = r&^(wordvec.CoHyponym|wordvec.Hypernym|wordvec.Hyponym) | wordvec.Synonym
					}
				}
				if r&wordvec.Synonym != 0 {
					set(relSynonym)
				}
				v := -1
				if e.opposites {
					// "Brazil lost the final." against "Brazil was
					// defeated by Germany."
					v = victory(a.toks, i, a.voice[i], b.toks, j, b.voice[j])
				}
				opposed := false
				switch {
				case v == relSynonym:
					set(relSynonym)
				case v == relAntonym:
					opposed = true
				case e.opposites && converses[ta.Stem][tb.Stem] && (a.voice[i] == passiveNoAgent) != (b.voice[j] == passiveNoAgent):
					// "The company was sold" says what "Microsoft
					// bought the company" says.
					set(relSynonym)
				default:
					opposed = r&wordvec.Antonym != 0 || antonyms[ta.Stem][tb.Stem] ||
						e.opposites && (listedOpposed(ta.Stem, tb.Stem) || e.verdictOpposed(ta, b.infos[j]) || e.verdictOpposed(tb, a.infos[i]) ||
							prefixOpposed(e.wn, ta.Lower, tb.Lower, a.infos[i], b.infos[j]))
				}
				if opposed {
					if e.negAnt && (a.chans[i]&(1<<chNegated) != 0) != (b.chans[j]&(1<<chNegated) != 0) {
						set(relSynonym)
					} else {
						set(relAntonym)
					}
				}
				if r&wordvec.Hypernym != 0 {
					set(relHypernym)
				}
				if r&wordvec.Hyponym != 0 {
					set(relHyponym)
				}
				if r&wordvec.CoHyponym != 0 {
					set(relCoHyponym)
				}
				if r&wordvec.Cousin != 0 {
					set(relCousin)
				}
			}
			if da, db := e.dir(ta.Lower), e.dir(tb.Lower); da != 0 && db != 0 {
				if da == db {
					set(relDirSame)
				} else {
					set(relDirOpposite)
				}
			}
			if ta.Cap && tb.Cap && ta.Stem != tb.Stem && bits&(1<<relSynonym|1<<relHypernym|1<<relHyponym) == 0 {
				set(relNameClash)
			}
			if ta.Cap && bits&(1<<relSame|1<<relStem) != 0 {
				nameHit = true
			}
			if bits != 0 {
				in.Rels = append(in.Rels, align.Rel{I: int16(i), J: int16(j), Bits: bits})
				best |= bits
			}
		}
		if within && best&(1<<relSame|1<<relStem|1<<relNumEqual) == 0 {
			narrowed = append(narrowed, a.infos[i])
			narrow = narrower
			if a.chans[i]&(1<<chNegated) != 0 {
				narrow = narrowerNegated
			}
		}
		if contentWord {
			content++
			if best&(1<<relSame|1<<relStem|1<<relSynonym|1<<relNumEqual) != 0 {
				covered++
			}
			if best&(1<<relSame|1<<relStem|1<<relSynonym|1<<relNumEqual|1<<relHypernym|1<<relHyponym|1<<relDirSame) != 0 {
				related++
			}
		}
		if ta.Cap {
			names++
			if !nameHit {
				namesMissing++
			}
		}
	}
	// Places apart from each other, each within the passage's, may make
	// it up: "in the United States and Canada" against "in North
	// America".
	if len(narrowed) > 0 && e.partsOfPassage(&a, &b, narrowed) {
		narrow = notNarrower
	}
	compare := quantity.Compare
	if e.exact {
		compare = quantity.CompareExact
	}
	nc := compare(c.raw, p.raw)
	if nc.Applicable && nc.OK {
		in.Global[glQuantAgree] = 1
	}
	if len(nc.Mismatches) > 0 || e.exact && ranksConflict(c.toks, p.toks) {
		in.Global[glQuantConflict] = 1
		in.Global[glQuantAgree] = 0
	}
	if content > 0 {
		in.Global[glCoverage] = float64(covered) / float64(content)
		in.Global[glCoverageRelated] = float64(related) / float64(content)
	}
	in.Global[glPassageLength] = math.Log1p(float64(len(b.toks))) / 5
	if names > 0 {
		in.Global[glNamesMissing] = float64(namesMissing) / float64(names)
	}
	return in, narrow
}

func (e *encoder) token(tk token, chans uint16) align.Token {
	v := e.vector(tk.Lower)
	if v == nil {
		chans |= 1 << chOOV
	}
	return align.Token{Vec: v, Chan: chans, Word: e.words[tk.Lower]}
}

// Ablate removes one part of an input, for the ablation study of 'verity
// train nli --ablate': "wordnet" (the WordNet relations), "quantity" (the
// number channels, number relations and the quantity comparison). Other
// values leave in unchanged ("attention" is a network option).
func Ablate(in *align.Input, part string) {
	var rels, chans uint16
	switch part {
	case "wordnet":
		rels = 1<<relSynonym | 1<<relAntonym | 1<<relHypernym | 1<<relHyponym | 1<<relCoHyponym | 1<<relCousin
	case "quantity":
		rels = 1<<relNumEqual | 1<<relNumDiffer
		chans = 1<<chNumber | 1<<chYear
		in.Global[glQuantAgree], in.Global[glQuantConflict] = 0, 0
	default:
		return
	}
	kept := in.Rels[:0]
	for _, r := range in.Rels {
		r.Bits &^= rels
		if r.Bits != 0 {
			kept = append(kept, r)
		}
	}
	in.Rels = kept
	for i := range in.A {
		in.A[i].Chan &^= chans
	}
	for i := range in.B {
		in.B[i].Chan &^= chans
	}
}

// DropWords writes into dst a copy of in whose tokens each lose their word
// vector with probability p, as an unknown word would (the unknown channel
// set, every other channel and every relation kept), for the word dropout
// of 'verity train nli --word-dropout': a network that cannot lean on
// every vector learns to read the relations and channels that a word
// outside the vectors' vocabulary, a name or a figure, still has. dst's
// token slices are reused; in is not changed.
func DropWords(dst, in *align.Input, p float64, rng *rand.Rand) {
	drop := func(dst, src []align.Token) []align.Token {
		dst = append(dst[:0], src...)
		for i := range dst {
			if dst[i].Vec != nil && rng.Float64() < p {
				dst[i].Vec = nil
				dst[i].Chan |= 1 << chOOV
			}
		}
		return dst
	}
	dst.A = drop(dst.A, in.A)
	dst.B = drop(dst.B, in.B)
	dst.Rels = in.Rels
	dst.Global = in.Global
}

// ordinalWords are the ranks written as words.
var ordinalWords = map[string]int{"second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10}

// superlatives are the superlatives whose rank ranksConflict reads;
// "most" and "least" read with the word after them ("most populous").
var superlatives = set("largest", "biggest", "tallest", "highest", "longest", "oldest", "smallest", "busiest",
	"richest", "greatest", "deepest", "fastest", "youngest", "lowest", "heaviest", "widest", "best", "worst",
	"most", "least", "earliest", "latest", "wealthiest", "poorest", "strongest", "hottest", "coldest")

// ranks returns the rank a text gives each of its superlatives: 1 for
// "the largest", n for "the second largest" or "the 2nd largest". A
// superlative after "one of the", or with neither "the" nor a rank
// before it, gets none.
func ranks(toks []token) map[string]int {
	var out map[string]int
	for k, tk := range toks {
		if !superlatives[tk.Lower] || k == 0 {
			continue
		}
		key := tk.Lower
		if key == "most" || key == "least" {
			if k+1 >= len(toks) || toks[k+1].Num {
				continue
			}
			key += " " + toks[k+1].Lower
		}
		prev := toks[k-1].Lower
		rank := ordinalWords[prev]
		if k >= 2 && toks[k-2].Num && (prev == "st" || prev == "nd" || prev == "rd" || prev == "th") {
			if v, err := strconv.Atoi(toks[k-2].Lower); err == nil {
				rank = v
			}
		}
		if rank == 0 && prev == "the" && !(k >= 3 && toks[k-3].Lower == "one" && toks[k-2].Lower == "of") {
			rank = 1
		}
		if rank == 0 {
			continue
		}
		if out == nil {
			out = map[string]int{}
		}
		if _, seen := out[key]; !seen {
			out[key] = rank
		}
	}
	return out
}

// ranksConflict reports whether the claim ranks a superlative otherwise
// than the passage does: "the largest city" against "the second largest
// city". The judge reads it as figures in conflict; quantity reads no
// ranks written as words.
func ranksConflict(claim, passage []token) bool {
	rc := ranks(claim)
	if len(rc) == 0 {
		return false
	}
	rp := ranks(passage)
	for key, r := range rc {
		if q, ok := rp[key]; ok && q != r {
			return true
		}
	}
	return false
}

// sameUnits writes a passage's unit as the claim's unit of the same
// dimension ("grams" as "kg", "metres" as "feet"), after scaleFigures has
// read each side's figures in its own units: WordNet files "kilogram" and
// "gram" as co-hyponyms, which the networks read as two things in one
// slot, a contradiction ("The package weighs 2 kg." against "The package
// weighs 2,000 grams." was a tie).
//
// Only a unit whose figure equals the claim's unit's figure is written
// so: "about 2.7 kilometres long" stays as written against "2,500 metres
// long", where the two units written alike made the passage look closer
// than its figure is (a demo claim went from Refuted to Contested).
func (e *encoder) sameUnits(a, b *side) {
	for i, ta := range a.toks {
		_, base, ok := quantity.WordUnit(ta.Lower)
		if !ok || base == "" || base == "day" {
			continue
		}
		va := figureBefore(a, i)
		for k, tb := range b.toks {
			_, bb, ok := quantity.WordUnit(tb.Lower)
			if !ok || bb != base || tb.Lower == ta.Lower {
				continue
			}
			if vb := figureBefore(b, k); math.IsNaN(va) || math.IsNaN(vb) || quantity.RelativeError(va, vb) > numEqualTolerance {
				continue
			}
			b.toks[k].Lower, b.toks[k].Stem = ta.Lower, ta.Stem
			b.infos[k] = e.info(ta.Lower)
		}
	}
}

// figureBefore returns the figure (scaled, see scaleFigures) of the
// number one or two tokens before token i of s ("2 kg", "1.5 million
// tonnes"), NaN when there is none.
func figureBefore(s *side, i int) float64 {
	for k := i - 1; k >= max(0, i-2); k-- {
		if !math.IsNaN(s.vals[k]) {
			return s.vals[k]
		}
	}
	return math.NaN()
}

// numEqualTolerance is how far apart two figures may be and still be
// related as equal (relNumEqual): 2%.
const numEqualTolerance = 0.02

// scaleFigures multiplies each figure of vals by the scale and the unit
// written after it, as quantity.WordUnit gives them ("1.5 million
// tonnes": 1.5e9 kg), so that figures of one quantity written in other
// units or scales relate as equal.
func scaleFigures(toks []token, vals []float64) {
	for i, v := range vals {
		if math.IsNaN(v) {
			continue
		}
		for k := i + 1; k < min(len(toks), i+3); k++ {
			f, base, ok := quantity.WordUnit(toks[k].Lower)
			if !ok || base == "day" {
				break // a time is as often an age or a date's part
			}
			v *= f
		}
		vals[i] = v
	}
}
