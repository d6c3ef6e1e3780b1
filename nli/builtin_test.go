package nli

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/nli/align"
	"github.com/verity-fc/verity/sentences"
)

// shipped is the feature model, the judge the hand-written fixtures of
// this file were written for (the default judge, LoadBuiltin, is the
// aligning network).
func shipped(t testing.TB) *Builtin {
	t.Helper()
	b, err := LoadFeatureModel()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func judgeOne(t *testing.T, b *Builtin, claim, passage string) evidence.Judgment {
	t.Helper()
	js, err := b.Judge(context.Background(), claim, []string{passage})
	if err != nil {
		t.Fatal(err)
	}
	return js[0]
}

func top(j evidence.Judgment) Label {
	switch {
	case j.Entail >= j.Contradict && j.Entail >= j.Neutral:
		return Entail
	case j.Contradict >= j.Neutral:
		return Contradict
	}
	return Neutral
}

// TestShippedBehaviour pins what the seeds call out on hand-written pairs
// that are in no training set.
func TestShippedBehaviour(t *testing.T) {
	b := shipped(t)
	const eiffel = "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France."
	tests := []struct {
		name, claim, passage string
		want                 Label
	}{
		{"paraphrase entails", "The Eiffel Tower is in Paris.", eiffel, Entail},
		{"negation contradicts", "The Eiffel Tower is not in Paris.", eiffel, Contradict},
		{"other city contradicts", "The Eiffel Tower is in Berlin.", eiffel, Contradict},
		{"same year entails", "The Golden Gate Bridge opened in 1937.", "The Golden Gate Bridge was opened to traffic in 1937.", Entail},
		{"other year contradicts", "The Golden Gate Bridge opened in 1945.", "The Golden Gate Bridge was opened to traffic in 1937.", Contradict},
		{"other figure contradicts", "The city has a population of 3.4 million.", "The city's population is 2.1 million people.", Contradict},
		{"all is not many", "All birds can fly.", "Many birds can fly.", Neutral},
		{"most is not some", "Most students passed the exam.", "Some students passed the exam.", Neutral},
		{"hedged passage settles nothing", "Coffee causes cancer.", "Studies suggest coffee may cause cancer.", Neutral},
		{"something else is neutral", "Barack Obama was born in Hawaii.", "The Amazon river flows through Brazil and Peru.", Neutral},
		{"another subject is neutral", "The bridge opened in 1937.", "Paris is the capital of France.", Neutral},
		// Contrastive evidence: one claim, two passages, two answers.
		{"bound met", "The channel has more than 25 million subscribers.", "The channel has 26 million subscribers across eight channels.", Entail},
		{"bound missed", "The channel has more than 25 million subscribers.", "The channel has 20 million subscribers across eight channels.", Contradict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := judgeOne(t, b, tt.claim, tt.passage)
			if got := top(j); got != tt.want {
				t.Errorf("judged %v (%+v), want %v", got, j, tt.want)
			}
			if s := j.Entail + j.Contradict + j.Neutral; s < 0.999 || s > 1.001 {
				t.Errorf("probabilities sum to %g", s)
			}
		})
	}
}

func TestShippedContrasts(t *testing.T) {
	b := shipped(t)
	tests := []struct {
		name             string
		weaker, stronger [2]string // (claim, passage): weaker should entail less
	}{
		{"quantifier", [2]string{"All birds can fly.", "Many birds can fly."}, [2]string{"Many birds can fly.", "All birds can fly."}},
		{"modality", [2]string{"Coffee causes cancer.", "Coffee may cause cancer."}, [2]string{"Coffee may cause cancer.", "Coffee causes cancer."}},
		{"bound", [2]string{"The company has more than 900 employees.", "The company employs 720 people."}, [2]string{"The company has more than 500 employees.", "The company employs 720 people."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := judgeOne(t, b, tt.weaker[0], tt.weaker[1])
			s := judgeOne(t, b, tt.stronger[0], tt.stronger[1])
			if w.Entail >= s.Entail {
				t.Errorf("entail %q|%q = %.2f, want below %q|%q = %.2f", tt.weaker[0], tt.weaker[1], w.Entail, tt.stronger[0], tt.stronger[1], s.Entail)
			}
		})
	}
}

