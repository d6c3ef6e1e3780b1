package nli

import (
	"strings"
	"unicode"

	"github.com/kljensen/snowball/english"
)

// token is one word of a text: its lower-case form, its Porter2 stem and
// whether it was written with a capital not at the start of a sentence.
type token struct {
	lower string
	stem  string
	cap   bool
	num   bool
	// sep is true for a number written with a thousands separator, which
	// is then no year ("1,999" people, not 1999).
	sep bool
}

// Penn Treebank escapes found in FEVER and VitaminC text.
var ptbEscapes = strings.NewReplacer("-LRB-", "(", "-RRB-", ")", "-LSB-", "[", "-RSB-", "]", "-LCB-", "{", "-RCB-", "}", "``", `"`, "''", `"`, "n't", " not", "N'T", " NOT", "cannot", "can not")

// maxTokens bounds the words looked at in one text; a passage longer than
// this is judged on its first maxTokens words.
const maxTokens = 400

// tokenize splits text into words and numbers. Numbers keep their decimal
// point and lose thousands separators ("9,210" -> "9210"); everything else
// that is not a letter or digit separates words.
func tokenize(text string) []token {
	text = ptbEscapes.Replace(text)
	var out []token
	sentenceStart := true
	rs := []rune(text)
	for i := 0; i < len(rs) && len(out) < maxTokens; {
		r := rs[i]
		switch {
		case unicode.IsDigit(r):
			j := i
			sep := false
			var b strings.Builder
			for j < len(rs) {
				c := rs[j]
				if unicode.IsDigit(c) {
					b.WriteRune(c)
				} else if (c == ',' || c == '.') && j+1 < len(rs) && unicode.IsDigit(rs[j+1]) && j > i {
					if c == '.' {
						b.WriteRune(c)
					} else {
						sep = true
					}
				} else {
					break
				}
				j++
			}
			s := b.String()
			out = append(out, token{lower: s, stem: s, num: true, sep: sep})
			sentenceStart = false
			i = j
		case unicode.IsLetter(r):
			j := i
			for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) || (rs[j] == '\'' && j+1 < len(rs) && unicode.IsLetter(rs[j+1]) && rs[j+1] != 's')) {
				j++
			}
			w := string(rs[i:j])
			lw := strings.ToLower(w)
			out = append(out, token{lower: lw, stem: stem(lw), cap: unicode.IsUpper(r) && !sentenceStart})
			sentenceStart = false
			i = j
		default:
			if r == '.' || r == '!' || r == '?' || r == ':' || r == ';' || r == '"' {
				sentenceStart = true
			}
			i++
		}
	}
	return out
}

// stem returns the Porter2 stem of a lower-case word, with irregular forms
// the stemmer leaves apart mapped together first.
func stem(w string) string {
	if s, ok := irregular[w]; ok {
		return s
	}
	return english.Stem(w, false)
}

