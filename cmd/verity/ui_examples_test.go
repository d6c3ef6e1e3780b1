package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/verity-fc/verity/demo"
	"github.com/verity-fc/verity/eval"
	"github.com/verity-fc/verity/server"
	"github.com/verity-fc/verity/web"
)

// jsString matches one single-quoted JavaScript string literal.
var jsString = regexp.MustCompile(`'((?:[^'\\]|\\.)*)'`)

// uiScript returns a script of the shipped UI.
func uiScript(t *testing.T, name string) string {
	t.Helper()
	b, err := fs.ReadFile(web.Assets(), "js/"+name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// between returns the string literals of src between the first from and
// the next until after it.
func between(t *testing.T, src, from, until string) []string {
	t.Helper()
	i := strings.Index(src, from)
	if i < 0 {
		t.Fatalf("%q not found in the script", from)
	}
	rest := src[i+len(from):]
	j := strings.Index(rest, until)
	if j < 0 {
		t.Fatalf("%q not found after %q", until, from)
	}
	var out []string
	for _, m := range jsString.FindAllStringSubmatch(rest[:j], -1) {
		out = append(out, strings.ReplaceAll(m[1], `\'`, `'`))
	}
	return out
}

// TestUIExamples: every example claim, sample text and sample pair the UI
// ships gets the verdict its wording implies, through the real server on
// the demo corpus. The examples are read from the scripts themselves, so
// they cannot drift from what a person clicks.
func TestUIExamples(t *testing.T) {
	ctx := context.Background()
	cfg := defaultConfig()
	cfg.Data = t.TempDir()
	a, err := openApp(ctx, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if err := a.seedDemo(ctx); err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{}, server.Deps{Verifier: a.verify, Sources: a.corpus, FactCheck: a.factcheck, Entail: a.entail, Jury: a.jury, Citations: a.citations}, slog.New(slog.DiscardHandler))
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	postJSON := func(t *testing.T, path string, body any, out any) {
		t.Helper()
		b, _ := json.Marshal(body)
		resp, err := http.Post(ts.URL+path, "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("POST %s: %d %s", path, resp.StatusCode, raw)
		}
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("POST %s: %v: %s", path, err, raw)
		}
	}

	set, err := eval.ReadVerdictSet(bytes.NewReader(demo.Claims()))
	if err != nil {
		t.Fatal(err)
	}
	expect := map[string]string{}
	for _, ex := range set {
		expect[ex.Claim] = ex.Expect
	}

	t.Run("verify examples", func(t *testing.T) {
		claims := between(t, uiScript(t, "verify.js"), "export const examples = [", "];")
		if len(claims) < 3 {
			t.Fatalf("found %d examples, want at least 3", len(claims))
		}
		for _, c := range claims {
			want, ok := expect[c]
			if !ok {
				t.Errorf("example %q is not in demo/claims.jsonl, which says what it should get", c)
				continue
			}
			var res struct{ Verdict string }
			postJSON(t, "/v1/verify", map[string]string{"claim": c}, &res)
			if res.Verdict != want {
				t.Errorf("example %q: %s, want %s", c, res.Verdict, want)
			}
		}
	})

	t.Run("fact-check sample", func(t *testing.T) {
		sample := strings.Join(between(t, uiScript(t, "factcheck.js"), "export const SAMPLE =", ";\n"), "")
		var res struct {
			Verification struct {
				Consensus []struct {
					Claim, Original, ConsensusVerdict string
				}
			}
		}
		postJSON(t, "/v1/factcheck", map[string]any{"question": "The UI's sample text", "mode": "fact_check", "modeConfig": map[string]string{"contentToCheck": sample}}, &res)
		factcheck := map[string]string{"Supported": "VERIFIED", "Refuted": "DISPUTED", "Contested": "DISPUTED", "Not enough evidence": "UNVERIFIABLE"}
		resolved := false
		for _, c := range res.Verification.Consensus {
			want, ok := expect[c.Claim+"."]
			if !ok {
				t.Errorf("sample claim %q is not in demo/claims.jsonl", c.Claim)
				continue
			}
			if c.ConsensusVerdict != factcheck[want] {
				t.Errorf("sample claim %q: %s, want %s", c.Claim, c.ConsensusVerdict, factcheck[want])
			}
			resolved = resolved || c.Original != ""
		}
		if n := len(res.Verification.Consensus); n != 4 {
			t.Errorf("%d claims checked, want 4 (the opinion is no claim)", n)
		}
		if !resolved {
			t.Error("no sample claim was resolved from the sentence before it")
		}
	})

	t.Run("citations sample", func(t *testing.T) {
		src := uiScript(t, "citations.js")
		i := strings.Index(src, "const SAMPLE = `")
		if i < 0 {
			t.Fatal("no SAMPLE in citations.js")
		}
		rest := src[i+len("const SAMPLE = `"):]
		sample := rest[:strings.Index(rest, "`")]
		var rep struct {
			Claims []struct {
				Claim, Resolved, Verdict string
				Citations                []struct{ Status string }
			}
		}
		postJSON(t, "/v1/citations", map[string]string{"document": sample}, &rep)
		// The sample's wording implies these: each cited demo page is read
		// offline and states or contradicts its claim; the survey cites
		// nothing.
		want := map[string]string{
			"opened in 1937":         "verified",
			"2,500 metres":           "false",
			"More than 9,000 active": "verified",
			"73% of visitors":        "unsourced",
		}
		seen := map[string]bool{}
		for _, c := range rep.Claims {
			for k, v := range want {
				if !strings.Contains(c.Claim, k) {
					continue
				}
				seen[k] = true
				if c.Verdict != v {
					t.Errorf("sample claim %q: %s, want %s (citations %+v)", c.Claim, c.Verdict, v, c.Citations)
				}
				for _, cc := range c.Citations {
					if cc.Status == "unreachable" || cc.Status == "source_unavailable" {
						t.Errorf("sample claim %q: a cited page is %s; the demo pages are read offline", c.Claim, cc.Status)
					}
				}
				if k == "opened in 1937" && c.Resolved != "The Golden Gate Bridge opened in 1937." {
					t.Errorf("\"It opened in 1937.\" resolved to %q, want the bridge named", c.Resolved)
				}
			}
		}
		for k := range want {
			if !seen[k] {
				t.Errorf("no claim with %q in the report: %+v", k, rep.Claims)
			}
		}
	})

	t.Run("entailment example", func(t *testing.T) {
		pair := between(t, uiScript(t, "entailment.js"), "claim.value = ", "claim.focus()")
		if len(pair) != 3 {
			t.Fatalf("example %q, want claim, excerpt and source type", pair)
		}
		var res struct {
			Final struct {
				FinalVerdict string `json:"final_verdict"`
			} `json:"final"`
		}
		postJSON(t, "/v1/entailment", map[string]string{"claim": pair[0], "source_excerpt": pair[1], "source_type": pair[2]}, &res)
		if res.Final.FinalVerdict != "SUPPORTED" {
			t.Errorf("the excerpt states the claim, yet the audit says %s", res.Final.FinalVerdict)
		}
	})

	t.Run("jury example", func(t *testing.T) {
		pair := between(t, uiScript(t, "jury.js"), "claim.value = ", "claim.focus()")
		if len(pair) != 2 {
			t.Fatalf("example %q, want claim and truth", pair)
		}
		var res struct {
			Cards   []struct{ Verdict string } `json:"cards"`
			Verdict string
		}
		postJSON(t, "/v1/jury", map[string]string{"claim": pair[0], "truth": pair[1]}, &res)
		got := res.Verdict
		if len(res.Cards) > 0 {
			got = res.Cards[0].Verdict
		}
		if got != "Mutated" {
			t.Errorf("the claim widens its source, yet the jury says %q", got)
		}
	})
}
