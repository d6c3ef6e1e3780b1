package nli

import (
	"regexp"
	"strings"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/quantity"
)

// The comparison rule: "The river is longer than the Danube." against
// "The river is 1,200 km long, while the Danube is 2,850 km long." The
// networks see every word of the claim in the passage and entail it
// (0.88), and "shorter" against "long" reads as a contradiction (0.74):
// nothing compares the two figures. When the passage gives a figure
// after each of the two things the claim compares, the rule compares
// them.

// comparatives give the direction a comparative word claims: +1 for more
// of the dimension, -1 for less.
var comparatives = map[string]int{
	"longer": 1, "shorter": -1, "taller": 1, "higher": 1, "lower": -1, "larger": 1, "bigger": 1, "smaller": -1,
	"heavier": 1, "lighter": -1, "deeper": 1, "shallower": -1, "wider": 1, "narrower": -1, "older": 1,
	"younger": -1, "faster": 1, "slower": -1, "richer": 1, "poorer": -1, "greater": 1, "fewer": -1,
}

// comparisonRe reads a claim that compares two things: "SUBJECT is
// longer than OBJECT",
// "SUBJECT has bigger oil reserves than OBJECT" (at most three words
// between the comparative and "than").
var comparisonRe = regexp.MustCompile(`(?i)^\s*(.+?)\s+(?:is|was|are|were|stands|runs|has|have|had)\s+(?:much\s+|far\s+|slightly\s+)?([a-z]+er)\s+(?:[a-z]+\s+){0,3}?than\s+(.+?)\s*[.!]?\s*$`)

// compareWindow bounds, in bytes, how far after a thing's mention its
// figure may stand.
const compareWindow = 80

// comparisonVerdict returns +1 when the passage's figures bear the
// claim's comparison out, -1 when they refute it, and 0 when the rule
// does not apply: the claim is no comparison of two things, the passage
// does not mention both with a figure of one unit after each (before the
// other's mention), or either text is negated or hedged.
func comparisonVerdict(c, p *text) int {
	if c.negs > 0 || p.negs > 0 || c.hedged || !c.lowers["than"] {
		return 0
	}
	m := comparisonRe.FindStringSubmatch(c.raw)
	if m == nil {
		return 0
	}
	dir, ok := comparatives[strings.ToLower(m[2])]
	if !ok {
		return 0
	}
	subject, object := lastContent(m[1]), lastContent(m[3])
	if subject == "" || object == "" || subject == object {
		return 0
	}
	si, oi := mention(p.raw, subject), mention(p.raw, object)
	if si < 0 || oi < 0 {
		return 0
	}
	if v := statedComparison(p.raw, strings.ToLower(m[2]), dir, si, oi); v != 0 {
		return v
	}
	qs := quantity.Extract(p.raw)
	sq, ok1 := figureAfter(qs, si, oi)
	oq, ok2 := figureAfter(qs, oi, si)
	if !ok1 || !ok2 {
		return superlativeVerdict(p.raw, strings.ToLower(m[2]), si, oi)
	}
	sv, su := sq.Base()
	ov, ou := oq.Base()
	// Counts compare whatever noun they count ("2.1 million residents"
	// and "Lyon 0.5 million"); measures and money, in one unit.
	if su != ou && (sq.Kind != quantity.Number || oq.Kind != quantity.Number) || sv == ov {
		return 0
	}
	if (sv > ov) == (dir > 0) {
		return 1
	}
	return -1
}

// comparativeOpposites pair the comparatives of one dimension that go
// opposite ways.
var comparativeOpposites = bothWays([][2]string{{"longer", "shorter"}, {"taller", "shorter"}, {"higher", "lower"},
	{"larger", "smaller"}, {"bigger", "smaller"}, {"heavier", "lighter"}, {"deeper", "shallower"},
	{"wider", "narrower"}, {"older", "younger"}, {"faster", "slower"}, {"richer", "poorer"}})

