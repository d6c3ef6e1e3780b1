package ingest

import (
	"strings"
	"testing"

	"github.com/verity-fc/verity/internal/configtest"
)

func TestFetchConfigValidate(t *testing.T) {
	configtest.Validate(t, DefaultFetchConfig, []configtest.Case[FetchConfig]{
		{Name: "defaults", Edit: func(*FetchConfig) {}, Want: ""},
		{Name: "no timeout", Edit: func(c *FetchConfig) { c.Timeout = 0 }, Want: "fetch.timeout"},
		{Name: "no concurrency", Edit: func(c *FetchConfig) { c.MaxConcurrent = 0 }, Want: "fetch.max_concurrent"},
		{Name: "budget under one body", Edit: func(c *FetchConfig) { c.MaxBytesInFlight = c.MaxBytes - 1 }, Want: "fetch.max_bytes_in_flight"},
	})
	if err := DefaultConfig().Validate(); err != nil {
		t.Errorf("DefaultConfig: %v", err)
	}
	for _, w := range []int{0, 65} {
		if err := (Config{Workers: w}).Validate(); err == nil || !strings.Contains(err.Error(), "ingest.workers") {
			t.Errorf("Workers %d: %v, want an error naming ingest.workers", w, err)
		}
	}
}
