package main

// End-to-end tests: they build the verity binary and drive it as a user
// would, over real SQLite files and a real HTTP server on loopback.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/verity-fc/verity/demo"
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/retrieval"
)

var verityBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "verity-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	verityBin = filepath.Join(dir, "verity")
	build := exec.Command("go", "build", "-o", verityBin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build verity:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// verity runs the binary to completion with a clean VERITY_* environment.
func verity(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return verityEnv(t, nil, args...)
}

func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if _, alias := envAliases[name]; !strings.HasPrefix(kv, "VERITY_") && !alias {
			env = append(env, kv)
		}
	}
	return env
}

var listening = regexp.MustCompile(`listening on (http://\S+)`)

// startServe runs `verity serve` on a free port and returns its base URL.
func startServe(t *testing.T, data string) (string, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(verityBin, "serve", "--data", data, "--addr", "127.0.0.1:0")
	cmd.Env = cleanEnv()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("serve's log:\n%s", logs.String())
		}
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
		close(found)
	}()
	select {
	case base, ok := <-found:
		if !ok {
			t.Fatalf("serve exited before listening; logs:\n%s", logs.String())
		}
		return base, cmd
	case <-time.After(90 * time.Second):
		t.Fatalf("serve did not start; logs:\n%s", logs.String())
	}
	return "", nil
}

func TestServeFirstStart(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	base, cmd := startServe(t, data)

	resp, err := http.Post(base+"/v1/verify", "application/json", strings.NewReader(`{"claim": "The Golden Gate Bridge opened in 1937."}`))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Verdict   string
		Score     int
		Citations []struct{ URL string }
		Passages  []json.RawMessage
	}
	if err := json.NewDecoder(resp.Body).Decode(&res); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || len(res.Passages) == 0 || len(res.Citations) < 2 {
		t.Errorf("verify on the demo corpus = %d %+v; want passages and 2-3 citations", resp.StatusCode, res)
	}

	resp, err = http.Post(base+"/v1/verify", "application/json", strings.NewReader(`{"claim": ""}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || !strings.Contains(string(body), `"field":"claim"`) {
		t.Errorf("empty claim = %d %s", resp.StatusCode, body)
	}

	// SIGTERM shuts down cleanly.
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve exited with %v after SIGTERM", err)
		}
	case <-time.After(20 * time.Second):
		t.Error("serve did not stop after SIGTERM")
	}
}

func TestVerifyCLI(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	if _, stderr, code := verity(t, "verify", "--data", data, "--json", "The sky is blue at noon."); code != 0 {
		t.Fatalf("verify on an empty corpus exited %d: %s", code, stderr)
	}
	out, _, _ := verity(t, "verify", "--data", data, "--json", "The sky is blue at noon.")
	var res struct{ Verdict string }
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Verdict != "Not enough evidence" {
		t.Errorf("empty corpus verdict = %q (%v)", res.Verdict, err)
	}
	_, stderr, code := verity(t, "verify", "--data", data, "--k", "500", "x")
	if code != 2 || !strings.Contains(stderr, "k:") {
		t.Errorf("k out of range: exit %d, stderr %q; want 2 naming k", code, stderr)
	}
	_, stderr, code = verity(t, "verify", "--data", data, "  ")
	if code != 2 || !strings.Contains(stderr, "claim") {
		t.Errorf("blank claim: exit %d, stderr %q; want 2 naming claim", code, stderr)
	}
	_, stderr, code = verity(t, "verify", "--data", data, "When did the Golden Gate Bridge open?")
	if code != 2 || !strings.Contains(stderr, "not a checkable claim (question)") {
		t.Errorf("question: exit %d, stderr %q; want 2 naming the reason", code, stderr)
	}
}

var progressLine = regexp.MustCompile(`msg="ingest progress".* ingested=(\d+)`)

// TestIngestKillLosesNothingReported kills `verity ingest` mid-run and checks
// that every source it had reported as ingested is still there: a second run
// finds them unchanged.
func TestIngestKillLosesNothingReported(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "docs")
	if err := os.Mkdir(src, 0o755); err != nil {
		t.Fatal(err)
	}
	const n = 1000
	for i := range n {
		text := fmt.Sprintf("Report %d.\n\nThe station at site %d recorded %d millimetres of rain in March %d. Observers noted the figure was unusual for the region and for the season in which it fell.", i, i, 10+i, 1950+i%70)
		if err := os.WriteFile(filepath.Join(src, fmt.Sprintf("doc-%03d.txt", i)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data := filepath.Join(dir, "data")
	killIngestAndRedo(t, data, n, 40, "--workers", "1", src)

	// A restart serves the same results.
	claim := "Site 42 recorded 52 millimetres of rain."
	first, _, _ := verity(t, "verify", "--data", data, "--json", claim)
	second, _, _ := verity(t, "verify", "--data", data, "--json", claim)
	if stripTimings(first) != stripTimings(second) || !strings.Contains(first, "site 42") {
		t.Errorf("results differ across restarts or miss the source:\n%s\n%s", first, second)
	}
}

// killIngestAndRedo runs `verity ingest --data data args...` over n sources,
// kills it (SIGKILL) once it has reported at least atLeast of them
// ingested, and checks that a second run finds every reported source
// unchanged and ingests the rest.
func killIngestAndRedo(t *testing.T, data string, n, atLeast int, args ...string) {
	t.Helper()
	cmd := exec.Command(verityBin, append([]string{"ingest", "--data", data}, args...)...)
	// A progress line per source, so that the kill lands mid-run.
	cmd.Env = append(cleanEnv(), "VERITY_INGEST_PROGRESS_INTERVAL=0s")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	reported := 0
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if m := progressLine.FindStringSubmatch(sc.Text()); m != nil {
			fmt.Sscan(m[1], &reported)
			if reported >= atLeast {
				cmd.Process.Kill() // SIGKILL: no cleanup runs
				break
			}
		}
	}
	cmd.Wait()
	if reported < atLeast {
		t.Fatalf("ingest finished or failed before it could be killed (reported %d)", reported)
	}

	out, errs, code := verity(t, append([]string{"ingest", "--data", data}, args[len(args)-1])...)
	if code != 0 {
		t.Fatalf("second ingest exited %d: %s %s", code, out, errs)
	}
	var ingested, chunks, skipped, failed int
	if _, err := fmt.Sscanf(out, "ingested %d sources (%d passages), skipped %d unchanged, failed %d", &ingested, &chunks, &skipped, &failed); err != nil {
		t.Fatalf("summary %q: %v", out, err)
	}
	if skipped < reported || ingested+skipped != n || failed != 0 {
		t.Errorf("after a kill with %d reported: second run ingested %d, skipped %d, failed %d of %d", reported, ingested, skipped, failed, n)
	}

	t.Logf("killed after %d reported; second run ingested %d, skipped %d", reported, ingested, skipped)
}

// TestIngestJSONLKillLosesNothingReported is TestIngestKillLosesNothingReported
// for a JSONL file, whose records workers prepare in runs and one writer
// stores in batches.
func TestIngestJSONLKillLosesNothingReported(t *testing.T) {
	dir := t.TempDir()
	const n = 20000
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"id":"r%d","text":"The station at site %d recorded %d millimetres of rain in March %d. Observers noted the figure was unusual for the region."}`+"\n", i, i, 10+i, 1950+i%70)
	}
	src := filepath.Join(dir, "records.jsonl")
	if err := os.WriteFile(src, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	killIngestAndRedo(t, filepath.Join(dir, "data"), n, 300, src)
}

