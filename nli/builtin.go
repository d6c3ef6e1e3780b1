package nli

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/sentences"
	txt "github.com/verity-fc/verity/text"
)

//go:embed model/builtin.json.gz
var shippedModel []byte

//go:embed model/aligner.json.gz
var shippedAligner []byte

// CacheSize is the number of (claim, passage) judgments a Builtin keeps.
const CacheSize = 8192

// Builtin is an NLI judge that ships with verity: a [Model] or an [Aligner]
// trained on public data (see the README), pure Go, with an LRU
// cache of recent judgments keyed by a hash of claim and passage. It is the
// judge used when no other backend is configured. Safe for concurrent use.
type Builtin struct {
	model passageJudge
	cache *lru.Cache[[32]byte, evidence.Judgment]
}

var _ Judge = (*Builtin)(nil)

// loadShipped decodes the previous feature model, the aligner's ensemble
// member, once.
var loadShipped = sync.OnceValues(func() (*Model, error) {
	return ReadModel(bytes.NewReader(shippedModel))
})

var loadShippedAligner = sync.OnceValues(func() (*Aligner, error) {
	return ReadAligner(bytes.NewReader(shippedAligner))
})

// LoadBuiltin returns the default judge embedded in the binary: the
// aligning network ([LoadAligner]) with the feature model as its ensemble
// member. It measures better than the feature model alone on the NLI
// development splits and on verify's demo-claims benchmark, and
// scoring/thresholds.json is fitted for it (see the README). The model is
// decoded once per process.
func LoadBuiltin() (*Builtin, error) { return LoadAligner() }

// LoadAligner returns a judge over the aligning network embedded in the
// binary (model/aligner.json.gz, with the feature model as its ensemble
// member), decoded once per process.
func LoadAligner() (*Builtin, error) {
	a, err := loadShippedAligner()
	if err != nil {
		return nil, fmt.Errorf("load the aligning NLI model: %w", err)
	}
	return NewBuiltinJudge(a), nil
}

// LoadFeatureModel returns a judge over the feature model
// (model/builtin.json.gz) alone.
func LoadFeatureModel() (*Builtin, error) {
	m, err := loadShipped()
	if err != nil {
		return nil, fmt.Errorf("load built-in NLI model: %w", err)
	}
	return NewBuiltin(m), nil
}

// Load returns a judge with the model read from r: a file written by
// [Aligner.Save] or by [Model.Save].
func Load(r io.Reader) (*Builtin, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxModelBytes))
	if err != nil {
		return nil, fmt.Errorf("read model: %w", err)
	}
	a, err := ReadAligner(bytes.NewReader(data))
	if err == nil {
		return NewBuiltinJudge(a), nil
	}
	m, err2 := ReadModel(bytes.NewReader(data))
	if err2 != nil {
		return nil, err
	}
	return NewBuiltin(m), nil
}

// passageJudge is a model that judges one passage against an analysed claim.
type passageJudge interface {
	judgePassage(c *text, passage string) evidence.Judgment
}

// NewBuiltinJudge returns a judge over the aligning model a.
func NewBuiltinJudge(a *Aligner) *Builtin { return newBuiltin(a) }

// NewBuiltin returns a judge over m.
func NewBuiltin(m *Model) *Builtin { return newBuiltin(m) }

func newBuiltin(m passageJudge) *Builtin {
	c, err := lru.New[[32]byte, evidence.Judgment](CacheSize)
	if err != nil {
		// Only a non-positive size fails, and CacheSize is a constant.
		panic(err)
	}
	return &Builtin{model: m, cache: c}
}

// Model returns the judge's model when it is the feature model, else nil.
func (b *Builtin) Model() *Model {
	m, _ := b.model.(*Model)
	return m
}

// Aligner returns the judge's model when it is the aligning network, else nil.
func (b *Builtin) Aligner() *Aligner {
	a, _ := b.model.(*Aligner)
	return a
}

