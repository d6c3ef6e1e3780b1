package nli

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestResolvePronouns(t *testing.T) {
	got := resolvePronouns([]string{
		"Marie Curie was a physicist.", "She won two Nobel Prizes.", "Her husband was Pierre.",
		"The Golden Gate Bridge opened in 1937.", "It spans the strait.", "Records are scarce.", "They say little.",
	})
	want := []string{
		"Marie Curie was a physicist.", "Marie Curie won two Nobel Prizes.", "Marie Curie's husband was Pierre.",
		"The Golden Gate Bridge opened in 1937.", "The Golden Gate Bridge spans the strait.", "Records are scarce.", "They say little.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resolvePronouns (-want +got):\n%s", diff)
	}
}
