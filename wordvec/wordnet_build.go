package wordvec

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// WordNetSenses is how many senses of each lemma and part of speech the
// relation file keeps, most frequent first: rarer senses would relate
// nearly every pair of common words ("bank" and "depository", "bank" and
// "slope").
const WordNetSenses = 3

// PhrasalSenses is how many senses of a verb of two words the file keeps,
// of those the tagged corpus attests: more than of a word, since such a
// verb has many ("give_up": abandon, relinquish, surrender, then quit an
// activity, fourth) and the other text, whose verb must share one,
// chooses among them.
const PhrasalSenses = 6

// placeLexFiles are the lexicographer files of WordNet's places:
// noun.location (15) and noun.object (17, continents, islands, rivers).
// Their part holonyms say where a place lies; those of other nouns (a
// wheel of a car, a finger of a hand) are left out.
var placeLexFiles = map[string]bool{"15": true, "17": true}

// maxWholeDepth is how many part-holonym steps a place's wholes climb.
const maxWholeDepth = 5

// placeName reports whether a lemma may be the name of a place of two or
// three words, each of letters alone ("new_york", "united_states"); which
// are places, the data files say.
func placeName(lemma string) bool {
	parts := strings.Split(lemma, "_")
	if len(parts) < 2 || len(parts) > 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.TrimLeft(p, "abcdefghijklmnopqrstuvwxyz") != "" {
			return false
		}
	}
	return true
}

// abbreviation returns an abbreviation of two or three letters, each
// followed by a full stop ("u.s.", "u.k."), as the words the tokenizer
// splits it into, joined as a name of several words is ("u_s"); and ""
// for any other lemma.
func abbreviation(lemma string) string {
	parts := strings.Split(strings.TrimSuffix(lemma, "."), ".")
	if !strings.HasSuffix(lemma, ".") || len(parts) < 2 || len(parts) > 3 {
		return ""
	}
	for _, p := range parts {
		if len(p) != 1 || p[0] < 'a' || p[0] > 'z' {
			return ""
		}
	}
	return strings.Join(parts, "_")
}

// particles are the adverbs that make a verb of two words with the verb
// before them ("step down", "turn down", "put off"). "In" and "on" are
// left out: a verb before them is more often followed by a place or a
// time ("arrived in Paris", "met on Monday") than a phrasal verb.
var particles = map[string]bool{"down": true, "up": true, "off": true, "out": true, "away": true, "over": true,
	"back": true, "aside": true, "apart": true}

// Particle reports whether a lower-case word is one of the particles.
func Particle(w string) bool { return particles[w] }

// PhrasalVerb reports whether a lemma is a verb of two words, a verb and
// one of the particles ("step_down"), and returns the verb.
func PhrasalVerb(lemma string) (verb string, ok bool) {
	verb, particle, ok := strings.Cut(lemma, "_")
	if !ok || !Particle(particle) || verb == "" || strings.TrimLeft(verb, "abcdefghijklmnopqrstuvwxyz") != "" {
		return "", false
	}
	return verb, true
}

type synKey struct {
	pos    byte
	offset int
}

