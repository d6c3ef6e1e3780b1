package ingest

import (
	"strings"
	"testing"
)

func TestFetchConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*FetchConfig)
		want string // "" for valid
	}{
		{"defaults", func(*FetchConfig) {}, ""},
		{"no timeout", func(c *FetchConfig) { c.Timeout = 0 }, "fetch.timeout"},
		{"no concurrency", func(c *FetchConfig) { c.MaxConcurrent = 0 }, "fetch.max_concurrent"},
		{"budget under one body", func(c *FetchConfig) { c.MaxBytesInFlight = c.MaxBytes - 1 }, "fetch.max_bytes_in_flight"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultFetchConfig()
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
	if err := DefaultConfig().Validate(); err != nil {
		t.Errorf("DefaultConfig: %v", err)
	}
	for _, w := range []int{0, 65} {
		if err := (Config{Workers: w}).Validate(); err == nil || !strings.Contains(err.Error(), "ingest.workers") {
			t.Errorf("Workers %d: %v, want an error naming ingest.workers", w, err)
		}
	}
}