// Judge implements [Judge]: one judgment per passage, in order. The claim
// is analysed once for all passages, without an attribution frame
// ([stripAttribution]) and, against a passage that does not have the words
// rewritten, with "outside" before a name read as "not in" and "something
// other than" as "not" ([readClaim]). A passage of more than two sentences
// is judged twice, whole and on the one or two consecutive sentences that
// bear most on the claim (see [focus]), and the two judgments are averaged;
// when the focus has every content word of the claim, its judgment stands
// alone.
// Both leave out a sentence that lends the claim only a direction word
// about something else (see [bearing]).
// Texts longer than MaxTextBytes are judged on their beginning.
func (b *Builtin) Judge(ctx context.Context, claim string, passages []string) ([]evidence.Judgment, error) {
	if strings.TrimSpace(claim) == "" {
		return nil, errors.New("judge: empty claim")
	}
	out := make([]evidence.Judgment, len(passages))
	var c, cRead *text // the claim, and as readClaim writes it
	for i, p := range passages {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("judge: %w", err)
		}
		key := pairKey(claim, p)
		if j, ok := b.cache.Get(key); ok {
			out[i] = j
			continue
		}
		if c == nil {
			c = analyse(stripAttribution(claim))
			cRead = c
			if s := readClaim(c.raw); s != c.raw {
				cRead = analyse(s)
			}
		}
		cp := cRead
		if readWordsRe.MatchString(p) {
			cp = c // the passage's own words align with the claim's
		}
		j := b.model.judgePassage(cp, p)
		b.cache.Add(key, j)
		out[i] = j
	}
	return out, nil
}

// focusSentences is the most sentences of a passage judged together.
const focusSentences = 2

// judgePassage judges passage against the analysed claim: a passage of at
// most focusSentences sentences as it is, a longer one as the mean of the
// judgments of the whole and of its focus. The model learned on
// sentence-length evidence, and a paragraph's other sentences dilute the
// alignment and lend it negations and hedges that are not about the claim;
// the focus alone, though, entails too readily where the one sentence that
// shares the claim's words states a subtly different finding (SciFact's
// refuted claims). On SciFact's whole abstracts the mean lifts balanced
// accuracy from 0.46 to 0.51 and cuts the calibration error from 0.21 to
// 0.07, and it keeps the citation checker's precision. A focus that has
// every content word of the claim is judged alone: a chunk that states
// the claim in one of its sentences is not diluted by the others (the
// demo's "Construction of the Golden Gate Bridge began on 5 January
// 1933." against its source, entailment 0.62 averaged, 0.96 alone).
func (m *Model) judgePassage(c *text, passage string) evidence.Judgment {
	return judgeFocused(m.judge, c, passage)
}

// judgeFocused judges passage against claim c with judge, as described at
// [Model.judgePassage], without the sentences that do not bear on the
// claim ([bearing]; their pronouns resolved first, [resolvePronouns]).
func judgeFocused(judge func(c, p *text) evidence.Judgment, c *text, passage string) evidence.Judgment {
	rs := readings(c, passage)
	if len(rs) == 1 {
		return judge(c, rs[0])
	}
	w, f := judge(c, rs[0]), judge(c, rs[1])
	return evidence.Judgment{
		Entail:     (w.Entail + f.Entail) / 2,
		Contradict: (w.Contradict + f.Contradict) / 2,
		Neutral:    (w.Neutral + f.Neutral) / 2,
	}
}

// readings returns the texts judgeFocused judges passage as, against claim
// c, their judgments averaged: the sentences that bear on the claim
// ([bearing]; the passage as it is when all of them do), and for a passage
// of more than focusSentences sentences its focus ([focus]) too; or the
// focus alone when it has every content word of the claim, since the rest
// of the passage can only dilute it. nli/train reads training passages
// through it too (Encoder.EncodeReadings).
func readings(c *text, passage string) []*text {
	sents := resolvePronouns(sentences.Texts(passage))
	whole := passage
	if kept := bearing(c, sents); len(kept) < len(sents) {
		whole = strings.Join(kept, " ")
	}
	if len(sents) <= focusSentences {
		return []*text{analyse(whole)}
	}
	ft := focus(c, sents)
	if overlap(c, ft) == 1 {
		return []*text{ft}
	}
	return []*text{analyse(whole), ft}
}

// focus returns the window of one or two consecutive sentences that covers
// the most of the claim's content words and figures, ties to the shorter
// and then the earlier window. The figures find the sentence a paraphrase
// would otherwise miss: "The ARPANET was decommissioned in 1990." shares
// only "ARPANET" with each sentence of a paragraph that ends "The ARPANET
// was formally shut down in 1990", and the first of them, about 1983, was
// the focus.
func focus(c *text, sents []string) *text {
	words := slices.Clone(c.content)
	for _, tk := range c.toks {
		if _, isNum := numberValue(tk); isNum {
			words = append(words, tk.Stem)
		}
	}
	i, n := txt.BestWindow(sents, 1, focusSentences, func(w string) float64 { return txt.Overlap(words, analyse(w).stems) })
	window := sents[i : i+n]
	if txt.Overlap(words, analyse(strings.Join(window, " ")).stems) < 1 {
		if pair := wholePair(words, sents); pair != nil {
			window = pair
		}
	}
	return analyse(strings.Join(bearing(c, window), " "))
}