var timings = regexp.MustCompile(`(?s)"timings_ms": \{.*?\}`)

func stripTimings(s string) string { return timings.ReplaceAllString(s, "") }

func TestFactcheckCLI(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	in := filepath.Join(t.TempDir(), "article.txt")
	if err := os.WriteFile(in, []byte("The Eiffel Tower was completed in 1889. I love Paris in the spring."), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := verity(t, "factcheck", "--data", data, "--json", in)
	if code != 0 {
		t.Fatalf("factcheck exited %d: %s", code, stderr)
	}
	var res struct {
		Extraction struct {
			Claims []struct{ Claim, Type string }
		}
		Report struct{ ReportText string }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("factcheck --json: %v\n%s", err, out)
	}
	if len(res.Extraction.Claims) != 1 || !strings.Contains(res.Extraction.Claims[0].Claim, "1889") {
		t.Errorf("claims = %+v, want the one about 1889 (the opinion skipped)", res.Extraction.Claims)
	}
	md, _, code := verity(t, "factcheck", "--data", data, in)
	if code != 0 || !strings.Contains(md, "# Fact-Check Report") {
		t.Errorf("markdown report: exit %d\n%s", code, md)
	}
	if _, stderr, code := verity(t, "factcheck", "--data", data, "--checker", "a", "--checker", "b", "--checker", "c", "--checker", "d", "--checker", "e", in); code != 2 || !strings.Contains(stderr, "checkerModels") {
		t.Errorf("five checkers: exit %d, stderr %q; want 2 naming checkerModels", code, stderr)
	}
}

// TestEmbedderChangeIsExplained: a data directory whose passages were
// embedded with another model fails with a message that says what to do.
func TestEmbedderChangeIsExplained(t *testing.T) {
	data := t.TempDir()
	ctx := context.Background()
	s, err := retrieval.OpenEmbedded(ctx, filepath.Join(data, "passages.db"), retrieval.EmbeddedConfig{})
	if err != nil {
		t.Fatal(err)
	}
	p := evidence.Passage{ID: "x#0", SourceID: "x", Text: "An old passage embedded with a smaller model."}
	if err := s.Upsert(ctx, []evidence.Passage{p}, [][]float32{{1, 0, 0}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, stderr, code := verity(t, "verify", "--data", data, "Anything.")
	if code != 1 || !strings.Contains(stderr, "3-dimensional") || !strings.Contains(stderr, "ingest the sources again") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestJuryAndEntailCLI(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	csv := "claim,truth\n\"The bridge opened in 1937.\",\"The Golden Gate Bridge opened to traffic in 1937.\"\n"
	if err := os.WriteFile(filepath.Join(dir, "pairs.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := "data:\n  source: pairs.csv\n  claim_col: claim\n  truth_col: truth\ndebate:\n  max_rounds: 1\n"
	if err := os.WriteFile(filepath.Join(dir, "jury.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := verity(t, "jury", "--data", data, "--config", filepath.Join(dir, "jury.yaml"), "--json")
	if code != 0 {
		t.Fatalf("jury exited %d: %s", code, stderr)
	}
	var outcomes []struct {
		PairID int `json:"pair_id"`
		Card   struct {
			Verdict string
			Rubric  []struct{ Axis, Answer string }
		}
	}
	if err := json.Unmarshal([]byte(out), &outcomes); err != nil || len(outcomes) != 1 {
		t.Fatalf("jury --json = %v: %s", err, out)
	}
	if v := outcomes[0].Card.Verdict; v != "Faithful" && v != "Mutated" && v != "Ambiguous" || len(outcomes[0].Card.Rubric) != 5 {
		t.Errorf("card = %+v", outcomes[0].Card)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.yaml"), []byte("debate:\n  max_rounds: -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := verity(t, "jury", "--data", data, "--config", filepath.Join(dir, "bad.yaml")); code != 2 || !strings.Contains(stderr, "max_rounds") {
		t.Errorf("bad jury config: exit %d, stderr %q", code, stderr)
	}

	out, stderr, code = verity(t, "entail", "--data", data, "--claim", "The bridge opened in 1937.",
		"--excerpt", "The Golden Gate Bridge opened to traffic in 1937.", "--source-type", "city archive")
	if code != 0 {
		t.Fatalf("entail exited %d: %s", code, stderr)
	}
	var res map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"extractor", "reliability", "judge", "auditor", "final"} {
		if _, ok := res[k]; !ok {
			t.Errorf("entail output lacks %q: %s", k, out)
		}
	}
	if _, stderr, code := verity(t, "entail", "--data", data, "--excerpt", "x"); code != 2 || !strings.Contains(stderr, "claim") {
		t.Errorf("entail without claim: exit %d, stderr %q", code, stderr)
	}
}

func TestCiteCLI(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/market", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<html><head><title>Market report</title></head><body><article><p>The global tutoring market was worth $30 billion in 2023, according to the annual industry survey of providers and platforms.</p><p>Growth was driven by online services across Asia and North America, and the survey covered more than 400 companies.</p></article></body></html>`)
	})
	ts := httptest.NewServer(mux) // unknown paths answer 404
	defer ts.Close()
	dir := t.TempDir()
	doc := fmt.Sprintf("# Analysis\n\nThe global tutoring market was worth $50 billion in 2023 [1].\n\nAI tutoring doubles learning gains [2].\n\nOur pilot with 500 students showed 73%% improvement.\n\n## References\n\n[1] %s/market\n[2] %s/missing-study\n", ts.URL, ts.URL)
	path := filepath.Join(dir, "analysis.md")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := verity(t, "cite", "--data", filepath.Join(dir, "data"), "--allow-private", path)
	if code != 0 {
		t.Fatalf("cite exited %d: %s", code, stderr)
	}
	var rep struct {
		Summary struct {
			TotalClaims      int `json:"total_claims"`
			FalseClaims      int `json:"false_claims"`
			CitationsChecked int `json:"citations_checked"`
		}
		CriticalIssues []struct{ Claim string } `json:"critical_issues"`
		CitationIssues []struct {
			CitationID string `json:"citation_id"`
			Status     string
			Actual     string
		} `json:"citation_issues"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("cite output: %v\n%s", err, out)
	}
	statuses := map[string]string{}
	actual := ""
	for _, c := range rep.CitationIssues {
		statuses[c.CitationID] = c.Status
		if c.CitationID == "[1]" {
			actual = c.Actual
		}
	}
	if statuses["[2]"] != "404_not_found" {
		t.Errorf("citation [2] status = %q, want 404_not_found; issues %+v", statuses["[2]"], rep.CitationIssues)
	}
	if rep.Summary.FalseClaims < 1 || !strings.Contains(actual, "30") {
		t.Errorf("the $50B claim against a $30B page: false claims %d, actual %q", rep.Summary.FalseClaims, actual)
	}
	fabricated := false
	for _, c := range rep.CriticalIssues {
		fabricated = fabricated || strings.Contains(c.Claim, "pilot")
	}
	if !fabricated || rep.Summary.CitationsChecked != 2 {
		t.Errorf("critical issues %+v, citations checked %d", rep.CriticalIssues, rep.Summary.CitationsChecked)
	}
	md, _, code := verity(t, "cite", "--data", filepath.Join(dir, "data"), "--allow-private", "--format", "markdown", path)
	if code != 0 || !strings.Contains(md, "404") {
		t.Errorf("markdown report: exit %d\n%s", code, md)
	}
	// Without --allow-private the loopback pages are refused, not fetched.
	out, _, _ = verity(t, "cite", "--data", filepath.Join(dir, "data"), path)
	if !strings.Contains(out, "blocked") {
		t.Errorf("loopback citations without --allow-private were not blocked:\n%s", out)
	}
}

func TestEvalCorpusCLI(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	corpus := filepath.Join(dir, "corpus.jsonl")
	if err := os.WriteFile(corpus, demo.Corpus(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := verity(t, "ingest", "--data", data, corpus); code != 0 {
		t.Fatalf("ingest: %s", stderr)
	}
	set := filepath.Join(dir, "set.jsonl")
	lines := `{"id": 1, "claim": "The Golden Gate Bridge opened in 1937.", "evidence": [], "label": "SUPPORTS"}
{"id": 2, "claim": "The Eiffel Tower is repainted about every seven years.", "evidence": [], "label": "NOT_ENOUGH_INFO"}
{"id": 3, "claim": "When did the Golden Gate Bridge open?", "evidence": [], "label": "NOT_ENOUGH_INFO"}
`
	if err := os.WriteFile(set, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := verity(t, "eval", "--data", data, "--set", set, "--mode", "corpus", "--json")
	if code != 0 {
		t.Fatalf("eval exited %d: %s", code, stderr)
	}
	if strings.Contains(stderr, "no sources in") {
		t.Errorf("eval over an ingested corpus warns that it is empty: %s", stderr)
	}
	var rep map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("eval --json: %v\n%s", err, out)
	}
	for _, k := range []string{"n", "accuracy", "balanced_accuracy", "macro_f1", "per_label", "ece", "claims_per_sec"} {
		if _, ok := rep[k]; !ok {
			t.Errorf("eval --json lacks %q: %s", k, out)
		}
	}
	// The question is refused by verify's screen: it counts as not enough
	// information instead of ending the run.
	if string(rep["n"]) != "3" {
		t.Errorf("n = %s, want 3", rep["n"])
	}
}

// TestIngestPDF ingests a directory holding a text PDF and a scanned one
// with the built binary: the text PDF's passages are found by verify with
// its title, and the scan fails with its reason.
func TestIngestPDF(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"report.pdf", "scanned.pdf"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "ingest", "testdata", "pdf", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data := t.TempDir()
	out, stderr, code := verity(t, "ingest", "--data", data, dir)
	if code != 1 || !strings.Contains(out, "ingested 1 sources") || !strings.Contains(out+stderr, "PDF has no text layer") {
		t.Fatalf("ingest exited %d:\n%s\n%s\nwant exit 1, one source ingested and the scan's reason", code, out, stderr)
	}
	out, stderr, code = verity(t, "verify", "--data", data, "--json", "Member states reported 58,000 cases of measles in 2023.")
	if code != 0 || !strings.Contains(out, "Measles surveillance in Europe, annual report 2023") || !strings.Contains(out, "58,000") {
		t.Errorf("verify exited %d: %s %s; want the PDF's passage with its title", code, out, stderr)
	}
}
