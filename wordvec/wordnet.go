package wordvec

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
)

// Rel is a set of lexical relations between two words, from WordNet.
type Rel uint8

// The relations Relate reports. Hypernym means the first word is a more
// general term of the second ("animal" of "dog"); Hyponym the reverse.
// CoHyponym means both share a direct hypernym without being synonyms
// ("Paris" and "London" as national capitals). Cousin, which only
// RelateWide reports, means they share one two steps up and are no
// closer ("dog" and "cat"). Whole and Part, which only RelatePlaces
// reports, mean the first word names a place the second's lies within
// ("England" and "Liverpool") or the reverse.
const (
	Synonym Rel = 1 << iota
	Antonym
	Hypernym
	Hyponym
	CoHyponym
	Cousin
	Whole
	Part
)

// WordNet holds the lexical relations of the Princeton WordNet 3.0
// (wordnet-base) in compact form: for each single-word lemma, and each verb
// of two words ("step_down", see PhrasalVerb), its first few
// senses, for each synset its hypernyms, and the antonym pairs. Immutable
// and safe for concurrent use.
type WordNet struct {
	lemmas   map[string]int32
	senses   [][]int32 // per lemma, synset ids
	hyper    [][]int32 // per synset, hypernym synset ids
	antonyms map[[2]int32]bool
	exc      map[string]string // irregular inflection -> lemma
	wholes   map[int32][]int32 // per place synset, the places it lies within
	pertains map[int32][]int32 // per adjective synset, the places it is of
	isPlace  map[int32]bool    // the synsets that lie within a place or hold one, for a file without firstPlace
	// heads are, per adjective satellite synset, the heads of its
	// cluster (RelateSimilar); nil in a file written before the section
	// was.
	heads map[int32][]int32
	// nouns are, per adjective synset, the nouns it pertains to or is
	// derived with (RelateNouns); nil in a file written before the
	// section was.
	nouns map[int32][]int32
	// firstPlace is, per lemma, the place it names first (WordInfo's
	// primary); nil in a file written before the section was.
	firstPlace map[int32]int32
	// names are the lemmas WordNet writes with a capital in every kept
	// sense; nil in a file written before the section was.
	names map[int32]bool
	// oneWord is, per synset, the one-word lemmas that have it among
	// their senses (PhrasalSynonyms); built on first use.
	oneWord func() map[int32][]string
	// lemmasBySynset is, per synset, the lemmas that have it among
	// their senses; built on first use.
	lemmasBySynset func() map[int32][]int32
	// antonymsOf is, per lemma, the lemmas WordNet makes its antonyms
	// (IndirectAntonyms); built on first use.
	antonymsOf func() map[int32][]int32
}

// wordnetMagic starts a relation file (after gzip).
const wordnetMagic = "VRTYWN01"

// maxHyperDepth is how many hypernym steps Relate climbs.
const maxHyperDepth = 6

//go:embed wordnet.bin
var shippedWordNet []byte

var loadWordNet = sync.OnceValue(func() *WordNet {
	wn, err := ReadWordNet(bytes.NewReader(shippedWordNet))
	if err != nil {
		// The file is embedded and TestShippedWordNet reads it: a broken build.
		panic(fmt.Sprintf("wordvec: the embedded wordnet.bin is unusable: %v", err))
	}
	return wn
})

// DefaultWordNet returns the relations shipped in the binary
// (wordvec/wordnet.bin, built by 'verity train wordnet'), decoded once.
func DefaultWordNet() *WordNet { return loadWordNet() }

