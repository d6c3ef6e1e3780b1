package citations

import (
	"errors"
	"strings"

	claimscreen "github.com/verity-fc/verity/claim"
)

// screened applies the claim screen verify applies ([claim.Screen]): a
// question or an instruction is never a claim; an opinion or a fragment
// with no verb is one only when the author cited a source for it.
func screened(text string, cited bool) bool {
	var nc *claimscreen.NotCheckable
	if !errors.As(claimscreen.Screen(text), &nc) {
		return true
	}
	switch nc.Reason {
	case claimscreen.Question, claimscreen.Imperative:
		return false
	}
	return cited
}

// resolveClaims gives each claim whose subject leans on the sentences
// before it ("It opened in 1937.") that subject ([claimscreen.Decontextualise]):
// the resolved text is what the cited page and the corpus are searched
// for, and the report shows it beside the sentence as written.
func resolveClaims(sents []sentence, claims []claim) {
	pos := 0
	for k := range claims {
		for pos < len(sents) && sents[pos].text != claims[k].text {
			pos++
		}
		if pos == len(sents) {
			return
		}
		prev := make([]string, 0, 3)
		for _, s := range sents[max(0, pos-3):pos] {
			prev = append(prev, s.text)
		}
		content := claims[k].info.content
		if r := claimscreen.Decontextualise(prev, content); r != content {
			claims[k].info.content = r
			claims[k].info.resolved = strings.TrimSpace(r)
		}
		pos++
	}
}
