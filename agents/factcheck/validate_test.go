package factcheck

import (
	"errors"
	"strings"
	"testing"

	"github.com/verity-fc/verity/evidence"
)

func TestValidate(t *testing.T) {
	withModels := newEnv(map[string]reply{}, Config{}).p
	builtinOnly := newEnv(nil, Config{}).p
	noEvidence := New(Deps{}, Config{})
	ok := func() Request { return req("Some content.", "c1") }
	mc := func(f func(*ModeConfig)) Request { r := ok(); f(r.ModeConfig); return r }
	tests := []struct {
		name      string
		p         *Pipeline
		req       Request
		wantField string // "" for valid
		wantMsg   string
	}{
		{"valid", withModels, ok(), "", ""},
		{"valid generate", withModels, mc(func(m *ModeConfig) { m.ContentToCheck, m.GeneratorModel = "", "gen" }), "", ""},
		{"valid built-in defaults", builtinOnly, Request{Question: "q", Mode: "fact_check", ModeConfig: &ModeConfig{ContentToCheck: "x"}}, "", ""},
		{"valid limits", withModels, mc(func(m *ModeConfig) { m.MaxContentLength, m.TimeoutMs = new(500), new(180_000) }), "", ""},
		{"neither content nor generator", withModels, mc(func(m *ModeConfig) { m.ContentToCheck = "" }), "modeConfig", msgNeitherContentNorGenerator},
		{"blank content and no generator", withModels, mc(func(m *ModeConfig) { m.ContentToCheck = " \n " }), "modeConfig", msgNeitherContentNorGenerator},
		{"no modeConfig", withModels, Request{Question: "q", Mode: "fact_check"}, "modeConfig", msgNeitherContentNorGenerator},
		{"empty question", withModels, func() Request { r := ok(); r.Question = "  "; return r }(), "question", "Question or content description is required"},
		{"long question", withModels, func() Request { r := ok(); r.Question = strings.Repeat("q", MaxQuestionChars+1); return r }(), "question", ""},
		{"wrong mode", withModels, func() Request { r := ok(); r.Mode = "jury"; return r }(), "mode", ""},
		{"long conversation id", withModels, func() Request { r := ok(); r.ConversationID = strings.Repeat("c", 201); return r }(), "conversationId", ""},
		{"no checkers", withModels, mc(func(m *ModeConfig) { m.CheckerModels = []string{} }), "modeConfig.checkerModels", ""},
		{"five checkers", withModels, mc(func(m *ModeConfig) { m.CheckerModels = []string{"a", "b", "c", "d", "e"} }), "modeConfig.checkerModels", ""},
		{"empty checker name", withModels, mc(func(m *ModeConfig) { m.CheckerModels = []string{"a", ""} }), "modeConfig.checkerModels[1]", ""},
		{"content length too small", withModels, mc(func(m *ModeConfig) { m.MaxContentLength = new(499) }), "modeConfig.maxContentLength", ""},
		{"content length too large", withModels, mc(func(m *ModeConfig) { m.MaxContentLength = new(50_001) }), "modeConfig.maxContentLength", ""},
		{"zero content length", withModels, mc(func(m *ModeConfig) { m.MaxContentLength = new(0) }), "modeConfig.maxContentLength", ""},
		{"timeout too small", withModels, mc(func(m *ModeConfig) { m.TimeoutMs = new(29_999) }), "modeConfig.timeoutMs", ""},
		{"timeout too large", withModels, mc(func(m *ModeConfig) { m.TimeoutMs = new(180_001) }), "modeConfig.timeoutMs", ""},
		{"built-in generator", withModels, mc(func(m *ModeConfig) { m.ContentToCheck, m.GeneratorModel = "", "verity/extractor" }), "modeConfig.generatorModel", ""},
		{"wrong built-in extractor", withModels, mc(func(m *ModeConfig) { m.ExtractorModel = BuiltinEvidence }), "modeConfig.extractorModel", ""},
		{"unknown built-in checker", withModels, mc(func(m *ModeConfig) { m.CheckerModels = []string{"verity/oracle"} }), "modeConfig.checkerModels[0]", ""},
		{"wrong built-in reporter", withModels, mc(func(m *ModeConfig) { m.ReporterModel = BuiltinExtractor }), "modeConfig.reporterModel", ""},
		{"long model name", withModels, mc(func(m *ModeConfig) { m.ReporterModel = strings.Repeat("m", 201) }), "modeConfig.reporterModel", ""},
		{"model without a backend", builtinOnly, ok(), "modeConfig.extractorModel", ""},
		{"generator without a backend", builtinOnly, Request{Question: "q", Mode: "fact_check", ModeConfig: &ModeConfig{GeneratorModel: "gen"}}, "modeConfig.generatorModel", ""},
		{"evidence checker without the evidence layer", noEvidence, Request{Question: "q", Mode: "fact_check", ModeConfig: &ModeConfig{ContentToCheck: "x"}}, "modeConfig.checkerModels[0]", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.p.Validate(tt.req)
			if tt.wantField == "" {
				if err != nil {
					t.Fatalf("Validate = %v, want nil", err)
				}
				return
			}
			var ie *evidence.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("Validate = %v, want an *evidence.InputError", err)
			}
			if ie.Field != tt.wantField || ie.Message == "" || (tt.wantMsg != "" && ie.Message != tt.wantMsg) {
				t.Errorf("error = %q (field %q), want field %q message %q", ie.Message, ie.Field, tt.wantField, tt.wantMsg)
			}
			// Run validates too, before any event.
			var events int
			if _, err := tt.p.Run(t.Context(), tt.req, func(Event) { events++ }); !errors.As(err, &ie) || events != 0 {
				t.Errorf("Run = %v after %d events, want the input error before any", err, events)
			}
		})
	}
}
