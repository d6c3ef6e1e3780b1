package nli

// The edition rule: "The 2016 Olympics were held in Rio de Janeiro."
// against "The 2012 Summer Olympics were held in London." The year before
// the event's name tells which edition the claim speaks of, and the
// passage speaks of another: it settles nothing of the claim's (the
// networks read the two years as a conflict, contradiction 0.57).

// editionYear returns the year that stands between "the" and a
// capitalised name in t ("the 2016 Olympics", "the 2012 Summer
// Olympics"; not "In 1977 Wood and Price formed ...") and the stems of
// that name, or ok false.
func editionYear(t *text) (year string, name []string, ok bool) {
	for i := 1; i+1 < len(t.toks); i++ {
		if !isYear(t.toks[i]) || !t.toks[i+1].Cap || t.toks[i-1].Lower != "the" {
			continue
		}
		for j := i + 1; j < len(t.toks) && t.toks[j].Cap; j++ {
			name = append(name, t.toks[j].Stem)
		}
		return t.toks[i].Lower, name, true
	}
	return "", nil, false
}

// otherEdition reports whether the claim names an edition of an event by
// its year and the passage another edition of it: the passage has the
// last word of the claim's name ("Olympics") right after another year
// and the claim's year nowhere.
func otherEdition(c, p *text) bool {
	cy, cname, ok := editionYear(c)
	if !ok || p.lowers[cy] {
		return false
	}
	py, pname, ok := editionYear(p)
	return ok && py != cy && pname[len(pname)-1] == cname[len(cname)-1]
}
