package factcheck

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/verity-fc/verity/claim"
	"github.com/verity-fc/verity/quantity"
	"github.com/verity-fc/verity/sentences"
)

// The built-in extractor ("verity/extractor") finds check-worthy sentences
// by rules, the way the extraction prompt asks a model to: it keeps
// sentences that carry numbers, dates, named entities, technical
// identifiers, comparisons, attributions, causal verbs or stated relations,
// and skips opinions, hedged statements, questions, predictions and
// definitions. Each kept sentence is one claim,
// typed by its strongest signal. There is no maintained named-entity
// recogniser for Go that is both fast and accurate (prose/v2's tags "Celsius"
// a PERSON and takes ~200 ms a document), so names are found by
// capitalisation.

// splitSentences splits content into sentences: lines are hard breaks (list
// items, headings), and each line is split by [sentences.Texts]. List
// markers and heading marks are dropped.
func splitSentences(content string) []string {
	var out []string
	for line := range strings.Lines(content) {
		line = listMarkerRe.ReplaceAllString(strings.TrimSpace(line), "")
		out = append(out, sentences.Texts(line)...)
	}
	return out
}

var listMarkerRe = regexp.MustCompile(`^(?:#{1,6}\s+|[-*•]\s+|\d{1,3}[.)]\s+|>\s*)+`)

// skip reasons of the built-in extractor.
const (
	keep       = ""
	question   = "question"
	hedged     = "hedged"
	prediction = "prediction"
	opinion    = "opinion"
	definition = "definition"
	noSignal   = "no check-worthy signal"
	tooShort   = "too short"
)

func words(alts ...string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:` + strings.Join(alts, "|") + `)\b`)
}

var (
	// Hedges that doubt the statement wherever they stand.
	hedgeRe = words("possibly", "perhaps", "probably", "maybe", "likely", "unlikely",
		"allegedly", "supposedly", "arguably", "apparently", "presumably", "conceivably",
		"seems?", "seemed", "appears? to", "is thought to", "are thought to", "it is possible")
	// Modal verbs hedge a main clause ("prices could rise") but not a
	// subordinate one ("crashed before 'LOGIN' could be completed").
	modalRe       = regexp.MustCompile(`\b(?:might|may|could)\b`)
	subordinators = []string{"before", "until", "so", "that", "which", "who", "when", "where", "if", "unless", "because", "although", "than"}
	// "will" is matched in lower case only, so that "Will Smith" is a name.
	willRe       = regexp.MustCompile(`\b(?:will|won't|shall)\b`)
	predictionRe = words("going to", "is expected to", "are expected to",
		"is projected to", "are projected to", "is forecast to", "are forecast to", "is set to", "are set to",
		"is predicted to", "are predicted to", "in the future")
	// Comparisons of likelihood ("are more likely to develop") state a
	// finding, not a doubt.
	likelihoodRe = words("more likely", "less likely", "as likely", "equally likely")
	opinionRe    = words(`I think`, `I believe`, `I feel`, `I guess`, `in my (?:opinion|view)`, `we believe`, `we think`,
		`I (?:love|like|hate|prefer|adore|enjoy|dislike)`, `we (?:love|like|hate|prefer|enjoy)`,
		"personally", "should", "ought to", "must")
	// Evaluative words count in lower case only, so that titles and names
	// ("Best Actress", "Beautiful Loser") do not read as opinions.
	evaluativeRe = regexp.MustCompile(`\b(?:best|worst|beautiful|ugly|amazing|awesome|terrible|horrible|wonderful|fantastic|` +
		`awful|boring|exciting|delicious|overrated|underrated|brilliant|stupid|disgusting|lovely|pathetic|ridiculous|` +
		`incredible|magnificent|outstanding|disappointing)\b`)
	// Idioms with an evaluative word that state facts.
	factualIdiomRe = words("best[- ]known", "best[- ]selling", "worst[- ]selling", "best[- ]sellers?", "best friends?")
	definitionRe   = words("is defined as", "are defined as", "by definition", "refers to", "is a term for", "means that")
	attributionRe  = words("said", "says", "stated", "states that", "announced", "reported", "reports that", "claimed",
		"wrote", "writes", "told", "testified", "according to", "argued", "noted", "confirmed", "denied",
		"estimated", "found that", "concluded", "declared", "admitted")
	causalRe = words("causes?", "caused", "causing", "leads? to", "led to", "leading to", "results? in", "resulted in",
		"because", "due to", "as a result of", "therefore", "triggers?", "triggered", "prevents?", "prevented",
		"contributes? to", "contributed to", "increases? the risk", "increased the risk", "reduces? the risk",
		"reduced the risk", "responsible for", "driven by", "thanks to",
		"increases", "increased", "decreases", "decreased", "reduces", "promotes", "promoted", "inhibits", "inhibited",
		"induces", "induced", "protects? against", "protected against", "improves", "improved", "suppresses",
		"suppressed", "activates", "activated", "enhances", "impairs", "impaired", "influences", "regulates")
	// Relations a study can confirm or refute without claiming a cause.
	relationRe = words("associated with", "correlated with", "correlates with", "linked to", "is a risk factor")
	// identifierRe finds technical identifiers that mix letters and digits:
	// "CO2", "HHV-8", "caspase-11", "4-PBA", "6MP".
	identifierRe = regexp.MustCompile(`\b(?:[A-Za-z]+-?\d|\d+-?[A-Za-z]{2,})[\w-]*`)
	// A year is a prediction only when the sentence places something in it:
	// "by 2050", not "Blade Runner 2049".
	temporalBeforeRe = regexp.MustCompile(`(?i)\b(?:in|by|until|till|before|after|from|around|circa|through|during|to)\s+(?:the\s+)?(?:year\s+)?$`)
	comparisonRe     = words(`\w+er than`, `(?:more|less) \w+`, "fewer than", "compared (?:to|with)", "as \\w+ as",
		"times (?:more|less|larger|smaller|higher|lower|as)", "twice", "outnumbers?", "outnumbered", "exceeds?", "exceeded",
		"surpass(?:es|ed)?", "rank(?:s|ed)?", "most", "least", "largest", "smallest", "highest", "lowest", "biggest",
		"oldest", "newest", "youngest", "first", "fastest", "slowest", "longest", "shortest", "tallest", "richest",
		"poorest", "deepest", "only")
	pronounStartRe = regexp.MustCompile(`^(?:It|Its|This|That|These|Those|They|Their|He|His|She|Her|The latter|The former)\b`)
)

