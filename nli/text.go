package nli

import (
	txt "github.com/verity-fc/verity/text"
)

// token is one word of a text (package text).
type token = txt.Token

// maxTokens bounds the words looked at in one text; a passage longer than
// this is judged on its first maxTokens words.
const maxTokens = 400

func tokenize(s string) []token { return txt.Tokenize(s, maxTokens) }

var set = txt.Set

// stopwords are function words left out of alignment (text.AlignStop).
var stopwords = txt.AlignStop.Set()

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
		{"bear", "die"}, {"birth", "die"},
	}
	return bothWays(pairs)
}()

// bothWays relates each pair's words to each other, in both directions.
func bothWays(pairs [][2]string) map[string]map[string]bool {
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
}

// judgeAntonyms pairs stems of verbs and nouns of verdict that WordNet
// does not give as antonyms: approving and rejecting, confirming or
// admitting and denying or refuting, supporting and opposing, agreeing and refusing,
// a bill passed and defeated or rejected, signed and vetoed; and of the accounts'
// opposites, a profit and a loss, a surplus and a deficit. Only the
// judge reads them
// (encoder.opposites); antonyms, which training reads too, is unchanged
// so that the shipped networks are rebuilt by the same command.
var judgeAntonyms = bothWays(judgeAntonymStems)

// judgeAntonymStems are judgeAntonymWords' stems, pair by pair.
var judgeAntonymStems = stemPairs(judgeAntonymWords)

// judgeAntonymWords are judgeAntonyms' pairs as written.
var judgeAntonymWords = [][2]string{
	{"approve", "reject"}, {"approved", "rejected"}, {"approval", "rejection"},
	{"confirm", "deny"}, {"confirmed", "denied"}, {"confirms", "denies"},
	{"confirmed", "refuted"}, {"admit", "deny"}, {"admitted", "denied"}, {"admits", "denies"}, {"admit", "reject"}, {"admitted", "rejected"}, {"support", "oppose"}, {"supported", "opposed"}, {"supports", "opposes"},
	{"agreed", "refused"},
	{"profit", "loss"}, {"profits", "losses"}, {"surplus", "deficit"}, {"passed", "defeated"}, {"passed", "rejected"},
	{"signed", "vetoed"}, {"sign", "veto"}, {"signs", "vetoes"}, {"approved", "vetoed"},
	{"start", "stop"}, {"started", "stopped"}, {"starts", "stops"}, {"began", "stopped"}, {"begin", "stop"},
}

// judgeOnlyAntonyms pairs stems the judge reads as antonyms as written,
// without verdictOpposed's reach to WordNet's synonyms (those of "die"
// include "pass" and "go"): surviving and dying, or being killed. Only the
// judge reads them (encoder.opposites), as judgeAntonyms.
var judgeOnlyAntonyms = bothWays(stemPairs(judgeOnlyAntonymWords))

// listedOpposed reports whether the stems a and b are antonyms by the
// lists the judge reads (antonyms, judgeAntonyms, judgeOnlyAntonyms).
func listedOpposed(a, b string) bool {
	return antonyms[a][b] || judgeAntonyms[a][b] || judgeOnlyAntonyms[a][b]
}

// listedAntonym reports whether the stem a has an antonym in those
// lists.
func listedAntonym(a string) bool {
	return antonyms[a] != nil || judgeAntonyms[a] != nil || judgeOnlyAntonyms[a] != nil
}

// judgeOnlyAntonymWords are judgeOnlyAntonyms' pairs as written.
var judgeOnlyAntonymWords = [][2]string{
	{"survived", "died"}, {"survive", "die"}, {"survives", "dies"}, {"survived", "killed"}, {"survived", "perished"},
}

// stemPairs returns the stems of pairs of words, pair by pair.
func stemPairs(pairs [][2]string) [][2]string {
	out := make([][2]string, len(pairs))
	for i, p := range pairs {
		out[i] = [2]string{txt.Stem(p[0]), txt.Stem(p[1])}
	}
	return out
}

// converses pairs stems of verbs ("bought" is buy, "sold" sell) that tell
// one event from its two sides:
// what one buys, another sells. In the active voice the two contradict
// each other ("Microsoft sold the company" against "Microsoft bought
// the company"), but in the passive without an agent one says what the
// other does ("The company was sold" against "Microsoft bought the
// company").
var converses = bothWays([][2]string{{"buy", "sell"}, {"lend", "borrow"}, {"lent", "borrow"}})

// passiveAuxiliaries open a passive verb: "was sold", "has been bought".
var passiveAuxiliaries = set("was", "were", "is", "are", "be", "been", "being", "get", "got", "gets")

// The voices of a verb (voiceOf).
const (
	active = iota
	passiveNoAgent
	passiveAgent
)

// voiceOf tells the voice of toks[i]: passive after an auxiliary ("was
// sold"), with an agent when "by" follows within three words.
func voiceOf(toks []token, i int) uint8 {
	if i == 0 || !passiveAuxiliaries[toks[i-1].Lower] {
		return active
	}
	for _, tk := range toks[i+1 : min(len(toks), i+4)] {
		if tk.Lower == "by" {
			return passiveAgent
		}
	}
	return passiveNoAgent
}

// Stems of winning, losing and defeating (victory).
var (
	wins    = set("win", "won")
	losses  = set("lose", "lost")
	defeats = set("defeat", "beat", "beaten")
)

// victory relates a verb of winning or losing to a verb of defeating
// that has the same subject, or has it as its object: "Germany defeated
// Brazil" says that Germany won and Brazil lost, "Brazil was defeated (by
// Germany)" that Brazil lost. toks are the two sides' tokens as the
// networks read them (function words gone), the verbs at i and j, their
// voices va and vb. It returns the relation bit, relSynonym or
// relAntonym, or -1 when the words are no such pair or their subjects
// cannot be told to be one.
func victory(a []token, i int, va uint8, b []token, j int, vb uint8) int {
	if defeats[a[i].Stem] {
		a, i, b, j, vb = b, j, a, i, va
	}
	if !defeats[b[j].Stem] || !wins[a[i].Stem] && !losses[a[i].Stem] || i == 0 {
		return -1
	}
	subject := a[i-1].Stem
	won := vb == active
	switch {
	case j > 0 && b[j-1].Stem == subject:
	case j+1 < len(b) && b[j+1].Stem == subject:
		won = !won // the one defeated, or the one who defeated
	default:
		return -1
	}
	if wins[a[i].Stem] == won {
		return relSynonym
	}
	return relAntonym
}

// numberWords spell small numbers and scales.
var numberWords = map[string]string{
	"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
	"eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "thirteen": "13", "fourteen": "14",
	"fifteen": "15", "sixteen": "16", "seventeen": "17", "eighteen": "18", "nineteen": "19", "twenty": "20",
	"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "seventy": "70", "eighty": "80", "ninety": "90",
	"hundred": "100", "thousand": "1000", "million": "1000000", "billion": "1000000000", "dozen": "12",
	"single": "1", "once": "1", "twice": "2", "first": "1st", "second": "2nd", "third": "3rd",
}
