package llm_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/llm"
	"github.com/verity-fc/verity/llm/llmtest"
)

// fakes starts each fake server with cfg and returns a client of it.
var fakes = map[string]func(t *testing.T, cfg llmtest.Config, lim llm.Limits) (*llmtest.Server, backend){
	"ollama": newFakeOllama,
	"openai": newFakeOpenAI,
}

var hi = llm.ChatRequest{Messages: []llm.Message{{Role: "user", Content: "hi"}}}

// quick retries without waiting long; a test never depends on the wait.
var quick = llm.Limits{Backoff: time.Millisecond}

func TestChatFaults(t *testing.T) {
	tests := []struct {
		name        string
		reply       llmtest.Reply
		lim         llm.Limits
		ctxTimeout  time.Duration
		unavailable bool
		status      int
		is          error // the error must also match this, when set
	}{
		{name: "500", reply: llmtest.Reply{Status: 500, Error: "boom"}, unavailable: true, status: 500},
		{name: "503 busy", reply: llmtest.Reply{Status: 503, Error: "server busy, please try again"}, unavailable: true, status: 503},
		{name: "429", reply: llmtest.Reply{Status: 429, Error: "rate limited"}, unavailable: true, status: 429},
		{name: "400", reply: llmtest.Reply{Status: 400, Error: "bad request"}, unavailable: false, status: 400},
		{name: "dies mid-stream", reply: llmtest.Reply{Content: "one two three", Cut: true}, unavailable: true, is: io.ErrUnexpectedEOF},
		{name: "client time limit", reply: llmtest.Reply{Hang: true}, lim: llm.Limits{Timeout: 50 * time.Millisecond}, unavailable: true},
		{name: "caller deadline", reply: llmtest.Reply{Hang: true}, ctxTimeout: 50 * time.Millisecond, unavailable: false, is: context.DeadlineExceeded},
	}
	for bname, start := range fakes {
		for _, tt := range tests {
			t.Run(bname+"/"+tt.name, func(t *testing.T) {
				_, b := start(t, llmtest.Config{Reply: func(llmtest.Request) llmtest.Reply { return tt.reply }}, tt.lim)
				ctx := context.Background()
				if tt.ctxTimeout > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tt.ctxTimeout)
					defer cancel()
				}
				_, err := b.c.Chat(ctx, hi)
				checkBackendError(t, err, b.name, "chat", tt.unavailable, tt.status)
				if tt.is != nil && !errors.Is(err, tt.is) {
					t.Errorf("err = %v, want it to match %v", err, tt.is)
				}
			})
		}
	}
}

func TestOllamaStreamError(t *testing.T) {
	_, b := newFakeOllama(t, llmtest.Config{Reply: func(llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Content: "one two", StreamError: "an error was encountered while running the model"}
	}}, llm.Limits{})
	_, err := b.c.Chat(context.Background(), hi)
	checkBackendError(t, err, "ollama", "chat", true, 0)
}

func TestConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()

	o, err := llm.NewOllama(addr, http.DefaultClient, llm.OllamaConfig{ChatModel: "m", EmbedModel: "e", Limits: llm.Limits{Retries: -1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := llm.NewOpenAI("http://"+addr+"/v1", http.DefaultClient, llm.OpenAIConfig{ChatModel: "m", EmbedModel: "e", Limits: llm.Limits{Retries: -1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]client{"ollama": o, "openai": a} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			_, err := c.Chat(ctx, hi)
			checkBackendError(t, err, name, "chat", true, 0)
			_, err = c.Embed(ctx, []string{"x"})
			checkBackendError(t, err, name, "embed", true, 0)
			checkBackendError(t, c.Ping(ctx), name, "ping", true, 0)
		})
	}
}

func TestEmbedRetries(t *testing.T) {
	down := llmtest.Reply{Status: 503, Error: "server busy"}
	tests := []struct {
		name     string
		replies  []llmtest.Reply
		retries  int
		wantErr  bool
		requests int
	}{
		{name: "recovers", replies: []llmtest.Reply{down, {Cut: true}, {}}, requests: 3},
		{name: "gives up after retries", replies: []llmtest.Reply{down}, wantErr: true, requests: 3},
		{name: "no retries", replies: []llmtest.Reply{down}, retries: -1, wantErr: true, requests: 1},
		{name: "client errors are not retried", replies: []llmtest.Reply{{Status: 400, Error: "bad"}}, wantErr: true, requests: 1},
	}
	for bname, start := range fakes {
		for _, tt := range tests {
			t.Run(bname+"/"+tt.name, func(t *testing.T) {
				lim := quick
				lim.Retries = tt.retries
				srv, b := start(t, llmtest.Config{Reply: llmtest.Sequence(tt.replies...)}, lim)
				vs, err := b.c.Embed(context.Background(), []string{"a", "b"})
				if (err != nil) != tt.wantErr {
					t.Fatalf("Embed: err = %v, want error %v", err, tt.wantErr)
				}
				if err == nil && len(vs) != 2 {
					t.Errorf("Embed gave %d vectors, want 2", len(vs))
				}
				if got := len(srv.Requests()); got != tt.requests {
					t.Errorf("server saw %d requests, want %d", got, tt.requests)
				}
			})
		}
	}
}

func TestEmbedRetryWaitEndsWithContext(t *testing.T) {
	for bname, start := range fakes {
		t.Run(bname, func(t *testing.T) {
			// A backoff far longer than the test may take: only the
			// context's end can stop the wait.
			srv, b := start(t, llmtest.Config{Reply: llmtest.Sequence(llmtest.Reply{Status: 503})}, llm.Limits{Backoff: time.Hour})
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			_, err := b.c.Embed(ctx, []string{"a"})
			if !errors.Is(err, llm.ErrUnavailable) {
				t.Fatalf("Embed: err = %v, want ErrUnavailable", err)
			}
			if got := len(srv.Requests()); got != 1 {
				t.Errorf("server saw %d requests, want 1", got)
			}
		})
	}
}

func TestEmbedBatches(t *testing.T) {
	for bname, start := range fakes {
		t.Run(bname, func(t *testing.T) {
			srv, b := start(t, llmtest.Config{}, llm.Limits{EmbedBatch: 2})
			texts := []string{"a", "b", "c", "d", "e"}
			vs, err := b.c.Embed(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			var batches [][]string
			for _, r := range srv.Requests() {
				batches = append(batches, r.Input)
			}
			if diff := cmp.Diff([][]string{{"a", "b"}, {"c", "d"}, {"e"}}, batches); diff != "" {
				t.Errorf("batches (-want +got):\n%s", diff)
			}
			// Each vector belongs to its own text, whatever order the
			// server listed them in.
			want, err := b.c.Embed(context.Background(), []string{"c"})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want[0], vs[2]); diff != "" {
				t.Errorf("vector of text 2 (-want +got):\n%s", diff)
			}
		})
	}
}

func TestChatSendsRequest(t *testing.T) {
	schema := []byte(`{"type":"object"}`)
	for bname, start := range fakes {
		t.Run(bname, func(t *testing.T) {
			srv, b := start(t, llmtest.Config{}, llm.Limits{})
			req := llm.ChatRequest{
				Model:       llmtest.ChatModel,
				Messages:    []llm.Message{{Role: "system", Content: "be brief"}, {Role: "user", Content: "hi"}},
				Schema:      schema,
				Temperature: 0,
				MaxTokens:   7,
			}
			if _, err := b.c.Chat(context.Background(), req); err != nil {
				t.Fatal(err)
			}
			got := srv.Requests()[0]
			zero := 0.0
			want := llmtest.Request{Path: got.Path, Model: llmtest.ChatModel, Messages: req.Messages, Format: schema, Temperature: &zero, MaxTokens: 7, Stream: got.Stream, Auth: got.Auth}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("request (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReplyLimits(t *testing.T) {
	for bname, start := range fakes {
		t.Run(bname, func(t *testing.T) {
			_, b := start(t, llmtest.Config{Reply: func(llmtest.Request) llmtest.Reply {
				return llmtest.Reply{Content: "a reply much longer than sixteen bytes"}
			}}, llm.Limits{MaxReplyBytes: 16})
			_, err := b.c.Chat(context.Background(), hi)
			checkBackendError(t, err, b.name, "chat", false, 0)

			// MaxTokens cuts the reply, and the response says so.
			_, b = start(t, llmtest.Config{Reply: func(llmtest.Request) llmtest.Reply {
				return llmtest.Reply{Content: "one two three"}
			}}, llm.Limits{})
			resp, err := b.c.Chat(context.Background(), llm.ChatRequest{Messages: hi.Messages, MaxTokens: 2})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(llm.ChatResponse{Content: "one two", Model: llmtest.ChatModel, PromptTokens: 2, CompletionTokens: 2, FinishReason: "length"}, resp); diff != "" {
				t.Errorf("Chat (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBadChatRequests(t *testing.T) {
	for bname, start := range fakes {
		t.Run(bname, func(t *testing.T) {
			srv, b := start(t, llmtest.Config{}, llm.Limits{})
			for _, req := range []llm.ChatRequest{
				{},
				{Model: "m"},
				{Model: "m", Messages: hi.Messages, Schema: []byte(`{"type":`)},
			} {
				if _, err := b.c.Chat(context.Background(), req); err == nil {
					t.Errorf("Chat(%+v) succeeded, want an error", req)
				}
			}
			if n := len(srv.Requests()); n != 0 {
				t.Errorf("bad requests reached the server %d times", n)
			}
		})
	}
}

func TestPingReportsMissingModels(t *testing.T) {
	for bname, start := range fakes {
		t.Run(bname, func(t *testing.T) {
			_, b := start(t, llmtest.Config{Models: []string{llmtest.ChatModel}}, llm.Limits{})
			err := b.c.Ping(context.Background())
			checkBackendError(t, err, b.name, "ping", false, 0)
		})
	}
}

func TestOpenAIAuth(t *testing.T) {
	srv := llmtest.NewOpenAI(t, llmtest.Config{APIKey: "sk-right"})
	c, err := llm.NewOpenAI(srv.URL+"/v1", nil, llm.OpenAIConfig{APIKey: "sk-wrong", ChatModel: llmtest.ChatModel}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Chat(context.Background(), hi)
	checkBackendError(t, err, "openai", "chat", false, http.StatusUnauthorized)
	if got := srv.Requests()[0].Auth; got != "Bearer sk-wrong" {
		t.Errorf("Authorization = %q, want the configured key", got)
	}
}

func TestNewClientsRejectBadURLs(t *testing.T) {
	for _, u := range []string{"ftp://host", "host:99999", "host:port", "http://a b"} {
		if _, err := llm.NewOllama(u, nil, llm.OllamaConfig{}, nil); err == nil {
			t.Errorf("NewOllama(%q) succeeded, want an error", u)
		}
	}
	for _, u := range []string{"", "localhost:8000", "ftp://host/v1", "http:///v1"} {
		if _, err := llm.NewOpenAI(u, nil, llm.OpenAIConfig{}, nil); err == nil {
			t.Errorf("NewOpenAI(%q) succeeded, want an error", u)
		}
	}
}

// TestOllamaHostForms checks that the OLLAMA_HOST forms reach the server.
func TestOllamaHostForms(t *testing.T) {
	srv := llmtest.NewOllama(t, llmtest.Config{})
	hostport := srv.URL[len("http://"):]
	for _, u := range []string{srv.URL, hostport, srv.URL + "/"} {
		o, err := llm.NewOllama(u, nil, llm.OllamaConfig{}, nil)
		if err != nil {
			t.Fatalf("NewOllama(%q): %v", u, err)
		}
		if err := o.Ping(context.Background()); err != nil {
			t.Errorf("Ping via %q: %v", u, err)
		}
	}
}

// checkBackendError checks that err is a *llm.BackendError of backend and
// op, unavailable or not, with status when it is not 0.
func checkBackendError(t *testing.T, err error, backend, op string, unavailable bool, status int) {
	t.Helper()
	var be *llm.BackendError
	if !errors.As(err, &be) {
		t.Fatalf("err = %v (%T), want a *llm.BackendError", err, err)
	}
	if be.Backend != backend || be.Op != op {
		t.Errorf("BackendError names %s %s, want %s %s (err %v)", be.Backend, be.Op, backend, op, err)
	}
	if be.Unavailable() != unavailable || errors.Is(err, llm.ErrUnavailable) != unavailable {
		t.Errorf("Unavailable() = %v, errors.Is(err, ErrUnavailable) = %v, want %v (err %v)", be.Unavailable(), errors.Is(err, llm.ErrUnavailable), unavailable, err)
	}
	if status != 0 && be.Status != status {
		t.Errorf("Status = %d, want %d (err %v)", be.Status, status, err)
	}
}

func TestLabelLogprobsWithoutSupport(t *testing.T) {
	for bname, start := range fakes {
		t.Run(bname, func(t *testing.T) {
			_, b := start(t, llmtest.Config{Reply: func(llmtest.Request) llmtest.Reply {
				return llmtest.Reply{Content: "yes", NoLogprobs: true}
			}}, llm.Limits{})
			_, err := b.c.LabelLogprobs(context.Background(), llmtest.ChatModel, "p", []string{"yes", "no"})
			checkBackendError(t, err, b.name, "label logprobs", false, 0)
		})
	}
}
