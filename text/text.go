// Package text is verity's shared text analysis: word tokens with their
// Porter2 stems, the stop-word list, claim-word overlap and sentence
// windows. The NLI judge, its training data and the other packages that
// compare a claim with a passage read words the same way through it.
package text

import (
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"github.com/verity-fc/verity/internal/stem"
)

// Token is one word of a text: its lower-case form, its Porter2 stem and
// whether it was written with a capital not at the start of a sentence.
type Token struct {
	Lower string
	Stem  string
	Cap   bool
	Num   bool
	// sep is true for a number written with a thousands separator, which
	// is then no year ("1,999" people, not 1999).
	Sep bool
}

// Penn Treebank escapes found in FEVER and VitaminC text.
var ptbEscapes = strings.NewReplacer("-LRB-", "(", "-RRB-", ")", "-LSB-", "[", "-RSB-", "]", "-LCB-", "{", "-RCB-", "}", "``", `"`, "''", `"`, "n't", " not", "N'T", " NOT", "cannot", "can not")

// Tokenize splits text into words and numbers, at most max of them. Numbers keep their decimal
// point and lose thousands separators ("9,210" -> "9210"); everything else
// that is not a letter or digit separates words.
func Tokenize(text string, max int) []Token {
	text = ptbEscapes.Replace(text)
	var out []Token
	sentenceStart := true
	rs := []rune(text)
	for i := 0; i < len(rs) && len(out) < max; {
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
			out = append(out, Token{Lower: s, Stem: s, Num: true, Sep: sep})
			sentenceStart = false
			i = j
		case unicode.IsLetter(r):
			j := i
			for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) || (rs[j] == '\'' && j+1 < len(rs) && unicode.IsLetter(rs[j+1]) && rs[j+1] != 's')) {
				j++
			}
			w := string(rs[i:j])
			lw := strings.ToLower(w)
			out = append(out, Token{Lower: lw, Stem: Stem(lw), Cap: unicode.IsUpper(r) && !sentenceStart})
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

// Stem returns the Porter2 stem of a lower-case word, with irregular forms
// the stemmer leaves apart mapped together first. It is safe for
// concurrent use.
func Stem(w string) string {
	if s, ok := irregular[w]; ok {
		return s
	}
	if s, ok := stems.Load(w); ok {
		return s.(string)
	}
	s := stem.English(w)
	if stemsHeld.Load() < maxStemsHeld {
		// Copies, so that the cache does not hold the text a word was cut
		// from.
		if _, loaded := stems.LoadOrStore(strings.Clone(w), strings.Clone(s)); !loaded {
			stemsHeld.Add(1)
		}
	}
	return s
}

// stems remembers the stems of the words Stem was given, up to about
// maxStemsHeld of them (some 20 MB): the Snowball stemmer costs about a
// microsecond a word, and verify stems every word of each passage it
// judges, most of them seen before (12% of its CPU at 100,000 passages).
var (
	stems     sync.Map
	stemsHeld atomic.Int64
)

const maxStemsHeld = 1 << 18

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

func Set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// stopwords are function words left out of alignment and overlap. Negations,
// quantifiers and modals are not among them: they have features of their
// own.
var stopwords = Set("a", "an", "the", "of", "in", "on", "at", "to", "for", "by", "with", "from", "as", "and", "or",
	"but", "is", "are", "was", "were", "be", "been", "being", "it", "its", "this", "that", "these", "those", "he",
	"she", "they", "them", "his", "her", "their", "him", "we", "our", "you", "your", "i", "me", "my", "which", "who",
	"whom", "whose", "what", "there", "here", "has", "have", "had", "do", "does", "did", "s", "also", "into", "than",
	"then", "so", "such", "about", "up", "out", "one", "an", "if", "when", "while", "where", "how", "very", "just",
	"will", "would", "shall", "should", "known", "called", "named", "over", "only", "other",
	"some", "any", "all", "no", "not", "many", "most", "may", "might", "can", "could", "both", "each", "more", "less")

// IsStop reports whether a lower-case word is a stop word.
func IsStop(w string) bool { return stopwords[w] }

// StopWords returns a copy of the stop-word list.
func StopWords() map[string]bool {
	m := make(map[string]bool, len(stopwords))
	for w := range stopwords {
		m[w] = true
	}
	return m
}

// Overlap is the fraction of the distinct stems of claim found in
// passage; 0 for a claim without stems.
func Overlap(claim []string, passage map[string]bool) float64 {
	seen := make(map[string]bool, len(claim))
	n, found := 0, 0
	for _, s := range claim {
		if seen[s] {
			continue
		}
		seen[s] = true
		n++
		if passage[s] {
			found++
		}
	}
	if n == 0 {
		return 0
	}
	return float64(found) / float64(n)
}

// BestWindow returns the window of minN to maxN consecutive sentences
// with the highest score: its start and length. Ties go to the shorter
// and then the earlier window. With fewer than minN sentences it returns
// all of them.
func BestWindow(sents []string, minN, maxN int, score func(window string) float64) (start, n int) {
	if len(sents) <= minN {
		return 0, len(sents)
	}
	best := -1.0
	for k := minN; k <= min(maxN, len(sents)); k++ {
		for i := 0; i+k <= len(sents); i++ {
			if s := score(strings.Join(sents[i:i+k], " ")); s > best+1e-9 {
				best, start, n = s, i, k
			}
		}
	}
	return start, n
}