// irregular maps common irregular inflections to one form so that "won"
// aligns with "win" and "children" with "child".
var irregular = map[string]string{
	"won": "win", "lost": "lose", "was": "be", "were": "be", "is": "be", "are": "be", "been": "be", "am": "be",
	"has": "have", "had": "have", "did": "do", "does": "do", "done": "do", "went": "go", "gone": "go",
	"made": "make", "took": "take", "taken": "take", "gave": "give", "given": "give", "wrote": "write",
	"written": "write", "born": "bear", "bore": "bear", "began": "begin", "begun": "begin", "became": "becom",
	"found": "find", "held": "hold", "left": "leav", "led": "lead", "met": "meet", "ran": "run", "sang": "sing",
	"sung": "sing", "sold": "sell", "bought": "buy", "built": "build", "told": "tell", "said": "say",
	"children": "child", "men": "man", "women": "woman", "people": "person", "feet": "foot", "mice": "mous",
	"died": "die", "dead": "die", "death": "die", "grew": "grow", "grown": "grow", "knew": "know", "known": "know",
	"saw": "see", "seen": "see", "spoke": "speak", "spoken": "speak", "drove": "drive", "driven": "drive",
	"chose": "choos", "chosen": "choos", "fell": "fall", "fallen": "fall", "flew": "fli", "flown": "fli",
	"rode": "ride", "ridden": "ride", "ate": "eat", "eaten": "eat", "wore": "wear", "worn": "wear",
	"thought": "think", "brought": "bring", "caught": "catch", "taught": "teach", "fought": "fight",
	"kept": "keep", "slept": "sleep", "sat": "sit", "stood": "stand", "lay": "lie", "hung": "hang",
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// stopwords are function words left out of alignment. Negations,
// quantifiers and modals are not among them: they have features of their
// own.
var stopwords = set("a", "an", "the", "of", "in", "on", "at", "to", "for", "by", "with", "from", "as", "and", "or",
	"but", "is", "are", "was", "were", "be", "been", "being", "it", "its", "this", "that", "these", "those", "he",
	"she", "they", "them", "his", "her", "their", "him", "we", "our", "you", "your", "i", "me", "my", "which", "who",
	"whom", "whose", "what", "there", "here", "has", "have", "had", "do", "does", "did", "s", "also", "into", "than",
	"then", "so", "such", "about", "up", "out", "one", "an", "if", "when", "while", "where", "how", "very", "just",
	"will", "would", "shall", "should", "known", "called", "named", "over", "only", "other",
	"some", "any", "all", "no", "not", "many", "most", "may", "might", "can", "could", "both", "each", "more", "less")

// negations mark a negated statement.
var negations = set("not", "no", "never", "none", "nobody", "nothing", "neither", "nor", "without", "nowhere",
	"fail", "fails", "failed", "unable", "refused", "lacks", "lack", "lacked", "absent", "denied", "denies")

// quantLevel ranks quantifiers by strength: 1 some, 2 many, 3 most, 4 all.
// A claim stronger than its passage ("all" against "many") overstates it.
var quantLevel = map[string]int{
	"some": 1, "few": 1, "several": 1, "sometimes": 1, "occasionally": 1, "certain": 1, "minority": 1, "rarely": 1,
	"many": 2, "much": 2, "often": 2, "frequently": 2, "numerous": 2, "commonly": 2, "lots": 2,
	"most": 3, "majority": 3, "mostly": 3, "largely": 3, "mainly": 3, "predominantly": 3, "usually": 3, "generally": 3, "typically": 3,
	"all": 4, "every": 4, "each": 4, "always": 4, "entire": 4, "entirely": 4, "whole": 4, "universally": 4,
	"completely": 4, "invariably": 4,
}

// hedges are modal and evidential words: a hedged statement does not
// establish a definitive one.
var hedges = set("may", "might", "could", "possibly", "possible", "perhaps", "probably", "likely", "unlikely",
	"suggest", "suggests", "suggested", "suggesting", "appear", "appears", "appeared", "seem", "seems", "seemed",
	"reportedly", "allegedly", "potentially", "potential", "speculated", "rumored", "rumoured", "believed",
	"presumably", "hypothesized", "hypothesis", "indicate", "indicates", "maybe", "can", "associated")

// exclusives restrict a statement to one thing.
var exclusives = set("only", "solely", "exclusively", "sole", "alone", "just")

// antonyms pairs stems of words of opposite meaning; both directions are
// listed.
var antonyms = func() map[string]map[string]bool {
	pairs := [][2]string{
		{"win", "lose"}, {"win", "defeat"}, {"aliv", "die"}, {"male", "femal"}, {"man", "woman"}, {"boy", "girl"},
		{"befor", "after"}, {"first", "last"}, {"increas", "decreas"}, {"increas", "reduc"}, {"rise", "fall"}, {"higher", "lower"},
		{"more", "less"}, {"more", "fewer"}, {"larger", "smaller"}, {"bigger", "smaller"}, {"older", "younger"},
		{"north", "south"}, {"east", "west"}, {"true", "fals"}, {"success", "failur"}, {"accept", "reject"},
		{"open", "close"}, {"start", "end"}, {"begin", "end"}, {"buy", "sell"}, {"includ", "exclud"},
		{"allow", "ban"}, {"allow", "prohibit"}, {"allow", "forbid"}, {"posit", "negat"}, {"major", "minor"},
		{"maximum", "minimum"}, {"alway", "never"}, {"same", "differ"}, {"young", "old"}, {"new", "old"},
		{"earli", "late"}, {"earlier", "later"}, {"abov", "below"}, {"over", "under"}, {"insid", "outsid"},
		{"indoor", "outdoor"}, {"up", "down"}, {"public", "privat"}, {"domest", "foreign"}, {"sit", "stand"},
		{"sleep", "awak"}, {"day", "night"}, {"empti", "full"}, {"wet", "dri"}, {"hot", "cold"}, {"black", "white"},
		{"dog", "cat"}, {"fiction", "nonfict"}, {"legal", "illeg"}, {"lowest", "highest"}, {"least", "most"},
		{"smallest", "largest"}, {"oldest", "youngest"}, {"worst", "best"}, {"good", "bad"}, {"better", "wors"},
		{"rich", "poor"}, {"strong", "weak"}, {"fast", "slow"}, {"light", "dark"}, {"happi", "sad"},
		{"enter", "leav"}, {"arriv", "depart"}, {"inhibit", "promot"}, {"inhibit", "activ"}, {"suppress", "enhanc"},
		{"increas", "lower"}, {"upregul", "downregul"}, {"benefici", "harm"}, {"protect", "harm"},
		{"sunni", "raini"}, {"asleep", "awak"}, {"import", "export"}, {"solo", "group"}, {"singl", "marri"},
		{"amateur", "profession"}, {"democrat", "republican"}, {"lead", "follow"}, {"minimum", "maximum"},
	}
	m := map[string]map[string]bool{}
	add := func(a, b string) {
		if m[a] == nil {
			m[a] = map[string]bool{}
		}
		m[a][b] = true
	}
	for _, p := range pairs {
		add(p[0], p[1])
		add(p[1], p[0])
	}
	return m
}()

// numberWords spell small numbers and scales.
var numberWords = map[string]string{
	"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
	"eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "thirteen": "13", "fourteen": "14",
	"fifteen": "15", "sixteen": "16", "seventeen": "17", "eighteen": "18", "nineteen": "19", "twenty": "20",
	"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "seventy": "70", "eighty": "80", "ninety": "90",
	"hundred": "100", "thousand": "1000", "million": "1000000", "billion": "1000000000", "dozen": "12",
	"single": "1", "once": "1", "twice": "2", "first": "1st", "second": "2nd", "third": "3rd",
}
