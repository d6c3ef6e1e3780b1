package main

// Browser end-to-end tests of the web UI: headless Chromium (Debian's
// chromium package, driven over the DevTools protocol by chromedp) against a
// real `verity serve` on loopback. Each test saves a screenshot under
// $VERITY_TEST_ARTIFACTS (default <repo>/.artifacts/ui).

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/verity-fc/verity/agents/citations"
	"github.com/verity-fc/verity/agents/factcheck"
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/server"
	"github.com/verity-fc/verity/verify"
)

// chromiumPath finds Debian's chromium. Without it the tests fail in CI
// (CI=true), where .ci/run installs it, and skip loudly elsewhere.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("VERITY_CHROMIUM"), "/usr/bin/chromium"} {
		if p != "" {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	const msg = "chromium is not installed: the browser tests of the web UI need it (apt-get install chromium, or set VERITY_CHROMIUM)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip("SKIPPING: " + msg)
	return ""
}

// pageProbe runs in every page before its scripts. It records uncaught
// errors, and every value a claim's data-status takes: the value it had
// when it appeared, then each change. The record is exact even when a
// whole stream arrives at once and the DOM changes several times before
// the observer runs, because each change's old value is kept.
const pageProbe = `
window.__errors = [];
addEventListener('error', (e) => window.__errors.push(String(e.message || e)));
addEventListener('unhandledrejection', (e) => window.__errors.push('unhandled rejection: ' + String(e.reason && e.reason.message || e.reason)));
window.__statuses = {};
new MutationObserver((records) => {
  const batch = new Map();
  const note = (el, value) => {
    if (!batch.has(el)) batch.set(el, []);
    if (value != null) batch.get(el).push(value);
  };
  for (const r of records) {
    if (r.type === 'attributes' && r.target.matches('.claim-item')) note(r.target, r.oldValue);
    for (const n of r.addedNodes || []) {
      if (n.nodeType !== 1) continue;
      if (n.matches('.claim-item')) note(n);
      n.querySelectorAll('.claim-item').forEach((el) => note(el));
    }
  }
  for (const [el, values] of batch) {
    values.push(el.dataset.status);
    const list = window.__statuses[el.dataset.claimId] || (window.__statuses[el.dataset.claimId] = []);
    for (const v of values) if (list[list.length - 1] !== v) list.push(v);
  }
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'], attributeOldValue: true });
`

type browser struct {
	ctx       context.Context
	artifacts string
}

func startBrowser(t *testing.T) *browser {
	t.Helper()
	path := chromiumPath(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("no-proxy-server", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.WindowSize(1280, 900),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	if err := chromedp.Do(ctx); err != nil { // starts the browser, bound to ctx
		t.Fatalf("start chromium: %v", err)
	}
	dir := os.Getenv("VERITY_TEST_ARTIFACTS")
	if dir == "" {
		root, err := filepath.Abs(filepath.Join("..", ".."))
		if err != nil {
			t.Fatal(err)
		}
		dir = filepath.Join(root, ".artifacts", "ui")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("create artifacts directory: %v", err)
	}
	return &browser{ctx: ctx, artifacts: dir}
}

// tab opens a new tab with the page probe installed; it closes when the
// test ends. Its context carries the test's time limit.
func (b *browser) tab(t *testing.T, width, height int64) context.Context {
	t.Helper()
	tabCtx, cancelTab := chromedp.NewContext(b.ctx)
	ctx, cancel := context.WithTimeout(tabCtx, 40*time.Second)
	t.Cleanup(func() {
		cancel()
		cancelTab()
	})
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height)); err != nil {
		t.Fatalf("open tab: %v", err)
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: pageProbe}); err != nil {
		t.Fatalf("install page probe: %v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			return
		}
		errs, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.__errors || []`))
		if err != nil {
			t.Errorf("read page errors: %v", err)
		}
		if len(errs) > 0 {
			t.Errorf("the page had uncaught errors: %q", errs)
		}
	})
	return ctx
}

// screenshot saves the whole page as NAME.png.
func (b *browser) screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	b.save(t, name, png)
}

func (b *browser) save(t *testing.T, name string, png []byte) {
	t.Helper()
	path := filepath.Join(b.artifacts, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Errorf("save screenshot: %v", err)
		return
	}
	t.Logf("screenshot: %s", path)
}

// phone narrows the tab to a 375 px phone screen, checks that the page
// does not scroll sideways, and saves what the screen shows around the
// element sel as NAME.png.
func (b *browser) phone(t *testing.T, ctx context.Context, sel, name string) {
	t.Helper()
	do(t, ctx, "narrow the screen", chromedp.EmulateViewport(375, 812))
	if w := jsEval[int](t, ctx, `document.documentElement.scrollWidth`); w > 375 {
		t.Errorf("at 375 px the page is %d px wide; it must not scroll sideways", w)
	}
	// Scroll in the page and let two frames paint before the capture.
	scroll := fmt.Sprintf(`new Promise((done) => { document.querySelector(%q).scrollIntoView({block: 'start'}); requestAnimationFrame(() => requestAnimationFrame(done)); })`, sel)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](scroll, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("scroll to %s: %v", sel, err)
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	b.save(t, name, png)
}

func do(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func jsEval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

// fill opens page, sets each field (pairs of element id and value) and
// submits the view's form.
func fill(t *testing.T, ctx context.Context, page string, fields ...string) {
	t.Helper()
	actions := []chromedp.Action[chromedp.Void]{chromedp.Navigate(page), chromedp.WaitVisible(chromedp.ID(fields[0]))}
	for i := 0; i+1 < len(fields); i += 2 {
		actions = append(actions, chromedp.SetValue(chromedp.ID(fields[i]), fields[i+1]))
	}
	actions = append(actions, chromedp.Click(chromedp.CSS(".view form button[type=submit]")))
	do(t, ctx, "fill and submit "+page, actions...)
}

// pressEnter presses Enter as a keyboard does: one keyDown that carries
// its text (so a page that cancels keydown gets no new line), then keyUp.
// chromedp's SendKeys sends the text as a separate char event instead.
func pressEnter(t *testing.T, ctx context.Context) {
	t.Helper()
	down := input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyDown, Key: "Enter", Code: "Enter", WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13, Text: "\r", UnmodifiedText: "\r"}
	up := input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyUp, Key: "Enter", Code: "Enter", WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13}
	for _, ev := range []input.DispatchKeyEventParams{down, up} {
		if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, ev); err != nil {
			t.Fatalf("press Enter: %v", err)
		}
	}
}

// waitFor polls a JavaScript predicate until it holds.
func waitFor(t *testing.T, ctx context.Context, what, predicate string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](predicate, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		diag, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('[role=alert]')?.textContent || '') + ' | ' + (document.querySelector('[role=status]')?.textContent || '')`))
		t.Fatalf("waiting for %s: %v (page says: %s)", what, err, diag)
	}
}