// comparativeSynonyms pair the comparatives of one dimension that go the
// same way: "The dog is larger than the cat." against "The cat is bigger
// than the dog." (entailment 0.84 before they were paired).
var comparativeSynonyms = bothWays([][2]string{{"larger", "bigger"}, {"larger", "greater"}, {"bigger", "greater"},
	{"taller", "higher"}})

// passageComparativeRe finds a comparative and its "than" in a passage,
// at most three words apart ("shorter than", "smaller oil reserves
// than").
var passageComparativeRe = regexp.MustCompile(`(?i)\b([a-z]+er)\s+(?:[a-z]+\s+){0,3}?than\b`)

// statedComparison reads a claim's comparison against one the passage
// states of the same two things, in either order, with the claim's
// comparative, a synonym or its opposite: "The Nile is longer than the Amazon."
// against "The Amazon is shorter than the Nile." The networks align
// "longer" with "shorter" and read the two as antonyms (contradiction
// 0.91), and they do not read which thing comes first ("The Nile is
// shorter than the Amazon." against it was entailment 0.85). si and oi
// are the byte offsets just after the first mentions of the claim's
// subject and object in the passage; a comparison counts when one of them
// stands before its comparative and the other after its "than". It
// returns +1 when the passage says the same, -1 when it says the
// opposite, 0 when it states no such comparison.
func statedComparison(passage, comparative string, dir, si, oi int) int {
	for _, loc := range passageComparativeRe.FindAllStringSubmatchIndex(passage, -1) {
		word := strings.ToLower(passage[loc[2]:loc[3]])
		d, ok := comparatives[word]
		if !ok || word != comparative && !comparativeOpposites[comparative][word] && !comparativeSynonyms[comparative][word] {
			continue
		}
		var order int
		switch k, than := loc[2], loc[1]; {
		case si <= k && oi > than:
			order = 1
		case oi <= k && si > than:
			order = -1
		default:
			continue
		}
		if d*order == dir {
			return 1
		}
		return -1
	}
	return 0
}

// superlativeOf gives a comparative's superlative: "larger" largest,
// "bigger" biggest, "heavier" heaviest.
func superlativeOf(comparative string) string {
	return strings.TrimSuffix(comparative, "er") + "est"
}

// superlativeVerdict reads a claim's comparison against a passage that
// gives one of the two things a superlative of the dimension ("Canada is
// larger than Russia." against "Russia is the largest country in the
// world, followed by Canada."): the holder of the claim's superlative
// ("largest") has more than the other, the holder of its opposite
// ("smallest") less. si and oi are the byte offsets just after the
// claim's subject's and object's mentions in the passage. It returns +1,
// -1, or 0 when neither mention is directly followed by "is the" (or
// "was the", ", the") and such a superlative. "The second largest" is a
// rank: its holder has less than the other when the passage names the
// other after "after" or "behind" ("the second largest, after Russia").
func superlativeVerdict(passage, comparative string, si, oi int) int {
	own := superlativeOf(comparative)
	for _, side := range []struct {
		at, other int
		sign      int
	}{{si, oi, 1}, {oi, si, -1}} {
		m := superlativeRe.FindStringSubmatch(passage[side.at:min(len(passage), side.at+40)])
		if m == nil {
			continue
		}
		rank, sup := m[1], strings.ToLower(m[2])
		switch {
		case rank == "" && sup == own:
			return side.sign
		case rank == "" && opposesSuperlative(comparative, sup):
			return -side.sign
		case rank != "" && sup == own && side.other > side.at && rankedAfterRe.MatchString(passage[side.at:side.other]):
			// "Canada is the second largest country, after Russia":
			// the other comes first.
			return -side.sign
		}
	}
	return 0
}

// opposesSuperlative reports whether sup is the superlative of an
// opposite of the comparative ("smallest" of "larger").
func opposesSuperlative(comparative, sup string) bool {
	for o := range comparativeOpposites[comparative] {
		if superlativeOf(o) == sup {
			return true
		}
	}
	return false
}

