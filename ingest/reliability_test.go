package ingest

import (
	"math"
	"strings"
	"testing"
)

func TestReliabilityTable(t *testing.T) {
	table, err := NewReliabilityTable(map[string]float64{
		"example.org":    0.2,
		".mil":           0.6,
		"WWW.Trusted.IO": 0.99,
		"nasa.gov":       0.97,
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		domain string
		want   float64
	}{
		{"nasa.gov", 0.97},
		{"www.jpl.nasa.gov", 0.97},
		{"usa.gov", 0.9},
		{"notgov.com", DefaultReliability},
		{"cs.stanford.edu", 0.85},
		{"www.bbc.co.uk", 0.8},
		{"gov.uk", 0.9},
		{"army.mil", 0.6},
		{"trusted.io", 0.99},
		{"sub.example.org", 0.2},
		{"EXAMPLE.ORG.", 0.2},
		{"medium.com", 0.4},
		{"", DefaultReliability},
		{"localhost", DefaultReliability},
	}
	for _, tt := range tests {
		t.Run(tt.domain, func(t *testing.T) {
			if got := table.Lookup(tt.domain); got != tt.want {
				t.Errorf("Lookup(%q) = %g, want %g", tt.domain, got, tt.want)
			}
		})
	}
}

func TestReliabilityDefault(t *testing.T) {
	var nilTable *ReliabilityTable
	if got := nilTable.Lookup("nasa.gov"); got != DefaultReliability {
		t.Errorf("nil table Lookup = %g, want %g", got, DefaultReliability)
	}
	table, err := NewReliabilityTable(map[string]float64{"*": 0.3})
	if err != nil {
		t.Fatal(err)
	}
	if got := table.Lookup("unknown.example"); got != 0.3 {
		t.Errorf("Lookup with * override = %g, want 0.3", got)
	}
	if got := table.Lookup("nasa.gov"); got != 0.95 {
		t.Errorf("built-in entry = %g, want 0.95", got)
	}
}

func TestReliabilityTableErrors(t *testing.T) {
	tests := []struct {
		name      string
		overrides map[string]float64
	}{
		{"above one", map[string]float64{"a.com": 1.5}},
		{"negative", map[string]float64{"a.com": -0.1}},
		{"NaN", map[string]float64{"a.com": math.NaN()}},
		{"empty key", map[string]float64{" . ": 0.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewReliabilityTable(tt.overrides)
			if err == nil {
				t.Fatalf("NewReliabilityTable(%v) succeeded, want an error", tt.overrides)
			}
			// The error names the key as verity's configuration spells it.
			if !strings.Contains(err.Error(), "ingest.reliability") {
				t.Errorf("NewReliabilityTable(%v) = %v, want it to name ingest.reliability", tt.overrides, err)
			}
		})
	}
}
