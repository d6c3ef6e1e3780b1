// Package claim prepares a sentence to be checked as a claim: Screen tells
// a checkable factual statement from a question, an imperative, a pure
// opinion or text with no verb, and Decontextualise gives a sentence that
// leans on its neighbours ("It opened in 1937.") the subject they name.
// Verify, the fact-check extractor and the citation checker use both, so
// that they agree on what a claim is.
//
// It is pure and safe for concurrent use; text is data only.
package claim

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Reasons a text is not a checkable claim. They are stable codes: the
// HTTP API returns them in its 422 problem.
const (
	Question   = "question"
	Imperative = "imperative"
	Opinion    = "opinion"
	NoVerb     = "no_verb"
)

// NotCheckable reports text that is not a factual statement.
type NotCheckable struct {
	// Reason is one of Question, Imperative, Opinion, NoVerb.
	Reason  string
	Message string
}

func (e *NotCheckable) Error() string { return "the text " + e.Message }

// Screen returns nil when text reads as a checkable factual statement, and
// a *NotCheckable naming the reason otherwise:
//
//   - a question: it ends with "?", or opens with a question word or an
//     auxiliary followed by a subject ("When did the bridge open",
//     "Did the bridge open in 1937", "Is it true that ...");
//   - an imperative: it opens with a verb in the base form that asks the
//     reader to do something ("Check whether ...", "Tell me ...",
//     "Please ...");
//   - a pure opinion: a first-person view ("I think", "in my opinion", "I
//     love") or a judgment of taste ("lovely", "the most beautiful") with no
//     figure or date that could be checked;
//   - no verb: a heading or a fragment ("Golden Gate Bridge, 1937").
func Screen(text string) error {
	s := strings.TrimSpace(text)
	ws := words(s)
	if len(ws) == 0 {
		return &NotCheckable{Reason: NoVerb, Message: "is not a statement: it has no words"}
	}
	first, second := ws[0], ""
	if len(ws) > 1 {
		second = ws[1]
	}
	switch {
	case strings.HasSuffix(strings.TrimRight(s, `"'”’) `), "?"),
		whWords[first] && (len(ws) == 1 || auxiliaries[second] || verbLike(second) || baseVerbs[second] || (len(ws) > 2 && auxiliaries[ws[2]])),
		auxiliaries[first] && len(ws) > 2 && !strings.HasSuffix(s, "!") && subjectStart(second),
		isItTrueRe.MatchString(s):
		return &NotCheckable{Reason: Question, Message: "is a question, not a claim; state the fact to check (\"The Golden Gate Bridge opened in 1937.\")"}
	case imperatives[first] && !(second == "is" || second == "was" || second == "are" || second == "were") && !titleStart(s):
		return &NotCheckable{Reason: Imperative, Message: fmt.Sprintf("is an instruction (it opens with %q), not a claim; state the fact to check", ws[0])}
	case opinionRe.MatchString(s) && !hasFigure(s):
		return &NotCheckable{Reason: Opinion, Message: "is an opinion, not a checkable fact"}
	case matchesTaste(s) && !hasFigure(s):
		return &NotCheckable{Reason: Opinion, Message: "is a matter of taste, not a checkable fact"}
	case !hasVerb(ws) && !hasVerb(words(strings.ReplaceAll(s, "-", " "))) && !pluralPresent(s):
		return &NotCheckable{Reason: NoVerb, Message: "has no verb: it is a heading or a fragment, not a claim; write a sentence that states the fact"}
	}
	return nil
}

// words returns the lower-case words of s, hyphens and apostrophes kept
// inside words.
func words(s string) []string { return fields(strings.ToLower(s)) }

// fields returns the words of s as written, hyphens and apostrophes kept
// inside words.
func fields(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’' && r != '-'
	})
}

var isItTrueRe = regexp.MustCompile(`(?i)^\s*(?:is it (?:true|correct|right|a fact)|i (?:wonder|am wondering|want to know)|can you (?:tell|check|verify)|do you know)\b`)

