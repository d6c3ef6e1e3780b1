package llm

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/types/model"
)

// OllamaConfig configures an Ollama client. The zero value works for Chat
// with requests that name their model.
type OllamaConfig struct {
	// ChatModel is used when a ChatRequest names no model, e.g.
	// "llama3.1:8b". Default none.
	ChatModel string
	// EmbedModel is the model Embed uses, e.g. "nomic-embed-text".
	// Required for Embed.
	EmbedModel string
	Limits
}

// Ollama is a client of an Ollama server, through the official client
// (github.com/ollama/ollama/api). It is a Chatter and an Embedder, scores
// labels from token log-probabilities, and pings for readiness. It is safe
// for concurrent use.
type Ollama struct {
	c   *api.Client
	cfg OllamaConfig
	lim Limits
	log *slog.Logger
}

const ollamaBackend = "ollama"

// NewOllama returns a client of the Ollama server at baseURL, which has the
// OLLAMA_HOST forms: "" (http://127.0.0.1:11434), "host", "host:port",
// "http://host", "https://host:port/prefix". A nil hc uses a client with
// the default transport and no timeout of its own; a nil logger discards.
func NewOllama(baseURL string, hc *http.Client, cfg OllamaConfig, logger *slog.Logger) (*Ollama, error) {
	u, err := ollamaURL(baseURL)
	if err != nil {
		return nil, err
	}
	if hc == nil {
		hc = &http.Client{}
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Ollama{
		c:   api.NewClient(u, recordingClient(hc)),
		cfg: cfg,
		lim: cfg.Limits.withDefaults(),
		log: logger,
	}, nil
}

// ollamaURL parses s as the Ollama client parses OLLAMA_HOST
// (envconfig.Host), but reports a bad port or scheme instead of falling
// back to the default.
func ollamaURL(s string) (*url.URL, error) {
	s = strings.TrimSpace(s)
	defaultPort := "11434"
	scheme, hostport, ok := strings.Cut(s, "://")
	switch {
	case !ok:
		scheme, hostport = "http", s
	case scheme == "http":
		defaultPort = "80"
	case scheme == "https":
		defaultPort = "443"
	default:
		return nil, fmt.Errorf("ollama host %q: scheme must be http or https", s)
	}
	hostport, path, _ := strings.Cut(hostport, "/")
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = "127.0.0.1", defaultPort
		if ip := net.ParseIP(strings.Trim(hostport, "[]")); ip != nil {
			host = ip.String()
		} else if hostport != "" {
			host = hostport
		}
	}
	if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
		return nil, fmt.Errorf("ollama host %q: port %q is not a number from 1 to 65535", s, port)
	}
	if host == "" || strings.ContainsAny(host, " /?#@") {
		return nil, fmt.Errorf("ollama host %q: %q is not a host name", s, host)
	}
	return &url.URL{Scheme: scheme, Host: net.JoinHostPort(host, port), Path: path}, nil
}

// Chat streams a reply from /api/chat and returns it whole. req.Schema, when
// set, becomes the request's format, so Ollama constrains decoding to it.
func (o *Ollama) Chat(ctx context.Context, req ChatRequest) (ChatResponse, error) {
	req.Model = cmp.Or(req.Model, o.cfg.ChatModel)
	if err := checkChatRequest(req); err != nil {
		return ChatResponse{}, fmt.Errorf("ollama chat: %w", err)
	}
	msgs := make([]api.Message, len(req.Messages))
	for i, m := range req.Messages {
		msgs[i] = api.Message{Role: m.Role, Content: m.Content}
	}
	opts := map[string]any{"temperature": req.Temperature}
	if req.MaxTokens > 0 {
		opts["num_predict"] = req.MaxTokens
	}
	areq := &api.ChatRequest{Model: req.Model, Messages: msgs, Format: req.Schema, Options: opts}

	var (
		content strings.Builder
		out     ChatResponse
		done    bool
	)
	start := time.Now()
	err := o.lim.call(ctx, ollamaBackend, "chat", 0, func(ctx context.Context) error {
		return o.c.Chat(ctx, areq, func(r api.ChatResponse) error {
			if content.Len()+len(r.Message.Content) > o.lim.MaxReplyBytes {
				return &replyError{fmt.Errorf("reply is longer than %d bytes", o.lim.MaxReplyBytes)}
			}
			content.WriteString(r.Message.Content)
			if r.Done {
				done = true
				out.Model = r.Model
				out.PromptTokens = r.PromptEvalCount
				out.CompletionTokens = r.EvalCount
				out.FinishReason = r.DoneReason
			}
			return nil
		})
	}, func() bool { return done })
	if err != nil {
		return ChatResponse{}, err
	}
	out.Content = content.String()
	o.log.Debug("ollama chat", "model", req.Model, "prompt_tokens", out.PromptTokens, "completion_tokens", out.CompletionTokens, "duration", time.Since(start))
	return out, nil
}

