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

func TestConfigValidate(t *testing.T) {
	configtest.Validate(t, DefaultConfig, []configtest.Case[Config]{
		{Name: "defaults"},
		{Name: "most workers", Edit: func(c *Config) { c.Workers = MaxWorkers }},
		{Name: "no workers", Edit: func(c *Config) { c.Workers = 0 }, Want: "jobs.workers"},
		{Name: "too many workers", Edit: func(c *Config) { c.Workers = MaxWorkers + 1 }, Want: "jobs.workers"},
		{Name: "no sources", Edit: func(c *Config) { c.MaxSources = 0 }, Want: "MaxSources"},
		{Name: "no queue", Edit: func(c *Config) { c.QueueSize = 0 }, Want: "QueueSize"},
		{Name: "no progress", Edit: func(c *Config) { c.ProgressEvery = 0 }, Want: "ProgressEvery"},
	})
	if d := DefaultConfig(); d.Workers != 1 || d.MaxSources != 1000 || d.QueueSize != 100 || d.ProgressEvery != 250*time.Millisecond {
		t.Errorf("DefaultConfig() = %+v, want the documented 1 worker, 1,000 sources, 100 queued, 250 ms", d)
	}
	if DefaultConfig().Workers != DefaultRiverConfig().Workers {
		t.Error("the local and River runners default to different jobs.workers")
	}
}
