package retention

import (
	"testing"
	"time"

	"github.com/verity-fc/verity/internal/configtest"
)

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Errorf("defaults: %v", err)
	}
	for _, c := range []Config{{Days: -1}, {UploadDays: -1}, {MaxJobs: -1}} {
		if err := c.Validate(); err == nil {
			t.Errorf("Validate(%+v) = nil, want an error", c)
		}
	}
	configtest.Validate(t, DefaultConfig, []configtest.Case[Config]{
		{Name: "defaults"},
		{Name: "only at start", Edit: func(c *Config) { c.Interval = 0 }},
		{Name: "negative interval", Edit: func(c *Config) { c.Interval = -time.Second }, Want: "retention.interval"},
		{Name: "negative days", Edit: func(c *Config) { c.Days = -1 }, Want: "retention.days"},
	})
	if d := DefaultConfig(); d.Days != 30 || d.MaxJobs != 10000 || d.UploadDays != 0 || d.Interval != time.Hour {
		t.Errorf("DefaultConfig() = %+v", d)
	}
}
