package jobs

import (
	"errors"
	"fmt"
	"testing"
)

type backendErr struct{ down bool }

func (e backendErr) Error() string     { return "store: refused" }
func (e backendErr) Unavailable() bool { return e.down }

func TestBackendDown(t *testing.T) {
	down := fmt.Errorf("index source: %w", backendErr{down: true})
	for _, tt := range []struct {
		name string
		errs []error
		want error
	}{
		{"none", nil, nil},
		{"bad pages only", []error{errors.New("404"), backendErr{down: false}}, nil},
		{"a backend down", []error{errors.New("404"), down}, down},
	} {
		if got := BackendDown(tt.errs); got != tt.want {
			t.Errorf("%s: BackendDown = %v, want %v", tt.name, got, tt.want)
		}
	}
}
