package jobs

import (
	"testing"
	"time"

	"github.com/verity-fc/verity/internal/configtest"
)

func TestRiverConfigValidate(t *testing.T) {
	configtest.Validate(t, DefaultRiverConfig, []configtest.Case[RiverConfig]{
		{Name: "defaults", Edit: func(*RiverConfig) {}, Want: ""},
		{Name: "no workers", Edit: func(c *RiverConfig) { c.Workers = 0 }, Want: "jobs.workers"},
		{Name: "too many attempts", Edit: func(c *RiverConfig) { c.MaxAttempts = 101 }, Want: "jobs.max_attempts"},
		{Name: "no timeout", Edit: func(c *RiverConfig) { c.JobTimeout = 0 }, Want: "jobs.timeout"},
	})
	if d := DefaultRiverConfig(); d.Workers != 1 || d.MaxAttempts != 5 || d.JobTimeout != time.Hour {
		t.Errorf("DefaultRiverConfig() = %+v, want the documented 1 worker, 5 attempts, 1 h", d)
	}
}
