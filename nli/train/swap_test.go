package train

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSwaps(t *testing.T) {
	long := strings.Repeat("word ", maxSwapWords+1)
	exs := []Example{
		{Set: SetSNLI, Claim: "A man is running.", Passage: "A man is sleeping.", Target: tContradict, Group: "g1", Split: SplitTrain},
		{Set: SetSNLI, Claim: "A man is resting.", Passage: "A man is sleeping.", Target: tEntail, Group: "g1", Split: SplitTrain},
		{Set: SetSNLI, Claim: "A dog barks.", Passage: "A cat sleeps.", Target: tContradict, Group: "g2", Split: SplitCalib},
		{Set: SetFEVER, Claim: "Paris is in Spain.", Passage: "Paris is the capital of France.", Target: tContradict, Group: "g3", Split: SplitTrain},
		{Set: "mnli_dev", Claim: "It rained.", Passage: long, Target: tContradict, Group: "g4", Split: SplitTrain},
	}
	want := []Example{
		{Set: SetSwapped, Claim: "A man is sleeping.", Passage: "A man is running.", Target: tContradict, Group: "g1", Split: SplitTrain},
	}
	if diff := cmp.Diff(want, Swaps(exs)); diff != "" {
		t.Errorf("Swaps (-want +got):\n%s", diff)
	}
}
