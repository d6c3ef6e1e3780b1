// Package shareddata finds the labeled development data that tests read:
// $VERITY_SHARED_DATA, else ../shared/data beside the repository root. The
// data is not part of the repository, so a test that needs it skips cleanly
// when it is absent, as it is on a user's machine.
package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the data folder joined with rel, skipping t when it does not
// exist.
func Dir(t testing.TB, rel ...string) string {
	t.Helper()
	dir := os.Getenv("VERITY_SHARED_DATA")
	if dir == "" {
		root, ok := repoRoot()
		if !ok {
			t.Skip("shared data: repository root (go.mod) not found; set VERITY_SHARED_DATA")
		}
		dir = filepath.Join(root, "..", "shared", "data")
	}
	p := filepath.Join(append([]string{dir}, rel...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared data absent at %s (set VERITY_SHARED_DATA): %v", p, err)
	}
	return p
}

// repoRoot walks up from the working directory to the folder holding go.mod.
func repoRoot() (string, bool) {
	d, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}
