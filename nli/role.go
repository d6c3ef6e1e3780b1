package nli

// The unique-role rule: "Sydney is the capital of Australia." against
// "Canberra is the capital of Australia." fills the claim's slot, the
// capital of Australia, with another subject. A definite role ("the
// capital of", "the largest city in", "the chief executive of") has one
// holder, so the passage contradicts the claim. The networks read these
// pairs as entailments (0.43 to 0.80): every word of the predicate
// matches, and a name that opens a sentence is not marked as a name.

// copulas are the verbs that give a subject a role ("X is the ...").
var copulas = set("is", "was", "remains", "remained", "became")

// sharedRoles are roles that more than one holds at once ("the son of",
// "the member of"): another subject in them contradicts nothing.
var sharedRoles = set("son", "daughter", "brother", "sister", "child", "sibling", "cousin", "nephew", "niece",
	"grandson", "granddaughter", "uncle", "aunt", "friend", "member", "student", "pupil", "fan", "parent",
	"grandchild", "descendant", "relative", "colleague", "ally", "neighbour", "neighbor")

// roleSubjectMax bounds the words of a subject before its copula.
const roleSubjectMax = 5

// roleWindow is how many words after "the" the role is read in.
const roleWindow = 10

// subjectDeterminers open a subject that may refer to what another
// subject names ("the team" and "the club"; "its capital").
var subjectDeterminers = set("this", "that", "these", "those", "a", "an", "its", "his", "her", "their", "our", "my", "your")

// definiteRole splits the sentence that opens toks as "SUBJECT is the
// ROLE": the subject's words (an article "the" dropped), the copula and
// the role's words, up to roleWindow words after "the". ok is false when
// the sentence does not open so, when the subject is a pronoun or begins
// with a determiner other than "the", or when "the" is followed by a
// common noun only (a "the" that opens the subject must be followed by a
// capitalised word).
func definiteRole(toks []token) (subject []token, copula string, role []token, ok bool) {
	if subject, copula, role, ok = roleFirst(toks); ok {
		return subject, copula, role, true
	}
	for i := 1; i < len(toks)-2 && i <= roleSubjectMax; i++ {
		if !copulas[toks[i].Lower] || toks[i+1].Lower != "the" {
			continue
		}
		subject = toks[:i]
		if subject[0].Lower == "the" {
			if len(subject) < 2 || !subject[1].Cap {
				return nil, "", nil, false
			}
			subject = subject[1:]
		}
		for _, tk := range subject {
			if pronouns[tk.Lower] || subjectDeterminers[tk.Lower] || negations[tk.Lower] || tk.Num {
				return nil, "", nil, false
			}
		}
		return subject, toks[i].Lower, toks[i+2 : min(len(toks), i+2+roleWindow)], true
	}
	return nil, "", nil, false
}

// roleHolding is how a passage bears on a claim's definite role
// (uniqueRole).
type roleHolding int

const (
	roleUnread roleHolding = iota
	// roleTaken: the passage gives the role to another subject at the
	// claim's time ("Sydney is the capital" against "Canberra is the
	// capital").
	roleTaken
	// roleOtherTime: the passage gives the role to another subject at
	// another time ("Obama was the president" against "Biden is the
	// president"): both may hold, so the passage neither says nor denies
	// the claim.
	roleOtherTime
)

// presentCopulas are the copulas of the present; the others of copulas
// are past.
var presentCopulas = set("is", "remains")

// roleFirst splits a sentence that opens "The ROLE is SUBJECT" ("The
// capital of Australia is Canberra."): the role's words after "the", up to
// roleWindow of them, the copula, and the subject, a run of capitalised
// words right after the copula. ok is false for any other sentence, and
// for one that opens with a name ("The Harbour Bridge is ...").
func roleFirst(toks []token) (subject []token, copula string, role []token, ok bool) {
	if len(toks) < 4 || toks[0].Lower != "the" {
		return nil, "", nil, false
	}
	for i := 2; i < len(toks)-1 && i <= roleWindow; i++ {
		if !copulas[toks[i].Lower] {
			continue
		}
		j := i + 1
		for j < len(toks) && toks[j].Cap && j-i <= roleSubjectMax {
			j++
		}
		if j == i+1 {
			return nil, "", nil, false
		}
		if toks[1].Cap {
			// "The Harbour Bridge is ..." opens with a name, not a role.
			return nil, "", nil, false
		}
		return toks[i+1 : j], toks[i].Lower, toks[1:i], true
	}
	return nil, "", nil, false
}

// uniqueRole reports whether the passage gives the claim's definite role
// to another subject: both open "SUBJECT is the ROLE" (definiteRole),
// every content word of the claim's role is in the passage's, the role is
// none that several hold at once (sharedRoles), neither role is negated,
// and neither text has every word of the other's subject (the Harbour
// Bridge and the Anzac Bridge are two; "Canberra, not Sydney, is the
// capital" names the claim's subject). With the same copula the role is
// taken (roleTaken); with copulas of the present and the past ("was the
// president" and "is the president" may both hold) it is held at another
// time (roleOtherTime); other pairs of copulas ("became" against "was")
// are not read.
func uniqueRole(c, p *text) roleHolding {
	cs, ccop, cr, ok := definiteRole(c.toks)
	if !ok {
		return roleUnread
	}
	ps, pcop, pr, ok := definiteRole(p.toks)
	if !ok {
		return roleUnread
	}
	holding := roleTaken
	if pcop != ccop {
		if presentCopulas[pcop] == presentCopulas[ccop] {
			return roleUnread
		}
		holding = roleOtherTime
	}
	roleWords := map[string]bool{}
	for _, tk := range pr {
		if negations[tk.Lower] {
			return roleUnread
		}
		roleWords[tk.Stem] = true
	}
	content := 0
	for _, tk := range cr {
		if negations[tk.Lower] {
			return roleUnread
		}
		if sharedRoles[tk.Lower] || sharedRoles[tk.Stem] {
			return roleUnread
		}
		if stopwords[tk.Lower] || tk.Num {
			continue
		}
		if !roleWords[tk.Stem] {
			return roleUnread
		}
		content++
	}
	if content == 0 {
		return roleUnread
	}
	if allIn(cs, p.stems) && !rankedBelow(cs, p.toks) || allIn(ps, c.stems) {
		return roleUnread
	}
	return holding
}

// rankedBelow reports whether toks give the subject a lower rank:
// "SUBJECT is the second ..." ("The Volga is the longest river in Europe,
// and the Danube is the second longest."). Such a passage names the
// claim's subject only to rank it below the role's holder, and does not
// keep the claim's subject from being another than the holder.
func rankedBelow(subject []token, toks []token) bool {
	last := subject[len(subject)-1].Stem
	for i := 0; i+3 < len(toks); i++ {
		if toks[i].Stem == last && copulas[toks[i+1].Lower] && toks[i+2].Lower == "the" && ordinalWords[toks[i+3].Lower] > 0 {
			return true
		}
	}
	return false
}
