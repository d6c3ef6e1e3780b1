package nli

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// syntheticPairs makes n templated pairs: entailed (the passage restates
// the claim with more detail), contradicted (negated or with another
// figure) and neutral (about another subject).
func syntheticPairs(n int, seed uint64) []Weighted {
	rng := rand.New(rand.NewPCG(seed, 1))
	people := []string{"Anna Berg", "Carlos Diaz", "Mei Tanaka", "Olu Ade", "Ivan Petrov", "Sara Cohen", "Liam Byrne", "Noor Khan"}
	things := []string{"a novel", "a bridge", "a symphony", "a company", "a film", "a school", "a museum", "a ship"}
	verbs := []string{"wrote", "built", "composed", "founded", "directed", "opened", "designed", "launched"}
	out := make([]Weighted, 0, n)
	for i := range n {
		p, th, v := people[rng.IntN(len(people))], things[rng.IntN(len(things))], verbs[rng.IntN(len(verbs))]
		year := 1900 + rng.IntN(120)
		passage := fmt.Sprintf("In %d, %s %s %s that became well known in the region.", year, p, v, th)
		var claim string
		var l Label
		switch i % 3 {
		case 0:
			claim, l = fmt.Sprintf("%s %s %s in %d.", p, v, th, year), Entail
		case 1:
			l = Contradict
			if rng.IntN(2) == 0 {
				claim = fmt.Sprintf("%s never %s %s.", p, v, th)
			} else {
				claim = fmt.Sprintf("%s %s %s in %d.", p, v, th, year+1+rng.IntN(30))
			}
		default:
			q := people[rng.IntN(len(people))]
			for q == p {
				q = people[rng.IntN(len(people))]
			}
			claim, l = fmt.Sprintf("%s studied music in Vienna.", q), Neutral
		}
		out = append(out, Weighted{Pair{Claim: claim, Passage: passage, Label: l, Group: fmt.Sprint(i)}, 1})
	}
	return out
}

func TestTrainPairsLearns(t *testing.T) {
	train, held := syntheticPairs(300, 1), syntheticPairs(90, 2)
	cfg := TrainConfig{Hidden: 8, RelHidden: 4, Members: 2, Epochs: 15, Seed: 3}
	m, err := TrainPairs(context.Background(), cfg, train[:240], train[240:], nil)
	if err != nil {
		t.Fatal(err)
	}
	sm, err := m.Evaluate(context.Background(), plain(held))
	if err != nil {
		t.Fatal(err)
	}
	if sm.Accuracy < 0.6 {
		t.Errorf("held-out accuracy %.3f, want well above chance (1/3)", sm.Accuracy)
	}
	if !(m.Temperature > 0) {
		t.Errorf("temperature %g, want > 0", m.Temperature)
	}

	// The same seed gives the same model, byte for byte.
	m2, err := TrainPairs(context.Background(), cfg, train[:240], train[240:], nil)
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := m.Save(&a); err != nil {
		t.Fatal(err)
	}
	if err := m2.Save(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two trainings with one seed differ")
	}
	if _, err := ReadModel(&a); err != nil {
		t.Errorf("trained model does not read back: %v", err)
	}
}