// superlativeRe reads a superlative, perhaps ranked, right after a
// mention: "is the largest", ", the smallest", "was the second largest".
var superlativeRe = regexp.MustCompile(`(?i)^\s*(?:,|is|was|are|were|remains|remained)?\s*(?:still\s+)?the\s+(?:(second|third|fourth|fifth)\s+)?([a-z]+est)\b`)

// rankedAfterRe finds the words that put a rank's holder after another:
// "the second largest, after Russia", "behind", "only to".
var rankedAfterRe = regexp.MustCompile(`(?i)\b(?:after|behind|only\s+to|surpassed\s+only\s+by)\s+(?:the\s+)?\S*$`)

// lastContent returns the last content word of a noun phrase, lower-case:
// "The river" gives river, "the Danube" danube, "the Danube in Europe"
// europe (the rule then finds no figure after it, or the wrong one, and
// a comparison of phrases that long is left alone by the passage test).
func lastContent(phrase string) string {
	toks := tokenize(phrase)
	if len(toks) > 4 {
		return ""
	}
	for i := len(toks) - 1; i >= 0; i-- {
		if tk := toks[i]; !stopwords[tk.Lower] && !tk.Num && len(tk.Lower) > 1 {
			return tk.Lower
		}
	}
	return ""
}

// mention returns the byte offset of the first whole-word mention of the
// lower-case word w in s, or -1.
func mention(s, w string) int {
	re, err := regexp.Compile(`(?i)\b` + regexp.QuoteMeta(w) + `\b`)
	if err != nil {
		return -1
	}
	if loc := re.FindStringIndex(s); loc != nil {
		return loc[1]
	}
	return -1
}

// figureAfter returns the first figure of qs, not a date, that starts
// within compareWindow bytes after at and before other, when other comes
// after at.
func figureAfter(qs []quantity.Quantity, at, other int) (quantity.Quantity, bool) {
	for _, q := range qs {
		if q.Start < at || q.Start > at+compareWindow || other > at && q.Start > other {
			continue
		}
		if q.Kind == quantity.Year || q.Kind == quantity.Date {
			continue
		}
		return q, true
	}
	return quantity.Quantity{}, false
}

// comparisonRule applies comparisonVerdict (see byVerdict).
func comparisonRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	return byVerdict(comparisonVerdict(c, p), j)
}

// rankRule moves all but negKeep of the entailment to contradiction when
// the passage ranks the claim's superlative otherwise (ranksConflict)
// and has every other content word of the claim: "The bridge is the
// longest in the world." against "The bridge is the third longest
// suspension bridge in the world." was a near tie (0.43 / 0.53), the
// conflict reaching the networks as one global input among many. A
// negated claim is left to them, and so is a passage that ranks
// something else (rankedSubject).
func rankRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	if c.negs > 0 || !ranksConflict(c.toks, p.toks) || !rankedSubject(c, p) {
		return j
	}
	ranked := func(w string) bool { return superlatives[w] || ordinalWords[w] != 0 }
	if !coversBut(c, p.stems, stemsWhere(c, ranked)) {
		return j
	}
	return toContradiction(j)
}

// rankedSubject reports whether the passage ranks the claim's subject:
// every content word the claim has before its verb ("The bridge is the
// longest ...") comes before the passage's first superlative; one word
// of a name is not enough ("Stadio Giuseppe Meazza" against "Stadio San
// Paolo ... is the third largest"). "Helium is
// the second most abundant element in the known universe, after
// hydrogen." ranks helium, not "The element hydrogen" of the claim.
func rankedSubject(c, p *text) bool {
	subject := map[string]bool{}
	for _, tk := range c.toks {
		if passiveMarks[tk.Lower] || tk.Lower == "remains" || tk.Lower == "remained" {
			break
		}
		if !stopwords[tk.Lower] && !tk.Num {
			subject[tk.Stem] = true
		}
	}
	if len(subject) == 0 {
		return false
	}
	for _, tk := range p.toks {
		if superlatives[tk.Lower] {
			return false
		}
		delete(subject, tk.Stem)
		if len(subject) == 0 {
			return true
		}
	}
	return false
}
