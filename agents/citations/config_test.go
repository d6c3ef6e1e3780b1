package citations

import (
	"strings"
	"testing"

	"github.com/verity-fc/verity/scoring"
)

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Config)
		want string // "" for valid
	}{
		{"defaults", func(*Config) {}, ""},
		{"entail above 1", func(c *Config) { c.VerifyEntail = 1.2 }, "VerifyEntail"},
		{"overlap zero", func(c *Config) { c.MinOverlap = 0 }, "MinOverlap"},
		{"no parallelism", func(c *Config) { c.Parallel = 0 }, "Parallel"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultConfig()
			tt.edit(&c)
			err := c.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Validate() = %v, want nil", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("Validate() = %v, want an error naming %s", err, tt.want)
			}
		})
	}
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