// subjectStart reports a word that can open a subject after an inverted
// auxiliary: "Did the bridge ...", "Is Paris ...", "Was it ...".
func subjectStart(w string) bool {
	return determiners[w] || pronouns[w] || (w != "" && !verbLike(w))
}

// verbLike reports a word that is probably a verb or participle rather than
// the start of a subject: "Was built", "Is located".
func verbLike(w string) bool {
	return strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "en") || irregular[w] || w == "not"
}

var (
	whWords     = set(`what when where why who whom whose which how`)
	auxiliaries = set(`is are was were am be do does did can could will would shall should may might must has have had isn't aren't wasn't weren't don't doesn't didn't can't couldn't won't wouldn't shouldn't hasn't haven't hadn't`)
	determiners = set(`the a an this that these those my your his her its our their some any every each all no`)
	pronouns    = set(`i you he she it we they there`)
	imperatives = set(`check verify tell find show explain list give prove compare describe please let's let make look read write
		calculate name search google consider imagine remember note try use take bring carry stop start go help define
		summarise summarize fact-check confirm determine estimate identify evaluate assess ask answer`)
	// irregular holds common irregular past forms and participles, which
	// carry no -ed.
	irregular = set(`began begun took taken fell fallen rose risen grew grown made went gone came come saw seen led ran won built
		sent spent held left lost met paid said sold told thought brought bought caught fought taught became gave given got
		gotten knew known wrote written drove driven flew flown broke broken chose chosen spoke spoken stood understood
		found kept meant put set cut hit let read shut spread struck swept threw thrown drew drawn wore worn froze frozen
		quit awoke hid hidden rode ridden sang sung swam swum shook shaken bore born sank sunk sat slept fed felt dealt`)
	// baseVerbs are common verbs in the base or plural present form, which
	// carry no ending: "Trams run on rails."
	baseVerbs = set(`run go make have take use cause contain live grow produce need help work reach remain include provide
		exist orbit cover protect reduce increase lower raise prevent enter flow supply generate hold carry become account
		lead cost weigh measure stand lie sit belong mean show affect depend seem appear keep get give come say know
		think die kill cure harm spread travel fly eat drink sleep kill emit absorb store power burn cool heat melt
		rise fall grow shrink win lose beat own employ earn pay spend sell buy build open close launch begin end form
		play star feature involve`)
	opinionRe = regexp.MustCompile(`(?i)^\s*(?:i|we)\s+(?:(?:really|honestly|personally|just|truly)\s+)?(?:think|believe|feel|guess|reckon|suppose|love|like|hate|adore|prefer|enjoy|find|consider)\b|^\s*personally\b|\b(?:in my (?:opinion|view)|to me,|imo)\b`)
	tasteRe   = regexp.MustCompile(`(?i)\b(?:lovely|beautiful|ugly|gorgeous|delicious|tasty|disgusting|boring|amazing|awesome|wonderful|terrible|awful|horrible|overrated|underrated|cute|stunning|charming|nicest|prettiest|coolest|(?:the\s+)?(?:most|least)\s+(?:beautiful|interesting|boring|exciting|charming|attractive|pleasant)|the best|the worst)\b`)
	figureRe  = regexp.MustCompile(`\d`)
)

func hasFigure(s string) bool { return figureRe.MatchString(s) }

// hasVerb reports whether the words hold something that works as a verb:
// an auxiliary or modal, a past form (-ed or irregular), a common verb, or
// a present -s form after a word that can end a subject.
func hasVerb(ws []string) bool {
	for i, w := range ws {
		switch {
		case auxiliaries[w], irregular[w], baseVerbs[w]:
			return true
		case len(w) >= 4 && strings.HasSuffix(w, "ed"):
			return true
		case i > 0 && len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
			prev := ws[i-1]
			if baseVerbs[strings.TrimSuffix(strings.TrimSuffix(w, "s"), "e")] || baseVerbs[strings.TrimSuffix(w, "s")] || baseVerbs[strings.TrimSuffix(w, "es")] || strings.HasSuffix(w, "ies") && !determiners[prev] {
				return true
			}
			if !determiners[prev] && !strings.HasSuffix(prev, "est") && !pureNumber(prev) && !numberWords[prev] && !adjectiveLike(prev) {
				return true
			}
		}
	}
	return false
}

