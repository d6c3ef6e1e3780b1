package llm_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/verity-fc/verity/llm"
)

func TestBackendErrorUnavailable(t *testing.T) {
	tests := []struct {
		name string
		err  *llm.BackendError
		want bool
	}{
		{"500", &llm.BackendError{Status: 500, Err: errors.New("x")}, true},
		{"503", &llm.BackendError{Status: 503, Err: errors.New("x")}, true},
		{"429", &llm.BackendError{Status: 429, Err: errors.New("x")}, true},
		{"404", &llm.BackendError{Status: 404, Err: errors.New("x")}, false},
		{"401", &llm.BackendError{Status: 401, Err: errors.New("x")}, false},
		{"refused", &llm.BackendError{Err: fmt.Errorf("dial: %w", syscall.ECONNREFUSED)}, true},
		{"reset", &llm.BackendError{Err: fmt.Errorf("read: %w", syscall.ECONNRESET)}, true},
		{"cut off", &llm.BackendError{Err: io.ErrUnexpectedEOF}, true},
		{"dial", &llm.BackendError{Err: &net.OpError{Op: "dial", Err: errors.New("no route to host")}}, true},
		{"bad reply", &llm.BackendError{Err: errors.New("got 2 vectors for 3 texts")}, false},
		{"caller cancelled", &llm.BackendError{Err: context.Canceled}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error = fmt.Errorf("verify: %w", tt.err)
			if got := tt.err.Unavailable(); got != tt.want {
				t.Errorf("Unavailable() = %v, want %v", got, tt.want)
			}
			if got := errors.Is(err, llm.ErrUnavailable); got != tt.want {
				t.Errorf("errors.Is(err, ErrUnavailable) = %v, want %v", got, tt.want)
			}
		})
	}
}