// ReadWordNet reads a relation file written by [BuildWordNet].
func ReadWordNet(r io.Reader) (*WordNet, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("wordnet: %w", err)
	}
	data, err := io.ReadAll(io.LimitReader(zr, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("wordnet: %w", err)
	}
	d := &decoder{b: data}
	if string(d.bytes(len(wordnetMagic))) != wordnetMagic {
		return nil, fmt.Errorf("wordnet: not a relation file")
	}
	wn := &WordNet{lemmas: map[string]int32{}, antonyms: map[[2]int32]bool{}, exc: map[string]string{}}
	nSyn := d.uvarint()
	wn.hyper = make([][]int32, nSyn)
	for i := range wn.hyper {
		wn.hyper[i] = d.ids(nSyn)
	}
	nLem := d.uvarint()
	wn.senses = make([][]int32, nLem)
	for i := range nLem {
		w := d.str()
		wn.lemmas[w] = int32(i)
		wn.senses[i] = d.ids(nSyn)
	}
	nAnt := d.uvarint()
	for range nAnt {
		a, b := d.uvarint(), d.uvarint()
		if a >= nLem || b >= nLem {
			d.err = fmt.Errorf("antonym out of range")
			break
		}
		wn.antonyms[[2]int32{int32(a), int32(b)}] = true
	}
	nExc := d.uvarint()
	for range nExc {
		k := d.str()
		wn.exc[k] = d.str()
	}
	// The places sections came later; a file without them has no
	// places.
	if d.err == nil && len(d.b) > 0 {
		wn.wholes = d.synsetIDs(nSyn)
		wn.pertains = d.synsetIDs(nSyn)
	}
	if d.err == nil && len(d.b) > 0 {
		wn.firstPlace = d.firstPlaces(nLem, nSyn)
	}
	if d.err == nil && len(d.b) > 0 {
		wn.names = d.lemmaSet(nLem)
	}
	if d.err == nil && len(d.b) > 0 {
		wn.heads = d.synsetIDs(nSyn)
	}
	if d.err == nil && len(d.b) > 0 {
		wn.nouns = d.synsetIDs(nSyn)
	}
	if wn.firstPlace == nil {
		wn.isPlace = map[int32]bool{}
		for s, ws := range wn.wholes {
			wn.isPlace[s] = true
			for _, w := range ws {
				wn.isPlace[w] = true
			}
		}
	}
	if d.err != nil {
		return nil, fmt.Errorf("wordnet: %w", d.err)
	}
	wn.oneWord = sync.OnceValue(wn.oneWordBySynset)
	wn.lemmasBySynset = sync.OnceValue(func() map[int32][]int32 {
		m := map[int32][]int32{}
		for l, ss := range wn.senses {
			for _, s := range ss {
				m[s] = append(m[s], int32(l))
			}
		}
		return m
	})
	wn.antonymsOf = sync.OnceValue(func() map[int32][]int32 {
		m := map[int32][]int32{}
		for pair := range wn.antonyms {
			m[pair[0]] = append(m[pair[0]], pair[1])
		}
		return m
	})
	return wn, nil
}

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() int {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 || v > 1<<26 {
		d.err = fmt.Errorf("truncated or corrupt")
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

func (d *decoder) bytes(n int) []byte {
	if d.err != nil || len(d.b) < n {
		d.err = fmt.Errorf("truncated")
		return nil
	}
	out := d.b[:n]
	d.b = d.b[n:]
	return out
}

func (d *decoder) str() string { return string(d.bytes(d.uvarint())) }

// eachID reads a count and that many ids below limit, delta-coded, and
// calls f with each, in order; an id out of range, or an error f sets,
// stops it, and the error names what the ids are.
func (d *decoder) eachID(limit int, what string, f func(id int32)) {
	n := d.uvarint()
	prev := 0
	for range n {
		prev += d.uvarint()
		if prev >= limit {
			if d.err == nil {
				d.err = fmt.Errorf("%s out of range", what)
			}
			return
		}
		if f(int32(prev)); d.err != nil {
			return
		}
	}
}

// synsetIDs reads, for delta-coded synset ids below limit, a list of ids
// each (the places each lies within, the places an adjective is of).
func (d *decoder) synsetIDs(limit int) map[int32][]int32 {
	out := map[int32][]int32{}
	d.eachID(limit, "synset", func(id int32) { out[id] = d.ids(limit) })
	return out
}

// firstPlaces reads, for delta-coded lemma ids, the synset of the place
// each names first.
func (d *decoder) firstPlaces(lemmas, synsets int) map[int32]int32 {
	out := map[int32]int32{}
	d.eachID(lemmas, "first place", func(id int32) {
		s := d.uvarint()
		if s >= synsets {
			if d.err == nil {
				d.err = fmt.Errorf("first place out of range")
			}
			return
		}
		out[id] = int32(s)
	})
	return out
}

// lemmaSet reads delta-coded lemma ids below lemmas as a set (the names).
func (d *decoder) lemmaSet(lemmas int) map[int32]bool {
	out := map[int32]bool{}
	d.eachID(lemmas, "name", func(id int32) { out[id] = true })
	return out
}

// ids reads a count and that many ids below limit, delta-coded.
func (d *decoder) ids(limit int) []int32 {
	n := d.uvarint()
	if n > 1024 {
		d.err = fmt.Errorf("corrupt id list")
		return nil
	}
	out := make([]int32, n)
	prev := 0
	for i := range out {
		prev += d.uvarint()
		if prev >= limit {
			d.err = fmt.Errorf("id out of range")
			return nil
		}
		out[i] = int32(prev)
	}
	return out
}

// Name reports whether a lower-case word is a lemma WordNet writes with a
// capital in every sense the file keeps: a name ("picasso", "edison"),
// not a common word that may also be one ("apple", "china"). Inflections
// are not read: a name is not inflected.
func (wn *WordNet) Name(word string) bool {
	i, ok := wn.lemmas[word]
	return ok && wn.names[i]
}

// IsLemma reports whether a lower-case word is a WordNet lemma as written
// ("reject", not "rejected").
func (wn *WordNet) IsLemma(word string) bool {
	_, ok := wn.lemmas[word]
	return ok
}

// Lemmas returns the WordNet lemmas a lower-case word may be an inflection
// of, itself first when it is one.
func (wn *WordNet) Lemmas(word string) []int32 { return wn.lemmasOf(word, "") }

// lemmasOf returns the lemmas of word, each base form of it followed by
// suffix.
func (wn *WordNet) lemmasOf(word, suffix string) []int32 {
	var out []int32
	add := func(w string) {
		if i, ok := wn.lemmas[w+suffix]; ok && !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	add(word)
	if b, ok := wn.exc[word]; ok {
		add(b)
	}
	for _, r := range detachments {
		if base, ok := strings.CutSuffix(word, r[0]); ok && len(base) > 1 {
			add(base + r[1])
		}
	}
	return out
}

// PhrasalInfo analyses a verb of two words, a lower-case verb in any
// inflection and its particle ("stepped", "down"), as Info analyses one
// word: the verb's base forms are joined to the particle and looked up
// ("step_down"), and the word is read as both the verb of two words and
// the verb alone ("rents out" is still "rents"). ok is false when WordNet
// has no such verb of two words, or the file was built before it kept
// them.
func (wn *WordNet) PhrasalInfo(verb, particle string) (wi *WordInfo, ok bool) {
	two := wn.lemmasOf(verb, "_"+particle)
	if len(two) == 0 {
		return nil, false
	}
	return wn.infoOf(append(two, wn.Lemmas(verb)...)), true
}

// PhrasalSynonyms returns the one-word verbs that share a kept sense
// with a verb of two words, in alphabetical order ("turned", "down":
// "decline", "disdain", "refuse", "reject", "scorn"; "gave", "up":
// "abandon", ..., "quit", ...); nil when WordNet has no such verb of two
// words or no one-word verb shares a sense. The file keeps a lemma's
// senses by id, not by frequency, so the commonest sense cannot be told:
// a caller reads them against the other text's words, which choose the
// sense.
func (wn *WordNet) PhrasalSynonyms(verb, particle string) []string {
	two := wn.lemmasOf(verb, "_"+particle)
	if len(two) == 0 {
		return nil
	}
	var words []string
	for _, s := range wn.senses[two[0]] {
		for _, w := range wn.oneWord()[s] {
			if !slices.Contains(words, w) {
				words = append(words, w)
			}
		}
	}
	slices.Sort(words)
	return words
}

// oneWordBySynset indexes, for PhrasalSynonyms, the one-word lemmas that
// have each synset among their senses.
func (wn *WordNet) oneWordBySynset() map[int32][]string {
	out := map[int32][]string{}
	for w, l := range wn.lemmas {
		if strings.ContainsAny(w, "_ -.") {
			continue
		}
		for _, s := range wn.senses[l] {
			out[s] = append(out[s], w)
		}
	}
	for _, ws := range out {
		slices.Sort(ws)
	}
	return out
}

// detachments are WordNet's morphy suffix rules for nouns, verbs and
// adjectives.
var detachments = [][2]string{
	{"s", ""}, {"ses", "s"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"}, {"shes", "sh"}, {"men", "man"}, {"ies", "y"},
	{"es", "e"}, {"es", ""}, {"ed", "e"}, {"ed", ""}, {"ing", "e"}, {"ing", ""}, {"er", ""}, {"est", ""}, {"er", "e"}, {"est", "e"},
}

// Relate returns the relations of lower-case words a and b, each taken as
// any of its lemmas (WordNet's inflection rules). Identical words are
// synonyms.
func (wn *WordNet) Relate(a, b string) Rel {
	return wn.RelateInfo(wn.Info(a), wn.Info(b))
}

// WordInfo is what Relate needs of one word, computed once by Info so that
// a word can be related to many others cheaply.
type WordInfo struct {
	lemmas    []int32
	senses    []int32
	parents   []int32 // direct hypernyms of the senses
	ancestors []int32 // hypernyms within maxHyperDepth steps, sorted
	// places are the senses and the places an adjective sense is of
	// ("English": England); wholes the places primary lies within,
	// sorted.
	places []int32
	wholes []int32
	// heads are the heads of the clusters the word's adjective senses
	// are satellites of (RelateSimilar), sorted.
	heads []int32
	// nouns are the nouns the word's adjective senses pertain to or are
	// derived with (RelateNouns), sorted.
	nouns []int32
	// primary is the place the word names first, -1 for none: from the
	// file's first places, its commonest noun sense when that is a place,
	// else the place its commonest adjective sense is of ("American": the
	// United States, not the Americas); in a file without them, the first
	// of its places by id.
	primary int32
}

// Place reports whether the word names a place, or is a place's
// adjective, in some sense.
func (wi *WordInfo) Place() bool { return wi != nil && wi.primary >= 0 }

// Known reports whether WordNet has the word.
func (wi *WordInfo) Known() bool { return wi != nil && len(wi.lemmas) > 0 }

// Info analyses a lower-case word for RelateInfo.
func (wn *WordNet) Info(word string) *WordInfo { return wn.infoOf(wn.Lemmas(word)) }

// infoOf analyses a word of the given lemmas.
func (wn *WordNet) infoOf(lemmas []int32) *WordInfo {
	var senses []int32
	for _, l := range lemmas {
		for _, s := range wn.senses[l] {
			if !slices.Contains(senses, s) {
				senses = append(senses, s)
			}
		}
	}
	return wn.infoOfSenses(lemmas, senses)
}

// infoOfSenses analyses a word of the given lemmas read in the given
// senses only (all of them, or those Within keeps).
func (wn *WordNet) infoOfSenses(lemmas, senses []int32) *WordInfo {
	wi := &WordInfo{lemmas: lemmas, senses: senses, primary: -1}
	seen := map[int32]bool{}
	frontier := wi.senses
	for depth := range maxHyperDepth {
		var next []int32
		for _, s := range frontier {
			for _, h := range wn.hyper[s] {
				if depth == 0 && !slices.Contains(wi.parents, h) {
					wi.parents = append(wi.parents, h)
				}
				if !seen[h] {
					seen[h] = true
					next = append(next, h)
					wi.ancestors = append(wi.ancestors, h)
				}
			}
		}
		frontier = next
	}
	slices.Sort(wi.ancestors)
	wi.heads = gather(wi.senses, wn.heads)
	wi.nouns = gather(wi.senses, wn.nouns)
	wi.places = wi.senses
	for _, s := range wi.senses {
		for _, p := range wn.pertains[s] {
			if !slices.Contains(wi.places, p) {
				wi.places = append(slices.Clip(wi.places), p)
			}
		}
	}
	for _, l := range wi.lemmas {
		if p, ok := wn.firstPlace[l]; ok {
			wi.primary = p
			break
		}
	}
	if wn.firstPlace == nil {
		for _, s := range wi.places {
			if wn.isPlace[s] {
				wi.primary = s
				break
			}
		}
	}
	// The wholes are those of the word's places of primary's kind: of
	// its senses when primary is one ("Japan", first the islands in the
	// Pacific, then the country in Asia), else of the places its
	// adjective senses are of ("Canadian": Canada, not the Canadian
	// River, a sense of the noun that names no person). A file without
	// firstPlace reads every place alike.
	from := wi.places
	if wn.firstPlace != nil {
		from = wi.senses
		if !slices.Contains(wi.senses, wi.primary) {
			from = wi.places[len(wi.senses):]
		}
	}
	wi.wholes = gather(from, wn.wholes)
	return wi
}

// Beside reads two places named one after the other ("Toronto,
// Ontario", "Paris, Texas") in the senses in which the first lies within
// the second: whole in those of its senses that hold one of part's
// (Ontario the province, not the lake that WordNet names first, which
// lies within the United States too), then part in those of its senses
// that lie within whole's. A word none of whose senses, or all of them,
// fit is returned unchanged.
func (wn *WordNet) Beside(part, whole *WordInfo) (*WordInfo, *WordInfo) {
	if !part.Place() || !whole.Place() {
		return part, whole
	}
	holders := gather(part.senses, wn.wholes)
	whole = wn.restrict(whole, func(s int32) bool {
		_, ok := slices.BinarySearch(holders, s)
		return ok
	})
	part = wn.restrict(part, func(s int32) bool { return anyShared(wn.wholes[s], whole.senses) })
	return part, whole
}

// restrict reads wi in those of its senses that keep accepts, the first
// of them as the place it names; wi unchanged when keep accepts none or
// all.
func (wn *WordNet) restrict(wi *WordInfo, keep func(int32) bool) *WordInfo {
	var kept []int32
	for _, s := range wi.senses {
		if keep(s) {
			kept = append(kept, s)
		}
	}
	if len(kept) == 0 || len(kept) == len(wi.senses) {
		return wi
	}
	r := wn.infoOfSenses(wi.lemmas, kept)
	r.primary = kept[0]
	r.wholes = gather(kept, wn.wholes)
	return r
}

// gather returns the synsets that of lists for any of senses, each once,
// sorted: the places a word's places lie within, the heads of its
// adjective clusters.
func gather(senses []int32, of map[int32][]int32) []int32 {
	var out []int32
	for _, s := range senses {
		for _, x := range of[s] {
			if !slices.Contains(out, x) {
				out = append(out, x)
			}
		}
	}
	slices.Sort(out)
	return out
}

// shareSense reports whether two words share a sense.
func shareSense(a, b *WordInfo) bool { return anyShared(a.senses, b.senses) }

// RelateInfo is Relate over words analysed by Info.
func (wn *WordNet) RelateInfo(a, b *WordInfo) Rel {
	if !a.Known() || !b.Known() {
		return 0
	}
	if anyShared(a.lemmas, b.lemmas) {
		return Synonym
	}
	var r Rel
	if wn.Antonyms(a.lemmas, b.lemmas) {
		r = Antonym
	}
	if shareSense(a, b) {
		return r | Synonym
	}
	if anyIn(a.senses, b.ancestors) {
		r |= Hypernym
	}
	if anyIn(b.senses, a.ancestors) {
		r |= Hyponym
	}
	if r&(Hypernym|Hyponym) == 0 {
		for _, h := range a.parents {
			if slices.Contains(b.parents, h) {
				return r | CoHyponym
			}
		}
	}
	return r
}

// Antonyms reports whether WordNet makes one of the lemmas la (of a
// word, by Lemmas) an antonym of one of lb, as RelateInfo's Antonym
// does, without analysing the words' senses.
func (wn *WordNet) Antonyms(la, lb []int32) bool {
	for _, i := range la {
		for _, j := range lb {
			if wn.antonyms[[2]int32{i, j}] {
				return true
			}
		}
	}
	return false
}

// HasAntonym reports whether WordNet makes any of the lemmas an antonym
// of some lemma.
func (wn *WordNet) HasAntonym(lemmas []int32) bool {
	of := wn.antonymsOf()
	for _, l := range lemmas {
		if len(of[l]) > 0 {
			return true
		}
	}
	return false
}

// IndirectAntonyms reports whether b shares a sense with an antonym of
// a, or a with one of b's: WordNet opposes "safe" to "dangerous", whose
// synset "unsafe" shares, so "safe" and "unsafe" are opposed though no
// pointer joins them. Direct antonyms count too.
func (wn *WordNet) IndirectAntonyms(a, b *WordInfo) bool {
	if !a.Known() || !b.Known() {
		return false
	}
	of := wn.antonymsOf()
	opposed := func(x, y *WordInfo) bool {
		for _, l := range x.lemmas {
			for _, k := range of[l] {
				if slices.Contains(y.lemmas, k) || anyShared(wn.senses[k], y.senses) {
					return true
				}
			}
		}
		return false
	}
	return opposed(a, b) || opposed(b, a)
}

// anyShared reports whether xs and ys share an element.
func anyShared(xs, ys []int32) bool {
	for _, x := range xs {
		if slices.Contains(ys, x) {
			return true
		}
	}
	return false
}

// RelatePlaces relates two words as places, from WordNet's part
// holonyms of locations and its adjectives of places (pertainyms). It
// reports Whole when a place that b names lies within the place a names
// first ("England" and "Liverpool", "Europe" and "Paris", "German" and
// "Munich"; not "American" and "Toronto", though the Americas hold
// Toronto, since "American" is first of the United States), Part for the
// reverse, and Synonym when one is the other's adjective ("English" and
// "England"). Words that share a sense get nothing: RelateInfo calls them
// synonyms.
func (wn *WordNet) RelatePlaces(a, b *WordInfo) Rel {
	if !a.Known() || !b.Known() || (len(a.wholes) == 0 && len(b.wholes) == 0 && len(a.places) == len(a.senses) && len(b.places) == len(b.senses)) {
		return 0
	}
	if shareSense(a, b) {
		return 0
	}
	var r Rel
	for _, x := range a.places {
		if slices.Contains(b.places, x) {
			r |= Synonym
			break
		}
	}
	if wn.holds(a, b) {
		r |= Whole
	}
	if wn.holds(b, a) {
		r |= Part
	}
	return r
}

// holds reports whether a place that b names lies within the place a
// names first, or within another place a names (for a place's adjective,
// another that a name of its place names) that neither holds that one
// nor lies within it: Ontario the province as well as the lake that
// WordNet names first, Washington the state as well as the city; not the
// Americas for "America", which hold the United States.
func (wn *WordNet) holds(a, b *WordInfo) bool {
	if a.primary < 0 {
		return false
	}
	if _, ok := slices.BinarySearch(b.wholes, a.primary); ok {
		return true
	}
	first := gather([]int32{a.primary}, wn.wholes)
	others := a.senses
	if !slices.Contains(a.senses, a.primary) {
		// A place's adjective: the other places the names of its place
		// name ("British" is of Great Britain the island, whose name
		// "Great Britain" names the United Kingdom too).
		others = nil
		for _, l := range wn.lemmasBySynset()[a.primary] {
			others = append(others, wn.senses[l]...)
		}
	}
	for _, s := range others {
		if s == a.primary || len(wn.wholes[s]) == 0 {
			continue
		}
		if _, ok := slices.BinarySearch(first, s); ok || slices.Contains(wn.wholes[s], a.primary) {
			continue
		}
		if _, ok := slices.BinarySearch(b.wholes, s); ok {
			return true
		}
	}
	return false
}

// RelateSimilar relates two adjectives by WordNet's clusters: Hypernym
// when a sense of the first heads the cluster a sense of the second is a
// satellite of ("toxic" and "poisonous", "cold" and "freezing"),
// Hyponym for the reverse. A satellite says more than its head, as
// "dog" says more than "animal". Words that share a sense get nothing.
func (wn *WordNet) RelateSimilar(a, b *WordInfo) Rel {
	if !a.Known() || !b.Known() || len(a.heads) == 0 && len(b.heads) == 0 {
		return 0
	}
	if shareSense(a, b) {
		return 0
	}
	var r Rel
	if anyIn(a.senses, b.heads) {
		r |= Hypernym
	}
	if anyIn(b.senses, a.heads) {
		r |= Hyponym
	}
	return r
}

// RelateNouns relates an adjective and a noun it pertains to or is
// derived with, in WordNet's pointers, as synonyms: "dramatic" and
// "drama", "tragic" and "tragedy", "effective" and "efficacy" (a sense
// of "effective" is "efficacious"). Words that share a sense get nothing.
func (wn *WordNet) RelateNouns(a, b *WordInfo) Rel {
	if !a.Known() || !b.Known() || len(a.nouns) == 0 && len(b.nouns) == 0 || shareSense(a, b) {
		return 0
	}
	if anyIn(a.senses, b.nouns) || anyIn(b.senses, a.nouns) {
		return Synonym
	}
	return 0
}

// anyIn reports whether any of xs is in sorted.
func anyIn(xs, sorted []int32) bool {
	for _, x := range xs {
		if _, ok := slices.BinarySearch(sorted, x); ok {
			return true
		}
	}
	return false
}

// RelateCousins is RelateInfo with co-hyponyms widened to cousins: words
// that are neither synonyms nor each other's hypernym, whose senses share
// a hypernym one or two steps up ("dog" and "cat", a canine and a feline,
// both carnivores; "guitar" and "violin"; "walk" and "run"). WordNet's
// depth differs by branch, so siblings one step apart miss many pairs that
// a caption would contrast (Glockner et al., 2018, drinks and materials).
// Cousins need not exclude each other ("actor" and "singer" are cousins
// too): what the relation means is for a network to learn.
func (wn *WordNet) RelateCousins(a, b *WordInfo) Rel {
	r := wn.RelateWide(a, b)
	if r&Cousin != 0 {
		r = r&^Cousin | CoHyponym
	}
	return r
}

// RelateWide is RelateInfo plus Cousin for the words RelateCousins would
// make co-hyponyms and RelateInfo does not, so that the two kinds stay
// apart.
func (wn *WordNet) RelateWide(a, b *WordInfo) Rel {
	r := wn.RelateInfo(a, b)
	if r&(Synonym|Hypernym|Hyponym|CoHyponym) != 0 || !a.Known() || !b.Known() {
		return r
	}
	// The hypernyms two steps up are those of the parents, read here
	// rather than stored by Info, which the judge runs for every token.
	for _, p := range a.parents {
		if wn.near(b, p) {
			return r | Cousin
		}
		for _, g := range wn.hyper[p] {
			if wn.near(b, g) {
				return r | Cousin
			}
		}
	}
	return r
}

// near reports whether synset h is a hypernym of w one or two steps up.
func (wn *WordNet) near(w *WordInfo, h int32) bool {
	if slices.Contains(w.parents, h) {
		return true
	}
	for _, p := range w.parents {
		if slices.Contains(wn.hyper[p], h) {
			return true
		}
	}
	return false
}
