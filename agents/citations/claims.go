package citations

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/verity-fc/verity/quantity"
	txt "github.com/verity-fc/verity/text"
)

// Claim kinds, strongest signal first. They decide how an unsourced claim
// is flagged (seed 003: statistical, market-size and competitor claims
// without a source are flagged).
const (
	KindMarket      = "market"      // market size, growth or share
	KindCompany     = "company"     // a named company's users, revenue, funding, prices
	KindStatistic   = "statistic"   // any other figure
	KindAttribution = "attribution" // "X said/found/reports ..."
	KindCausal      = "causal"      // "A leads to B"
	KindDate        = "date"        // a year or date
	KindEntity      = "entity"      // a statement about a named entity
	KindOther       = "other"       // a cited sentence with none of the above
)

func words(alts ...string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:` + strings.Join(alts, "|") + `)\b`)
}

var (
	// pointerRe opens sentences that only point elsewhere ("See [3].").
	pointerRe = regexp.MustCompile(`(?i)^(?:see|for (?:more|details|further|a full|an overview)|sources?|via|read more|learn more|more at|cf\.?|references?)\b`)
	// Sentences that state no checkable fact unless the author cites one.
	opinionRe = words(`I think`, `I believe`, `we believe`, `we think`, `in my (?:opinion|view)`, `we recommend`, `should`,
		`ought to`, `must`, `consider`, `let's`, `imagine`)
	hedgeRe = words("might", "may", "could", "possibly", "perhaps", "probably", "likely", "unlikely", "will",
		"is expected to", "are expected to", "is projected to", "are projected to", "forecast")
	causalRe = words("causes?", "caused", "leads? to", "led to", "results? in", "resulted in", "because", "due to",
		"drives?", "drove", "driven by", "contributes? to", "contributed to", "increases? the risk", "reduces?", "reduced",
		"improves?", "improved", "doubles?", "doubled", "triples?", "tripled", "boosts?", "boosted")
	attributionVerbRe = words("said", "says", "stated", "states", "announced", "reported", "reports", "claimed", "claims",
		"wrote", "writes", "according to", "found", "finds", "estimated", "estimates", "concluded", "revealed", "noted", "showed", "shows")
	marketRe   = words("market", "markets", "industry", "sector", "TAM", "SAM", "SOM", "addressable")
	marketFigR = words("CAGR", "grow", "grows", "grew", "growth", "growing", "worth", "valued", "size", "sized", "expand", "expanding", "share")
	companyRe  = words("users", "customers", "subscribers", "members", "learners", "revenue", "revenues", "ARR", "MRR", "sales",
		"profit", "profits", "funding", "raised", "valuation", "valued", "employees", "downloads", "installs", "price", "prices",
		"pricing", "costs?", "charges", "per month", "per year", "per user", "per seat", "a month", "a year", "market share")
	// firstPersonRe finds results the author claims as their own: seed
	// 003's "our pilot", "our results" that are often fabricated.
	firstPersonRe = regexp.MustCompile(`(?i)\b(?:our|my)\s+(?:own\s+|internal\s+|recent\s+|early\s+)?(?:pilots?|study|studies|results?|trials?|experiments?|surveys?|data|analysis|research|customers|users|students|clients|beta|tests?|testing|programs?|programmes?|deployments?|findings|cohorts?|rollouts?|case stud(?:y|ies))\b|\bwe\s+(?:found|observed|measured|saw|achieved|recorded|surveyed|tested|piloted|ran|trained|served|helped)\b`)
	// vagueRe is an attribution to nobody in particular.
	vagueRe = regexp.MustCompile(`(?i)\b(?:studies|research|experts|analysts|surveys|reports|scientists|data|evidence|sources)\s+(?:show|shows|suggest|suggests|say|says|indicate|indicates|found|find|agree|confirm|confirms|prove|proves)\b|\bit is (?:widely |commonly |generally )?(?:known|believed|reported|estimated|accepted)\b|\b(?:many|some|most) (?:people|experts|analysts|studies|researchers) (?:believe|say|agree|think)\b`)
)

// claimInfo is what the checker makes of one sentence.
type claimInfo struct {
	kind string
	// fabricated: first-person results with figures and no source.
	fabricated bool
	// precise: a percentage written with decimals ("73.4%").
	precise bool
	// vague: "studies show", "experts say".
	vague bool
	// entity is the organisation the claim attributes its statement to
	// ("According to Gartner, ..."), "" when none.
	entity string
	// content is the claim with its attribution taken off ("60% of
	// students prefer online learning"): what the cited page must state.
	content string
	// resolved is the claim with a subject that leaned on the sentences
	// before resolved from them (see resolveClaims); "" when the sentence
	// stands on its own.
	resolved string
}

