package llm

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// OpenAIConfig configures a client of an OpenAI-compatible endpoint. The
// zero value works for Chat with requests that name their model, against a
// server that needs no key.
type OpenAIConfig struct {
	// APIKey is sent as a bearer token; empty sends none (local servers
	// such as vLLM or llama.cpp often need none).
	APIKey string
	// ChatModel is used when a ChatRequest names no model. Default none.
	ChatModel string
	// EmbedModel is the model Embed uses. Required for Embed.
	EmbedModel string
	// StrictSchema asks the server to enforce ChatRequest.Schema strictly
	// ("strict": true). OpenAI then accepts only a subset of JSON Schema
	// (every property required, additionalProperties false). Default off:
	// Structured validates the reply either way.
	StrictSchema bool
	Limits
}

// OpenAI is a client of an OpenAI-compatible endpoint (OpenAI, vLLM,
// llama.cpp server, LiteLLM, ...) through the official openai-go client: chat
// completions with JSON-schema response formats and log-probabilities,
// embeddings, and a ping. It is safe for concurrent use.
type OpenAI struct {
	chat   openai.ChatCompletionService
	embed  openai.EmbeddingService
	models openai.ModelService
	cfg    OpenAIConfig
	lim    Limits
	log    *slog.Logger
}

const openaiBackend = "openai"

// NewOpenAI returns a client of the endpoint at baseURL, the URL the paths
// "chat/completions", "embeddings" and "models" are relative to, e.g.
// "https://api.openai.com/v1" or "http://localhost:8000/v1". A nil hc uses a
// client with the default transport; a nil logger discards. The client reads
// no environment variables and does no retries of its own.
func NewOpenAI(baseURL string, hc *http.Client, cfg OpenAIConfig, logger *slog.Logger) (*OpenAI, error) {
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("openai base URL %q: must be an http or https URL with a host", baseURL)
	}
	if hc == nil {
		hc = &http.Client{}
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	// The services are built directly, not through openai.NewClient, which
	// would also read OPENAI_* environment variables.
	opts := []option.RequestOption{
		option.WithBaseURL(baseURL),
		option.WithHTTPClient(recordingClient(hc)),
		option.WithMaxRetries(0),
		option.WithAPIKey(cfg.APIKey),
	}
	return &OpenAI{
		chat:   openai.NewChatCompletionService(opts...),
		embed:  openai.NewEmbeddingService(opts...),
		models: openai.NewModelService(opts...),
		cfg:    cfg,
		lim:    cfg.Limits.withDefaults(),
		log:    logger,
	}, nil
}

// bodyLimit bounds a reply body: the text, its JSON escaping, and the
// log-probabilities that may come with it.
func (o *OpenAI) bodyLimit() int64 { return 8*int64(o.lim.MaxReplyBytes) + 1<<16 }

// Chat asks /chat/completions for one reply. req.Schema, when set, is sent
// as a json_schema response format.
func (o *OpenAI) Chat(ctx context.Context, req ChatRequest) (ChatResponse, error) {
	req.Model = cmp.Or(req.Model, o.cfg.ChatModel)
	if err := checkChatRequest(req); err != nil {
		return ChatResponse{}, fmt.Errorf("openai chat: %w", err)
	}
	params, err := o.params(req)
	if err != nil {
		return ChatResponse{}, fmt.Errorf("openai chat: %w", err)
	}
	if len(req.Schema) > 0 {
		schema := openai.ResponseFormatJSONSchemaJSONSchemaParam{Name: "reply", Schema: req.Schema}
		if o.cfg.StrictSchema {
			schema.Strict = openai.Bool(true)
		}
		params.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &openai.ResponseFormatJSONSchemaParam{JSONSchema: schema},
		}
	}
	start := time.Now()
	choice, resp, err := o.complete(ctx, "chat", params)
	if err != nil {
		return ChatResponse{}, err
	}
	if len(choice.Message.Content) > o.lim.MaxReplyBytes {
		return ChatResponse{}, &BackendError{Backend: openaiBackend, Op: "chat", Err: fmt.Errorf("reply is longer than %d bytes", o.lim.MaxReplyBytes)}
	}
	out := ChatResponse{
		Content:          choice.Message.Content,
		Model:            resp.Model,
		PromptTokens:     int(resp.Usage.PromptTokens),
		CompletionTokens: int(resp.Usage.CompletionTokens),
		FinishReason:     choice.FinishReason,
	}
	o.log.Debug("openai chat", "model", req.Model, "prompt_tokens", out.PromptTokens, "completion_tokens", out.CompletionTokens, "duration", time.Since(start))
	return out, nil
}

// params turns req into chat completion parameters.
func (o *OpenAI) params(req ChatRequest) (openai.ChatCompletionNewParams, error) {
	msgs := make([]openai.ChatCompletionMessageParamUnion, len(req.Messages))
	for i, m := range req.Messages {
		switch m.Role {
		case "system":
			msgs[i] = openai.SystemMessage(m.Content)
		case "user":
			msgs[i] = openai.UserMessage(m.Content)
		case "assistant":
			msgs[i] = openai.AssistantMessage(m.Content)
		default:
			return openai.ChatCompletionNewParams{}, fmt.Errorf("message %d: role %q is not system, user or assistant", i, m.Role)
		}
	}
	p := openai.ChatCompletionNewParams{
		Model:       req.Model,
		Messages:    msgs,
		Temperature: openai.Float(req.Temperature),
	}
	if req.MaxTokens > 0 {
		p.MaxTokens = openai.Int(int64(req.MaxTokens))
	}
	return p, nil
}

