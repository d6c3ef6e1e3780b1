package factcheck

import (
	"testing"
	"time"

	"github.com/verity-fc/verity/internal/configtest"
)

func TestConfigValidate(t *testing.T) {
	configtest.Validate(t, DefaultConfig, []configtest.Case[Config]{
		{Name: "defaults", Edit: func(*Config) {}, Want: ""},
		{Name: "content too short", Edit: func(c *Config) { c.MaxContentLength = MinContentLength - 1 }, Want: "factcheck.max_content_length"},
		{Name: "stage timeout too long", Edit: func(c *Config) { c.StageTimeout = time.Hour }, Want: "factcheck.stage_timeout"},
		{Name: "global under stage", Edit: func(c *Config) { c.GlobalTimeout = time.Minute }, Want: "factcheck.global_timeout"},
		{Name: "no checkers in parallel", Edit: func(c *Config) { c.MaxParallelCheckers = 0 }, Want: "factcheck.max_parallel_checkers"},
		{Name: "no claims", Edit: func(c *Config) { c.MaxClaims = 0 }, Want: "factcheck.max_claims"},
		{Name: "negative tokens", Edit: func(c *Config) { c.MaxTokens = -1 }, Want: "factcheck.max_tokens"},
		{Name: "five checkers", Edit: func(c *Config) { c.CheckerModels = []string{"a", "b", "c", "d", "e"} }, Want: "models.checkers"},
	})
}
