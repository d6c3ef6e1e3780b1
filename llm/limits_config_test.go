package llm_test

import (
	"testing"
	"time"

	"github.com/verity-fc/verity/internal/configtest"
	"github.com/verity-fc/verity/llm"
)

func TestLimitsValidate(t *testing.T) {
	configtest.Validate(t, llm.DefaultLimits, []configtest.Case[llm.Limits]{
		{Name: "defaults"},
		{Name: "no retries", Edit: func(l *llm.Limits) { l.Retries = -1 }},
		{Name: "no timeout", Edit: func(l *llm.Limits) { l.Timeout = 0 }, Want: "timeout"},
		{Name: "no backoff", Edit: func(l *llm.Limits) { l.Backoff = 0 }, Want: "Backoff"},
		{Name: "no reply", Edit: func(l *llm.Limits) { l.MaxReplyBytes = 0 }, Want: "MaxReplyBytes"},
		{Name: "no batch", Edit: func(l *llm.Limits) { l.EmbedBatch = 0 }, Want: "EmbedBatch"},
		{Name: "too many logprobs", Edit: func(l *llm.Limits) { l.TopLogprobs = 21 }, Want: "TopLogprobs"},
	})
	d := llm.DefaultLimits()
	if d.Timeout != 2*time.Minute || d.Retries != 2 || d.Backoff != 200*time.Millisecond ||
		d.MaxReplyBytes != 1<<20 || d.EmbedBatch != 64 || d.TopLogprobs != 20 {
		t.Errorf("DefaultLimits() = %+v, want the documented 2m, 2 retries, 200ms, 1 MiB, 64, 20", d)
	}
	if h := llm.DefaultHTTPConfig(); h.Timeout != d.Timeout {
		t.Errorf("DefaultHTTPConfig().Timeout = %v, want Limits' %v: one bound on a call", h.Timeout, d.Timeout)
	}
	// OllamaConfig and OpenAIConfig check their limits.
	if err := (llm.OllamaConfig{Limits: llm.Limits{}}).Validate(); err == nil {
		t.Error("OllamaConfig with zero limits validated")
	}
	if err := (llm.OpenAIConfig{Limits: llm.DefaultLimits()}).Validate(); err != nil {
		t.Errorf("OpenAIConfig with the default limits: %v", err)
	}
}
