package verify

import (
	"strings"
	"testing"
)

func TestLimitsValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Limits)
		want string // "" for valid
	}{
		{"defaults", func(*Limits) {}, ""},
		{"two citations", func(l *Limits) { l.MaxCitations = 2 }, ""},
		{"gates off", func(l *Limits) { l.MinAbout, l.NearCopy = -1, -1 }, ""},
		{"no claim chars", func(l *Limits) { l.MaxClaimChars = 0 }, "verify.max_claim_chars"},
		{"no domains", func(l *Limits) { l.MaxDomains = 0 }, "verify.max_domains"},
		{"four citations", func(l *Limits) { l.MaxCitations = 4 }, "verify.citations"},
		{"min_about above 1", func(l *Limits) { l.MinAbout = 1.5 }, "verify.min_about"},
		{"credible negative", func(l *Limits) { l.Credible = -0.1 }, "verify.credible"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := DefaultLimits()
			tt.edit(&l)
			err := l.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Validate() = %v, want nil", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("Validate() = %v, want an error naming %s", err, tt.want)
			}
		})
	}
	if d := DefaultLimits(); d.MaxClaimChars != 1000 || d.MaxCitations != 3 || d.MinAbout != DefaultMinAbout {
		t.Errorf("DefaultLimits() = %+v, want the documented defaults", d)
	}
}
