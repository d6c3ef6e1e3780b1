package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/verity-fc/verity/llm"
)

// NewOpenAI starts a fake OpenAI-compatible server, under /v1, that t closes
// when it ends. It answers chat completions (not streamed), embeddings and
// the model list in OpenAI's wire format, and errors as
// {"error": {"message", "type", "code"}}.
func NewOpenAI(t testing.TB, cfg Config) *Server {
	return newServer(t, cfg, func(s *Server) http.Handler {
		mux := http.NewServeMux()
		mux.HandleFunc("POST /v1/chat/completions", s.openaiChat)
		mux.HandleFunc("POST /v1/embeddings", s.openaiEmbed)
		mux.HandleFunc("GET /v1/models", s.openaiModels)
		return s.openaiAuth(mux)
	})
}

func openaiError(w http.ResponseWriter, status int, typ, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}})
}

func (s *Server) openaiAuth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.APIKey != "" && r.Header.Get("Authorization") != "Bearer "+s.cfg.APIKey {
			s.record(Request{Path: r.URL.Path, Auth: r.Header.Get("Authorization")})
			openaiError(w, http.StatusUnauthorized, "invalid_request_error", "Incorrect API key provided.")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// openaiFault answers the fault rep scripts, if any, and reports whether
// it did. body is the reply a Cut fault sends half of.
func (s *Server) openaiFault(w http.ResponseWriter, r *http.Request, rep Reply, body func() []byte) bool {
	switch {
	case rep.Hang:
		s.hang(r)
		return true
	case rep.Status != 0:
		typ := "invalid_request_error"
		if rep.Status >= 500 {
			typ = "server_error"
		}
		openaiError(w, rep.Status, typ, rep.Error)
		return true
	case rep.Cut:
		cut(w, "application/json", body())
		return true
	}
	return false
}

type openaiChatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	} `json:"messages"`
	Temperature         *float64 `json:"temperature"`
	MaxTokens           int      `json:"max_tokens"`
	MaxCompletionTokens int      `json:"max_completion_tokens"`
	Logprobs            bool     `json:"logprobs"`
	TopLogprobs         int      `json:"top_logprobs"`
	Stream              bool     `json:"stream"`
	ResponseFormat      *struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Name   string          `json:"name"`
			Schema json.RawMessage `json:"schema"`
			Strict *bool           `json:"strict"`
		} `json:"json_schema"`
	} `json:"response_format"`
}

type openaiTop struct {
	Token   string  `json:"token"`
	Logprob float64 `json:"logprob"`
	Bytes   []int   `json:"bytes"`
}

type openaiTokenLogprob struct {
	openaiTop
	TopLogprobs []openaiTop `json:"top_logprobs"`
}

