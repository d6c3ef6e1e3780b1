package server

import (
	"testing"
	"time"

	"github.com/verity-fc/verity/internal/configtest"
)

func TestConfigValidate(t *testing.T) {
	configtest.Validate(t, DefaultConfig, []configtest.Case[Config]{
		{Name: "defaults", Edit: func(*Config) {}, Want: ""},
		{Name: "rate limit off", Edit: func(c *Config) { c.RateLimit, c.RateBurst = 0, 0 }, Want: ""},
		{Name: "no body", Edit: func(c *Config) { c.MaxBodyBytes = 0 }, Want: "server.max_body_bytes"},
		{Name: "negative rate", Edit: func(c *Config) { c.RateLimit = -1 }, Want: "server.rate_limit"},
		{Name: "no heavy requests", Edit: func(c *Config) { c.MaxHeavy = 0 }, Want: "server.max_heavy"},
		{Name: "no connections", Edit: func(c *Config) { c.MaxConns = 0 }, Want: "server.max_connections"},
		{Name: "no read timeout", Edit: func(c *Config) { c.ReadTimeout = 0 }, Want: "server.read_timeout"},
		{Name: "negative heartbeat", Edit: func(c *Config) { c.StreamHeartbeat = -time.Second }, Want: "server.stream_heartbeat"},
	})
	// The zero Config works: its defaults are DefaultConfig's but for the
	// rate limit, which the zero value leaves off.
	z, d := Config{}.withDefaults(), DefaultConfig()
	if z.MaxBodyBytes != d.MaxBodyBytes || z.MaxHeavy != d.MaxHeavy || z.MaxConns != d.MaxConns || z.RateLimit != 0 || d.RateLimit != 20 {
		t.Errorf("zero Config's defaults %+v disagree with DefaultConfig %+v", z, d)
	}
}
