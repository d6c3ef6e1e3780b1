package main

import (
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeRefusesOpenNonLoopback: without keys, serve will not listen
// beyond loopback unless told it is on purpose, and beyond loopback it
// needs the host names it answers to.
func TestServeRefusesOpenNonLoopback(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	_, stderr, code := verity(t, "serve", "--data", data, "--demo=false", "--addr", "0.0.0.0:0")
	if code == 0 || !strings.Contains(stderr, "without API keys") || !strings.Contains(stderr, "insecure_no_auth") {
		t.Errorf("serve on 0.0.0.0 without keys: exit %d, stderr %q; want a refusal naming insecure_no_auth", code, stderr)
	}
	verity(t, "keys", "create", "--data", data)
	_, stderr, code = verity(t, "serve", "--data", data, "--demo=false", "--addr", "0.0.0.0:0")
	if code == 0 || !strings.Contains(stderr, "server.allowed_hosts") {
		t.Errorf("serve on 0.0.0.0 without allowed_hosts: exit %d, stderr %q; want a refusal naming server.allowed_hosts", code, stderr)
	}
}

// TestServeWithKeys creates keys with the CLI, then checks that serve
// requires them, by scope, and that revocation takes effect at once.
func TestServeWithKeys(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	readKey, stderr, code := verity(t, "keys", "create", "--data", data, "--name", "reader")
	if code != 0 {
		t.Fatalf("keys create: exit %d: %s", code, stderr)
	}
	readKey = strings.TrimSpace(readKey)
	if !strings.HasPrefix(readKey, "vk_") {
		t.Fatalf("keys create printed %q, want the key", readKey)
	}
	base, _ := startServe(t, data)
	send := func(method, path, key, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.Header.Get("X-Request-Id") == "" {
			t.Errorf("%s %s: no X-Request-Id", method, path)
		}
		return resp.StatusCode, string(b)
	}
	claim := `{"claim": "The Golden Gate Bridge opened in 1937."}`
	if code, body := send("POST", "/v1/verify", "", claim); code != 401 {
		t.Errorf("verify without a key = %d %s, want 401", code, body)
	}
	if code, body := send("POST", "/v1/verify", readKey, claim); code != 200 {
		t.Errorf("verify with a read key = %d %s, want 200", code, body)
	}
	if code, body := send("POST", "/v1/ingest", readKey, `{"sources": ["https://example.org/"]}`); code != 403 {
		t.Errorf("ingest with a read key = %d %s, want 403", code, body)
	}
	if code, body := send("GET", "/metrics", readKey, ""); code != 200 || !strings.Contains(body, `verity_http_requests_total{method="POST",route="/v1/verify",status="200"} 1`) ||
		!strings.Contains(body, "verity_stage_duration_seconds_count") || !strings.Contains(body, `verity_jobs{state="queued"} 0`) {
		t.Errorf("metrics = %d, want request and stage counts:\n%s", code, body)
	}
	out, _, _ := verity(t, "keys", "list", "--data", data)
	fields := strings.Fields(strings.Split(strings.TrimSpace(out), "\n")[1])
	if len(fields) < 3 || fields[1] != "reader" || fields[2] != "read" || strings.Contains(out, readKey) {
		t.Fatalf("keys list = %q; want the reader key listed without the key itself", out)
	}
	if _, stderr, code := verity(t, "keys", "revoke", "--data", data, fields[0]); code != 0 {
		t.Fatalf("keys revoke: exit %d: %s", code, stderr)
	}
	if code, body := send("POST", "/v1/verify", readKey, claim); code != 401 {
		t.Errorf("verify with a revoked key = %d %s, want 401", code, body)
	}
}
