package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/types/model"

	"github.com/verity-fc/verity/llm"
)

// Version is what the fake Ollama reports from /api/version.
const Version = "0.17.4"

// NewOllama starts a fake Ollama server that t closes when it ends. It
// decodes requests and encodes replies with the official api types, streams
// NDJSON ("application/x-ndjson") unless the request says "stream": false,
// and reports errors as Ollama does: {"error": "..."} with the status.
func NewOllama(t testing.TB, cfg Config) *Server {
	return newServer(t, cfg, func(s *Server) http.Handler {
		mux := http.NewServeMux()
		mux.HandleFunc("GET /{$}", s.ollamaRoot)
		mux.HandleFunc("HEAD /{$}", s.ollamaRoot)
		mux.HandleFunc("GET /api/version", s.ollamaVersion)
		mux.HandleFunc("GET /api/tags", s.ollamaTags)
		mux.HandleFunc("POST /api/chat", s.ollamaChat)
		mux.HandleFunc("POST /api/generate", s.ollamaGenerate)
		mux.HandleFunc("POST /api/embed", s.ollamaEmbed)
		return mux
	})
}

func (s *Server) ollamaRoot(w http.ResponseWriter, r *http.Request) {
	if !s.ollamaFault(w, r, s.record(Request{Path: "/"})) {
		_, _ = fmt.Fprint(w, "Ollama is running")
	}
}

func (s *Server) ollamaVersion(w http.ResponseWriter, r *http.Request) {
	if !s.ollamaFault(w, r, s.record(Request{Path: r.URL.Path})) {
		writeJSON(w, http.StatusOK, map[string]string{"version": Version})
	}
}

func (s *Server) ollamaTags(w http.ResponseWriter, r *http.Request) {
	if s.ollamaFault(w, r, s.record(Request{Path: r.URL.Path})) {
		return
	}
	var list api.ListResponse
	for _, m := range s.cfg.Models {
		name := model.ParseName(m).DisplayShortest()
		list.Models = append(list.Models, api.ListModelResponse{
			Name: name, Model: name, ModifiedAt: time.Unix(0, 0).UTC(), Size: 1 << 30,
			Digest:  fmt.Sprintf("%064x", len(name)),
			Details: api.ModelDetails{Format: "gguf", Family: "llama", ParameterSize: "8B", QuantizationLevel: "Q4_K_M"},
		})
	}
	writeJSON(w, http.StatusOK, list)
}

// ollamaFault answers the fault rep scripts, if any, and reports whether
// it did.
func (s *Server) ollamaFault(w http.ResponseWriter, r *http.Request, rep Reply) bool {
	switch {
	case rep.Hang:
		s.hang(r)
		return true
	case rep.Status != 0:
		writeJSON(w, rep.Status, map[string]string{"error": rep.Error})
		return true
	case rep.Cut && r.URL.Path != "/api/chat" && r.URL.Path != "/api/generate":
		cut(w, "application/json; charset=utf-8", []byte(`{"model":"x","embeddings":[[0.1,0.2,0.3]]}`))
		return true
	}
	return false
}

// decode reads a JSON request body into v, answering 400 as Ollama does
// when it cannot.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 16<<20)).Decode(v); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return false
	}
	return true
}

func (s *Server) ollamaChat(w http.ResponseWriter, r *http.Request) {
	var req api.ChatRequest
	if !decode(w, r, &req) {
		return
	}
	in := Request{Path: r.URL.Path, Model: req.Model, Format: req.Format, Logprobs: req.Logprobs, TopLogprobs: req.TopLogprobs, Stream: req.Stream == nil || *req.Stream}
	for _, m := range req.Messages {
		in.Messages = append(in.Messages, llm.Message{Role: m.Role, Content: m.Content})
	}
	ollamaOptions(req.Options, &in)
	s.ollamaComplete(w, r, in, func(tok string, lps []api.Logprob, done *api.Metrics, reason string) any {
		resp := api.ChatResponse{Model: req.Model, CreatedAt: time.Now().UTC(), Message: api.Message{Role: "assistant", Content: tok}, Logprobs: lps}
		if done != nil {
			resp.Done, resp.DoneReason, resp.Metrics = true, reason, *done
		}
		return resp
	})
}