// analyseClaim decides whether a sentence is a check-worthy claim and
// classifies it. A cited sentence is a claim unless it is a question, a
// pointer ("See [3].") or a single word: its author vouched for it with a
// source. An uncited one must have four words or more, state a fact (a
// figure, a date, an attribution, a cause or a named entity) and not be an opinion, a
// recommendation, a hedge or a prediction.
func analyseClaim(text string, cited bool) (claimInfo, bool) {
	t := strings.TrimSpace(text)
	minWords := 4
	if cited {
		minWords = 2
	}
	if len(strings.Fields(t)) < minWords || strings.HasSuffix(strings.TrimRight(t, `"')”’ `), "?") || pointerRe.MatchString(t) {
		return claimInfo{}, false
	}
	if !cited && (opinionRe.MatchString(t) || hedgeRe.MatchString(t)) {
		return claimInfo{}, false
	}
	if !screened(t, cited) {
		return claimInfo{}, false
	}
	info := claimInfo{content: t}
	info.entity, info.content = attribution(t)
	statistic, date := false, false
	for _, q := range quantity.Extract(t) {
		switch q.Kind {
		case quantity.Year, quantity.Date:
			date = true
		case quantity.Ordinal:
		default:
			statistic = true
			if q.Kind == quantity.Percent && q.Step > 0 && q.Step < 1 {
				info.precise = true
			}
		}
	}
	info.fabricated = statistic && firstPersonRe.MatchString(t)
	info.vague = vagueRe.MatchString(t)
	entity := info.entity != "" || hasNamedEntity(t)
	switch {
	case marketRe.MatchString(t) && (statistic || marketFigR.MatchString(t)):
		info.kind = KindMarket
	case entity && statistic && companyRe.MatchString(t):
		info.kind = KindCompany
	case statistic:
		info.kind = KindStatistic
	case info.entity != "" || attributionVerbRe.MatchString(t) || info.vague:
		info.kind = KindAttribution
	case causalRe.MatchString(t):
		info.kind = KindCausal
	case date:
		info.kind = KindDate
	case entity:
		info.kind = KindEntity
	case cited:
		info.kind = KindOther
	default:
		return claimInfo{}, false
	}
	return info, true
}

// hasNamedEntity reports a capitalised word after the first (other than
// "I"), or anywhere an acronym ("NASA"), a word with an inner capital
// ("YouTube") or a capitalised possessive ("Duolingo's"). A capitalised
// first word alone is not taken for a name: every sentence has one.
func hasNamedEntity(s string) bool {
	for i, w := range strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(`,;:()"“”[]`, r) }) {
		w = strings.Trim(w, `‘.!?`)
		r, size := utf8.DecodeRuneInString(w)
		if size == 0 || !unicode.IsUpper(r) || w == "I" {
			continue
		}
		possessive := strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "’s")
		inner := strings.IndexFunc(w[size:], unicode.IsUpper) >= 0
		if i > 0 || possessive || inner || isAcronym(w) {
			return true
		}
	}
	return false
}

func isAcronym(w string) bool {
	upper := 0
	for _, r := range w {
		switch {
		case unicode.IsUpper(r):
			upper++
		case unicode.IsLower(r):
			return false
		}
	}
	return upper >= 2
}

// Attribution patterns. name matches an organisation or person as written:
// capitalised words, possibly joined by "&", "of", "and", "for".
const name = `((?:[A-Z][\w.&'’-]*)(?:\s+(?:[A-Z][\w.&'’-]*|&|of|and|for|de))*)`

var (
	accordingLeadRe  = regexp.MustCompile(`^According to (?:the\s+|a\s+)?` + name + `(?:'s?|’s?)?(?:\s+(?:\d{4}\s+)?(?:annual\s+)?(?:report|study|survey|data|research|analysis|findings|paper|website))?\s*,\s*(.+)$`)
	accordingTrailRe = regexp.MustCompile(`^(.+?),?\s+according to (?:the\s+|a\s+)?` + name + `[^,]*?[.!]?$`)
	subjectSaysRe    = regexp.MustCompile(`^(?:The\s+)?` + name + `(?:'s?|’s?)?(?:\s+(?:\d{4}\s+)?(?:annual\s+|latest\s+|recent\s+)?(?:report|study|survey|data|research|analysis|findings|paper|blog|website|press release))?\s+(?:reports?|reported|found|finds|says|said|states|stated|estimates|estimated|shows|showed|announced|revealed|reveals|notes|noted|claims|claimed|concluded|concludes|indicates|indicated)\s+(that\s+)?(.+)$`)
	studyByRe        = regexp.MustCompile(`\b(?:[Aa]n?|[Tt]he)\s+(?:\d{4}\s+)?(?:report|study|survey|analysis|paper|poll)\s+(?:by|from)\s+(?:the\s+)?` + name)
)

