package prompts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"text/template"
)

// inputJSON writes the untrusted values of an agent prompt as one indented
// JSON object. JSON quoting keeps each value inside its own string: a
// claim, an excerpt or another agent's output cannot close the block it
// stands in or pass for the prompt's instructions.
func inputJSON(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return "", fmt.Errorf("encode prompt input: %w", err)
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// execute renders template name of t with data.
func execute(t *template.Template, name string, data any) (string, error) {
	var b strings.Builder
	if err := t.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("render prompt %s: %w", name, err)
	}
	return b.String(), nil
}

// withInput renders template name of t with the JSON of input as .Input.
func withInput(t *template.Template, name string, input any) (string, error) {
	in, err := inputJSON(input)
	if err != nil {
		return "", err
	}
	return execute(t, name, struct{ Input string }{in})
}