func adjectiveLike(w string) bool {
	for _, suf := range []string{"al", "ous", "ful", "ive", "ic", "able", "ible", "ish", "less"} {
		if strings.HasSuffix(w, suf) {
			return true
		}
	}
	return w == "of" || w == "in" || w == "and" || w == "or" || w == "many" || w == "several" || w == "few"
}

var numberWords = set(`one two three four five six seven eight nine ten eleven twelve dozen hundred thousand million billion many several few`)

func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// The screen refuses a text only when it is plainly not a claim: a valid
// claim refused costs the user an answer, while a fragment let through only
// costs a "Not enough evidence". So the helpers below widen what counts as a
// claim wherever the word lists would refuse real claims (measured on the
// claims of FEVER, VitaminC and SciFact).

// titleStart reports a text that opens with a capitalised title rather than
// an instruction: the word after the first is capitalised too ("Make It or
// Break It is a movie.", "Google Play Music has ...").
func titleStart(s string) bool {
	fs := strings.Fields(s)
	if len(fs) < 2 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(fs[1])
	return unicode.IsUpper(r)
}

// matchesTaste reports a judgment of taste outside names and compounds:
// "The Amazing Spider-Man" is a title and "the worst-selling single" or
// "the best known" a fact, not an opinion.
func matchesTaste(s string) bool {
	for _, loc := range tasteRe.FindAllStringIndex(s, -1) {
		r, _ := utf8.DecodeRuneInString(s[loc[0]:])
		if loc[0] > 0 && unicode.IsUpper(r) {
			continue // inside a name or title
		}
		if rest := s[loc[1]:]; strings.HasPrefix(rest, "-") || compoundAfterRe.MatchString(rest) {
			continue
		}
		return true
	}
	return false
}

var compoundAfterRe = regexp.MustCompile(`^\s+(?:selling|known|paid|performing|rated|attended|charting|seller|preserved|documented)\b`)

// pureNumber reports a word of digits and separators only ("1,200"), not an
// identifier such as "BCL-2" or "Ly49Q", which can be a subject.
func pureNumber(w string) bool {
	for _, r := range w {
		if unicode.IsLetter(r) {
			return false
		}
	}
	return figureRe.MatchString(w)
}

// pluralPresent reports a plural or named subject followed by a verb in the
// plain present that no list holds: "Macrophages regulate ...", "DRD1
// proteins enable ...", "Helminths interfere with ...". The subject word
// ends in s, or is a name or an identifier (capitalised, or letters with
// digits); the next word is lower-case, not a function word, and has no
// ending of a noun or an adjective.
func pluralPresent(s string) bool {
	fs := fields(s)
	for i := 1; i < len(fs); i++ {
		prev, w := fs[i-1], fs[i]
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsLower(r) || glueWords[w] || determiners[w] || adjectiveLike(w) || nounEnding(w) {
			continue
		}
		pr, _ := utf8.DecodeRuneInString(prev)
		lp := strings.ToLower(prev)
		subject := (strings.HasSuffix(lp, "s") && !strings.HasSuffix(lp, "ss") && len(lp) > 3) ||
			(unicode.IsUpper(pr) && i > 1) || (figureRe.MatchString(prev) && !pureNumber(prev))
		if subject && !determiners[lp] && !glueWords[lp] {
			return true
		}
	}
	return false
}

func nounEnding(w string) bool {
	for _, suf := range []string{"ity", "tion", "sion", "ment", "ness", "ance", "ence", "ship", "ism", "ist", "ing", "ly", "est", "er", "ure", "age"} {
		if strings.HasSuffix(w, suf) {
			return true
		}
	}
	return false
}

var glueWords = set(`of in on at by for with from to into onto over under about above below between among through during
	before after since until than as and or but nor so yet if then that which who whom whose what when where why how not
	very more most less least much many few several such own same other another only also just even both either neither`)
