package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"syscall"

	"github.com/ollama/ollama/api"
	"github.com/openai/openai-go/v3"
)

// ErrUnavailable matches, through errors.Is, every *BackendError whose
// backend is down or overloaded: connection refused or reset, a transport
// timeout, a reply cut off mid-stream, HTTP 429 or 5xx.
var ErrUnavailable = errors.New("model backend unavailable")

// errIncomplete reports a reply that ended before the backend said it was
// done: the connection closed mid-stream.
var errIncomplete = errors.New("reply cut off")

// errTimedOut reports a call that outlived the client's own time limit.
var errTimedOut = errors.New("backend timed out")

// errNoLogprobs reports a backend that answered without the token
// log-probabilities it was asked for.
var errNoLogprobs = errors.New("the reply carries no token log-probabilities; the backend or model does not support them")

// BackendError is a failed call to a model backend. The HTTP layer answers
// it with 503 naming Backend when Unavailable reports true.
type BackendError struct {
	// Backend is "ollama" or "openai".
	Backend string
	// Op is the call that failed: "chat", "embed", "generate", "ping",
	// "label logprobs".
	Op string
	// Status is the HTTP status the backend answered, or 0 when it did not
	// answer one (connection refused, cut off).
	Status int
	Err    error

	// callerDone is set when the caller's context ended the call: the
	// caller's deadline is not the backend's fault.
	callerDone bool
}

func (e *BackendError) Error() string {
	return fmt.Sprintf("%s %s: %v", e.Backend, e.Op, e.Err)
}

func (e *BackendError) Unwrap() error { return e.Err }

// BackendName names the backend for the HTTP layer's 503 message.
func (e *BackendError) BackendName() string { return e.Backend }

// Unavailable reports whether the backend is down, overloaded or cut the
// reply off, so that trying again later may succeed. It is false when the
// caller's own context was cancelled or ran out (errors.Is(err,
// context.DeadlineExceeded) holds then), and for 4xx answers such as an
// unknown model or a bad API key.
func (e *BackendError) Unavailable() bool {
	if e.callerDone {
		return false
	}
	if e.Status != 0 {
		return e.Status == http.StatusTooManyRequests || e.Status >= 500
	}
	return transient(e.Err)
}

// Is makes errors.Is(err, ErrUnavailable) hold for an unavailable backend.
func (e *BackendError) Is(target error) bool {
	return target == ErrUnavailable && e.Unavailable()
}

// transient reports errors of the transport that say the backend could not
// be reached or stopped answering.
func transient(err error) bool {
	var ne net.Error
	switch {
	case errors.Is(err, errIncomplete),
		errors.Is(err, errTimedOut),
		errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, io.EOF):
		return true
	case errors.As(err, &ne) && ne.Timeout():
		return true
	}
	var oe *net.OpError
	return errors.As(err, &oe)
}

// newBackendError wraps err from a call made with ctx. status is the HTTP
// status when the backend answered one. When ctx has ended, the error says
// so and matches ctx.Err().
func newBackendError(ctx context.Context, backend, op string, status int, err error) *BackendError {
	be := &BackendError{Backend: backend, Op: op, Status: status, Err: err}
	if cerr := ctx.Err(); cerr != nil {
		be.callerDone = true
		if !errors.Is(err, cerr) {
			be.Err = fmt.Errorf("%w: %w", cerr, err)
		}
	}
	return be
}

// SchemaError reports a model that gave no reply satisfying the requested
// JSON schema within the allowed attempts.
type SchemaError struct {
	Model    string
	Attempts int
	// Err is the last attempt's problem: not JSON, or the schema violation.
	Err error
}

func (e *SchemaError) Error() string {
	return fmt.Sprintf("model %q gave no reply satisfying the schema in %d attempts: %v", e.Model, e.Attempts, e.Err)
}

func (e *SchemaError) Unwrap() error { return e.Err }

// Schema names the model and the attempts it was given, for the HTTP
// layer's 502 message.
func (e *SchemaError) Schema() (model string, attempts int) { return e.Model, e.Attempts }

// statusError is an HTTP error status with the backend's message. The
// official clients' own errors leave the message out (openai-go) or the
// status (Ollama's non-streamed calls); this gives both, and unwraps to the
// client's error.
type statusError struct {
	status int
	msg    string
	err    error
}

func (e *statusError) Error() string {
	if e.msg == "" {
		return fmt.Sprintf("HTTP %d %s", e.status, http.StatusText(e.status))
	}
	return fmt.Sprintf("HTTP %d: %s", e.status, clip(e.msg, 512))
}

func (e *statusError) Unwrap() error { return e.err }

// withStatus gives the official clients' status errors a clear message.
func withStatus(err error) error {
	var (
		oe api.StatusError
		ae api.AuthorizationError
		pe *openai.Error
	)
	switch {
	case errors.As(err, &oe):
		return &statusError{status: oe.StatusCode, msg: oe.ErrorMessage, err: err}
	case errors.As(err, &ae):
		return &statusError{status: ae.StatusCode, msg: "unauthorized", err: err}
	case errors.As(err, &pe):
		return &statusError{status: pe.StatusCode, msg: pe.Message, err: err}
	}
	return err
}
