package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/verity-fc/verity/evidence"
)

func TestCheckJSONText(t *testing.T) {
	tests := []struct {
		name, body, field string // field "" means accepted
	}{
		{"plain", `{"claim": "The tower is 330 m tall.", "domains": ["a.example"]}`, ""},
		{"other scripts and escapes", `{"claim": "Ça \u00e9t\u00e9 \ud83d\ude00 \t\n ok \ufffd �"}`, ""},
		{"NUL escape", `{"claim": "a\u0000b"}`, "claim"},
		{"raw NUL", "{\"claim\": \"a\x00b\"}", "claim"},
		{"invalid UTF-8", "{\"claim\": \"caf\xe9\"}", "claim"},
		{"lone surrogate", `{"claim": "x\ud800y"}`, "claim"},
		{"in an array", `{"claim": "ok", "domains": ["a.example", "b\u0000"]}`, "domains[1]"},
		{"in a nested object", `{"claims": [{"text": "ok"}, {"text": "ok", "notes": {"a": "\u0000"}}]}`, "claims[1].notes.a"},
		{"after nested values", `{"a": {"b": [1, {"c": 2}]}, "d": [[1], [2]], "e": "\u0000"}`, "e"},
		{"in a key", `{"cl\u0000aim": "x"}`, "body"},
		{"top-level string", `"\u0000"`, "body"},
		{"malformed JSON passes to the decoder", `{"claim": "a`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkJSONText([]byte(tt.body))
			if tt.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var ie *evidence.InputError
			if !errors.As(err, &ie) || ie.Field != tt.field {
				t.Fatalf("err = %v, want an input error naming %q", err, tt.field)
			}
		})
	}
}

// TestRoutesRefuseBadText sends NUL and invalid UTF-8 to every kind of
// text field the API reads: JSON bodies, query and path parameters and
// multipart fields (see uploads_test.go for the last).
func TestRoutesRefuseBadText(t *testing.T) {
	ts, _, _ := corpusServer(t)
	tests := []struct {
		name, method, path, body, field string
	}{
		{"verify claim NUL", "POST", "/v1/verify", `{"claim": "The tower\u0000 is tall."}`, "claim"},
		{"verify claim invalid UTF-8", "POST", "/v1/verify", "{\"claim\": \"The tower \xff is tall.\"}", "claim"},
		{"verify domains", "POST", "/v1/verify", `{"claim": "The tower is tall.", "domains": ["ok.example", "\ud800"]}`, "domains[1]"},
		{"ingest sources", "POST", "/v1/ingest", `{"sources": ["https://a.example/\u0000"]}`, "sources[0]"},
		{"sources query", "GET", "/v1/sources?q=a%00b", "", "q"},
		{"sources query invalid UTF-8", "GET", "/v1/sources?domain=%ff", "", "domain"},
		{"job id", "GET", "/v1/jobs/a%00b", "", "id"},
		{"source id", "GET", "/v1/sources/%c3%28", "", "id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var (
				resp *http.Response
				body []byte
			)
			if tt.method == "POST" {
				resp, body = post(t, ts.URL+tt.path, tt.body)
			} else {
				r, err := http.Get(ts.URL + tt.path)
				resp, body = readResponse(t, r, err)
			}
			var p Problem
			json.Unmarshal(body, &p)
			if resp.StatusCode != 400 || p.Field != tt.field {
				t.Errorf("status %d problem %+v, want 400 naming %q", resp.StatusCode, p, tt.field)
			}
		})
	}
}