// Embed returns one vector per text from /api/embed with the configured
// EmbedModel, in batches of EmbedBatch texts. Ollama normalises the
// vectors to unit length. A batch that fails because the server is
// unavailable is retried with backoff.
func (o *Ollama) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if o.cfg.EmbedModel == "" {
		return nil, errors.New("ollama embed: no embed model is configured")
	}
	return o.lim.embedInBatches(ctx, o.log, ollamaBackend, texts, func(ctx context.Context, batch []string) ([][]float32, error) {
		var resp *api.EmbedResponse
		err := o.lim.call(ctx, ollamaBackend, "embed", o.lim.embedBodyLimit(), func(ctx context.Context) error {
			var err error
			resp, err = o.c.Embed(ctx, &api.EmbedRequest{Model: o.cfg.EmbedModel, Input: batch})
			return err
		}, nil)
		if err != nil {
			return nil, err
		}
		return resp.Embeddings, nil
	})
}

// LabelLogprobs asks model, through /api/generate, for one token after
// prompt and returns the log-probability of each label among the first
// token's top alternatives; see [MatchLabels]. Thinking is turned off so
// that the first token is the answer.
func (o *Ollama) LabelLogprobs(ctx context.Context, modelName, prompt string, labels []string) (map[string]float64, error) {
	modelName = cmp.Or(modelName, o.cfg.ChatModel)
	if modelName == "" {
		return nil, errors.New("ollama label logprobs: no model named")
	}
	req := &api.GenerateRequest{
		Model:       modelName,
		Prompt:      prompt,
		Options:     map[string]any{"temperature": 0, "num_predict": 1},
		Logprobs:    true,
		TopLogprobs: o.lim.TopLogprobs,
		Think:       &api.ThinkValue{Value: false},
	}
	var (
		alts []TokenLogprob
		seen bool
		done bool
	)
	err := o.lim.call(ctx, ollamaBackend, "label logprobs", 0, func(ctx context.Context) error {
		return o.c.Generate(ctx, req, func(r api.GenerateResponse) error {
			if !seen && len(r.Logprobs) > 0 {
				seen = true
				first := r.Logprobs[0]
				alts = append(alts, TokenLogprob{Token: first.Token, Logprob: first.Logprob})
				for _, t := range first.TopLogprobs {
					alts = append(alts, TokenLogprob{Token: t.Token, Logprob: t.Logprob})
				}
			}
			done = done || r.Done
			return nil
		})
	}, func() bool { return done })
	if err != nil {
		return nil, err
	}
	if !seen {
		return nil, &BackendError{Backend: ollamaBackend, Op: "label logprobs", Err: errNoLogprobs}
	}
	return MatchLabels(alts, labels), nil
}

// Ping checks that the server answers and has pulled the configured chat
// and embed models.
func (o *Ollama) Ping(ctx context.Context) error {
	var list *api.ListResponse
	err := o.lim.call(ctx, ollamaBackend, "ping", 8<<20, func(ctx context.Context) error {
		var err error
		list, err = o.c.List(ctx)
		return err
	}, nil)
	if err != nil {
		return err
	}
	for _, want := range []string{o.cfg.ChatModel, o.cfg.EmbedModel} {
		if want != "" && !hasModel(list, want) {
			return &BackendError{Backend: ollamaBackend, Op: "ping", Err: fmt.Errorf("model %q is not pulled", want)}
		}
	}
	return nil
}

// hasModel matches names as Ollama does: "llama3.1" is
// "registry.ollama.ai/library/llama3.1:latest".
func hasModel(list *api.ListResponse, name string) bool {
	want := model.ParseName(name)
	for _, m := range list.Models {
		if model.ParseName(m.Name).EqualFold(want) || model.ParseName(m.Model).EqualFold(want) {
			return true
		}
	}
	return false
}

// checkChatRequest reports a request no backend could answer.
func checkChatRequest(req ChatRequest) error {
	switch {
	case req.Model == "":
		return errors.New("no model named and no default configured")
	case len(req.Messages) == 0:
		return errors.New("no messages")
	case len(req.Schema) > 0 && !json.Valid(req.Schema):
		return errors.New("schema is not valid JSON")
	}
	return nil
}
