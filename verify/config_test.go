package verify

import (
	"testing"

	"github.com/verity-fc/verity/internal/configtest"
)

func TestLimitsValidate(t *testing.T) {
	configtest.Validate(t, DefaultLimits, []configtest.Case[Limits]{
		{Name: "defaults", Edit: func(*Limits) {}, Want: ""},
		{Name: "two citations", Edit: func(l *Limits) { l.MaxCitations = 2 }, Want: ""},
		{Name: "gates off", Edit: func(l *Limits) { l.MinAbout, l.NearCopy = -1, -1 }, Want: ""},
		{Name: "no claim chars", Edit: func(l *Limits) { l.MaxClaimChars = 0 }, Want: "verify.max_claim_chars"},
		{Name: "no domains", Edit: func(l *Limits) { l.MaxDomains = 0 }, Want: "verify.max_domains"},
		{Name: "four citations", Edit: func(l *Limits) { l.MaxCitations = 4 }, Want: "verify.citations"},
		{Name: "min_about above 1", Edit: func(l *Limits) { l.MinAbout = 1.5 }, Want: "verify.min_about"},
		{Name: "credible negative", Edit: func(l *Limits) { l.Credible = -0.1 }, Want: "verify.credible"},
	})
	if d := DefaultLimits(); d.MaxClaimChars != 1000 || d.MaxCitations != 3 || d.MinAbout != DefaultMinAbout {
		t.Errorf("DefaultLimits() = %+v, want the documented defaults", d)
	}
}
