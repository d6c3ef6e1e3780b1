// Package configtest checks a configuration type's Validate: each case
// edits the defaults and names the setting its error must mention, or
// none when the edited configuration is valid.
package configtest

import (
	"strings"
	"testing"
)

// Case is one edit of the defaults. Want is a fragment of the error
// (the key it names); "" means the configuration is valid.
type Case[C any] struct {
	Name string
	Edit func(*C)
	Want string
}

// Validate runs each case on a fresh copy of defaults().
func Validate[C interface{ Validate() error }](t *testing.T, defaults func() C, cases []Case[C]) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			c := defaults()
			if tt.Edit != nil {
				tt.Edit(&c)
			}
			err := c.Validate()
			switch {
			case tt.Want == "" && err != nil:
				t.Fatalf("Validate() = %v, want nil", err)
			case tt.Want != "" && (err == nil || !strings.Contains(err.Error(), tt.Want)):
				t.Fatalf("Validate() = %v, want an error naming %s", err, tt.Want)
			}
		})
	}
}
