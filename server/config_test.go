package server

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
		{"rate limit off", func(c *Config) { c.RateLimit, c.RateBurst = 0, 0 }, ""},
		{"no body", func(c *Config) { c.MaxBodyBytes = 0 }, "server.max_body_bytes"},
		{"negative rate", func(c *Config) { c.RateLimit = -1 }, "server.rate_limit"},
		{"no heavy requests", func(c *Config) { c.MaxHeavy = 0 }, "server.max_heavy"},
		{"no connections", func(c *Config) { c.MaxConns = 0 }, "server.max_connections"},
		{"no read timeout", func(c *Config) { c.ReadTimeout = 0 }, "server.read_timeout"},
		{"negative heartbeat", func(c *Config) { c.StreamHeartbeat = -time.Second }, "server.stream_heartbeat"},
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
	// The zero Config works: its defaults are DefaultConfig's but for the
	// rate limit, which the zero value leaves off.
	z, d := Config{}.withDefaults(), DefaultConfig()
	if z.MaxBodyBytes != d.MaxBodyBytes || z.MaxHeavy != d.MaxHeavy || z.MaxConns != d.MaxConns || z.RateLimit != 0 || d.RateLimit != 20 {
		t.Errorf("zero Config's defaults %+v disagree with DefaultConfig %+v", z, d)
	}
}
