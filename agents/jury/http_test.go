package jury

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/verity-fc/verity/llm"
	"github.com/verity-fc/verity/llm/llmtest"
)

var jurorName = regexp.MustCompile(`\("(\w+)"\)`)

// TestOverOllama runs every role on a model behind the fake Ollama HTTP
// server: literal and context vote Mutated, steelman and sceptic Faithful,
// so the pair is debated.
func TestOverOllama(t *testing.T) {
	var votes = map[string]string{"literal": Mutated, "context": Mutated, "steelman": Faithful, "sceptic": Faithful}
	srv := llmtest.NewOllama(t, llmtest.Config{Reply: func(r llmtest.Request) llmtest.Reply {
		prompt := r.Messages[0].Content
		switch {
		case strings.HasPrefix(prompt, "You are the Parser"):
			return llmtest.Reply{Content: frameReply}
		case strings.HasPrefix(prompt, "You check a jury debate"):
			return llmtest.Reply{Content: `{"new_reasoning": false, "reason": "nothing new"}`}
		case strings.HasPrefix(prompt, "You are the Foreperson"):
			return llmtest.Reply{Content: ruling("Yes", "Yes", "Yes", "No", "Yes")}
		}
		m := jurorName.FindStringSubmatch(prompt)
		if m == nil {
			return llmtest.Reply{Status: http.StatusBadRequest, Error: "unexpected prompt"}
		}
		content, err := fakeJuror(m[1], votes[m[1]], votes[m[1]])(prompt)
		if err != nil {
			return llmtest.Reply{Status: http.StatusBadRequest, Error: err.Error()}
		}
		return llmtest.Reply{Content: content}
	}})
	client, err := llm.NewOllama(srv.URL, nil, llm.OllamaConfig{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Models = ModelsConfig{Parser: llmtest.ChatModel, Agents: llmtest.ChatModel, Foreperson: llmtest.ChatModel, Novelty: llmtest.ChatModel}
	j, err := New(Deps{Chatter: client, Logger: quiet}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	card, err := j.Run(context.Background(), pair)
	if err != nil {
		t.Fatal(err)
	}
	// 4 axes Yes and a 2-2 split: Ambiguous.
	if card.Verdict != Ambiguous || !card.Debate.Held || len(card.Round2) != 4 || len(card.Excluded) != 0 {
		t.Errorf("card = %+v", card)
	}
	// parser + 4 votes + 8 turns + novelty + 4 revotes + foreperson.
	if n := len(srv.Requests()); n != 19 {
		t.Errorf("%d requests, want 19", n)
	}
}