func TestTrainPairsErrors(t *testing.T) {
	if _, err := TrainPairs(context.Background(), TrainConfig{}, nil, nil, nil); err == nil {
		t.Error("no training pairs: want an error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := TrainPairs(ctx, TrainConfig{Epochs: 2}, syntheticPairs(30, 1), nil, nil); err == nil {
		t.Error("cancelled context: want an error")
	}
}

// writeData lays out a tiny labeled-data directory like ../shared/data.
func writeData(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string][]string{
		"fever/paper_dev.jsonl": {
			`{"id": 1, "claim": "Anna Berg wrote a novel.", "label": "SUPPORTS", "evidence": ["Anna Berg is a writer who wrote a novel in 1990 ."], "evidence_ids": [["Anna_Berg", 0]]}`,
			`{"id": 2, "claim": "Anna Berg never wrote.", "label": "REFUTES", "evidence": ["Anna Berg is a Swedish writer ."], "evidence_ids": [["Anna_Berg", 1]]}`,
			`{"id": 3, "claim": "Ivan Petrov is a painter.", "label": "SUPPORTS", "evidence": ["Ivan Petrov paints landscapes ."], "evidence_ids": [["Ivan_Petrov", 0]]}`,
			`{"id": 4, "claim": "Mei Tanaka is a chef.", "label": "NOT_ENOUGH_INFO", "evidence": []}`,
		},
		"vitaminc/real_a.jsonl": {
			`{"id": "a_1", "claim": "X has more than 5 members.", "evidence": ["X has 7 members ."], "label": "SUPPORTS", "page": "X band"}`,
			`{"id": "a_2", "claim": "X has more than 5 members.", "evidence": ["X has 3 members ."], "label": "REFUTES", "page": "X band"}`,
			`{"id": "b_1", "claim": "Y won in 2001.", "evidence": ["Y won the cup in 2001 ."], "label": "SUPPORTS", "page": "Y club"}`,
		},
		"vitaminc/synthetic.jsonl": {
			`{"id": "s_1", "claim": "Z is big.", "evidence": ["Z is small ."], "label": "REFUTES", "page": "Z"}`,
		},
		"snli/dev.jsonl": {
			`{"id": "d0", "claim": "A man sleeps.", "evidence": ["A man is running ."], "label": "REFUTES"}`,
			`{"id": "d1", "claim": "A man moves.", "evidence": ["A man is running ."], "label": "SUPPORTS"}`,
		},
		"snli/test.jsonl": {
			`{"id": "t0", "claim": "A dog sleeps.", "evidence": ["A dog is running ."], "label": "REFUTES"}`,
		},
		"scifact/train_claim_doc_pairs.jsonl": {
			`{"id": "0:1", "claim_id": 0, "claim": "Drug A lowers blood pressure.", "evidence": [], "label": "NOT_ENOUGH_INFO", "abstract": ["We study mice.", "Drug A was given daily.", "Heart rate fell.", "Blood pressure was not measured."]}`,
			`{"id": "1:2", "claim_id": 1, "claim": "Drug B cures flu.", "evidence": ["Drug B cured flu in 90% of patients."], "label": "SUPPORTS", "abstract": ["x"]}`,
		},
	}
	for name, lines := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadSets(t *testing.T) {
	sets, err := LoadSets(writeData(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	count := func(name string) int {
		s := sets[name]
		return len(s[SplitTrain]) + len(s[SplitCalib]) + len(s[SplitDev])
	}
	for name, want := range map[string]int{SetFEVER: 3, SetVitaminC: 3, SetVitaminSyn: 1, SetSNLI: 3, SetSciFact: 2} {
		if got := count(name); got != want {
			t.Errorf("%s: %d pairs, want %d", name, got, want)
		}
	}
	if got := sets[SetSNLI][SplitDev]; len(got) != 1 || got[0].Claim != "A dog sleeps." {
		t.Errorf("SNLI development = %v, want exactly the test file", got)
	}
	// Every group lies in one split only.
	where := map[string]Split{}
	for _, name := range sets.Names() {
		for s, pairs := range sets[name] {
			for _, p := range pairs {
				if prev, ok := where[p.Group]; ok && prev != Split(s) && name != SetSNLI {
					t.Errorf("group %q is in splits %d and %d", p.Group, prev, s)
				}
				where[p.Group] = Split(s)
			}
		}
	}
	// The SciFact neutral passage is the best-matching window of the abstract.
	for _, s := range sets[SetSciFact] {
		for _, p := range s {
			if p.Label == Neutral && p.Passage != "Heart rate fell. Blood pressure was not measured." {
				t.Errorf("SciFact neutral passage = %q", p.Passage)
			}
		}
	}
	if _, err := LoadSets(t.TempDir(), 1); err == nil {
		t.Error("empty directory: want an error naming the missing file")
	}
}
