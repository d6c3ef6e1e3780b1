package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestUIAsksForKey runs the web UI against a serve that requires keys: the
// first request gets 401 and the UI asks for a key; a wrong key is refused
// and asked for again; the right one answers and stays for the session.
func TestUIAsksForKey(t *testing.T) {
	b := startBrowser(t)
	data := filepath.Join(t.TempDir(), "data")
	key, stderr, code := verity(t, "keys", "create", "--data", data)
	if code != 0 {
		t.Fatalf("keys create: exit %d: %s", code, stderr)
	}
	key = strings.TrimSpace(key)
	base, _ := startServe(t, data)

	ctx := b.tab(t, 1280, 900)
	do(t, ctx, "submit a claim",
		chromedp.Navigate(base+"/#/verify"),
		chromedp.WaitVisible(chromedp.ID("claim")),
		chromedp.SetValue(chromedp.ID("claim"), "The Golden Gate Bridge opened in 1937."),
		chromedp.Click(chromedp.CSS(".view form button[type=submit]")))
	do(t, ctx, "see the key dialog", chromedp.WaitVisible(chromedp.ID("api-key-input")))
	do(t, ctx, "enter a wrong key",
		chromedp.SendKeys(chromedp.ID("api-key-input"), "vk_wrong"),
		chromedp.Click(chromedp.CSS(".key-dialog button[value=ok]")))
	waitFor(t, ctx, "the dialog again, saying the key was refused",
		`document.querySelector('dialog.key-dialog[open]')?.textContent.includes('refused')`)
	do(t, ctx, "enter the key",
		chromedp.SendKeys(chromedp.ID("api-key-input"), key),
		chromedp.Click(chromedp.CSS(".key-dialog button[value=ok]")))
	do(t, ctx, "see the verdict", chromedp.WaitVisible(chromedp.CSS(".verdict-card")))
	if got := jsEval[string](t, ctx, `sessionStorage.getItem('verity.apiKey')`); got != key {
		t.Errorf("sessionStorage holds %q, want the key", got)
	}
	if n := jsEval[int](t, ctx, `document.querySelectorAll('dialog.key-dialog').length`); n != 0 {
		t.Errorf("%d key dialogs left in the page", n)
	}
}
