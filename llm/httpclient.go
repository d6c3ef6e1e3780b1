package llm

import (
	"errors"
	"net"
	"net/http"
	"time"
)

// HTTPConfig bounds the HTTP calls of a model client (Ollama, OpenAI). Its
// zero value is not valid; start from DefaultHTTPConfig.
type HTTPConfig struct {
	// Timeout bounds one HTTP call, from dialling to the last byte of the
	// reply: a backend that accepts the connection and never answers fails
	// the call after it with ErrUnavailable. Default 2 minutes, the time
	// a local model may take for a long reply.
	Timeout time.Duration
	// ConnectTimeout bounds the TCP connect and the TLS handshake.
	// Default 10 seconds.
	ConnectTimeout time.Duration
}

// DefaultHTTPConfig returns the default bounds.
func DefaultHTTPConfig() HTTPConfig {
	return HTTPConfig{Timeout: defaultTimeout, ConnectTimeout: 10 * time.Second}
}

// Validate reports a bound that is not positive, or a connect bound longer
// than the whole call's.
func (c HTTPConfig) Validate() error {
	switch {
	case c.Timeout <= 0 || c.ConnectTimeout <= 0:
		return errors.New("timeout and connect_timeout must be positive")
	case c.ConnectTimeout > c.Timeout:
		return errors.New("connect_timeout must not exceed timeout")
	}
	return nil
}

// NewHTTPClient returns an HTTP client for NewOllama or NewOpenAI with the
// bounds of c and a transport of its own (proxy settings from the
// environment, as http.DefaultTransport has them). The caller has
// validated c.
func NewHTTPClient(c HTTPConfig) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: c.ConnectTimeout, KeepAlive: 30 * time.Second}).DialContext
	t.TLSHandshakeTimeout = c.ConnectTimeout
	return &http.Client{Transport: t, Timeout: c.Timeout}
}
