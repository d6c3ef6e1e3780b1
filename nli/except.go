package nli

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/wordvec"
)

// The exception rule: "The museum is open every day except Monday." says
// the museum is not open on Monday and is open on Tuesday. The networks
// read it the other way round (entailment 0.86 for "open on Mondays",
// contradiction 0.74 for "open on Tuesdays"): every word of the first
// claim is in the passage, and Tuesday clashes with the passage's Monday.
// Exceptions are too rare in the training data (about one pair in a
// thousand) to teach them.

// exceptRe finds an exception and the words it excepts, up to the next
// punctuation.
var exceptRe = regexp.MustCompile(`(?i)\b(?:except(?:ing)?(?:\s+for)?|excluding)\s+([^,;:.!?()]+)`)

// exceptWords open an exception (exceptRe).
var exceptWords = set("except", "excepting", "excluding")

// excepted returns the words t excepts, by stem: after "except", "except
// for", "excepting" or "excluding", the first content word, and each
// content word after an "and" or "or" that follows it ("except Monday and
// Tuesday"; "except Smith voted" excepts Smith only).
func excepted(t *text) map[string]string {
	if !mentions(t, exceptWords) {
		return nil
	}
	var ex map[string]string
	for _, m := range exceptRe.FindAllStringSubmatch(t.raw, -1) {
		take := true
	words:
		for _, tk := range tokenize(m[1]) {
			switch {
			case tk.Lower == "and" || tk.Lower == "or":
				take = true
			case stopwords[tk.Lower] || tk.Num || len(tk.Lower) < 2:
			case take:
				if ex == nil {
					ex = map[string]string{}
				}
				ex[tk.Stem] = tk.Lower
				take = false
			default:
				break words
			}
		}
	}
	return ex
}

// exceptKeep is the share of entailment (or contradiction) the exception
// rule keeps, as negKeep is the negation rule's.
const exceptKeep = negKeep

// exceptionRule applies a passage's exception to a claim that has none of
// its own. The passage must have every content word of the claim but
// one at most:
//   - a claim that states what the passage excepts ("open on Mondays"
//     against "open every day except Monday") is contradicted, unless the
//     claim denies it ("not open on Mondays") or says the opposite of the
//     passage about it ("closed on Mondays"), which is entailed;
//   - a claim that quantifies over all of what the passage restricts
//     ("open every day" against "every day except Monday"), with every
//     word in the passage, is contradicted;
//   - a claim whose one word the passage lacks is a co-hyponym of an
//     excepted word ("open on Tuesdays" against "every day except
//     Monday"), when the passage quantifies over all of them, falls under
//     the passage's rule: its contradiction goes to entailment;
//   - a claim whose one word the passage lacks is another name ("Jones
//     voted" against "All members except Smith voted"), when the passage
//     quantifies over all of something: the passage does not say the
//     name is among them, and its entailment goes to neutral.
//
// A claim with an exception of its own, or a passage with a grammatical
// negation, is left to the network.
func exceptionRule(c, p *text, j evidence.Judgment) evidence.Judgment {
	ex := excepted(p)
	if len(ex) == 0 || len(c.content) == 0 || len(excepted(c)) > 0 || negatesGrammatically(p) {
		return j
	}
	var missing []string
	hit := false
	for _, s := range c.content {
		_, isExcepted := ex[s]
		switch {
		case isExcepted:
			hit = true
		case !p.stems[s]:
			missing = append(missing, s)
		}
	}
	switch {
	case hit && len(missing) == 0 && c.negs == 0:
		return toContradiction(j)
	case hit && len(missing) == 0 && negatesGrammatically(c),
		hit && len(missing) == 1 && c.negs == 0 && antonymIn(missing[0], p):
		return contradictToEntail(j, exceptKeep)
	case !hit && len(missing) == 0 && c.negs == 0 && c.quant == 4:
		return toContradiction(j)
	case !hit && len(missing) == 1 && c.negs == 0 && p.quant == 4 && coHyponymOfAny(c, missing[0], ex):
		return contradictToEntail(j, exceptKeep)
	case !hit && len(missing) == 1 && c.negs == 0 && p.quant == 4 && namedIn(c, missing[0]):
		// "Jones voted for the bill." against "All members except Smith
		// voted for the bill.": the passage does not say Jones is a
		// member.
		return entailToNeutral(j, exceptKeep)
	}
	return j
}

// namedIn reports whether the claim writes its word of stem s with a
// capital, inside its sentence or opening it ("Jones voted ..."): a
// name, or a noun the claim puts first, which the passage does not cover
// either way.
func namedIn(c *text, s string) bool {
	for _, tk := range c.toks {
		if tk.Stem != s || stopwords[tk.Lower] {
			continue
		}
		r, n := utf8.DecodeRuneInString(tk.Lower)
		if tk.Cap || strings.Contains(c.raw, string(unicode.ToUpper(r))+tk.Lower[n:]) {
			return true
		}
	}
	return false
}

// antonymIn reports whether the passage has a word of opposite meaning to
// the claim's word of stem s ("closed" against "open").
func antonymIn(s string, p *text) bool {
	for a := range antonyms[s] {
		if p.stems[a] {
			return true
		}
	}
	return false
}

// coHyponymOfAny reports whether the claim's word of stem s is a WordNet
// co-hyponym of a word of the passage excepted ("Tuesday" of "Monday").
func coHyponymOfAny(c *text, s string, ex map[string]string) bool {
	wn := wordvec.DefaultWordNet()
	for _, tk := range c.toks {
		if tk.Stem != s {
			continue
		}
		for _, e := range ex {
			if wn.Relate(tk.Lower, e)&wordvec.CoHyponym != 0 || calendarKin(tk.Lower, e) {
				return true
			}
		}
	}
	return false
}

// calendarGroups are the days of the week and the months: WordNet files
// Sunday and Saturday under rest days and the others under weekdays, so
// "open on Sundays" against "every day except Monday" found no
// co-hyponym.
var calendarGroups = []map[string]bool{
	set("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
	set("january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"),
}

// calendarKin reports whether words a and b (lower case, a plural "s"
// aside) are two days of the week or two months.
func calendarKin(a, b string) bool {
	a, b = strings.TrimSuffix(a, "s"), strings.TrimSuffix(b, "s")
	for _, g := range calendarGroups {
		if g[a] && g[b] && a != b {
			return true
		}
	}
	return false
}
