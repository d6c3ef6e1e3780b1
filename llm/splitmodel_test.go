package llm

import "testing"

func TestSplitModel(t *testing.T) {
	for _, tt := range []struct {
		model, backend, name string
	}{
		{"llama3.1:8b", "", "llama3.1:8b"},
		{"openai/gpt-4o-mini", "openai", "gpt-4o-mini"},
		{"openai/meta-llama/Llama-3.1-8B", "openai", "meta-llama/Llama-3.1-8B"},
		{"hf.co/org/m", "", "hf.co/org/m"},
		{"ollama/", "ollama", ""},
	} {
		if b, n := SplitModel(tt.model, "ollama", "openai"); b != tt.backend || n != tt.name {
			t.Errorf("SplitModel(%q) = %q, %q; want %q, %q", tt.model, b, n, tt.backend, tt.name)
		}
	}
}
