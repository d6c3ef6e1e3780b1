package backend

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"
	"time"
)

var errDown = errors.New("down")

// block waits for the context to end.
func block(ctx context.Context) error {
	<-ctx.Done()
	return fmt.Errorf("waited: %w", ctx.Err())
}

func TestCall(t *testing.T) {
	isDown := func(err error) bool { return errors.Is(err, errDown) }
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name        string
		ctx         func() (context.Context, context.CancelFunc)
		timeout     time.Duration
		f           func(context.Context) error
		unavailable bool
		callerErr   error // the caller's error the result must match
	}{
		{"transient", ctxBackground, time.Minute, func(context.Context) error { return errDown }, true, nil},
		{"not transient", ctxBackground, time.Minute, func(context.Context) error { return errors.New("bad request") }, false, nil},
		{"own timeout", ctxBackground, 20 * time.Millisecond, block, true, nil},
		{"caller deadline", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 20*time.Millisecond)
		}, time.Minute, block, false, context.DeadlineExceeded},
		{"caller canceled before", func() (context.Context, context.CancelFunc) { return canceled, func() {} }, time.Minute,
			func(context.Context) error { t.Error("f ran with a canceled context"); return nil }, false, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := tt.ctx()
			defer cancel()
			err := Call(ctx, "svc", "op", tt.timeout, isDown, tt.f)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error = %v, want an *Error", err)
			}
			if e.BackendName() != "svc" || e.Unavailable() != tt.unavailable {
				t.Errorf("BackendName %q, Unavailable %v; want svc, %v", e.BackendName(), e.Unavailable(), tt.unavailable)
			}
			if tt.callerErr != nil && !errors.Is(err, tt.callerErr) {
				t.Errorf("error = %v, want it to match %v", err, tt.callerErr)
			}
			if tt.callerErr == nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) && tt.unavailable {
				t.Errorf("the store's own failure reads as the caller's: %v", err)
			}
		})
	}
	if err := Call(context.Background(), "svc", "op", time.Minute, isDown, func(context.Context) error { return nil }); err != nil {
		t.Errorf("success: %v", err)
	}
}

func ctxBackground() (context.Context, context.CancelFunc) {
	return context.WithCancel(context.Background())
}

func TestNetwork(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("dial: %w", syscall.ECONNREFUSED), true},
		{fmt.Errorf("read: %w", io.ErrUnexpectedEOF), true},
		{&net.OpError{Op: "read", Err: errors.New("x")}, true},
		{errors.New("syntax error"), false},
	}
	for _, tt := range tests {
		if got := Network(tt.err); got != tt.want {
			t.Errorf("Network(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}