func TestBuiltinJudge(t *testing.T) {
	b := shipped(t)
	ctx := context.Background()
	ps := []string{"Paris is the capital of France.", "", "Bananas are yellow."}
	first, err := b.Judge(ctx, "Paris is the capital of France.", ps)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != len(ps) {
		t.Fatalf("got %d judgments for %d passages", len(first), len(ps))
	}
	again, err := b.Judge(ctx, "Paris is the capital of France.", ps)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(first, again); diff != "" {
		t.Errorf("cached judgments differ (-first +again):\n%s", diff)
	}
	if b.cache.Len() != len(ps) {
		t.Errorf("cache holds %d entries, want %d", b.cache.Len(), len(ps))
	}
	if js, err := b.Judge(ctx, "claim", nil); err != nil || len(js) != 0 {
		t.Errorf("Judge(no passages) = %v, %v; want empty, nil", js, err)
	}
	if _, err := b.Judge(ctx, "", ps); err == nil {
		t.Error("Judge with an empty claim: want an error")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := b.Judge(cctx, "new claim", ps); !errors.Is(err, context.Canceled) {
		t.Errorf("Judge on a cancelled context = %v, want context.Canceled", err)
	}
}

func loadAligner(t testing.TB) *Aligner {
	t.Helper()
	a, err := loadShippedAligner()
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestSaveLoad(t *testing.T) {
	b := NewBuiltinJudge(loadAligner(t))
	var buf bytes.Buffer
	if err := loadAligner(t).Save(&buf); err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := loadAligner(t).Save(&again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), shippedAligner) {
		t.Error("a saved model differs from the file it was read from")
	}
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Error("two saves of one model differ")
	}
	b2, err := Load(&buf)
	if err != nil {
		t.Fatal(err)
	}
	claim, passage := "The tower is 300 metres tall.", "The tower is 330 metres tall."
	if diff := cmp.Diff(judgeOne(t, b, claim, passage), judgeOne(t, b2, claim, passage)); diff != "" {
		t.Errorf("reloaded model judges differently:\n%s", diff)
	}
}

// TestAlignerTunedWords: a network's tuned words reach the judge through
// the file's vocabulary. With a zero correction the judgments are the
// untuned network's; a correction of "tower" changes the pairs that
// contain it and no other.
func TestAlignerTunedWords(t *testing.T) {
	a := loadAligner(t)
	net := *a.Net
	net.Cfg.Words = 2
	net.P = append(slices.Clone(a.Net.P), make([]float64, 2*net.Cfg.D)...)
	plain := NewAligner([]*align.Model{a.Net}, EncoderOptions{}, false, nil)
	zero := saveAndRead(t, NewAligner([]*align.Model{&net}, EncoderOptions{Vocab: []string{"tower", "bridge"}}, false, nil))
	tower := [2]string{"The tower is 300 metres tall.", "The tower is 330 metres tall."}
	other := [2]string{"Exports rose by 8 percent in 2023.", "Exports fell 8 percent in 2023."}
	for _, p := range [][2]string{tower, other} {
		if got, want := zero.Predict(p[0], p[1]), plain.Predict(p[0], p[1]); got != want {
			t.Errorf("%q: zero corrections judge %+v, the untuned network %+v", p, got, want)
		}
	}
	for k := range net.Cfg.D {
		net.P[len(a.Net.P)+k] = 3 // "tower"'s row
	}
	moved := saveAndRead(t, NewAligner([]*align.Model{&net}, EncoderOptions{Vocab: []string{"tower", "bridge"}}, false, nil))
	if got, was := moved.Predict(tower[0], tower[1]), plain.Predict(tower[0], tower[1]); got == was {
		t.Errorf("a correction of \"tower\" left %q judged as before: %+v", tower, got)
	}
	if got, want := moved.Predict(other[0], other[1]), plain.Predict(other[0], other[1]); got != want {
		t.Errorf("a correction of \"tower\" changed a pair without it: %+v, was %+v", got, want)
	}
}

