package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/verity-fc/verity/evidence"
)

func TestLoadCalibration(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"features": ["e_max"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, off := range []string{"", "off"} {
		if c, err := loadCalibration(off); err != nil || c != nil {
			t.Errorf("loadCalibration(%q) = %v, %v; want nil, nil (fixed sigmoid)", off, c, err)
		}
	}
	c, err := loadCalibration("builtin")
	if err != nil || c == nil {
		t.Fatalf("loadCalibration(builtin) = %v, %v", c, err)
	}
	if p := c.Probability(evidence.Features{EMax: 0.95, EMean3: 0.6, AgreeDom: 2, RelAvg: 0.5, RecMax: 0.5, NumOK: 1}); p <= 0.5 {
		t.Errorf("built-in calibration gives strong support p = %.2f, want > 0.5", p)
	}
	for _, path := range []string{bad, filepath.Join(dir, "missing.json")} {
		if _, err := loadCalibration(path); err == nil || !strings.Contains(err.Error(), "scoring.calibration") {
			t.Errorf("loadCalibration(%s) error = %v, want one naming scoring.calibration", path, err)
		}
	}
}
