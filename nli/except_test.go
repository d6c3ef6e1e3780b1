package nli

import (
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExcepted(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"The museum is open every day except Monday.", []string{"monday"}},
		{"Open daily except for Mondays and holidays.", []string{"holiday", "monday"}},
		{"All members except Smith voted for the bill.", []string{"smith"}},
		{"Every month excepting March, excluding the week of Easter.", []string{"march", "week"}},
		{"The museum is open every day.", nil},
		// No content word after the exception.
		{"Everyone came, except for the.", nil},
	}
	for _, tt := range tests {
		got := slices.Sorted(maps.Keys(excepted(analyse(tt.text))))
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("excepted(%q) (-want +got):\n%s", tt.text, diff)
		}
	}
}

func TestCalendarKin(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"sundays", "monday", true},
		{"saturday", "friday", true},
		{"july", "january", true},
		{"monday", "monday", false},
		{"monday", "january", false},
		{"may", "monday", false},
		{"holidays", "monday", false},
	}
	for _, tt := range tests {
		if got := calendarKin(tt.a, tt.b); got != tt.want {
			t.Errorf("calendarKin(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