// TestReadAlignerMembers checks the ensemble's members on reading: each is
// validated and named in the error, and their number is bounded.
func TestReadAlignerMembers(t *testing.T) {
	a := loadAligner(t)
	save := func(members []*align.Model) string {
		b := NewAligner([]*align.Model{a.Net}, a.EncoderOptions, a.Rules, a.Info)
		b.Members = members
		var buf bytes.Buffer
		if err := b.Save(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	short := *a.Net
	short.P = short.P[:10]
	wide := &align.Model{Cfg: align.Config{Emb: 50, D: 4, H: 4}, Temperature: 1}
	wide.P = make([]float64, wide.Cfg.Size())
	tuned := &align.Model{Cfg: a.Net.Cfg, Temperature: 1}
	tuned.Cfg.Words = 3
	tuned.P = make([]float64, tuned.Cfg.Size())
	many := make([]*align.Model, maxMembers+1)
	for i := range many {
		many[i] = a.Net
	}
	tests := []struct {
		name    string
		members []*align.Model
		want    string
	}{
		{"short member", []*align.Model{a.Net, &short}, "ensemble member 2"},
		{"empty member", []*align.Model{nil}, "ensemble member 1 is empty"},
		{"too many", many, "at most"},
		{"other word vectors", []*align.Model{wide}, "network 2 reads 50-dimensional word vectors, the shipped ones have 100"},
		{"tuned words without their vocabulary", []*align.Model{tuned}, "network 2 tunes 3 words, the vocabulary has 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadAligner(strings.NewReader(save(tt.members)))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ReadAligner error = %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

func TestReadModelErrors(t *testing.T) {
	save := func(mut func(m *Model)) string {
		shippedFeatures, err := loadShipped()
		if err != nil {
			t.Fatal(err)
		}
		m := *shippedFeatures
		mut(&m)
		var buf bytes.Buffer
		if err := m.Save(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	tests := []struct{ name, in, want string }{
		{"not gzip", "hello", "not a gzip file"},
		{"other format", save(func(m *Model) { m.Format = 99 }), "format 99"},
		{"other features", save(func(m *Model) { m.Features = []string{"x"} }), "retrain"},
		{"short layer", save(func(m *Model) {
			n := *m.Nets[0]
			n.B1 = n.B1[:1]
			m.Nets = []*Net{&n}
		}), "layer 1"},
		{"no network", save(func(m *Model) { m.Nets = nil }), "no network"},
		{"bad temperature", save(func(m *Model) { m.Temperature = 0 }), "temperature"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadModel(strings.NewReader(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ReadModel error = %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

// BenchmarkJudge measures (claim, passage) judgments per second without
// the cache: each iteration judges a new claim against six passages.
func BenchmarkJudge(b *testing.B) { benchmarkJudge(b, shipped(b)) }

// BenchmarkJudgeAligner is BenchmarkJudge for the aligning network.
func BenchmarkJudgeAligner(b *testing.B) {
	j, err := LoadAligner()
	if err != nil {
		b.Fatal(err)
	}
	benchmarkJudge(b, j)
}

func benchmarkJudge(b *testing.B, j *Builtin) {
	passages := []string{
		"The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France. It is named after the engineer Gustave Eiffel, whose company designed and built the tower from 1887 to 1889.",
		"Locally nicknamed La dame de fer, it was constructed as the centrepiece of the 1889 World's Fair, and to crown the centennial anniversary of the French Revolution.",
		"The tower is 330 metres tall, about the same height as an 81-storey building, and the tallest structure in Paris.",
		"Its base is square, measuring 125 metres on each side. During its construction, the Eiffel Tower surpassed the Washington Monument.",
		"The tower received 5,889,000 visitors in 2022. It is the most visited monument with an entrance fee in the world.",
		"Due to the addition of a broadcasting aerial at the top of the tower in 1957, it is now taller than the Chrysler Building by 5.2 metres.",
	}
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		claim := "The Eiffel Tower was completed in 1889 and is 330 metres tall, claim " + strings.Repeat("x", i%7) + string(rune('a'+i%26))
		if _, err := j.Judge(ctx, claim, passages); err != nil {
			b.Fatal(err)
		}
		j.cache.Purge()
	}
	b.ReportMetric(float64(b.N*len(passages))/b.Elapsed().Seconds(), "judgments/s")
}

func BenchmarkLoadBuiltin(b *testing.B) {
	for range b.N {
		if _, err := ReadAligner(bytes.NewReader(shippedAligner)); err != nil {
			b.Fatal(err)
		}
	}
}

func TestFocus(t *testing.T) {
	const bridge = "The bridge opened to traffic in 1937."
	tests := []struct {
		name, claim, passage, want string
	}{
		{"best sentence of a paragraph", bridge,
			"The city lies on a bay. Fog is common in summer. The bridge opened to traffic in 1937. It was then the longest suspension span. Tourists visit all year.",
			"The bridge opened to traffic in 1937."},
		{"two sentences when they cover more", bridge,
			"Fog is common. The bridge opened in May. Traffic crossed it from 1937 on. Tourists visit all year.",
			"The bridge opened in May. Traffic crossed it from 1937 on."},
		{"the claim's figures count", "The ARPANET was decommissioned in 1990.",
			"On 1 January 1983 the ARPANET switched to the TCP/IP protocols. The ARPANET itself had carried its first message in October 1969. TCP/IP let separate networks exchange traffic. The ARPANET was formally shut down in 1990, after newer networks had taken over its role.",
			"The ARPANET was formally shut down in 1990, after newer networks had taken over its role."},
		{"two sentences apart when only they hold the whole claim", "Eleven workers died during the construction of the bridge.",
			"Construction of the bridge began in 1933. Workers spun two main cables. A safety net saved 19 men, but eleven workers died during construction. The span opened in 1937.",
			"Construction of the bridge began in 1933. A safety net saved 19 men, but eleven workers died during construction."},
		{"no sentences apart when they too lack a word of the claim", "Twelve workers died during the construction of the bridge.",
			"Construction of the bridge began in 1933. Workers spun two main cables. A safety net saved 19 men, but eleven workers died during construction. The span opened in 1937.",
			"A safety net saved 19 men, but eleven workers died during construction."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := focus(analyse(tt.claim), sentences.Texts(tt.passage)).raw; got != tt.want {
				t.Errorf("focus = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestJudgeParagraph(t *testing.T) {
	// The network alone: the ensemble mixes in the feature model after
	// the focus.
	m := loadAligner(t).WithOld(nil, 0)
	b := NewBuiltinJudge(m)
	const claim = "The Golden Gate Bridge opened in 1937."
	const sentence = "The Golden Gate Bridge was opened to traffic in 1937."
	short := "Fog is common. " + sentence
	para := "The city lies on a bay. Fog is common in summer, and many visitors do not expect it. " + sentence + " Tourists visit all year."
	c := analyse(claim)
	if diff := cmp.Diff(m.judge(c, analyse(short)), judgeOne(t, b, claim, short)); diff != "" {
		t.Errorf("a two-sentence passage is not judged whole:\n%s", diff)
	}
	// The focus has every content word of the claim: it is judged alone.
	if diff := cmp.Diff(m.judge(c, analyse(sentence)), judgeOne(t, b, claim, para)); diff != "" {
		t.Errorf("a paragraph whose focus has the whole claim is not judged on the focus alone:\n%s", diff)
	}
	if got := top(judgeOne(t, b, claim, para)); got != Entail {
		t.Errorf("paragraph stating the claim judged %v, want entail", got)
	}
	// The focus lacks "suspension": whole and focus are averaged.
	const partial = "The Golden Gate suspension bridge opened in 1937."
	cp := analyse(partial)
	whole, alone := m.judge(cp, analyse(para)), m.judge(cp, analyse(sentence))
	want := evidence.Judgment{
		Entail:     (whole.Entail + alone.Entail) / 2,
		Contradict: (whole.Contradict + alone.Contradict) / 2,
		Neutral:    (whole.Neutral + alone.Neutral) / 2,
	}
	if diff := cmp.Diff(want, judgeOne(t, b, partial, para)); diff != "" {
		t.Errorf("a paragraph whose focus lacks a word of the claim is not judged as the mean of whole and focus:\n%s", diff)
	}
}

func TestBearing(t *testing.T) {
	claim := analyse("Global wheat yields fell 8 percent in 2023.")
	const (
		yields     = "Global wheat yields rose 8 percent in 2023."
		fertiliser = "Fertiliser prices, which peaked in 2022, fell back over the year."
	)
	tests := []struct {
		name  string
		sents []string
		want  []string
	}{
		{"a direction word about something else is left out",
			[]string{yields, fertiliser}, []string{yields}},
		{"wherever it stands",
			[]string{"The report came out in March.", fertiliser, yields, "Rain was plentiful."},
			[]string{"The report came out in March.", yields, "Rain was plentiful."}},
		{"a sentence with no direction word stays",
			[]string{yields, "Fertiliser prices eased during the year."}, []string{yields, "Fertiliser prices eased during the year."}},
		{"a sentence sharing a word of the claim stays",
			[]string{yields, "Wheat prices fell back over the year."}, []string{yields, "Wheat prices fell back over the year."}},
		{"nothing is left out when no sentence holds half the claim",
			[]string{"Yields rose in 2023.", fertiliser}, []string{"Yields rose in 2023.", fertiliser}},
		{"one sentence stays", []string{fertiliser}, []string{fertiliser}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, bearing(claim, tt.sents)); diff != "" {
				t.Errorf("bearing (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFocusLeavesOutADirectionWordAboutSomethingElse(t *testing.T) {
	// The window of two covers the claim's "fell" only through the
	// sentence about ferry fares.
	claim := analyse("Traffic on the bridge fell in 1937.")
	passage := "Fog is common. Traffic on the bridge rose in 1937. Ferry fares fell that year. Tourists visit all year."
	if got, want := focus(claim, sentences.Texts(passage)).raw, "Traffic on the bridge rose in 1937."; got != want {
		t.Errorf("focus = %q, want %q", got, want)
	}
}
