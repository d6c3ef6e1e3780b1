package structured

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/verity-fc/verity/llm"
)

// fuzzSchema is the JSON schema of out.
var fuzzSchema = json.RawMessage(`{"type":"object","required":["agent","items"],"properties":{
"agent":{"type":"string"},
"items":{"type":"array","items":{"type":"object","required":["id","text"],"properties":{"id":{"type":"integer"},"text":{"type":"string"}}}},
"note":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}}}}`)

// FuzzDecodeModelOutput feeds a model reply to both decoders of LLM
// output: this package's strict Decode and Validate, and llm.Structured's
// lenient extraction (fences, prose) with schema validation. Neither may
// panic; what either accepts must satisfy the schema's required fields.
func FuzzDecodeModelOutput(f *testing.F) {
	for _, s := range []string{
		`{"agent": "A", "items": [{"id": 1, "text": "x"}]}`,
		`{"agent": "A", "items": [], "note": "n", "tags": ["t"]}`,
		"```json\n{\"agent\": \"A\", \"items\": []}\n```",
		`Sure! Here it is: {"agent": "A", "items": []} Hope this helps`,
		`{"agent": "A", "items": [{"id": 1e400, "text": "x"}]}`,
		`{"agent": "A", "items": [{"id": "1", "text": null}]}`,
		`[{"agent":"A"}]`, `{"agent": "A", "items": [`, `{"a":` + "\"\\ud800\"}", "  ", `{{{{[[[[`,
		`{"agent":"\u0000","items":[],"extra":{"deep":[[[[[[[[[[1]]]]]]]]]]}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		if got, err := Decode[out](reply); err == nil {
			if got.Items == nil {
				t.Errorf("Decode(%q) accepted a reply without items", reply)
			}
			if err := Validate(fuzzSchema, reply); err != nil {
				t.Errorf("Decode(%q) accepted what the schema refuses: %v", reply, err)
			}
		}
		var got out
		c := &scripted{replies: []string{reply}}
		err := llm.Structured(context.Background(), c, llm.ChatRequest{Schema: fuzzSchema}, &got, llm.StructuredOptions{Retries: -1})
		var se *llm.SchemaError
		switch {
		case err == nil:
			if got.Items == nil {
				t.Errorf("Structured(%q) accepted a reply without items", reply)
			}
		case !errors.As(err, &se):
			t.Errorf("Structured(%q) = %v, want a *llm.SchemaError", reply, err)
		}
	})
}
