package nli

import (
	"strings"

	"github.com/verity-fc/verity/sentences"
	"github.com/verity-fc/verity/wordvec"
)

// generalKinds are the words that name a kind too wide to exclude another
// ("a type of tablet", "a work of art", "a place"), and a nationality or
// other name ("an Indian", "an American citizen") is no kind either.
var generalKinds = set("type", "kind", "sort", "form", "work", "place", "thing", "person", "member", "part",
	"piece", "example", "variety", "group", "set", "one")

// kindOf splits a sentence that says what kind of thing its subject is,
// "SUBJECT is a KIND ...": the stems of the subject's content words and
// the words after "a" or "an" up to the first function word or
// participle (figures skipped, at most five).
func kindOf(t *text) (subject map[string]bool, kind []token) {
	for i := 1; i+2 < len(t.toks); i++ {
		if !copulas[t.toks[i].Lower] || t.toks[i+1].Lower != "a" && t.toks[i+1].Lower != "an" {
			continue
		}
		subject = map[string]bool{}
		for _, tk := range t.toks[:i] {
			if !stopwords[tk.Lower] && !tk.Num {
				subject[tk.Stem] = true
			}
		}
		for _, tk := range t.toks[i+2:] {
			if tk.Num {
				continue
			}
			if stopwords[tk.Lower] || len(kind) == 5 || participle(tk) {
				break
			}
			kind = append(kind, tk)
		}
		if len(subject) == 0 || len(kind) == 0 {
			return nil, nil
		}
		return subject, kind
	}
	return nil, nil
}

// participle reports whether a word after a kind is a participle that
// begins what is said of it ("a film released in 2010", "a film directed
// by"), not part of the kind.
func participle(tk token) bool {
	return len(tk.Lower) > 4 && strings.HasSuffix(tk.Lower, "ed")
}

// otherKind reports whether the passage says the claim's subject is
// another kind of thing: "The Beach is an adventure drama novel." against
// "The Beach is a 2000 adventure drama film directed by Danny Boyle and
// based on the 1996 novel ...". A sentence of the passage with the claim's
// subject says what kind it is; the passage's kind is the word after the
// claim's last modifier in it ("adventure drama film": film), or, when the
// claim has none, the last word of a kind of at most two words ("a song
// by"). The passage's sentence lacks the claim's kind, and WordNet makes
// none of its words a synonym of it, or one a kind of the other
// (related). Kinds too wide to exclude another ("a type of", "a place",
// generalKinds) and names ("an Indian") are not read.
func otherKind(c, p *text) bool {
	cs, ck := kindOf(c)
	if ck == nil {
		return false
	}
	head, mods := ck[len(ck)-1], ck[:len(ck)-1]
	if head.Cap || generalKinds[head.Lower] || len(mods) > 0 && mods[len(mods)-1].Cap {
		return false
	}
	for _, sent := range sentences.Texts(p.raw) {
		st := analyse(sent)
		ps, pk := kindOf(st)
		if pk == nil || !subsetOf(cs, ps) {
			continue
		}
		var other token
		switch {
		case len(mods) > 0:
			last := mods[len(mods)-1].Stem
			for j := 0; j+1 < len(pk); j++ {
				if pk[j].Stem == last {
					other = pk[j+1]
				}
			}
		case len(pk) <= 2:
			other = pk[len(pk)-1]
		}
		if other.Lower == "" || other.Cap || generalKinds[other.Lower] || st.stems[head.Stem] {
			return false
		}
		return !related(head, st.toks)
	}
	return false
}

// related reports whether WordNet makes a word of toks a synonym of w, or
// one a kind of the other: "a writer" against "an English actress and
// author" is said in other words.
func related(w token, toks []token) bool {
	wn := wordvec.DefaultWordNet()
	wi := wn.Info(w.Lower)
	for _, tk := range toks {
		if stopwords[tk.Lower] || tk.Num {
			continue
		}
		if wn.RelateInfo(wi, wn.Info(tk.Lower))&sameOrKind != 0 {
			return true
		}
	}
	return false
}

// subsetOf reports whether every key of a is in b.
func subsetOf(a, b map[string]bool) bool {
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}
