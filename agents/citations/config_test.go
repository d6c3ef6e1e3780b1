package citations

import (
	"testing"

	"github.com/verity-fc/verity/internal/configtest"
	"github.com/verity-fc/verity/scoring"
)

func TestConfigValidate(t *testing.T) {
	configtest.Validate(t, DefaultConfig, []configtest.Case[Config]{
		{Name: "defaults", Edit: func(*Config) {}, Want: ""},
		{Name: "entail above 1", Edit: func(c *Config) { c.VerifyEntail = 1.2 }, Want: "VerifyEntail"},
		{Name: "overlap zero", Edit: func(c *Config) { c.MinOverlap = 0 }, Want: "MinOverlap"},
		{Name: "no parallelism", Edit: func(c *Config) { c.Parallel = 0 }, Want: "Parallel"},
	})
}

// TestThresholdsFromScoring checks that the checker's thresholds are the
// scoring layer's, by default and when configured.
func TestThresholdsFromScoring(t *testing.T) {
	sc := scoring.DefaultConfig()
	d := DefaultConfig()
	if d.VerifyEntail != sc.AgreeEntail || d.ContradictMin != sc.RefutedCMax {
		t.Errorf("defaults VerifyEntail %v, ContradictMin %v; want scoring's agree_entail %v and refuted_c_max %v",
			d.VerifyEntail, d.ContradictMin, sc.AgreeEntail, sc.RefutedCMax)
	}
	sc.AgreeEntail, sc.RefutedCMax = 0.55, 0.8
	c := Config{}.WithScoring(sc).withDefaults()
	if c.VerifyEntail != 0.55 || c.ContradictMin != 0.8 {
		t.Errorf("WithScoring: VerifyEntail %v, ContradictMin %v; want 0.55 and 0.8", c.VerifyEntail, c.ContradictMin)
	}
	if d.MaxDocumentBytes != DefaultMaxDocumentBytes {
		t.Errorf("MaxDocumentBytes default %d, want %d", d.MaxDocumentBytes, DefaultMaxDocumentBytes)
	}
}