// wholePair returns the first two sentences of sents, not next to each
// other, that together hold every one of words, or nil. It is the focus
// when no window of consecutive sentences holds them all: "Eleven workers
// died during the construction of the Golden Gate Bridge." against a
// paragraph that opens "Construction of the Golden Gate Bridge began ..."
// and says two sentences on "... but eleven workers died during
// construction ...", where the window with the deaths alone lacks the
// bridge and was judged neutral.
func wholePair(words []string, sents []string) []string {
	if len(words) == 0 {
		return nil
	}
	stems := make([]map[string]bool, len(sents))
	for k, s := range sents {
		stems[k] = analyse(s).stems
	}
	for i := range sents {
		for j := i + 2; j < len(sents); j++ {
			if !slices.ContainsFunc(words, func(w string) bool { return !stems[i][w] && !stems[j][w] }) {
				return []string{sents[i], sents[j]}
			}
		}
	}
	return nil
}

// bearing returns the sentences of a passage that bear on the claim. A
// sentence that shares no content word with the claim but its direction
// words (rose, fell, more, before ...) and has a direction word of its
// own is about something else, whose rise or fall the network would align
// with the claim's: "Global wheat yields fell 8 percent." against "Global
// wheat yields rose 8 percent. Fertiliser prices fell back." is entailed
// by the second sentence's "fell" and contradicted by the first. Such
// sentences are left out when another sentence holds at least half of the
// claim's content words (direction words aside). A sentence that shares
// nothing with the claim and has no direction word stays: it only dilutes
// the judgment, which the network learned to weigh.
func bearing(c *text, sents []string) []string {
	if len(sents) < 2 {
		return sents
	}
	// Each sentence is tokenised once, for its stems and its direction
	// words; most passages have none of the latter and return here.
	stems, dirs := make([]map[string]bool, len(sents)), make([]bool, len(sents))
	for i, s := range sents {
		stems[i] = map[string]bool{}
		for _, tk := range tokenize(s) {
			stems[i][tk.Stem] = true
			dirs[i] = dirs[i] || direction[tk.Lower] != 0
		}
	}
	if !slices.Contains(dirs, true) {
		return sents
	}
	var subject []string
	for _, tk := range c.toks {
		if direction[tk.Lower] == 0 && slices.Contains(c.content, tk.Stem) && !slices.Contains(subject, tk.Stem) {
			subject = append(subject, tk.Stem)
		}
	}
	best, hazard := 0.0, make([]bool, len(sents))
	for i := range sents {
		share := txt.Overlap(subject, stems[i])
		best = max(best, share)
		hazard[i] = share == 0 && dirs[i]
	}
	if best < 0.5 {
		return sents
	}
	var kept []string
	for i, s := range sents {
		if !hazard[i] {
			kept = append(kept, s)
		}
	}
	return kept
}

// subjectPronouns open a sentence whose subject is the previous
// sentence's; the value is the form that replaces it ("" keeps the name,
// "'s" makes it possessive).
var subjectPronouns = map[string]string{"He": "", "She": "", "It": "", "They": "", "His": "'s", "Her": "'s", "Its": "'s", "Their": "'s"}

// resolvePronouns returns sents with a pronoun that opens a sentence
// replaced by the name that opens the sentence before it ("Marie Curie was
// a physicist. She won two Nobel Prizes." makes the second "Marie Curie
// won two Nobel Prizes."), or by the noun phrase that opens it ("The mill
// opened in 1850. It closed in 1974." makes the second "The mill closed
// in 1974."; see [leadingNounPhrase]), so that a window of one or two
// sentences keeps its subject. A sentence that opens with neither lends
// none.
func resolvePronouns(sents []string) []string {
	out := slices.Clone(sents)
	for i := 1; i < len(out); i++ {
		first, rest, ok := strings.Cut(out[i], " ")
		suffix, isPronoun := subjectPronouns[first]
		if !ok || !isPronoun {
			continue
		}
		if name := antecedent(out[max(0, i-antecedentSentences):i], pluralPronouns[first]); name != "" {
			out[i] = name + suffix + " " + rest
		}
	}
	return out
}

// antecedentSentences is how many sentences back a pronoun's subject is
// looked for: "The old mill opened in 1850. Weavers came from across the
// county. It closed in 1974." resolves "It" to the mill.
const antecedentSentences = 2