// complete runs one chat completion and returns its first choice.
func (o *OpenAI) complete(ctx context.Context, op string, params openai.ChatCompletionNewParams) (openai.ChatCompletionChoice, *openai.ChatCompletion, error) {
	var resp *openai.ChatCompletion
	err := o.lim.call(ctx, openaiBackend, op, o.bodyLimit(), func(ctx context.Context) error {
		var err error
		resp, err = o.chat.New(ctx, params)
		return err
	}, nil)
	if err != nil {
		return openai.ChatCompletionChoice{}, nil, err
	}
	if len(resp.Choices) == 0 {
		return openai.ChatCompletionChoice{}, nil, &BackendError{Backend: openaiBackend, Op: op, Err: errors.New("the reply has no choices")}
	}
	choice := resp.Choices[0]
	if choice.Message.Refusal != "" {
		return openai.ChatCompletionChoice{}, nil, &BackendError{Backend: openaiBackend, Op: op, Err: fmt.Errorf("the model refused: %q", choice.Message.Refusal)}
	}
	return choice, resp, nil
}

// LabelLogprobs asks model for one token after prompt (sent as the user
// message) and returns the log-probability of each label among the first
// token's top alternatives; see [MatchLabels].
func (o *OpenAI) LabelLogprobs(ctx context.Context, model, prompt string, labels []string) (map[string]float64, error) {
	req := ChatRequest{Model: cmp.Or(model, o.cfg.ChatModel), Messages: []Message{{Role: "user", Content: prompt}}, MaxTokens: 1}
	if err := checkChatRequest(req); err != nil {
		return nil, fmt.Errorf("openai label logprobs: %w", err)
	}
	params, err := o.params(req)
	if err != nil {
		return nil, fmt.Errorf("openai label logprobs: %w", err)
	}
	params.Logprobs = openai.Bool(true)
	params.TopLogprobs = openai.Int(int64(o.lim.TopLogprobs))
	choice, _, err := o.complete(ctx, "label logprobs", params)
	if err != nil {
		return nil, err
	}
	if len(choice.Logprobs.Content) == 0 {
		return nil, &BackendError{Backend: openaiBackend, Op: "label logprobs", Err: errNoLogprobs}
	}
	first := choice.Logprobs.Content[0]
	alts := []TokenLogprob{{Token: first.Token, Logprob: first.Logprob}}
	for _, t := range first.TopLogprobs {
		alts = append(alts, TokenLogprob{Token: t.Token, Logprob: t.Logprob})
	}
	return MatchLabels(alts, labels), nil
}

// Embed returns one vector per text from /embeddings with the configured
// EmbedModel, in batches of EmbedBatch texts. A batch that fails because the
// server is unavailable is retried with backoff.
func (o *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if o.cfg.EmbedModel == "" {
		return nil, errors.New("openai embed: no embed model is configured")
	}
	return o.lim.embedInBatches(ctx, o.log, openaiBackend, texts, func(ctx context.Context, batch []string) ([][]float32, error) {
		var resp *openai.CreateEmbeddingResponse
		err := o.lim.call(ctx, openaiBackend, "embed", o.lim.embedBodyLimit(), func(ctx context.Context) error {
			var err error
			resp, err = o.embed.New(ctx, openai.EmbeddingNewParams{
				Model:          o.cfg.EmbedModel,
				Input:          openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: batch},
				EncodingFormat: openai.EmbeddingNewParamsEncodingFormatFloat,
			})
			return err
		}, nil)
		if err != nil {
			return nil, err
		}
		vs, err := orderedVectors(resp.Data, len(batch))
		if err != nil {
			return nil, &BackendError{Backend: openaiBackend, Op: "embed", Err: err}
		}
		return vs, nil
	})
}

// orderedVectors places each embedding at its index, for n texts; the API
// does not promise the order of data.
func orderedVectors(data []openai.Embedding, n int) ([][]float32, error) {
	if len(data) != n {
		return nil, fmt.Errorf("got %d vectors for %d texts", len(data), n)
	}
	out := make([][]float32, n)
	for _, d := range data {
		if d.Index < 0 || d.Index >= int64(n) || out[d.Index] != nil {
			return nil, fmt.Errorf("vector index %d is out of range or repeated", d.Index)
		}
		v := make([]float32, len(d.Embedding))
		for i, x := range d.Embedding {
			v[i] = float32(x)
		}
		out[d.Index] = v
	}
	return out, nil
}

// Ping lists the endpoint's models and checks that the configured chat and
// embed models are among them.
func (o *OpenAI) Ping(ctx context.Context) error {
	var ids []string
	err := o.lim.call(ctx, openaiBackend, "ping", 8<<20, func(ctx context.Context) error {
		page, err := o.models.List(ctx)
		if err != nil {
			return err
		}
		for _, m := range page.Data {
			ids = append(ids, m.ID)
		}
		return nil
	}, nil)
	if err != nil {
		return err
	}
	for _, want := range []string{o.cfg.ChatModel, o.cfg.EmbedModel} {
		if want != "" && !slices.Contains(ids, want) {
			return &BackendError{Backend: openaiBackend, Op: "ping", Err: fmt.Errorf("model %q is not served", want)}
		}
	}
	return nil
}