// classifier holds the current year: a sentence about a later year is a
// prediction.
type classifier struct {
	year int
}

// classification is what the built-in rules make of one sentence.
type classification struct {
	skip string
	typ  string
}

// classify applies the check-worthiness rules to one sentence.
func (c classifier) classify(s string) classification {
	switch {
	case strings.HasSuffix(strings.TrimRight(s, `"'”’) `), "?"):
		return classification{skip: question}
	case len(strings.Fields(s)) < 3:
		return classification{skip: tooShort}
	case opinionRe.MatchString(s) || evaluativeRe.MatchString(factualIdiomRe.ReplaceAllString(s, "")):
		return classification{skip: opinion}
	case hedgeRe.MatchString(likelihoodRe.ReplaceAllString(s, "")) || hedgingModal(s):
		return classification{skip: hedged}
	case definitionRe.MatchString(s):
		return classification{skip: definition}
	}
	var statistic, date, ordinal, future bool
	for _, q := range quantity.Extract(s) {
		switch q.Kind {
		case quantity.Year, quantity.Date:
			date = true
			if int(q.High) > c.year && temporalBeforeRe.MatchString(s[:q.Start]) {
				future = true
			}
		case quantity.Ordinal:
			ordinal = true
		default:
			statistic = true
		}
	}
	if future || willRe.MatchString(s) || predictionRe.MatchString(s) {
		return classification{skip: prediction}
	}
	switch {
	case attributionRe.MatchString(s):
		return classification{typ: "ATTRIBUTION"}
	case causalRe.MatchString(s):
		return classification{typ: "CAUSAL"}
	case statistic:
		return classification{typ: "STATISTIC"}
	case ordinal || comparisonRe.MatchString(s):
		return classification{typ: "COMPARISON"}
	case date:
		return classification{typ: "DATE"}
	case relationRe.MatchString(s) || identifierRe.MatchString(s) || hasNamedEntity(s):
		return classification{typ: "TECHNICAL"}
	}
	return classification{skip: noSignal}
}

// hedgingModal reports a might/may/could that is not in a subordinate
// clause.
func hedgingModal(s string) bool {
	for _, loc := range modalRe.FindAllStringIndex(s, -1) {
		before := strings.Fields(strings.ToLower(s[:loc[0]]))
		if !slices.ContainsFunc(before[max(0, len(before)-3):], func(w string) bool { return slices.Contains(subordinators, w) }) {
			return true
		}
	}
	return false
}