// antecedent returns the subject that a sentence-opening pronoun after
// sents refers to: the name or noun phrase that opens the nearest of them
// that opens with one. A nearer sentence that opens otherwise stops the
// search ("A fire broke out. It ...": the fire, which has no phrase to
// stand in for it), unless it opens with a bare noun of the other number
// ("Weavers came. It ...": not the weavers).
func antecedent(sents []string, plural bool) string {
	for k := len(sents) - 1; k >= 0; k-- {
		if name := leadingName(sents[k]); name != "" {
			return name
		}
		if np := leadingNounPhrase(sents[k], plural); np != "" {
			return np
		}
		first, _, _ := strings.Cut(sents[k], " ")
		lw := strings.ToLower(strings.TrimRight(first, ",.;:"))
		if lw == "" || stopwords[lw] || pluralWord(lw) == plural {
			return ""
		}
	}
	return ""
}

// pluralPronouns are the subjectPronouns that refer to a plural.
var pluralPronouns = set("They", "Their")

// nounPhraseWords bounds the words of a noun phrase after its "The".
const nounPhraseWords = 4

// leadingNounPhrase is the noun phrase that opens s with "The" ("The old
// mill" of "The old mill closed in 1974."), or "" when s does not open
// with one of the number asked for (plural for "They", singular for "It").
// verity has no part-of-speech tagger, so the phrase ends by rule: after
// at most nounPhraseWords words, at a comma or a possessive, before a
// function word, a number, or a word past the first that ends in "ed" or
// "ing" (a verb: "opened", "closing") or, for a singular phrase, in a
// single "s" ("employs"); a possessive ends it without its "'s". The last
// word is the head; its number (a final "s" makes it plural, "ss", "us"
// and "is" do not) must be the pronoun's.
func leadingNounPhrase(s string, plural bool) string {
	words := strings.Fields(s)
	if len(words) < 3 || words[0] != "The" {
		return ""
	}
	phrase := words[:1:1]
	for _, w := range words[1:min(len(words)-1, 1+nounPhraseWords)] {
		bare := strings.TrimRight(w, ",.;:")
		lw := strings.ToLower(bare)
		if owner, ok := strings.CutSuffix(bare, "'s"); ok {
			// "The company's profits": the owner is the subject.
			phrase = append(phrase, owner)
			break
		}
		if lw == "" || stopwords[lw] || strings.ContainsAny(lw[:1], "0123456789") {
			break
		}
		if !plural && pluralWord(lw) {
			if len(phrase) == 1 {
				return "" // "The weavers ...": a plural, not "It"
			}
			break
		}
		if len(phrase) > 1 && (strings.HasSuffix(lw, "ed") || strings.HasSuffix(lw, "ing")) {
			break
		}
		phrase = append(phrase, bare)
		if bare != w || plural && pluralWord(lw) {
			break // a comma, or the plural head, ends the phrase
		}
	}
	if len(phrase) < 2 || pluralWord(strings.ToLower(phrase[len(phrase)-1])) != plural {
		return ""
	}
	return strings.Join(phrase, " ")
}

// pluralWord reports whether the lower-case word w ends like a plural: in
// "s", but not "ss", "us" or "is".
func pluralWord(w string) bool {
	return strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is")
}

// leadingName is the run of capitalised words that opens s, "The" included
// ("The Golden Gate Bridge"), or "" when fewer than two capitalised words
// open s.
func leadingName(s string) string {
	words := strings.Fields(s)
	n := 0
	for n < len(words) && n < 6 {
		w := words[n]
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) || strings.ContainsAny(w, ",.;:") && n == 0 {
			break
		}
		n++
		if strings.ContainsAny(w, ",.;:") {
			break
		}
	}
	// One capitalised word is every sentence's first word, not a name.
	if n < 2 || (n == 2 && (words[0] == "The" || words[0] == "A" || words[0] == "An")) {
		return ""
	}
	if _, isPronoun := subjectPronouns[words[0]]; isPronoun {
		return ""
	}
	return strings.TrimRight(strings.Join(words[:n], " "), ",.;:")
}

func pairKey(claim, passage string) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%d:%s", len(claim), claim)
	io.WriteString(h, passage)
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// ContentOverlap is the fraction of the claim's content-word stems (no
// stop words, negations, quantifiers, modals or numbers) that the passage
// has: how the judge picks the sentences of a passage that bear on a claim.
func ContentOverlap(claim, passage string) float64 { return overlap(analyse(claim), analyse(passage)) }

// overlap is the fraction of the claim's content stems found in the passage.
func overlap(c, p *text) float64 { return txt.Overlap(c.content, p.stems) }

