package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/verity-fc/verity/evidence"
)

// TestVerifyNotAClaim: text that is no checkable claim gets no verdict but
// a 422 problem naming the reason, through the verify service's own
// screen.
func TestVerifyNotAClaim(t *testing.T) {
	ts := newTestServer(t, Deps{})
	for _, tc := range []struct{ claim, reason string }{
		{"When did the Golden Gate Bridge open?", "question"},
		{"Did the Golden Gate Bridge open in 1937", "question"},
		{"Check whether the bridge opened in 1937.", "imperative"},
		{"I think trams are lovely.", "opinion"},
		{"Golden Gate Bridge, 1937", "no_verb"},
	} {
		b, _ := json.Marshal(map[string]string{"claim": tc.claim})
		resp, body := post(t, ts.URL+"/v1/verify", string(b))
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("%q: status %d, want 422; body %s", tc.claim, resp.StatusCode, body)
			continue
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/problem+json") {
			t.Errorf("%q: content type %q", tc.claim, ct)
		}
		var p Problem
		if err := json.Unmarshal(body, &p); err != nil {
			t.Fatal(err)
		}
		if p.Reason != tc.reason || p.Field != "claim" || p.Status != 422 || p.Detail == "" {
			t.Errorf("%q: problem %+v, want reason %q on field claim", tc.claim, p, tc.reason)
		}
	}
	// A claim passes the screen and gets a verdict with its reason.
	resp, body := post(t, ts.URL+"/v1/verify", `{"claim": "The Golden Gate Bridge opened in 1937."}`)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var res evidence.Result
	if err := json.Unmarshal(body, &res); err != nil {
		t.Fatal(err)
	}
	if res.Reason.Code != evidence.ReasonNoRelevantEvidence || res.Reason.Text == "" {
		t.Errorf("reason %+v on an empty corpus, want no_relevant_evidence with a sentence", res.Reason)
	}
}
