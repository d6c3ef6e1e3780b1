// Package backend runs the calls that the scale-out stores make to network
// services (Qdrant, PostgreSQL) under a time limit of their own, and types
// their failures: an *Error names the backend and says whether it is
// unavailable — down, cut off, overloaded or out of the store's time limit —
// which the HTTP layer answers with 503, as opposed to the caller's own
// deadline or cancellation, which stays the caller's.
package backend

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"time"
)

// Error is a failed call to a backend.
type Error struct {
	// Backend names the service: "qdrant", "postgres".
	Backend string
	// Op is the call that failed, e.g. "search" or `put source "x"`.
	Op  string
	Err error

	// callerDone is set when the caller's context ended the call.
	callerDone bool
	// transient is the backend's verdict on Err.
	transient bool
}

func (e *Error) Error() string { return fmt.Sprintf("%s %s: %v", e.Backend, e.Op, e.Err) }

func (e *Error) Unwrap() error { return e.Err }

// BackendName names the backend for the HTTP layer's 503 message.
func (e *Error) BackendName() string { return e.Backend }

// Unavailable reports whether the backend could not be reached, stopped
// answering, ran out of the store's own time limit or is overloaded, so that
// trying again later may succeed. It is false when the caller's context
// ended the call (errors.Is(err, context.Canceled) or DeadlineExceeded holds
// then), and for errors of the request itself.
func (e *Error) Unavailable() bool { return e.transient && !e.callerDone }

// Call runs f with a context that also ends after timeout, and returns its
// error as an *Error; transient classifies the errors f returns. A call
// that the store's timeout ends is unavailable; one that the caller's
// context ends — also when the caller's deadline is the earlier and fires
// first — is the caller's, and matches ctx.Err().
func Call(ctx context.Context, name, op string, timeout time.Duration, transient func(error) bool, f func(ctx context.Context) error) error {
	if err := ctx.Err(); err != nil {
		return &Error{Backend: name, Op: op, Err: err, callerDone: true}
	}
	dl, ok := ctx.Deadline()
	callerDeadline := ok && dl.Before(time.Now().Add(timeout))
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err := f(cctx)
	if err == nil {
		return nil
	}
	e := &Error{Backend: name, Op: op, Err: err}
	cerr := ctx.Err()
	// A client library's own timer for the deadline may fire before the
	// context's.
	if cerr == nil && callerDeadline && !time.Now().Before(dl) {
		cerr = context.DeadlineExceeded
	}
	if cerr != nil {
		e.callerDone = true
		if !errors.Is(err, cerr) {
			e.Err = fmt.Errorf("%w: %w", cerr, err)
		}
		return e
	}
	if cctx.Err() != nil {
		// The store's own limit: the context error is left out of the
		// chain so that it does not read as the caller's deadline.
		e.Err, e.transient = fmt.Errorf("no answer within %v: %v", timeout, err), true
		return e
	}
	e.transient = transient(err)
	return e
}

// Network reports errors of the transport that say a server could not be
// reached or stopped answering: refused, reset or broken connections, a
// connection closed mid-reply, network timeouts.
func Network(err error) bool {
	var (
		ne net.Error
		oe *net.OpError
	)
	switch {
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF), errors.Is(err, net.ErrClosed):
		return true
	case errors.As(err, &ne) && ne.Timeout():
		return true
	}
	return errors.As(err, &oe)
}