// attributionRe matches a frame that attributes the claim to a source at
// its start: "Actually the regulator's report says (that) ...", "According
// to the census, ...". The judge asks whether the passage states what
// follows; the frame's words are not in the source's own sentence and
// would only dilute the alignment.
var attributionRe = regexp.MustCompile(`(?i)^(?:(?:actually|in fact|indeed),?\s+)?(?:according to [^,]{1,80},\s*|(?:(?:the|a|an|this|that|our|their|his|her|its)\s+)?(?:[\w'’-]+\s+){0,3}?(?:report|study|survey|paper|article|analysis|review|data|figures|statistics|census|research|researchers|authors|regulator|government|agency|ministry|office|website|source|document|statement)(?:'s|’s)?\s+(?:says|said|states|stated|shows|showed|finds|found|notes|noted|reports|reported|confirms|confirmed|estimates|estimated)\s+(?:that\s+)?)`)

// outsideRe matches "outside" or "outside of" before a name ("outside
// Iowa", "outside of the United States"), with the word before it and the
// word after the name.
var outsideRe = regexp.MustCompile(`(\S+\s+)outside(?:\s+of)?(\s+(?:the\s+)?(?:\p{Lu}[\pL\pN.'’-]*,?\s*)+)(\S*)`)

// readClaim rewrites the words of a claim that the network misreads into
// words it reads ([readOutside], [readOtherThan]). The judge reads the
// claim so against a passage that has none of the words rewritten
// (readWordsRe): against "a county outside of England" the words align as
// they are.
func readClaim(claim string) string { return readOtherThan(readOutside(claim)) }

// readWordsRe finds the words that readClaim rewrites.
var readWordsRe = regexp.MustCompile(`(?i)\b(?:outside|other\s+than)\b`)

// otherThanRe matches "someone other than", "something other than" and
// their kin.
var otherThanRe = regexp.MustCompile(`(?i)\b(?:some|any)(?:one|body|thing)\s+other\s+than\b`)

// readOtherThan writes "someone other than" and "something other than" as
// "not", which the network reads as the negation it is: "Veeram is
// something other than an Indian Tamil film." against "Veeram is a 2014
// Indian Tamil action film" is entailment 0.81 as written.
func readOtherThan(claim string) string { return otherThanRe.ReplaceAllString(claim, "not") }

// placedOutside are the words before "outside" that place something
// ("is outside Iowa", "born outside of Trieste", "took place outside
// Munich"). After other words "outside" is left alone: "grossed $154
// million outside the United States and Canada" counts what the other
// territories took, and "the largest city outside London" excepts London.
var placedOutside = map[string]bool{"is": true, "was": true, "are": true, "were": true, "be": true, "been": true,
	"located": true, "born": true, "set": true, "based": true, "situated": true, "lies": true, "lay": true,
	"lived": true, "lives": true, "formed": true, "filmed": true, "founded": true, "raised": true,
	"headquartered": true, "built": true, "held": true, "place": true, "recorded": true, "grew": true}

// nameEnds reports whether the word after a run of capitalised words ends
// it as a name: nothing, punctuation or a function word, not a noun the
// run qualifies ("outside of European bar").
func nameEnds(next string) bool {
	w := strings.ToLower(strings.TrimRight(next, ".,;:!?)\"'’"))
	return w == "" || txt.SnowballStop.Has(w)
}

// readOutside writes a claim's "outside" that places something before a
// name as "not in", which the network reads: "Ripon College is outside
// Wisconsin." against "Ripon College is a liberal arts college in Ripon,
// Wisconsin" is entailment 0.79 as written and contradiction 0.94 as "not
// in Wisconsin". The encoder's negation channel does not know "outside",
// and teaching it needs a retrain. Only a name counts ("outside of
// European bar" is left as it is), and only after a word that places
// ([placedOutside]): "just outside Paris" places the subject near Paris.
func readOutside(claim string) string {
	return outsideRe.ReplaceAllStringFunc(claim, func(m string) string {
		sub := outsideRe.FindStringSubmatch(m)
		if !placedOutside[strings.ToLower(strings.TrimSpace(sub[1]))] || !nameEnds(sub[3]) {
			return m
		}
		return sub[1] + "not in" + sub[2] + sub[3]
	})
}

// stripAttribution returns claim without an attribution frame at its
// start, when what follows is a clause of at least three words.
func stripAttribution(claim string) string {
	m := attributionRe.FindStringIndex(claim)
	if m == nil || m[1] == 0 {
		return claim
	}
	rest := claim[m[1]:]
	if len(strings.Fields(rest)) < 3 {
		return claim
	}
	return rest
}
