package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
)

// The official Ollama client reads streamed replies with a bufio.Scanner
// and does not look at the scanner's error (api/client.go, stream), so a
// connection that dies mid-stream looks like a short reply, and an error
// status with an empty body looks like no reply at all. The recording
// transport notes, for calls that ask for it through their context, the
// HTTP status and the first error reading the body, so that the client can
// report what really happened. It also bounds the bytes read from a body
// for clients (the OpenAI one) that read whole bodies into memory.

type exchangeKey struct{}

// errBodyTooLarge reports a reply body over the call's limit.
var errBodyTooLarge = errors.New("reply body is too large")

// exchange is what the transport saw of one call.
type exchange struct {
	// limit bounds the body in bytes; 0 means no bound.
	limit int64

	mu      sync.Mutex
	status  int
	readErr error
	read    int64
}

func (x *exchange) get() (status int, readErr error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.status, x.readErr
}

// watch returns ctx carrying a fresh exchange record whose body is bounded
// by limit bytes (0: unbounded).
func watch(ctx context.Context, limit int64) (context.Context, *exchange) {
	x := &exchange{limit: limit}
	return context.WithValue(ctx, exchangeKey{}, x), x
}

type recordingTransport struct {
	base http.RoundTripper
}

func (t recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if x, ok := req.Context().Value(exchangeKey{}).(*exchange); ok {
		x.mu.Lock()
		x.status = resp.StatusCode
		x.mu.Unlock()
		resp.Body = &recordingBody{ReadCloser: resp.Body, x: x}
	}
	return resp, nil
}

type recordingBody struct {
	io.ReadCloser
	x *exchange
}

func (b *recordingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.x.mu.Lock()
	defer b.x.mu.Unlock()
	b.x.read += int64(n)
	if b.x.limit > 0 && b.x.read > b.x.limit {
		err = fmt.Errorf("%w: over %d bytes", errBodyTooLarge, b.x.limit)
		n = 0
	}
	if err != nil && err != io.EOF && b.x.readErr == nil {
		b.x.readErr = err
	}
	return n, err
}

// recordingClient returns a copy of hc whose transport records exchanges.
func recordingClient(hc *http.Client) *http.Client {
	c := *hc
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = recordingTransport{base: base}
	return &c
}