// notEntities are capitalised openers that name nobody.
var notEntities = map[string]bool{
	"it": true, "this": true, "that": true, "these": true, "those": true, "they": true, "we": true, "our": true,
	"the": true, "research": true, "studies": true, "study": true, "experts": true, "analysts": true, "data": true,
	"evidence": true, "reports": true, "surveys": true, "a": true, "an": true, "he": true, "she": true, "his": true,
	"her": true, "their": true, "its": true, "one": true, "some": true, "many": true, "most": true, "recent": true,
}

// attribution returns the entity a sentence attributes its statement to
// and the statement without the attribution. With no attribution it
// returns "" and the sentence.
func attribution(s string) (entity, content string) {
	content = s
	if m := accordingLeadRe.FindStringSubmatch(s); m != nil && cleanEntity(m[1]) != "" {
		return cleanEntity(m[1]), capitalise(m[2])
	}
	if m := accordingTrailRe.FindStringSubmatch(s); m != nil && cleanEntity(m[2]) != "" {
		return cleanEntity(m[2]), strings.TrimRight(m[1], " ,") + "."
	}
	if m := subjectSaysRe.FindStringSubmatch(s); m != nil && cleanEntity(m[1]) != "" {
		rest := m[3]
		if m[2] != "" || len(strings.Fields(rest)) >= 5 {
			content = capitalise(rest)
		}
		return cleanEntity(m[1]), content
	}
	if m := studyByRe.FindStringSubmatch(s); m != nil {
		return cleanEntity(m[1]), content
	}
	return "", content
}

// cleanEntity trims connectors off a matched name and rejects pronouns and
// generic words.
func cleanEntity(e string) string {
	f := strings.Fields(e)
	for len(f) > 0 && strings.ContainsAny(f[len(f)-1][:1], "&abcdefghijklmnopqrstuvwxyz") {
		f = f[:len(f)-1]
	}
	if len(f) == 0 {
		return ""
	}
	if len(f) == 1 && notEntities[strings.ToLower(strings.Trim(f[0], ".,'’"))] {
		return ""
	}
	if notEntities[strings.ToLower(f[0])] && len(f) > 1 {
		f = f[1:]
	}
	e = strings.TrimRight(strings.Join(f, " "), ".,")
	for _, suffix := range []string{"'s", "’s", "'", "’"} {
		e = strings.TrimSuffix(e, suffix)
	}
	return e
}

func capitalise(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// generic words of organisation names, which alone do not identify one.
var genericNameWords = map[string]bool{
	"the": true, "of": true, "and": true, "for": true, "de": true, "company": true, "companies": true, "inc": true,
	"corp": true, "corporation": true, "group": true, "institute": true, "university": true, "research": true,
	"report": true, "labs": true, "global": true, "international": true, "association": true, "foundation": true,
	"center": true, "centre": true, "partners": true, "llc": true, "ltd": true, "co": true, "plc": true, "gmbh": true,
}

// mentions reports whether text names entity: every distinctive word of
// the name ("McKinsey" of "McKinsey & Company"; "Khan" and "Academy" of
// "Khan Academy") stands in text as a whole word, case ignored.
func mentions(text, entity string) bool {
	lower := " " + strings.Join(txt.Words(text), " ") + " "
	var distinctive []string
	for _, w := range txt.Words(entity) {
		if !genericNameWords[w] {
			distinctive = append(distinctive, w)
		}
	}
	if len(distinctive) == 0 {
		distinctive = txt.Words(entity)
	}
	if len(distinctive) == 0 {
		return false
	}
	for _, w := range distinctive {
		if !strings.Contains(lower, " "+w+" ") {
			return false
		}
	}
	return true
}

// domainNames reports whether a domain spells the entity's name
// ("khanacademy.org" for "Khan Academy", "mckinsey.com" for "McKinsey &
// Company").
func domainNames(domain, entity string) bool {
	if domain == "" {
		return false
	}
	host := strings.ReplaceAll(strings.ToLower(domain), "-", "")
	var all, distinctive strings.Builder
	for _, w := range txt.Words(entity) {
		all.WriteString(w)
		if !genericNameWords[w] {
			distinctive.WriteString(w)
		}
	}
	for _, n := range []string{all.String(), distinctive.String()} {
		if len(n) >= 3 && strings.Contains(host, n) {
			return true
		}
	}
	return false
}
