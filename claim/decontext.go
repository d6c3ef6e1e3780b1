package claim

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Decontextualise returns sentence with a subject that leans on the
// preceding sentences resolved, so that it can be checked on its own:
//
//   - a leading pronoun ("It", "They", "He", "She", "This") becomes the
//     nearest preceding name: "It opened in 1937." after "The Golden Gate
//     Bridge spans the strait." reads "The Golden Gate Bridge opened in
//     1937.";
//   - a leading possessive ("Its main span ...") becomes the name's
//     possessive ("The Golden Gate Bridge's main span ...");
//   - a leading definite description whose noun ends that name ("The
//     bridge opened ...") becomes the name;
//   - a leading event noun with no object ("Construction began in 1933.")
//     gains one ("Construction of the Golden Gate Bridge began in 1933.").
//
// The name is the first capitalised span of two or more words, or of one
// word that is not the sentence's first, in the nearest preceding sentence
// that has one (at most three back). When nothing resolves, sentence is
// returned unchanged.
func Decontextualise(preceding []string, sentence string) string {
	s := strings.TrimSpace(sentence)
	m := leadRe.FindStringSubmatch(s)
	if m == nil {
		return sentence
	}
	lead, rest := m[1], s[len(m[0]):]
	name := antecedent(preceding)
	if name == "" {
		return sentence
	}
	low := strings.ToLower(lead)
	switch {
	case low == "its" || low == "their":
		return possessive(name) + " " + rest
	case strings.HasPrefix(low, "the ") || strings.HasPrefix(low, "this ") || strings.HasPrefix(low, "that "):
		noun := strings.Fields(low)[1]
		if !strings.EqualFold(lastWord(name), noun) {
			return sentence
		}
		return name + " " + rest
	case eventNouns[low]:
		if strings.HasPrefix(strings.ToLower(rest), "of ") || strings.HasPrefix(strings.ToLower(rest), "on ") {
			return sentence
		}
		return lead + " of " + lowerArticle(name) + " " + rest
	default: // a pronoun
		return name + " " + rest
	}
}

// leadRe matches the subject that may need resolving and the space after
// it.
var leadRe = regexp.MustCompile(`^(It|Its|They|Their|He|She|This|(?:The|This|That) [a-z]+|Construction|Work|Building work|Building|Development|Design|Production)\s+`)

var eventNouns = set(`construction work development design production building`)

func init() { eventNouns["building work"] = true }

// antecedent returns the nearest preceding name, "The " kept when the
// text wrote it ("The Golden Gate Bridge").
func antecedent(preceding []string) string {
	for i := len(preceding) - 1; i >= 0 && i >= len(preceding)-3; i-- {
		if n := firstName(preceding[i]); n != "" {
			return n
		}
	}
	return ""
}

// firstName finds the first run of capitalised words in s that names
// something: two or more words, or one word not at the start.
func firstName(s string) string {
	fields := strings.Fields(s)
	for i := 0; i < len(fields); i++ {
		if !capitalised(fields[i]) {
			continue
		}
		j := i
		for j < len(fields) && capitalised(fields[j]) && !endsClause(fields[j]) {
			j++
		}
		if j < len(fields) && capitalised(fields[j]) {
			j++ // the last word, which ends a clause
		}
		start := i
		if i == 0 && j-i == 1 {
			// One capitalised word at the start is just the sentence's
			// first word.
			continue
		}
		if i == 0 && strings.EqualFold(fields[0], "the") {
			start = 0
		} else if i == 0 {
			// "Sputnik 1 was ...": skip a leading article-less first word
			// only when it is a function word.
			if functionWords[strings.ToLower(fields[0])] {
				start = 1
			}
		}
		words := make([]string, 0, j-start)
		for _, w := range fields[start:j] {
			words = append(words, strings.TrimRight(w, ",.;:!?)\"'”’"))
		}
		name := strings.Join(words, " ")
		if start > 0 && strings.EqualFold(fields[start-1], "the") {
			name = "The " + name
		}
		if len(words) == 1 && functionWords[strings.ToLower(words[0])] {
			continue
		}
		return strings.TrimSuffix(name, "'s")
	}
	return ""
}

var functionWords = set(`the a an in on at by for of and but or it its this that these those he she they we i when while after before since during`)

func capitalised(w string) bool {
	w = strings.TrimLeft(w, `("'“‘`)
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r) || (unicode.IsDigit(r) && len(w) < 4)
}

func endsClause(w string) bool { return strings.ContainsAny(w[len(w)-1:], ",.;:!?") }

func lastWord(name string) string {
	f := strings.Fields(name)
	return f[len(f)-1]
}

func possessive(name string) string {
	if strings.HasSuffix(name, "s") {
		return name + "'"
	}
	return name + "'s"
}

// lowerArticle writes a leading "The" of name in lower case, for use
// inside a sentence.
func lowerArticle(name string) string {
	if rest, ok := strings.CutPrefix(name, "The "); ok {
		return "the " + rest
	}
	return name
}
