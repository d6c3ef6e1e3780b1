// Package llmtest runs in-process model servers on loopback for tests: a
// fake Ollama speaking its documented HTTP API (/api/chat and /api/generate
// streamed as NDJSON, /api/embed, /api/tags, /api/version) and a fake
// OpenAI-compatible endpoint (/v1/chat/completions, /v1/embeddings,
// /v1/models). Replies are scripted by the test, and so are faults: error
// statuses, replies that hang until the client gives up, and connections
// that die mid-reply.
package llmtest

import (
	"encoding/json"
	"hash/fnv"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ollama/ollama/types/model"

	"github.com/verity-fc/verity/llm"
)

// Model names the fake servers serve unless Config.Models says otherwise.
const (
	ChatModel  = "llama3.1"
	EmbedModel = "nomic-embed-text"
)

// Request is what a fake server was asked, in a form common to both
// protocols.
type Request struct {
	// Path is the endpoint, e.g. "/api/chat" or "/v1/chat/completions".
	Path  string
	Model string
	// Messages are the chat turns; Prompt and System are /api/generate's.
	Messages []llm.Message
	Prompt   string
	System   string
	// Format is Ollama's format or the schema of OpenAI's json_schema
	// response format.
	Format      json.RawMessage
	Temperature *float64
	// MaxTokens is Ollama's num_predict or OpenAI's max_tokens.
	MaxTokens   int
	Logprobs    bool
	TopLogprobs int
	Stream      bool
	// Input is what an embeddings request asked to embed.
	Input []string
	// Auth is the Authorization header.
	Auth string
}

// LastUser returns the content of the last user message, or Prompt.
func (r Request) LastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return r.Prompt
}

// Reply is how a fake server answers one request.
type Reply struct {
	// Content is the model's text. The servers cut it into tokens at
	// spaces; MaxTokens keeps only the first tokens.
	Content string
	// Alternatives are the first token's top alternatives, reported when
	// the request asks for log-probabilities (at most TopLogprobs of them).
	// As on a real server, Content's first token should be among them;
	// otherwise it is reported with log-probability -0.01.
	Alternatives []llm.TokenLogprob
	// NoLogprobs answers without log-probabilities even when asked, as
	// servers that do not support them do.
	NoLogprobs bool

	// Status, when not 0, is answered instead of the reply, with Error as
	// the message, in the protocol's error format.
	Status int
	Error  string
	// Hang holds the reply until the client gives up or the server closes.
	Hang bool
	// Cut sends the start of the reply and then closes the connection,
	// as a server that dies mid-stream.
	Cut bool
	// StreamError, for Ollama streams, sends the first token and then an
	// {"error": ...} line, as Ollama does when its runner fails.
	StreamError string
}

// Config scripts a fake server. The zero value answers "ok" to everything.
type Config struct {
	// Reply answers every request. For embeddings, model lists and
	// versions only its fault fields (Status, Error, Hang, Cut) count.
	// Default: Content "ok".
	Reply func(Request) Reply
	// Embed returns the vector for one text. Default: a unit vector of 8
	// dimensions derived from the text's hash, so equal texts get equal
	// vectors.
	Embed func(text string) []float32
	// Models are the models served; others are answered 404. Default
	// ChatModel and EmbedModel.
	Models []string
	// APIKey, for the OpenAI server, is the bearer token it requires.
	// Default none.
	APIKey string
}

// Sequence returns a Reply function that gives replies in order and then
// repeats the last one. It is safe for concurrent use.
func Sequence(replies ...Reply) func(Request) Reply {
	var (
		mu sync.Mutex
		n  int
	)
	return func(Request) Reply {
		mu.Lock()
		defer mu.Unlock()
		r := replies[min(n, len(replies)-1)]
		n++
		return r
	}
}

// Server is a running fake server.
type Server struct {
	// URL is the base URL: give it to llm.NewOllama as it is, and to
	// llm.NewOpenAI with "/v1" appended.
	URL string

	cfg    Config
	srv    *httptest.Server
	closed chan struct{}
	once   sync.Once

	mu   sync.Mutex
	reqs []Request
}

func newServer(t testing.TB, cfg Config, h func(s *Server) http.Handler) *Server {
	if cfg.Reply == nil {
		cfg.Reply = func(Request) Reply { return Reply{Content: "ok"} }
	}
	if cfg.Embed == nil {
		cfg.Embed = hashVector
	}
	if len(cfg.Models) == 0 {
		cfg.Models = []string{ChatModel, EmbedModel}
	}
	s := &Server{cfg: cfg, closed: make(chan struct{})}
	s.srv = httptest.NewServer(h(s))
	s.URL = s.srv.URL
	t.Cleanup(s.Close)
	return s
}

// Close stops the server; hanging replies end. Further calls are no-ops.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.closed)
		s.srv.Close()
	})
}

// Requests returns the requests served so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// record notes req and returns the scripted reply to it.
func (s *Server) record(req Request) Reply {
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()
	return s.cfg.Reply(req)
}

// served reports whether name is one of the served models, matched as
// Ollama matches names ("llama3.1" is "llama3.1:latest").
func (s *Server) served(name string) bool {
	want := model.ParseName(name)
	for _, m := range s.cfg.Models {
		if m == name || (want.IsValid() && model.ParseName(m).EqualFold(want)) {
			return true
		}
	}
	return false
}

// hang blocks until the client goes away or the server closes.
func (s *Server) hang(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-s.closed:
	}
}

// cut writes the first half of body after header and status, then closes
// the connection without finishing the reply.
func cut(w http.ResponseWriter, contentType string, body []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body[:len(body)/2])
	die(w)
}

// die flushes what was written and closes the connection abruptly.
func die(w http.ResponseWriter) {
	http.NewResponseController(w).Flush()
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic("llmtest: cannot hijack the connection: " + err.Error())
	}
	conn.Close()
}

// tokens cuts content into tokens at spaces, keeping the spaces, and keeps
// the first max of them when max > 0. It reports whether it dropped any.
func tokens(content string, max int) ([]string, bool) {
	var out []string
	for rest := content; rest != ""; {
		i := strings.IndexByte(rest[1:], ' ')
		if i < 0 {
			out = append(out, rest)
			break
		}
		out = append(out, rest[:i+1])
		rest = rest[i+1:]
	}
	if max > 0 && len(out) > max {
		return out[:max], true
	}
	return out, false
}

// tokenLogprob is the log-probability the servers report for a chosen
// token: its alternative's, or a confident -0.01 when it has none.
func tokenLogprob(tok string, alts []llm.TokenLogprob) float64 {
	for _, a := range alts {
		if a.Token == tok {
			return a.Logprob
		}
	}
	return -0.01
}

// hashVector derives a unit vector of 8 dimensions from text.
func hashVector(text string) []float32 {
	v := make([]float32, 8)
	var norm float64
	for i := range v {
		h := fnv.New64a()
		h.Write([]byte{byte(i)})
		h.Write([]byte(text))
		x := float64(h.Sum64()%2001)/1000 - 1
		v[i] = float32(x)
		norm += x * x
	}
	norm = math.Sqrt(norm)
	if norm == 0 {
		v[0], norm = 1, 1
	}
	for i := range v {
		v[i] = float32(float64(v[i]) / norm)
	}
	return v
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