// BuildWordNet reads the WordNet 3.0 database in dir (index.*, data.*,
// *.exc, as installed by Debian's wordnet-base in /usr/share/wordnet) and
// writes the compact relation file that [ReadWordNet] reads. Only
// single-word lemmas that vocab knows are kept (all when vocab is nil),
// with the names of places of two or three words, abbreviations, and the
// verbs of two words of [PhrasalVerb] whose verb vocab knows.
// The output depends only on the input files.
func BuildWordNet(w io.Writer, dir string, vocab *Table) error {
	poses := []struct {
		name string
		pos  byte
	}{{"noun", 'n'}, {"verb", 'v'}, {"adj", 'a'}, {"adv", 'r'}}
	keep := func(lemma string) bool {
		if strings.ContainsAny(lemma, "_-.'") {
			return false
		}
		if vocab == nil {
			return true
		}
		_, ok := vocab.Lookup(lemma)
		return ok
	}

	// Senses from the index files, most frequent first; the names of
	// places of two or three words ("new_york") wait in multi until the
	// data files say which synsets are places.
	senses := map[string][]synKey{}
	multi := map[string][]synKey{}
	abbrevs := map[string][]synKey{} // "u_s" for "u.s."
	// untagged are the nouns none of whose senses is counted in the
	// tagged corpus, so that WordNet's order of their senses says
	// nothing of which is commoner ("Ottawa": a people, a river, then
	// the capital).
	untagged := map[string]bool{}
	var phrasal []string // "step_down", kept in senses
	for _, p := range poses {
		err := eachLine(filepath.Join(dir, "index."+p.name), func(f []string) error {
			if len(f) < 6 {
				return fmt.Errorf("short index line")
			}
			lemma := strings.ToLower(f[0])
			into, keepN := senses, WordNetSenses
			if a := abbreviation(lemma); p.pos == 'n' && a != "" {
				lemma, into = a, abbrevs
			} else if p.pos == 'n' && placeName(lemma) {
				into = multi
			} else if v, ok := PhrasalVerb(lemma); p.pos == 'v' && ok && keep(v) {
				phrasal = append(phrasal, lemma)
				keepN = PhrasalSenses
			} else if !keep(lemma) {
				return nil
			}
			nSyn, err := strconv.Atoi(f[2])
			if err != nil || nSyn < 1 || len(f) < nSyn {
				return fmt.Errorf("bad synset count %q", f[2])
			}
			offs := f[len(f)-nSyn:]
			if keepN > WordNetSenses {
				// Past WordNetSenses, only senses the tagged corpus
				// attests ("turn_down", tagged once, keeps no "lower").
				tagged, err := strconv.Atoi(f[len(f)-nSyn-1])
				if err != nil {
					return fmt.Errorf("bad tagged sense count %q", f[len(f)-nSyn-1])
				}
				keepN = min(keepN, max(WordNetSenses, tagged))
			}
			if p.pos == 'n' && f[len(f)-nSyn-1] == "0" {
				untagged[lemma] = true
			}
			for _, o := range offs[:min(len(offs), keepN)] {
				off, err := strconv.Atoi(o)
				if err != nil {
					return fmt.Errorf("bad offset %q", o)
				}
				into[lemma] = append(into[lemma], synKey{p.pos, off})
			}
			return nil
		})
		if err != nil {
			return err
		}
	}

	// Synsets: hypernyms, words (for antonyms), similar-to heads.
	type synset struct {
		words   []string
		capital []bool // per word, written with a capital ("Picasso")
		hyper   []synKey
		similar []synKey
		wholes  []synKey // part holonyms, for places only
		place   bool     // a noun of placeLexFiles
		// satellite marks an adjective satellite, whose similar-to
		// pointer names its cluster's head ("poisonous" of "toxic").
		satellite bool
		// pertains are the places an adjective pertains to
		// ("English" to England).
		pertains []synKey
		// nouns are the nouns an adjective pertains to or is derived
		// with ("dramatic": drama; "tragic": tragedy; "efficacious":
		// efficacy), places or not.
		nouns []synKey
	}
	syns := map[synKey]*synset{}
	type antPtr struct {
		from   synKey
		fromW  int
		to     synKey
		toWord int
	}
	var antPtrs []antPtr
	for _, p := range poses {
		err := eachLine(filepath.Join(dir, "data."+p.name), func(f []string) error {
			if len(f) < 4 {
				return fmt.Errorf("short data line")
			}
			off, err := strconv.Atoi(f[0])
			if err != nil {
				return fmt.Errorf("bad offset %q", f[0])
			}
			key := synKey{p.pos, off}
			nw, err := strconv.ParseInt(f[3], 16, 32)
			if err != nil || len(f) < 5+2*int(nw) {
				return fmt.Errorf("bad word count %q", f[3])
			}
			place := p.pos == 'n' && placeLexFiles[f[1]]
			s := &synset{place: place, satellite: f[2] == "s"}
			for i := range int(nw) {
				raw := f[4+2*i]
				word := strings.ToLower(raw)
				if k := strings.IndexByte(word, '('); k > 0 {
					word = word[:k]
				}
				s.words = append(s.words, word)
				s.capital = append(s.capital, raw[0] >= 'A' && raw[0] <= 'Z')
			}
			k := 4 + 2*int(nw)
			np, err := strconv.Atoi(f[k])
			if err != nil || len(f) < k+1+4*np {
				return fmt.Errorf("bad pointer count %q", f[k])
			}
			for i := range np {
				sym, toOff, toPos, st := f[k+1+4*i], f[k+2+4*i], f[k+3+4*i], f[k+4+4*i]
				o, err := strconv.Atoi(toOff)
				if err != nil || len(toPos) != 1 || len(st) != 4 {
					return fmt.Errorf("bad pointer")
				}
				pos := toPos[0]
				if pos == 's' {
					pos = 'a'
				}
				to := synKey{pos, o}
				switch sym {
				case "@", "@i":
					s.hyper = append(s.hyper, to)
				case "&":
					s.similar = append(s.similar, to)
				case "#p":
					if place && to.pos == 'n' {
						s.wholes = append(s.wholes, to)
					}
				case "\\", "+":
					// Nouns are read first, so a place an adjective
					// pertains to is known by now.
					if p.pos == 'a' && to.pos == 'n' && syns[to] != nil && !slices.Contains(s.nouns, to) {
						s.nouns = append(s.nouns, to)
					}
					if sym == "\\" && p.pos == 'a' && to.pos == 'n' && syns[to] != nil && syns[to].place {
						s.pertains = append(s.pertains, to)
					}
				case "!":
					src, err1 := strconv.ParseInt(st[:2], 16, 32)
					dst, err2 := strconv.ParseInt(st[2:], 16, 32)
					if err1 != nil || err2 != nil {
						return fmt.Errorf("bad pointer words %q", st)
					}
					antPtrs = append(antPtrs, antPtr{key, int(src), to, int(dst)})
				}
			}
			syns[key] = s
			return nil
		})
		if err != nil {
			return err
		}
	}

	// Antonym word pairs, extended from an adjective head to its similar
	// satellites ("hot"/"cold" makes "boiling"/"cold").
	type pair [2]string
	antSet := map[pair]bool{}
	wordOf := func(k synKey, n int) []string {
		s := syns[k]
		if s == nil {
			return nil
		}
		if n == 0 {
			return s.words
		}
		if n-1 < len(s.words) {
			return s.words[n-1 : n]
		}
		return nil
	}
	for _, a := range antPtrs {
		for _, x := range wordOf(a.from, a.fromW) {
			for _, y := range wordOf(a.to, a.toWord) {
				antSet[pair{x, y}] = true
				antSet[pair{y, x}] = true
			}
		}
	}
	antOf := map[string][]string{}
	for p := range antSet {
		antOf[p[0]] = append(antOf[p[0]], p[1])
	}
	for _, s := range syns {
		for _, h := range s.similar {
			for _, hw := range wordOf(h, 0) {
				for _, a := range antOf[hw] {
					for _, w := range s.words {
						if w != a {
							antSet[pair{w, a}] = true
							antSet[pair{a, w}] = true
						}
					}
				}
			}
		}
	}

	// A verb of two words takes the antonyms of the words of its
	// commonest sense, which WordNet gives the one-word verbs only:
	// "turn_down" (refuse, reject, decline) is an antonym of "accept".
	for _, l := range phrasal {
		for _, w := range wordOf(senses[l][0], 0) {
			for _, a := range antOf[w] {
				antSet[pair{l, a}] = true
				antSet[pair{a, l}] = true
			}
		}
	}

	// A name of several words is kept with its senses that are places,
	// when its commonest sense is one; an abbreviation whenever one of
	// its senses is ("U.S." is first the government, then the country).
	keepPlaces := func(lemma string, ks []synKey) {
		for _, k := range ks {
			if s := syns[k]; s != nil && s.place {
				senses[lemma] = append(senses[lemma], k)
			}
		}
	}
	for lemma, ks := range multi {
		if s := syns[ks[0]]; s != nil && s.place {
			keepPlaces(lemma, ks)
		}
	}
	for lemma, ks := range abbrevs {
		keepPlaces(lemma, ks)
	}

	// Keep the synsets reachable from kept senses through hypernyms.
	lemmas := make([]string, 0, len(senses))
	for l := range senses {
		lemmas = append(lemmas, l)
	}
	slices.Sort(lemmas)
	reach := map[synKey]bool{}
	var stack []synKey
	for _, l := range lemmas {
		stack = append(stack, senses[l]...)
	}
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if reach[k] || syns[k] == nil {
			continue
		}
		reach[k] = true
		stack = append(stack, syns[k].hyper...)
	}
	keys := make([]synKey, 0, len(reach))
	for k := range reach {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b synKey) int {
		if a.pos != b.pos {
			return int(a.pos) - int(b.pos)
		}
		return a.offset - b.offset
	})
	id := make(map[synKey]int, len(keys))
	for i, k := range keys {
		id[k] = i
	}

	var buf []byte
	putIDs := func(ks []synKey) {
		var ids []int
		for _, k := range ks {
			if i, ok := id[k]; ok && !slices.Contains(ids, i) {
				ids = append(ids, i)
			}
		}
		slices.Sort(ids)
		buf = binary.AppendUvarint(buf, uint64(len(ids)))
		prev := 0
		for _, i := range ids {
			buf = binary.AppendUvarint(buf, uint64(i-prev))
			prev = i
		}
	}

	// putLists writes, for each kept synset whose list of synsets
	// (listOf) holds a kept one, its id, delta-coded, and the list's kept
	// ids.
	putLists := func(listOf func(synKey) []synKey) {
		var with []synKey
		for _, k := range keys {
			if slices.ContainsFunc(listOf(k), func(l synKey) bool { _, ok := id[l]; return ok }) {
				with = append(with, k)
			}
		}
		buf = binary.AppendUvarint(buf, uint64(len(with)))
		prev := 0
		for _, k := range with {
			buf = binary.AppendUvarint(buf, uint64(id[k]-prev))
			prev = id[k]
			putIDs(listOf(k))
		}
	}

	putStr := func(s string) {
		buf = binary.AppendUvarint(buf, uint64(len(s)))
		buf = append(buf, s...)
	}
	buf = append(buf, wordnetMagic...)
	buf = binary.AppendUvarint(buf, uint64(len(keys)))
	for _, k := range keys {
		putIDs(syns[k].hyper)
	}
	lemmaID := map[string]int{}
	buf = binary.AppendUvarint(buf, uint64(len(lemmas)))
	for i, l := range lemmas {
		lemmaID[l] = i
		putStr(l)
		putIDs(senses[l])
	}
	var ants [][2]int
	for p := range antSet {
		a, okA := lemmaID[p[0]]
		b, okB := lemmaID[p[1]]
		if okA && okB && a != b {
			ants = append(ants, [2]int{a, b})
		}
	}
	slices.SortFunc(ants, func(x, y [2]int) int {
		if x[0] != y[0] {
			return x[0] - y[0]
		}
		return x[1] - y[1]
	})
	buf = binary.AppendUvarint(buf, uint64(len(ants)))
	for _, a := range ants {
		buf = binary.AppendUvarint(buf, uint64(a[0]))
		buf = binary.AppendUvarint(buf, uint64(a[1]))
	}
	exc := map[string]string{}
	for _, p := range poses {
		err := eachLine(filepath.Join(dir, p.name+".exc"), func(f []string) error {
			if len(f) < 2 {
				return nil
			}
			infl, base := strings.ToLower(f[0]), strings.ToLower(f[1])
			if _, ok := lemmaID[base]; ok && !strings.Contains(infl, "_") {
				if _, dup := exc[infl]; !dup {
					exc[infl] = base
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	excKeys := make([]string, 0, len(exc))
	for k := range exc {
		excKeys = append(excKeys, k)
	}
	slices.Sort(excKeys)
	buf = binary.AppendUvarint(buf, uint64(len(excKeys)))
	for _, k := range excKeys {
		putStr(k)
		putStr(exc[k])
	}

	// Places: for each kept place synset, the kept places it lies within,
	// up to maxWholeDepth steps ("Liverpool" in England, the United
	// Kingdom, Europe). The closure is taken over every synset, so that a
	// whole that no kept lemma names ("British Isles") still links its
	// parts to the wholes above it.
	var placed []int
	wholesOf := map[int][]synKey{}
	for _, k := range keys {
		var all []synKey
		frontier := syns[k].wholes
		for range maxWholeDepth {
			var next []synKey
			for _, w := range frontier {
				if s := syns[w]; s != nil && !slices.Contains(all, w) && w != k {
					all = append(all, w)
					next = append(next, s.wholes...)
				}
			}
			frontier = next
		}
		if len(all) > 0 {
			wholesOf[id[k]] = all
			placed = append(placed, id[k])
		}
	}
	buf = binary.AppendUvarint(buf, uint64(len(placed)))
	prev := 0
	for _, i := range placed {
		buf = binary.AppendUvarint(buf, uint64(i-prev))
		prev = i
		putIDs(wholesOf[i])
	}

	// Adjectives of places: for each kept adjective synset that pertains
	// to kept places, those places ("English" to England, "Polish" to
	// Poland).
	putLists(func(k synKey) []synKey { return syns[k].pertains })

	// The place each lemma names first: its commonest noun sense when
	// that is a place, else the place its commonest adjective sense is
	// of, among the places above ("American" is first of the United
	// States, then of the Americas; "Canadian", a person, then the
	// Canadian River, is first of Canada). The lists above are sorted by
	// id, which loses WordNet's order of senses.
	isPlace := map[int]bool{}
	for i, ws := range wholesOf {
		isPlace[i] = true
		for _, w := range ws {
			if j, ok := id[w]; ok {
				isPlace[j] = true
			}
		}
	}
	type firstPlace struct{ lemma, place int }
	var firsts []firstPlace
	// A noun whose senses are all untagged, and that names no place
	// that way, is first of the first place among its senses that it
	// names with a capital ("Ottawa", the capital, after the people and
	// the river; not "fracture", a zone of the sea floor) when its
	// places agree:
	// one of them lies within every whole the others lie within (the
	// river and the capital, both in Canada; not "Vancouver", a city in
	// Washington and one in British Columbia).
	nested := func(ps []int) bool {
		for _, p := range ps {
			all := true
			for _, q := range ps {
				for _, w := range wholesOf[q] {
					if !slices.Contains(wholesOf[p], w) {
						all = false
					}
				}
			}
			if all {
				return true
			}
		}
		return false
	}
	for i, l := range lemmas {
		var seen []byte
		found := false
	senses:
		for _, k := range senses[l] {
			if slices.Contains(seen, k.pos) {
				continue
			}
			seen = append(seen, k.pos)
			for _, c := range append([]synKey{k}, syns[k].pertains...) {
				if j, ok := id[c]; ok && isPlace[j] {
					firsts = append(firsts, firstPlace{i, j})
					found = true
					break senses
				}
			}
		}
		if found || !untagged[l] {
			continue
		}
		var places []int
		for _, k := range senses[l] {
			s := syns[k]
			if j, ok := id[k]; ok && k.pos == 'n' && isPlace[j] && s != nil {
				if at := slices.Index(s.words, l); at >= 0 && s.capital[at] {
					places = append(places, j)
				}
			}
		}
		if len(places) > 0 && nested(places) {
			firsts = append(firsts, firstPlace{i, places[0]})
		}
	}
	buf = binary.AppendUvarint(buf, uint64(len(firsts)))
	prev = 0
	for _, f := range firsts {
		buf = binary.AppendUvarint(buf, uint64(f.lemma-prev))
		buf = binary.AppendUvarint(buf, uint64(f.place))
		prev = f.lemma
	}

	// Names: the single-word lemmas WordNet writes with a capital in
	// every kept sense ("picasso", "edison"; not "apple", also the
	// fruit, nor "china", also porcelain), so that a name that opens a
	// sentence, where its capital says nothing, can still be told from
	// a common word.
	var names []int
	for i, l := range lemmas {
		if strings.Contains(l, "_") {
			continue
		}
		name := len(senses[l]) > 0
		for _, k := range senses[l] {
			s := syns[k]
			at := -1
			if s != nil {
				at = slices.Index(s.words, l)
			}
			if at < 0 || !s.capital[at] {
				name = false
				break
			}
		}
		if name {
			names = append(names, i)
		}
	}
	buf = binary.AppendUvarint(buf, uint64(len(names)))
	prev = 0
	for _, i := range names {
		buf = binary.AppendUvarint(buf, uint64(i-prev))
		prev = i
	}

	// Heads: for each kept adjective satellite, the kept heads of its
	// cluster ("poisonous" is similar to "toxic", "freezing" to "cold"),
	// which the judge reads as more general words than the satellite.
	putLists(func(k synKey) []synKey {
		if !syns[k].satellite {
			return nil
		}
		return syns[k].similar
	})

	// Nouns of adjectives: for each kept adjective synset, the kept nouns
	// it pertains to or is derived with ("dramatic" to drama, "tragic" to
	// tragedy), which the judge reads as the adjective's synonyms.
	putLists(func(k synKey) []synKey { return syns[k].nouns })

	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(buf); err != nil {
		return err
	}
	return zw.Close()
}

// eachLine calls fn with the fields of every line of path that does not
// start with a space (WordNet's licence header).
func eachLine(path string, fn func([]string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("wordnet: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || line[0] == ' ' {
			continue
		}
		if err := fn(strings.Fields(line)); err != nil {
			return fmt.Errorf("%s line %d: %w", path, n, err)
		}
	}
	return sc.Err()
}
