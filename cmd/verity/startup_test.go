package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBoundsCheckedAtStartUp: a configuration the retriever would refuse on
// every request (top_n above its maximum) stops every command that loads the
// configuration before it does anything, naming both keys.
func TestBoundsCheckedAtStartUp(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "verity.yaml")
	if err := os.WriteFile(conf, []byte("retrieval:\n  k: 50\n  top_n: 30\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	for _, args := range [][]string{
		{"config"},
		{"verify", "The sky is blue at noon."},
		{"serve", "--addr", "127.0.0.1:0"},
		{"ingest", conf},
	} {
		t.Run(args[0], func(t *testing.T) {
			args := append(args, "--config", conf, "--data", data)
			_, stderr, code := verity(t, args...)
			if code == 0 || !strings.Contains(stderr, "retrieval.top_n") || !strings.Contains(stderr, "retrieval.k") {
				t.Errorf("verity %v: exit %d, stderr %q; want a failure naming retrieval.top_n and retrieval.k", args, code, stderr)
			}
		})
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Errorf("data directory %s was created (%v); start-up should stop before", data, err)
	}
}
