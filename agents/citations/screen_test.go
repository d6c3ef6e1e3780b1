package citations

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestScreened(t *testing.T) {
	for _, tc := range []struct {
		text  string
		cited bool
		want  bool
	}{
		{"The Golden Gate Bridge opened in 1937.", false, true},
		{"When did the Golden Gate Bridge open", true, false},
		{"Check the history of the bridge.", true, false},
		{"I think trams are lovely.", false, false},
		{"I think trams are lovely.", true, true},
		{"Golden Gate Bridge, 1937", false, false},
	} {
		if got := screened(tc.text, tc.cited); got != tc.want {
			t.Errorf("screened(%q, cited %v) = %v, want %v", tc.text, tc.cited, got, tc.want)
		}
	}
}

func TestResolveClaims(t *testing.T) {
	text := "The Golden Gate Bridge spans the strait [1]. It opened in 1937 [1].\n\n[1]: https://example.org/golden-gate\n"
	sents := parseDocument(text, FormatMarkdown)
	var claims []claim
	for _, s := range sents {
		if info, ok := analyseClaim(s.text, len(s.cites) > 0); ok && !s.linkOnly {
			claims = append(claims, claim{sentence: s, info: info})
		}
	}
	resolveClaims(sents, claims)
	var got []string
	for _, c := range claims {
		got = append(got, c.info.resolved)
	}
	if diff := cmp.Diff([]string{"", "The Golden Gate Bridge opened in 1937."}, got); diff != "" {
		t.Errorf("resolved claims (-want +got):\n%s", diff)
	}
}
