package citations

import (
	"strings"
	"testing"
)

// FuzzParseDocument checks that the citation document parser never panics
// on Markdown, HTML or text, and that every citation it finds either has
// a URL or names the problem that stops it being checked.
func FuzzParseDocument(f *testing.F) {
	seeds := []struct{ text, format string }{
		{"The tower is 330 m tall [1]. It opened in 1889.[^2]\n\n## References\n\n1. https://example.com/tower\n\n[^2]: Guide, https://guide.example/a\n", FormatMarkdown},
		{"See [the report](https://r.example/x \"T\") and [ref][r].\n\n[r]: <https://r.example/y>\n\n| a | b |\n|---|---|\n| 1 [3] | 2 |\n", FormatMarkdown},
		{"- [Annual report 2023](https://a.example/ar.pdf)\n> quoted claim (https://q.example)\n\n```\n[1] not a cite\n```\n", FormatMarkdown},
		{"<p>Revenue grew 12% <sup><a href=\"#fn1\">1</a></sup>.</p><ol><li id=\"fn1\"><a href=\"https://x.example/\">Source</a></li></ol>", FormatHTML},
		{"<h2>Sources</h2><ul><li>[2] <a href='javascript:x'>bad</a></li></ul><p>Claim [2]. <a href=https://b.example>b</a></p><table><tr><td>[9]</td></tr></table>", FormatHTML},
		{"Plain text claim (Smith, 2020) [4].\n\nReferences\n[4] Smith J. 2020. https://doi.org/10.1/x\n", "text"},
		{strings.Repeat("[", 200) + strings.Repeat("](", 200), FormatMarkdown},
		{"<a href=\"" + strings.Repeat("a", 3000) + "\">" + strings.Repeat("<b>", 500), FormatHTML},
	}
	for _, s := range seeds {
		f.Add(s.text, s.format)
	}
	f.Fuzz(func(t *testing.T, text, format string) {
		for _, s := range parseDocument(text, format) {
			if s.line < 0 {
				t.Errorf("sentence %q on line %d", s.text, s.line)
			}
			for _, c := range s.cites {
				if c.url == "" && c.problem == "" {
					t.Errorf("citation %q of %q has neither URL nor problem", c.id, s.text)
				}
			}
		}
	})
}
