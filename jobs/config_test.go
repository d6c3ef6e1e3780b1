package jobs

import (
	"strings"
	"testing"
	"time"
)

func TestRiverConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*RiverConfig)
		want string // "" for valid
	}{
		{"defaults", func(*RiverConfig) {}, ""},
		{"no workers", func(c *RiverConfig) { c.Workers = 0 }, "jobs.workers"},
		{"too many attempts", func(c *RiverConfig) { c.MaxAttempts = 101 }, "jobs.max_attempts"},
		{"no timeout", func(c *RiverConfig) { c.JobTimeout = 0 }, "jobs.timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultRiverConfig()
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
	if d := DefaultRiverConfig(); d.Workers != 1 || d.MaxAttempts != 5 || d.JobTimeout != time.Hour {
		t.Errorf("DefaultRiverConfig() = %+v, want the documented 1 worker, 5 attempts, 1 h", d)
	}
}