func (s *Server) openaiChat(w http.ResponseWriter, r *http.Request) {
	var req openaiChatRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 16<<20)).Decode(&req); err != nil {
		openaiError(w, http.StatusBadRequest, "invalid_request_error", "could not parse the JSON body: "+err.Error())
		return
	}
	in := Request{Path: r.URL.Path, Model: req.Model, Temperature: req.Temperature, MaxTokens: max(req.MaxTokens, req.MaxCompletionTokens),
		Logprobs: req.Logprobs, TopLogprobs: req.TopLogprobs, Stream: req.Stream, Auth: r.Header.Get("Authorization")}
	for _, m := range req.Messages {
		text, ok := m.Content.(string)
		if !ok {
			openaiError(w, http.StatusBadRequest, "invalid_request_error", "llmtest: message content must be a string")
			return
		}
		in.Messages = append(in.Messages, llm.Message{Role: m.Role, Content: text})
	}
	if rf := req.ResponseFormat; rf != nil && rf.Type == "json_schema" && rf.JSONSchema != nil {
		in.Format = rf.JSONSchema.Schema
	}
	switch {
	case req.Stream:
		openaiError(w, http.StatusBadRequest, "invalid_request_error", "llmtest: streamed chat completions are not implemented")
		return
	case req.TopLogprobs < 0 || req.TopLogprobs > 20:
		openaiError(w, http.StatusBadRequest, "invalid_request_error", "top_logprobs must be between 0 and 20")
		return
	case !s.served(req.Model):
		openaiError(w, http.StatusNotFound, "invalid_request_error", fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", req.Model))
		return
	}
	rep := s.record(in)
	toks, truncated := tokens(rep.Content, in.MaxTokens)
	choice := map[string]any{
		"index":         0,
		"message":       map[string]any{"role": "assistant", "content": strings.Join(toks, ""), "refusal": nil},
		"logprobs":      nil,
		"finish_reason": "stop",
	}
	if truncated {
		choice["finish_reason"] = "length"
	}
	if req.Logprobs && !rep.NoLogprobs {
		content := make([]openaiTokenLogprob, len(toks))
		for i, tok := range toks {
			content[i] = openaiTokenLogprob{openaiTop: openaiTop{Token: tok, Logprob: -0.01, Bytes: byteInts(tok)}, TopLogprobs: []openaiTop{}}
			if i == 0 {
				content[i].Logprob = tokenLogprob(tok, rep.Alternatives)
				for _, a := range rep.Alternatives[:min(req.TopLogprobs, len(rep.Alternatives))] {
					content[i].TopLogprobs = append(content[i].TopLogprobs, openaiTop{Token: a.Token, Logprob: a.Logprob, Bytes: byteInts(a.Token)})
				}
			}
		}
		choice["logprobs"] = map[string]any{"content": content, "refusal": nil}
	}
	prompt := len(strings.Fields(in.LastUser())) + 1
	resp := map[string]any{
		"id": fmt.Sprintf("chatcmpl-%d", len(s.Requests())), "object": "chat.completion", "created": time.Now().Unix(), "model": req.Model,
		"choices": []any{choice},
		"usage":   map[string]int{"prompt_tokens": prompt, "completion_tokens": len(toks), "total_tokens": prompt + len(toks)},
	}
	if s.openaiFault(w, r, rep, func() []byte { b, _ := json.Marshal(resp); return b }) {
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

func byteInts(s string) []int {
	out := make([]int, len(s))
	for i := range len(s) {
		out[i] = int(s[i])
	}
	return out
}

func (s *Server) openaiEmbed(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model string `json:"model"`
		Input any    `json:"input"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 16<<20)).Decode(&req); err != nil {
		openaiError(w, http.StatusBadRequest, "invalid_request_error", "could not parse the JSON body: "+err.Error())
		return
	}
	in := Request{Path: r.URL.Path, Model: req.Model, Auth: r.Header.Get("Authorization")}
	switch v := req.Input.(type) {
	case string:
		in.Input = []string{v}
	case []any:
		for _, x := range v {
			str, ok := x.(string)
			if !ok {
				openaiError(w, http.StatusBadRequest, "invalid_request_error", "llmtest: input must be strings")
				return
			}
			in.Input = append(in.Input, str)
		}
	default:
		openaiError(w, http.StatusBadRequest, "invalid_request_error", "'input' is a required property")
		return
	}
	if !s.served(req.Model) {
		openaiError(w, http.StatusNotFound, "invalid_request_error", fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", req.Model))
		return
	}
	rep := s.record(in)
	data := make([]map[string]any, len(in.Input))
	// Listed last to first: the API does not promise the order of data.
	for i, text := range in.Input {
		data[len(in.Input)-1-i] = map[string]any{"object": "embedding", "index": i, "embedding": s.cfg.Embed(text)}
	}
	resp := map[string]any{"object": "list", "data": data, "model": req.Model, "usage": map[string]int{"prompt_tokens": len(in.Input), "total_tokens": len(in.Input)}}
	if s.openaiFault(w, r, rep, func() []byte { b, _ := json.Marshal(resp); return b }) {
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

func (s *Server) openaiModels(w http.ResponseWriter, r *http.Request) {
	rep := s.record(Request{Path: r.URL.Path, Auth: r.Header.Get("Authorization")})
	data := make([]map[string]any, len(s.cfg.Models))
	for i, m := range s.cfg.Models {
		data[i] = map[string]any{"id": m, "object": "model", "created": 0, "owned_by": "llmtest"}
	}
	resp := map[string]any{"object": "list", "data": data}
	if s.openaiFault(w, r, rep, func() []byte { b, _ := json.Marshal(resp); return b }) {
		return
	}
	writeJSON(w, http.StatusOK, resp)
}
