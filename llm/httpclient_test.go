package llm_test

import (
	"context"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/verity-fc/verity/llm"
)

// hangingServer accepts connections on loopback and reads requests but
// never answers, as a wedged backend does.
func hangingServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { close(done); ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				go io.Copy(io.Discard, c)
				<-done
			}()
		}
	}()
	return ln.Addr().String()
}

// TestHTTPClientTimeout checks that a client built with NewHTTPClient
// gives up on a backend that never answers after the configured timeout,
// with no deadline of the caller's, and reports the backend unavailable.
func TestHTTPClientTimeout(t *testing.T) {
	addr := hangingServer(t)
	hc := llm.NewHTTPClient(llm.HTTPConfig{Timeout: 300 * time.Millisecond, ConnectTimeout: 300 * time.Millisecond})
	ollama, err := llm.NewOllama("http://"+addr, hc, llm.OllamaConfig{ChatModel: "m"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	openai, err := llm.NewOpenAI("http://"+addr+"/v1", hc, llm.OpenAIConfig{ChatModel: "m"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]llm.Chatter{"ollama": ollama, "openai": openai} {
		t.Run(name, func(t *testing.T) {
			// The caller's own deadline is far beyond the client's (and
			// the client's Limits.Timeout is its default, 2 minutes): if
			// the HTTP client's timeout did not work, the call would end
			// with the caller's deadline, which is not "unavailable".
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			_, err := c.Chat(ctx, llm.ChatRequest{Messages: []llm.Message{{Role: "user", Content: "hi"}}})
			var be *llm.BackendError
			if !errors.As(err, &be) || be.Backend != name {
				t.Fatalf("Chat against a hanging server: err = %v, want a %s BackendError", err, name)
			}
			if !errors.Is(err, llm.ErrUnavailable) {
				t.Errorf("Chat against a hanging server: err = %v, want ErrUnavailable", err)
			}
			if ctx.Err() != nil {
				t.Errorf("the call ran until the caller's deadline: %v", err)
			}
		})
	}
}

func TestHTTPConfigValidate(t *testing.T) {
	if err := llm.DefaultHTTPConfig().Validate(); err != nil {
		t.Errorf("DefaultHTTPConfig().Validate() = %v", err)
	}
	for _, c := range []llm.HTTPConfig{
		{},
		{Timeout: time.Second},
		{Timeout: time.Second, ConnectTimeout: -1},
		{Timeout: time.Second, ConnectTimeout: 2 * time.Second},
	} {
		if err := c.Validate(); err == nil {
			t.Errorf("%+v.Validate() = nil, want an error", c)
		}
	}
}
