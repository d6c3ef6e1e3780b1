package nli

import "strings"

// bracketEscapes are the Penn Treebank escapes of brackets (FEVER,
// VitaminC).
var bracketEscapes = strings.NewReplacer("-LRB-", "(", "-RRB-", ")", "-LSB-", "[", "-RSB-", "]")

// dropAsides returns passage without the bracketed asides that share no
// word or figure with the claim c, stop words aside: "Stephen Tyrone
// Colbert (/koʊlˈbɛər/, né /ˈkoʊlbərt/; born May 13, 1964) is an American
// comedian" is read as "Stephen Tyrone Colbert is an American comedian"
// against "Stephen Colbert is an American." (entailment 0.96 where the
// aside made it neutral 0.70), and in full against "Stephen Colbert was
// born in 1964.". A model reads passages this way when it was trained to
// (EncoderOptions.DropAsides).
func dropAsides(c *text, passage string) string {
	if !strings.ContainsAny(passage, "([") && !strings.Contains(passage, "-LRB-") && !strings.Contains(passage, "-LSB-") {
		return passage
	}
	p := bracketEscapes.Replace(passage)
	words := map[string]bool{}
	for _, tk := range c.toks {
		if !stopwords[tk.Lower] {
			words[tk.Stem] = true
		}
	}
	var b strings.Builder
	depth, start, last := 0, 0, 0
	for i, r := range p {
		switch r {
		case '(', '[':
			if depth == 0 {
				start = i
			}
			depth++
		case ')', ']':
			if depth == 0 {
				continue
			}
			depth--
			if depth > 0 {
				continue
			}
			shares := false
			for _, tk := range tokenize(p[start+1 : i]) {
				if words[tk.Stem] {
					shares = true
					break
				}
			}
			if !shares {
				b.WriteString(strings.TrimRight(p[last:start], " "))
				last = i + 1
			}
		}
	}
	if last == 0 {
		return passage
	}
	b.WriteString(p[last:])
	return b.String()
}
