package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestUsageErrorsExit2: a missing argument, an unknown flag or command and a
// given --k 0 exit 2, as README says invalid input does, naming the problem.
func TestUsageErrorsExit2(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"verify"}, "accepts 1 arg"},
		{[]string{"cite"}, "accepts 1 arg"},
		{[]string{"ingest"}, "requires at least 1 arg"},
		{[]string{"verify", "--bogus", "x"}, "unknown flag: --bogus"},
		{[]string{"factcheck", "--bogus", "x"}, "unknown flag: --bogus"},
		{[]string{"verify", "--k", "many", "x"}, "--k"},
		{[]string{"verif", "x"}, `unknown command "verif"`},
		{[]string{"verify", "--k", "0", "The sky is blue at noon."}, "k: must be between 1 and 200, got 0"},
		{[]string{"verify", "--top-n", "0", "The sky is blue at noon."}, "top_n: must be between 1 and 20, got 0"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, stderr, code := verity(t, append(tt.args, "--data", data)...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 saying %q", code, stderr, tt.want)
			}
		})
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Errorf("a refused command line created %s (%v)", data, err)
	}
	if out, _, code := verity(t, "--data", data); code != 0 || !strings.Contains(out, "Usage:") {
		t.Errorf("verity alone: exit %d, want 0 and the help", code)
	}
}

// TestEmptyCorpusWarns: commands that read the corpus say when it is empty,
// and the passage store's start-up line is debug, not info.
func TestEmptyCorpusWarns(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	doc := filepath.Join(dir, "doc.md")
	if err := os.WriteFile(doc, []byte("The Eiffel Tower is in Paris.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	set := filepath.Join(dir, "set.jsonl")
	if err := os.WriteFile(set, []byte(`{"id": 1, "claim": "The Golden Gate Bridge opened in 1937.", "evidence": [], "label": "SUPPORTS"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	want := "no sources in " + data + ": run `verity ingest`, or `verity serve` to load the demo corpus"
	for _, args := range [][]string{
		{"verify", "The sky is blue at noon."},
		{"factcheck", doc},
		{"cite", doc},
		{"eval", "--mode", "corpus", "--set", set},
	} {
		t.Run(args[0], func(t *testing.T) {
			_, stderr, code := verity(t, append(args, "--data", data)...)
			if code != 0 || !strings.Contains(stderr, want) {
				t.Errorf("exit %d, stderr %q; want 0 and the warning %q", code, stderr, want)
			}
			if strings.Contains(stderr, "passage store loaded") {
				t.Errorf("stderr at the default log level has the debug line: %q", stderr)
			}
		})
	}
	_, stderr, _ := verity(t, "verify", "--data", data, "--log-level", "debug", "The sky is blue at noon.")
	if !strings.Contains(stderr, "passage store loaded") {
		t.Errorf("--log-level debug: stderr %q lacks the passage store line", stderr)
	}
}

// TestModelOnlyCommands: entail and jury read no corpus, so they neither
// need nor create the data directory; entail says --source-type is
// required, in its help and when it is missing (exit 2).
func TestModelOnlyCommands(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	if out, _, code := verity(t, "entail", "--help"); code != 0 || !strings.Contains(out, "--source-type TYPE") || !strings.Contains(out, "(required)") {
		t.Errorf("entail --help: exit %d; want --source-type shown as required:\n%s", code, out)
	}
	_, stderr, code := verity(t, "entail", "--data", data, "--claim", "The bridge opened in 1937.", "--excerpt", "It opened in 1937.")
	if code != 2 || !strings.Contains(stderr, `"source-type"`) {
		t.Errorf("entail without --source-type: exit %d, stderr %q; want 2 naming it", code, stderr)
	}
	if _, stderr, code := verity(t, "entail", "--data", data, "--claim", "The bridge opened in 1937.",
		"--excerpt", "The bridge opened to traffic in 1937.", "--source-type", "city archive"); code != 0 {
		t.Errorf("entail: exit %d, stderr %q", code, stderr)
	}
	if _, stderr, code := verity(t, "jury", "--data", data, "--claim", "The bridge opened in 1937.", "--truth", "The bridge opened in 1937."); code != 0 {
		t.Errorf("jury: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Errorf("entail or jury created %s (%v)", data, err)
	}
}

// TestProgressThrottle: ingest without a terminal logs its first progress
// line, then one per interval, and the last, not one per record.
func TestProgressThrottle(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	th := progressThrottle{every: 5 * time.Second}
	var logged []int
	for done := 1; done <= 100; done++ {
		// A record every 100 ms: 10 s in all.
		if th.due(start.Add(time.Duration(done)*100*time.Millisecond), done, 100) {
			logged = append(logged, done)
		}
	}
	if want := []int{1, 51, 100}; !slices.Equal(logged, want) {
		t.Errorf("logged at %v, want %v", logged, want)
	}
}