// hasNamedEntity reports a capitalised word after the first one (other
// than "I"), an acronym, or a sentence that opens with two capitalised
// words ("Tim Berners-Lee ...").
func hasNamedEntity(s string) bool {
	fields := strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(`,;:()"“”`, r) })
	for i, w := range fields {
		w = strings.Trim(w, `'‘’.!`)
		r, size := utf8.DecodeRuneInString(w)
		if size == 0 || !unicode.IsUpper(r) || w == "I" {
			continue
		}
		if isAcronym(w) {
			return true
		}
		if i > 0 {
			return true
		}
		if len(fields) > 1 {
			if r2, _ := utf8.DecodeRuneInString(fields[1]); unicode.IsUpper(r2) {
				return true
			}
		}
	}
	return false
}

func isAcronym(w string) bool {
	n := 0
	for _, r := range w {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsUpper(r) {
			n++
		}
	}
	return n >= 2
}

// extractStats counts what the built-in rules made of the content's
// sentences.
type extractStats struct {
	sentences int
	// nonFactual counts questions, opinions, hedged statements, predictions
	// and definitions.
	nonFactual int
	factual    int
}

// builtinExtract is the "verity/extractor" role: one claim per
// check-worthy sentence that passes [claim.Screen]. The context is the
// sentence, with the one before it when it opens with a pronoun that needs
// it. The pipeline then resolves leaning subjects ([resolveClaims]).
func builtinExtract(content string, now time.Time) ([]ExtractedClaim, extractStats) {
	sents := splitSentences(content)
	c := classifier{year: now.Year()}
	st := extractStats{sentences: len(sents)}
	var claims []ExtractedClaim
	for i, s := range sents {
		// The screen verify applies comes first: a question, an
		// instruction, an opinion or a fragment is no claim.
		var nc *claim.NotCheckable
		if errors.As(claim.Screen(s), &nc) {
			if nc.Reason != claim.NoVerb {
				st.nonFactual++
			}
			continue
		}
		cl := c.classify(s)
		switch cl.skip {
		case keep:
			st.factual++
		case noSignal, tooShort:
			continue
		default:
			st.nonFactual++
			continue
		}
		ctx := s
		if i > 0 && pronounStartRe.MatchString(s) {
			ctx = sents[i-1] + " " + s
		}
		claims = appendClaim(claims, strings.TrimSuffix(s, "."), ctx, cl.typ)
	}
	return claims, st
}

// resolveClaims makes every claim that is a sentence of content stand on
// its own: a subject that leans on the sentences before ("It opened in
// 1937.") is resolved from them ([claim.Decontextualise]), and Original
// keeps the sentence as written. It runs on every extractor's claims, a
// model's included, after parsing.
func resolveClaims(content string, claims []ExtractedClaim) []ExtractedClaim {
	sents := splitSentences(content)
	for k, c := range claims {
		for i, s := range sents {
			if strings.TrimSuffix(s, ".") != strings.TrimSuffix(c.Claim, ".") {
				continue
			}
			if r := claim.Decontextualise(sents[max(0, i-3):i], s); r != s {
				claims[k].Original = s
				claims[k].Claim = clip(strings.TrimSuffix(r, "."))
			}
			break
		}
	}
	return claims
}

// formatClaims writes claims in the extraction prompt's text format, so
// that the built-in extractor's stage row reads like a model's.
func formatClaims(claims []ExtractedClaim) string {
	var b strings.Builder
	for i, c := range claims {
		fmt.Fprintf(&b, "CLAIM %d: %s\nContext: %s\nType: %s\n\n", i+1, c.Claim, c.Context, c.Type)
	}
	fmt.Fprintf(&b, "EXTRACTION SUMMARY:\nTotal claims: %d\nBy type: %s", len(claims), formatBreakdown(typeBreakdown(claims)))
	return b.String()
}

// typeBreakdown counts claims by type.
func typeBreakdown(claims []ExtractedClaim) map[string]int {
	m := map[string]int{}
	for _, c := range claims {
		m[c.Type]++
	}
	return m
}

func formatBreakdown(m map[string]int) string {
	var parts []string
	for _, t := range ClaimTypes {
		if m[t] > 0 {
			parts = append(parts, fmt.Sprintf("%s: %d", t, m[t]))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