func (s *Server) ollamaGenerate(w http.ResponseWriter, r *http.Request) {
	var req api.GenerateRequest
	if !decode(w, r, &req) {
		return
	}
	in := Request{Path: r.URL.Path, Model: req.Model, Prompt: req.Prompt, System: req.System, Format: req.Format, Logprobs: req.Logprobs, TopLogprobs: req.TopLogprobs, Stream: req.Stream == nil || *req.Stream}
	ollamaOptions(req.Options, &in)
	s.ollamaComplete(w, r, in, func(tok string, lps []api.Logprob, done *api.Metrics, reason string) any {
		resp := api.GenerateResponse{Model: req.Model, CreatedAt: time.Now().UTC(), Response: tok, Logprobs: lps}
		if done != nil {
			resp.Done, resp.DoneReason, resp.Metrics = true, reason, *done
		}
		return resp
	})
}

func ollamaOptions(opts map[string]any, in *Request) {
	if t, ok := opts["temperature"].(float64); ok {
		in.Temperature = &t
	}
	if n, ok := opts["num_predict"].(float64); ok {
		in.MaxTokens = int(n)
	}
}

// ollamaComplete answers a chat or generate request: one message a token,
// then a final one with done set, or all in one when not streaming. chunk
// builds a message; done is nil except for the final one.
func (s *Server) ollamaComplete(w http.ResponseWriter, r *http.Request, in Request, chunk func(tok string, lps []api.Logprob, done *api.Metrics, reason string) any) {
	if in.TopLogprobs < 0 || in.TopLogprobs > 20 {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "top_logprobs must be between 0 and 20"})
		return
	}
	if !s.served(in.Model) {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("model '%s' not found", in.Model)})
		return
	}
	rep := s.record(in)
	if s.ollamaFault(w, r, rep) {
		return
	}
	toks, truncated := tokens(rep.Content, in.MaxTokens)
	lps := make([][]api.Logprob, len(toks))
	if in.Logprobs && !rep.NoLogprobs {
		for i, tok := range toks {
			lp := api.Logprob{TokenLogprob: api.TokenLogprob{Token: tok, Logprob: -0.01}}
			if i == 0 {
				lp.Logprob = tokenLogprob(tok, rep.Alternatives)
				for _, a := range rep.Alternatives[:min(in.TopLogprobs, len(rep.Alternatives))] {
					lp.TopLogprobs = append(lp.TopLogprobs, api.TokenLogprob{Token: a.Token, Logprob: a.Logprob})
				}
			}
			lps[i] = []api.Logprob{lp}
		}
	}
	reason := "stop"
	if truncated {
		reason = "length"
	}
	metrics := &api.Metrics{PromptEvalCount: len(strings.Fields(in.LastUser())) + 1, EvalCount: len(toks), TotalDuration: time.Millisecond}

	if !in.Stream {
		if rep.Cut {
			body, _ := json.Marshal(chunk(strings.Join(toks, ""), concat(lps), metrics, reason))
			cut(w, "application/json; charset=utf-8", body)
			return
		}
		writeJSON(w, http.StatusOK, chunk(strings.Join(toks, ""), concat(lps), metrics, reason))
		return
	}

	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	enc := json.NewEncoder(w)
	rc := http.NewResponseController(w)
	for i, tok := range toks {
		_ = enc.Encode(chunk(tok, lps[i], nil, ""))
		_ = rc.Flush()
		if i == 0 && rep.StreamError != "" {
			_ = enc.Encode(map[string]string{"error": rep.StreamError})
			return
		}
		if i == 0 && rep.Cut {
			_, _ = w.Write([]byte(`{"model":"` + in.Model + `","created_at":"2024-`))
			die(w)
			return
		}
	}
	_ = enc.Encode(chunk("", nil, metrics, reason))
}

func concat(lps [][]api.Logprob) []api.Logprob {
	var out []api.Logprob
	for _, l := range lps {
		out = append(out, l...)
	}
	return out
}

func (s *Server) ollamaEmbed(w http.ResponseWriter, r *http.Request) {
	var req api.EmbedRequest
	if !decode(w, r, &req) {
		return
	}
	in := Request{Path: r.URL.Path, Model: req.Model}
	switch v := req.Input.(type) {
	case string:
		if v != "" {
			in.Input = []string{v}
		}
	case []any:
		for _, x := range v {
			str, ok := x.(string)
			if !ok {
				writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid input type"})
				return
			}
			in.Input = append(in.Input, str)
		}
	case nil:
	default:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid input type"})
		return
	}
	if !s.served(in.Model) {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("model '%s' not found", in.Model)})
		return
	}
	if s.ollamaFault(w, r, s.record(in)) {
		return
	}
	resp := api.EmbedResponse{Model: req.Model, Embeddings: [][]float32{}}
	for _, text := range in.Input {
		resp.Embeddings = append(resp.Embeddings, s.cfg.Embed(text))
	}
	writeJSON(w, http.StatusOK, resp)
}
