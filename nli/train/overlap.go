package train

import (
	"os"
	"path/filepath"
	"strings"
)

// TrainedClaims returns the claims of the pairs the built-in model trains
// on when trained with `verity train nli` on dir and seed: those of the
// training split (by the group-hash rule of splitOf) of every set that
// weighs in the loss. Keys are normalized with NormalizeClaim. Evaluating
// on these claims overstates accuracy on claims the model has not seen.
func TrainedClaims(dir string, seed int64) (map[string]bool, error) {
	// The base sets without their generated neutral pairs, which pair the
	// FEVER claims (all of them, NOT_ENOUGH_INFO too) with other passages
	// in the claim's own split: those claims are added from fever.
	sets, fever, _, err := loadSets(dir, seed, false, false)
	if err != nil {
		return nil, err
	}
	weights := setWeights()
	out := map[string]bool{}
	for name, splits := range sets {
		if w, ok := weights[name]; ok && w == 0 {
			continue
		}
		for _, p := range splits[SplitTrain] {
			out[NormalizeClaim(p.Claim)] = true
		}
	}
	if weights[SetSamePage] > 0 || weights[SetRandom] > 0 {
		for _, c := range fever {
			if c.s == SplitTrain {
				out[NormalizeClaim(c.claim)] = true
			}
		}
	}
	trainDir := filepath.Join(dir, "train")
	if st, err := os.Stat(trainDir); err != nil || !st.IsDir() {
		return out, nil
	}
	exs, err := loadExtras(trainDir, seed, false)
	if err != nil {
		return nil, err
	}
	for _, e := range exs {
		if e.Split == SplitTrain && weights[e.Set] > 0 {
			out[NormalizeClaim(e.Claim)] = true
		}
	}
	return out, nil
}

// NormalizeClaim folds case and white space, so that a claim matches
// itself across files.
func NormalizeClaim(claim string) string {
	return strings.ToLower(strings.Join(strings.Fields(claim), " "))
}

// setWeights maps each set to its weight in the loss: BaseWeights and the
// ExtraFiles' weights. A set it does not name weighs 1.
func setWeights() map[string]float64 {
	weights := map[string]float64{}
	for k, v := range BaseWeights {
		weights[k] = v
	}
	for _, f := range ExtraFiles {
		weights[f.Name] = f.Weight
	}
	weights[SetNegated] = negatedWeight
	weights[SetSwapped] = swappedWeight
	return weights
}
