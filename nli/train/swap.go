package train

import "strings"

// SetSwapped holds the contradictions Swaps makes.
const SetSwapped = "swapped"

// swappedWeight is the loss weight of a swapped pair: rule-made, so below
// the weight of a labelled pair.
const swappedWeight = 0.5

// swapSets are the sets whose contradictions are swapped: sentence pairs
// about one scene or statement, where a contradiction holds both ways
// ("A man is sleeping." against "A man is running." and back). Claim
// verification sets are left out: their passages state more than the
// claim, so a passage does not contradict a claim by being contradicted.
var swapSets = map[string]bool{SetSNLI: true, "cad_snli": true, "mnli_dev": true, "taxinli": true}

// maxSwapWords bounds the words of a passage that Swaps makes a claim.
const maxSwapWords = 40

// Swaps returns, for each training-split contradiction of swapSets whose
// passage has at most maxSwapWords words, the pair with claim and passage
// swapped, still a contradiction: the network compares claim and passage
// differently, and the data has each contradiction one way round only. A
// swapped pair keeps its original's group and is trained on only.
func Swaps(exs []Example) []Example {
	var out []Example
	for _, e := range exs {
		if e.Split != SplitTrain || e.Target != tContradict || !swapSets[e.Set] || len(strings.Fields(e.Passage)) > maxSwapWords {
			continue
		}
		out = append(out, Example{Set: SetSwapped, Claim: e.Passage, Passage: e.Claim, Target: tContradict, Group: e.Group, Split: SplitTrain})
	}
	return out
}