func postJSON(t *testing.T, url, body string, v any) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("POST %s = %d: %s", url, resp.StatusCode, b)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

// TestUI drives the web UI the way a person would, on one server and one
// browser: verify, an API error, a live fact-check, the stored fact-check
// by its link, an upload to the corpus, a phone-width screen, keyboard and
// labels, and a stream that breaks.
func TestUI(t *testing.T) {
	b := startBrowser(t)
	base, _ := startServe(t, filepath.Join(t.TempDir(), "data"))

	t.Run("verify", func(t *testing.T) {
		const claim = "The Golden Gate Bridge opened in 1937."
		var want evidence.Result
		postJSON(t, base+"/v1/verify", fmt.Sprintf(`{"claim": %q}`, claim), &want)

		ctx := b.tab(t, 1280, 900)
		do(t, ctx, "open the verify page",
			chromedp.Navigate(base+"/#/verify"),
			chromedp.WaitVisible(chromedp.ID("claim")),
			chromedp.SendKeys(chromedp.ID("claim"), claim))
		// Enter in the claim box submits: the form works by keyboard.
		pressEnter(t, ctx)
		do(t, ctx, "see the verdict", chromedp.WaitVisible(chromedp.CSS(".verdict-card")))
		if v := jsEval[string](t, ctx, `document.getElementById('claim').value`); v != claim {
			t.Errorf("after Enter the claim box holds %q, want %q unchanged", v, claim)
		}
		got := jsEval[struct {
			Verdict   string
			Score     string
			Citations int
			Domains   []string
			Dates     int
			Rows      int
			Features  []string
			Probs     int
		}](t, ctx, `({
			verdict: document.querySelector('.verdict-card').dataset.verdict,
			score: document.querySelector('.verdict-card [role=meter]').getAttribute('aria-valuenow'),
			citations: document.querySelectorAll('.citation').length,
			domains: [...document.querySelectorAll('.citation .domain')].map((e) => e.textContent),
			dates: document.querySelectorAll('.citation time').length,
			rows: document.querySelectorAll('#passages-h ~ .table-wrap tbody tr').length,
			features: [...document.querySelectorAll('.feature')].map((e) => e.dataset.feature),
			probs: document.querySelectorAll('#passages-h ~ .table-wrap .prob-value').length,
		})`)
		if got.Verdict != string(want.Verdict) || got.Score != fmt.Sprint(want.Score) {
			t.Errorf("verdict card shows %q score %s; the API says %q %d", got.Verdict, got.Score, want.Verdict, want.Score)
		}
		var wantDomains []string
		for _, c := range want.Citations {
			wantDomains = append(wantDomains, c.Domain)
		}
		if got.Citations < 2 || got.Citations > 3 || !slices.Equal(got.Domains, wantDomains) || got.Dates != got.Citations {
			t.Errorf("citations: %d shown with domains %q and %d dates; want 2-3 with domains %q, each dated", got.Citations, got.Domains, got.Dates, wantDomains)
		}
		if got.Rows != len(want.Passages) || got.Probs != 3*len(want.Passages) {
			t.Errorf("passage table has %d rows and %d probabilities; want %d rows with entail, contradict and neutral each", got.Rows, got.Probs, len(want.Passages))
		}
		if wantF := []string{"e_max", "e_mean3", "agree_dom", "rel_avg", "rec_max", "c_max"}; !slices.Equal(got.Features, wantF) {
			t.Errorf("features shown = %q, want %q", got.Features, wantF)
		}
		b.screenshot(t, ctx, "verify")

		b.phone(t, ctx, ".verdict-card", "verify-375px")
	})

	t.Run("error banner", func(t *testing.T) {
		ctx := b.tab(t, 1280, 900)
		do(t, ctx, "submit an empty claim",
			chromedp.Navigate(base+"/#/verify"),
			chromedp.WaitVisible(chromedp.ID("claim")),
			chromedp.Click(chromedp.CSS(".view-verify button[type=submit]")),
			chromedp.WaitVisible(chromedp.CSS("#verify-alerts [role=alert]")))
		got := jsEval[struct {
			Text    string
			Invalid string
		}](t, ctx, `({text: document.querySelector('#verify-alerts [role=alert]').textContent,
			invalid: document.getElementById('claim').getAttribute('aria-invalid')})`)
		if !strings.Contains(got.Text, "Field: claim") || !strings.Contains(got.Text, "Invalid request") || got.Invalid != "true" {
			t.Errorf("error banner %q, claim aria-invalid=%q; want the problem's title, detail and field, and the field marked", got.Text, got.Invalid)
		}
		b.screenshot(t, ctx, "verify-error")
	})

	var messageID string
	var statuses map[string]string
	t.Run("factcheck live", func(t *testing.T) {
		const text = "The Golden Gate Bridge opened in 1937. The Golden Gate Bridge opened in 1950 according to one blog. I think the bridge is lovely."
		ctx := b.tab(t, 1280, 900)
		fill(t, ctx, base+"/#/factcheck", "fc-content", text)
		do(t, ctx, "see the report", chromedp.WaitVisible(chromedp.CSS(".report-summary [role=meter]")))
		waitFor(t, ctx, "the stored evidence", `document.querySelectorAll('.claim-detail .evidence').length > 0`)
		got := jsEval[struct {
			Seen     map[string][]string
			Final    map[string]string
			Link     string
			Marks    int
			Sups     int
			Gauge    string
			Rows     int
			Findings int
		}](t, ctx, `({
			seen: window.__statuses,
			final: Object.fromEntries([...document.querySelectorAll('.claim-item')].map((e) => [e.dataset.claimId, e.dataset.status])),
			link: document.querySelector('.permalink a').getAttribute('href'),
			marks: document.querySelectorAll('.content-card .claim-mark').length,
			sups: document.querySelectorAll('.content-card .claim-mark sup').length,
			gauge: document.querySelector('.report-summary [role=meter]').getAttribute('aria-valuenow'),
			rows: document.querySelectorAll('#evidence-h ~ .table-wrap tbody tr').length,
			findings: document.querySelectorAll('.finding-list > li').length,
		})`)
		messageID = strings.TrimPrefix(got.Link, "#/factcheck/")
		statuses = got.Final

		var res factcheck.Result
		resp, err := http.Get(base + "/v1/factchecks/" + messageID)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.NewDecoder(resp.Body).Decode(&res); err != nil {
			t.Fatalf("stored fact-check %q: %v", messageID, err)
		}
		resp.Body.Close()
		if len(res.Extraction.Claims) < 2 {
			t.Fatalf("the server extracted %d claims from the sample; the test needs at least 2", len(res.Extraction.Claims))
		}
		want := map[string]string{}
		for _, c := range res.Verification.Consensus {
			want[c.ClaimID] = c.ConsensusVerdict
		}
		if len(got.Final) != len(want) {
			t.Errorf("the panel lists %d claims, the server %d", len(got.Final), len(want))
		}
		for id, verdict := range want {
			seen := got.Seen[id]
			if len(seen) < 2 || seen[0] != "pending" || seen[len(seen)-1] != verdict || got.Final[id] != verdict {
				t.Errorf("claim %s went through %q; want pending first and %s last", id, seen, verdict)
			}
		}
		if got.Marks != len(want) || got.Sups != len(want) {
			t.Errorf("%d claims underlined with %d superscripts in the content; want %d", got.Marks, got.Sups, len(want))
		}
		if res.Report.ReliabilityScore == nil || got.Gauge != fmt.Sprint(*res.Report.ReliabilityScore) {
			t.Errorf("reliability gauge shows %q; the server says %v", got.Gauge, res.Report.ReliabilityScore)
		}
		if got.Rows != len(want) || got.Findings != len(want) {
			t.Errorf("evidence table has %d rows and findings %d claims; want %d each", got.Rows, got.Findings, len(want))
		}

		// The evidence table sorts by a column.
		do(t, ctx, "sort by verdict", chromedp.Click(chromedp.CSS(`#evidence-h ~ .table-wrap th:nth-child(4) button`)))
		if s := jsEval[string](t, ctx, `document.querySelector('#evidence-h ~ .table-wrap th:nth-child(4)').getAttribute('aria-sort')`); s != "ascending" {
			t.Errorf("after a click the verdict column's aria-sort is %q, want ascending", s)
		}
		do(t, ctx, "open the first claim", chromedp.Click(chromedp.CSS(".claim-item summary")))
		b.screenshot(t, ctx, "factcheck-live")
	})

	t.Run("ask without a model backend", func(t *testing.T) {
		ctx := b.tab(t, 1280, 900)
		do(t, ctx, "ask a question",
			chromedp.Navigate(base+"/#/factcheck"),
			chromedp.WaitVisible(chromedp.ID("fc-content")),
			chromedp.Click(chromedp.CSS(`label[for="fc-mode-ask"]`)),
			chromedp.WaitVisible(chromedp.ID("fc-question")),
			chromedp.SetValue(chromedp.ID("fc-question"), "When did the Golden Gate Bridge open?"),
			chromedp.SetValue(chromedp.ID("fc-generator"), "llama3.1:8b"),
			chromedp.Click(chromedp.CSS(".view form button[type=submit]")),
			chromedp.WaitVisible(chromedp.CSS("#factcheck-alerts [role=alert]")))
		got := jsEval[struct{ Text, Invalid string }](t, ctx, `({text: document.querySelector('#factcheck-alerts [role=alert]').textContent,
			invalid: document.getElementById('fc-generator').getAttribute('aria-invalid')})`)
		if !strings.Contains(got.Text, "Field: modeConfig.generatorModel") || !strings.Contains(got.Text, "needs a model backend") || got.Invalid != "true" {
			t.Errorf("banner %q, generator aria-invalid=%q; want the server's reason naming modeConfig.generatorModel, the field marked", got.Text, got.Invalid)
		}
		b.screenshot(t, ctx, "factcheck-no-generator")
	})

	t.Run("factcheck by link", func(t *testing.T) {
		if messageID == "" {
			t.Skip("the live fact-check did not finish")
		}
		ctx := b.tab(t, 1280, 900)
		do(t, ctx, "open the stored fact-check",
			chromedp.Navigate(base+"/#/factcheck/"+messageID),
			chromedp.WaitVisible(chromedp.CSS(".report-summary [role=meter]")))
		final := jsEval[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll('.claim-item')].map((e) => [e.dataset.claimId, e.dataset.status]))`)
		if diff := cmp.Diff(statuses, final); diff != "" {
			t.Errorf("stored view statuses differ from the live view's (-live +stored):\n%s", diff)
		}
		b.screenshot(t, ctx, "factcheck-stored")
		b.phone(t, ctx, ".claims-panel", "factcheck-stored-375px")

		do(t, ctx, "a fact-check that does not exist", chromedp.Navigate(base+"/#/factcheck/no-such-id"),
			chromedp.WaitVisible(chromedp.CSS("#factcheck-alerts [role=alert]")))
		if txt := jsEval[string](t, ctx, `document.querySelector('#factcheck-alerts [role=alert]').textContent`); !strings.Contains(txt, "not found") {
			t.Errorf("unknown fact-check shows %q; want a not-found message", txt)
		}
	})

	t.Run("ingest upload", func(t *testing.T) {
		doc := filepath.Join(t.TempDir(), "harbour-lighthouse.md")
		if err := os.WriteFile(doc, []byte("# Harbour lighthouse keeper's log\n\nThe harbour lighthouse at Port Ellen was first lit on 14 March 1832. Its lamp burned whale oil until 1880, when keepers switched to paraffin, and the light was automated in 1998.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx := b.tab(t, 1280, 900)
		do(t, ctx, "upload a file",
			chromedp.Navigate(base+"/#/corpus"),
			chromedp.WaitVisible(chromedp.CSS(".sources-table tbody tr")),
			chromedp.SetUploadFiles(chromedp.ID("ingest-files"), []string{doc}),
			chromedp.Click(chromedp.CSS("#ingest-h ~ form button[type=submit]")),
			chromedp.WaitVisible(chromedp.CSS(".job-box .job")))
		waitFor(t, ctx, "the job to succeed", `document.querySelector('.job-box .job')?.dataset.state === 'succeeded'`)
		waitFor(t, ctx, "the source in the list", `[...document.querySelectorAll('.sources-table tbody tr')].some((r) => r.textContent.includes("Harbour lighthouse keeper's log"))`)
		got := jsEval[struct {
			Value, Max float64
			Counts     string
		}](t, ctx, `({value: document.getElementById('job-progress').value, max: document.getElementById('job-progress').max,
			counts: document.querySelector('.job-counts').textContent})`)
		if got.Max != 1 || got.Value != got.Max || !strings.Contains(got.Counts, "1 ingested") {
			t.Errorf("job progress %v of %v, %q; want 1 of 1 with 1 ingested", got.Value, got.Max, got.Counts)
		}
		b.screenshot(t, ctx, "corpus-ingest")
		b.phone(t, ctx, ".sources-table", "corpus-375px")
	})

	t.Run("ingest lines", func(t *testing.T) {
		// One bad line is reported by its number; the good line still goes
		// in as a job, and the bad one stays in the box to be fixed.
		ctx := b.tab(t, 1280, 900)
		fill(t, ctx, base+"/#/corpus", "ingest-urls", "/etc/passwd\nhttps://example.invalid/report\n")
		waitFor(t, ctx, "the job", `document.querySelector('.job-box .job') !== null`)
		got := jsEval[struct {
			Notice, Counts, Left string
		}](t, ctx, `({notice: document.querySelector('#ingest-alerts .alert-warn')?.textContent || '',
			counts: document.querySelector('.job-counts')?.textContent || '',
			left: document.getElementById('ingest-urls').value})`)
		if !strings.Contains(got.Notice, "Line 1 (/etc/passwd) is a file path") || !strings.Contains(got.Counts, "of 1 sources") || got.Left != "/etc/passwd" {
			t.Errorf("notice %q, job %q, box %q; want line 1 reported, a job of 1 source and the bad line kept", got.Notice, got.Counts, got.Left)
		}
	})

	t.Run("citations", func(t *testing.T) {
		// On verity serve, a citation of a loopback address is refused by
		// the guarded fetcher, and the report says so.
		ctx := b.tab(t, 1280, 900)
		fill(t, ctx, base+"/#/citations", "cite-doc", "# Harbour notes\n\nThe harbour lighthouse at Port Ellen was first lit in 1832 [1].\n\n[1]: http://127.0.0.1:9/lighthouse\n")
		do(t, ctx, "see the report", chromedp.WaitVisible(chromedp.CSS("#citations-result .report-summary")))
		if got := jsEval[[]string](t, ctx, `[...document.querySelectorAll('#cite-issues-h ~ .table-wrap tbody tr')].map((r) => r.dataset.status)`); !slices.Equal(got, []string{"blocked"}) {
			t.Errorf("a loopback citation on verity serve shows statuses %q, want [blocked]", got)
		}

		// The sample document cites demo pages, which verity serve reads
		// offline: a person sees each claim's verdict, not unreachable
		// sources.
		do(t, ctx, "open the citations page", chromedp.Navigate(base+"/#/citations"), chromedp.WaitVisible(chromedp.ID("cite-doc")))
		jsEval[chromedp.Void](t, ctx, `[...document.querySelectorAll('button')].find((b) => b.textContent === 'Use a sample document').click()`)
		do(t, ctx, "check the sample document", chromedp.Click(chromedp.CSS(".view form button[type=submit]")))
		waitFor(t, ctx, "the sample's report", `document.querySelectorAll('.cite-claim').length >= 5`)
		verdicts := jsEval[[]string](t, ctx, `[...document.querySelectorAll('.cite-claim')].map((li) => li.dataset.verdict).sort()`)
		// The bridge's description and the survey cite nothing.
		if want := []string{"false", "unsourced", "unsourced", "verified", "verified"}; !slices.Equal(verdicts, want) {
			t.Errorf("the sample document's claims read %q, want %q", verdicts, want)
		}
		if got := jsEval[string](t, ctx, `document.querySelector('.claim-resolved')?.textContent ?? ''`); !strings.Contains(got, "The Golden Gate Bridge opened in 1937.") {
			t.Errorf("the report shows the resolved claim as %q, want the bridge named beside \"It opened in 1937.\"", got)
		}
		b.screenshot(t, ctx, "citations-sample")

		// The cited pages are on loopback, which verity serve's fetcher
		// refuses without fetch.allow_private; so this test wires the app
		// as serve does, with that setting, and serves it in process.
		pages := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/lighthouse" {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, `<!doctype html><html><head><title>Port Ellen lighthouse</title></head><body><article>
<h1>Port Ellen lighthouse</h1>
<p>The harbour lighthouse at Port Ellen was first lit on 14 March 1832, after three years of building on the rocks at the mouth of the bay.</p>
<p>Its lamp burned whale oil until 1880, when the keepers switched to paraffin. The light was automated in 1998 and the last keeper left the island that year.</p>
<p>The tower is 21 metres tall and its white light can be seen from 17 nautical miles away on a clear night.</p>
</article></body></html>`)
		}))
		defer pages.Close()
		cfg := defaultConfig()
		cfg.Data = t.TempDir()
		cfg.Fetch.AllowPrivate = true
		quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
		a, err := openApp(context.Background(), cfg, quiet)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		srv := httptest.NewServer(server.New(server.Config{}, server.Deps{Verifier: a.verify, Citations: a.citations}, quiet).Handler())
		defer srv.Close()

		doc := fmt.Sprintf("# Harbour notes\n\nThe harbour lighthouse at Port Ellen was first lit in 1832 [1]. "+
			"The light was automated in 2005 [1]. Its lamp burned whale oil until 1880 [2]. "+
			"Visitor numbers at the lighthouse grew by 40%% last year.\n\n[1]: %s/lighthouse\n[2]: %s/gone\n", pages.URL, pages.URL)
		var want citations.Report
		body, _ := json.Marshal(map[string]string{"document": doc})
		postJSON(t, srv.URL+"/v1/citations", string(body), &want)
		var wantStatuses []string
		for _, i := range want.CitationIssues {
			wantStatuses = append(wantStatuses, i.Status)
		}
		slices.Sort(wantStatuses)

		fill(t, ctx, srv.URL+"/#/citations", "cite-doc", doc)
		do(t, ctx, "see the report", chromedp.WaitVisible(chromedp.CSS("#citations-result .report-summary")))
		got := jsEval[struct {
			Statuses []string
			Claims   int
			Score    string
		}](t, ctx, `({statuses: [...document.querySelectorAll('#cite-issues-h ~ .table-wrap tbody tr')].map((r) => r.dataset.status).sort(),
			claims: document.querySelectorAll('.cite-claim').length,
			score: document.querySelector('#citations-result [role=meter]').getAttribute('aria-valuenow')})`)
		if want.Summary.AccuracyScore == nil {
			t.Fatal("the API gives no accuracy score for a document with claims")
		}
		if len(wantStatuses) < 2 || !slices.Equal(got.Statuses, wantStatuses) || got.Claims != len(want.Claims) || got.Score != fmt.Sprint(math.Round(*want.Summary.AccuracyScore)) {
			t.Errorf("report shows citation statuses %q, %d claims, score %s; the API says %q, %d claims, score %v",
				got.Statuses, got.Claims, got.Score, wantStatuses, len(want.Claims), *want.Summary.AccuracyScore)
		}
		b.screenshot(t, ctx, "citations")

		// The same document as an uploaded file.
		path := filepath.Join(t.TempDir(), "harbour-notes.md")
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		jsEval[chromedp.Void](t, ctx, `document.getElementById('cite-doc').value = ''`)
		do(t, ctx, "check an uploaded document",
			chromedp.SetUploadFiles(chromedp.ID("cite-file"), []string{path}),
			chromedp.Click(chromedp.CSS(".view-citations button[type=submit]")))
		waitFor(t, ctx, "the report on the upload", `document.querySelector('#citations-result .report-summary code')?.textContent === 'harbour-notes.md'`)
	})

	t.Run("entailment", func(t *testing.T) {
		const (
			claim   = "The Golden Gate Bridge opened in 1937."
			excerpt = "Construction of the Golden Gate Bridge began on 5 January 1933 and took just over four years. The bridge opened in May 1937."
			kind    = "local history website"
		)
		var want struct {
			Extractor struct{ Statements []json.RawMessage }
			Final     struct {
				FinalVerdict    string `json:"final_verdict"`
				FinalConfidence int    `json:"final_confidence"`
			}
		}
		body, _ := json.Marshal(map[string]string{"claim": claim, "source_excerpt": excerpt, "source_type": kind})
		postJSON(t, base+"/v1/entailment", string(body), &want)
		ctx := b.tab(t, 1280, 900)
		fill(t, ctx, base+"/#/entailment", "ent-claim", claim, "ent-excerpt", excerpt, "ent-type", kind)
		do(t, ctx, "see the audit", chromedp.WaitVisible(chromedp.CSS("#entailment-result .outcome-card")))
		got := jsEval[struct {
			Verdict    string
			Confidence string
			Statements int
			Agents     int
		}](t, ctx, `({verdict: document.querySelector('#entailment-result .outcome-card').dataset.verdict,
			confidence: document.querySelector('#ent-final strong').textContent,
			statements: document.querySelectorAll('.statements li').length,
			agents: document.querySelectorAll('.agent').length})`)
		if got.Verdict != want.Final.FinalVerdict || got.Confidence != fmt.Sprintf("%d / 100", want.Final.FinalConfidence) ||
			got.Statements != len(want.Extractor.Statements) || got.Agents != 4 {
			t.Errorf("audit shows %+v; the API says %s at %d with %d statements, from 4 agents", got, want.Final.FinalVerdict, want.Final.FinalConfidence, len(want.Extractor.Statements))
		}
		b.screenshot(t, ctx, "entailment")
	})

	t.Run("jury", func(t *testing.T) {
		const (
			claim = "Coffee causes a 20% lower risk of heart disease."
			truth = "Coffee drinking was associated with a 20% lower risk of heart disease in one observational study."
		)
		var want struct {
			Verdict string
			Rubric  []struct{ Axis, Answer string }
		}
		body, _ := json.Marshal(map[string]string{"claim": claim, "truth": truth})
		postJSON(t, base+"/v1/jury", string(body), &want)
		ctx := b.tab(t, 1280, 900)
		fill(t, ctx, base+"/#/jury", "jury-claim", claim, "jury-truth", truth)
		do(t, ctx, "see the verdict", chromedp.WaitVisible(chromedp.CSS("#jury-result .outcome-card")))
		got := jsEval[struct {
			Verdict string
			Rubric  []string
		}](t, ctx, `({verdict: document.querySelector('#jury-result .outcome-card').dataset.verdict,
			rubric: [...document.querySelectorAll('#rubric-h ~ .table-wrap tbody tr')].map((r) => r.dataset.axis + '=' + r.dataset.answer)})`)
		var wantRubric []string
		for _, r := range want.Rubric {
			wantRubric = append(wantRubric, r.Axis+"="+r.Answer)
		}
		if got.Verdict != want.Verdict || !slices.Equal(got.Rubric, wantRubric) || len(wantRubric) != 5 {
			t.Errorf("jury shows %s with rubric %q; the API says %s with %q", got.Verdict, got.Rubric, want.Verdict, wantRubric)
		}
		b.screenshot(t, ctx, "jury")
	})

	t.Run("keyboard and labels", func(t *testing.T) {
		ctx := b.tab(t, 1280, 900)
		do(t, ctx, "open the page", chromedp.Navigate(base+"/#/verify"), chromedp.WaitVisible(chromedp.ID("claim")),
			chromedp.KeyEvent(kb.Tab))
		if first := jsEval[string](t, ctx, `document.activeElement.className`); first != "skip-link" {
			t.Errorf("the first Tab focuses %q, want the skip link", first)
		}
		// Every control of every page has an accessible name.
		for _, hash := range []string{"#/verify", "#/factcheck", "#/citations", "#/entailment", "#/jury", "#/corpus"} {
			do(t, ctx, "open "+hash, chromedp.Navigate(base+"/"+hash), chromedp.WaitVisible(chromedp.CSS("h1")))
			unnamed := jsEval[[]string](t, ctx, `[...document.querySelectorAll('input, textarea, select, button, a[href]')]
				.filter((el) => !(el.labels && el.labels.length) && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby') && !el.textContent.trim())
				.map((el) => el.outerHTML.slice(0, 80))`)
			if len(unnamed) > 0 {
				t.Errorf("%s: controls without an accessible name: %q", hash, unnamed)
			}
		}
		// The fact-check form and the navigation on a phone.
		do(t, ctx, "open the fact-check form", chromedp.Navigate(base+"/#/factcheck"), chromedp.WaitVisible(chromedp.ID("fc-content")))
		b.phone(t, ctx, ".topbar", "factcheck-form-375px")
		do(t, ctx, "widen the screen", chromedp.EmulateViewport(1280, 900))

		// Navigation moves focus to the new page's heading.
		do(t, ctx, "navigate", chromedp.Click(chromedp.CSS(`.nav a[data-nav=verify]`)), chromedp.WaitVisible(chromedp.ID("claim")))
		if h := jsEval[string](t, ctx, `document.activeElement.tagName + ' ' + document.activeElement.textContent`); h != "H1 Verify a claim" {
			t.Errorf("after navigating, focus is on %q; want the page heading", h)
		}
	})

	t.Run("event parser", func(t *testing.T) {
		// The UI's own text/event-stream parser, run in the browser.
		tests := []struct {
			name   string
			chunks []string
			want   [][2]string
		}{
			{"one event", []string{"event: a\ndata: {}\n\n"}, [][2]string{{"a", "{}"}}},
			{"split across chunks", []string{"event: a\nda", "ta: {\"x\":1}\n", "\n"}, [][2]string{{"a", `{"x":1}`}}},
			{"CRLF and CR line ends", []string{"event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\r"}, [][2]string{{"a", "1"}, {"b", "2"}}},
			{"CRLF split between chunks", []string{"data: 1\r", "\ndata: 2\n\n"}, [][2]string{{"message", "1\n2"}}},
			{"comments and data lines", []string{": keep-alive\ndata: a\ndata: b\n\n"}, [][2]string{{"message", "a\nb"}}},
			{"no space, bare field", []string{"event:x\ndata:y\ndata\n\n"}, [][2]string{{"x", "y\n"}}},
			{"event cut off at the end", []string{"data: 1\n\ndata: 2\n"}, [][2]string{{"message", "1"}}},
			{"event without data", []string{"event: a\n\n"}, nil},
		}
		var cases [][]string
		for _, tt := range tests {
			cases = append(cases, tt.chunks)
		}
		in, err := json.Marshal(cases)
		if err != nil {
			t.Fatal(err)
		}
		ctx := b.tab(t, 1280, 900)
		do(t, ctx, "open the UI", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("h1")))
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[][][2]string](`import('/assets/js/api.js').then(({ EventParser }) =>
			`+string(in)+`.map((chunks) => {
				const out = [];
				const p = new EventParser((name, data) => out.push([name, data]));
				chunks.forEach((c) => p.push(c));
				return out;
			}))`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		for i, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if diff := cmp.Diff(tt.want, got[i], cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("events (-want +got):\n%s", diff)
				}
			})
		}
	})

	t.Run("stream breaks", func(t *testing.T) {
		tests := []struct {
			name  string
			abort bool // drop the connection; else end the stream without "complete"
			want  string
		}{
			{"connection drops", true, "The connection failed before the fact-check finished"},
			{"stream ends early", false, "The connection closed before the fact-check finished"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				fc := &breakingFactChecker{abort: tt.abort, release: make(chan struct{})}
				fake := httptest.NewServer(server.New(server.Config{}, server.Deps{Verifier: verifierStub{}, FactCheck: fc},
					slog.New(slog.NewTextHandler(io.Discard, nil))).Handler())
				defer fake.Close()
				ctx := b.tab(t, 1280, 900)
				fill(t, ctx, fake.URL+"/#/factcheck", "fc-content", "The Golden Gate Bridge opened in 1937.")
				do(t, ctx, "see the claim pending", chromedp.WaitVisible(chromedp.CSS(`.claim-item[data-status="pending"]`)))
				close(fc.release)
				do(t, ctx, "see the stream break", chromedp.WaitVisible(chromedp.CSS("#factcheck-alerts [role=alert]")))
				got := jsEval[struct {
					Alert    string
					Statuses []string
					Marks    []string
				}](t, ctx, `({alert: document.querySelector('#factcheck-alerts [role=alert]').textContent,
					statuses: [...document.querySelectorAll('.claim-item')].map((e) => e.dataset.status),
					marks: [...document.querySelectorAll('.content-card .claim-mark')].map((e) => e.dataset.claim)})`)
				if !strings.Contains(got.Alert, "stream broke") || !strings.Contains(got.Alert, tt.want) || !slices.Equal(got.Statuses, []string{"stopped"}) {
					t.Errorf("banner %q with claim statuses %q; want %q and the claim marked not checked", got.Alert, got.Statuses, tt.want)
				}
				// The claim was underlined in the pasted text as it was
				// extracted, before any stored result existed.
				if !slices.Equal(got.Marks, []string{"claim_1"}) {
					t.Errorf("claims underlined in the content: %q; want claim_1", got.Marks)
				}
				b.screenshot(t, ctx, "factcheck-stream-"+strings.ReplaceAll(tt.name, " ", "-"))
			})
		}
	})
}

type verifierStub struct{}

func (verifierStub) Verify(context.Context, verify.Request) (evidence.Result, error) {
	return evidence.Result{}, nil
}

// breakingFactChecker starts a fact-check and extracts a claim; once
// release is closed it drops the connection, as a crashed server or a cut
// network would (abort), or ends the stream without "complete".
type breakingFactChecker struct {
	abort   bool
	release chan struct{}
}

func (*breakingFactChecker) Validate(factcheck.Request) error { return nil }

func (f *breakingFactChecker) Run(ctx context.Context, _ factcheck.Request, emit func(factcheck.Event)) (factcheck.Result, error) {
	emit(factcheck.Event{Name: factcheck.EventStart, Data: factcheck.StartPayload{MessageID: "m1", Config: factcheck.StartConfig{
		ContentSource: factcheck.SourceUserProvided, ExtractorModel: factcheck.BuiltinExtractor, CheckerModels: []string{factcheck.BuiltinEvidence}, ReporterModel: factcheck.BuiltinReporter}}})
	emit(factcheck.Event{Name: factcheck.EventExtractComplete, Data: factcheck.ExtractCompletePayload{
		Claims: []factcheck.ClaimBrief{{ID: "claim_1", Claim: "The Golden Gate Bridge opened in 1937", Type: "DATE"}}, TotalClaims: 1}})
	emit(factcheck.Event{Name: factcheck.EventVerifyStart, Data: factcheck.VerifyStartPayload{CheckerCount: 1, ClaimCount: 1}})
	select {
	case <-f.release:
	case <-ctx.Done():
		return factcheck.Result{}, ctx.Err()
	}
	if f.abort {
		panic(http.ErrAbortHandler)
	}
	return factcheck.Result{}, nil
}

func (*breakingFactChecker) Load(context.Context, string) (factcheck.Result, error) {
	return factcheck.Result{}, factcheck.ErrNotFound
}
