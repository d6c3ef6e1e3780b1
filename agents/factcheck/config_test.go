package factcheck

import (
	"strings"
	"testing"
	"time"
)

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Config)
		want string // "" for valid
	}{
		{"defaults", func(*Config) {}, ""},
		{"content too short", func(c *Config) { c.MaxContentLength = MinContentLength - 1 }, "factcheck.max_content_length"},
		{"stage timeout too long", func(c *Config) { c.StageTimeout = time.Hour }, "factcheck.stage_timeout"},
		{"global under stage", func(c *Config) { c.GlobalTimeout = time.Minute }, "factcheck.global_timeout"},
		{"no checkers in parallel", func(c *Config) { c.MaxParallelCheckers = 0 }, "factcheck.max_parallel_checkers"},
		{"no claims", func(c *Config) { c.MaxClaims = 0 }, "factcheck.max_claims"},
		{"negative tokens", func(c *Config) { c.MaxTokens = -1 }, "factcheck.max_tokens"},
		{"five checkers", func(c *Config) { c.CheckerModels = []string{"a", "b", "c", "d", "e"} }, "models.checkers"},
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
