package citations

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/ingest"
)

func TestContentStatus(t *testing.T) {
	c := newChecker(t, Deps{}, Config{})
	long := strings.Repeat("The survey covered many schools in several countries. ", 20)
	tests := []struct {
		name, title, text, want string
	}{
		{"article", "Market report", long, StatusOK},
		{"thin", "Market report", "Loading...", StatusThinContent},
		{"paywall", "Markets", "Subscribe to continue reading. Already a subscriber? Sign in. The AI tutoring market grew fast in the last three years according to analysts.", StatusThinContent},
		{"long page with a cookie banner", "Markets", "We use cookies to improve your experience. " + long, StatusOK},
		{"404 title", "404 Not Found", long, StatusNotFound},
		{"not found title", "Not Found | Example", long, StatusNotFound},
		{"soft 404 text", "Example", "Sorry, the page you were looking for does not exist. Page not found. Try the search box.", StatusNotFound},
		{"title about something not found", "Dark matter not found in new survey", long, StatusOK},
		{"404 in a short text", "Prion survey", "Of the 32,441 samples, 404 were tested again in a second laboratory run, which confirmed the results found in the first run of the tests last year.", StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, detail := c.contentStatus(tt.title, tt.text); got != tt.want {
				t.Errorf("status = %q (%s), want %q", got, detail, tt.want)
			}
		})
	}
}

// TestFetchBudget: when the run's fetch budget ends, unfetched URLs are
// timeouts and the report is still made.
func TestFetchBudget(t *testing.T) {
	s := newSite(t)
	c := newChecker(t, Deps{Fetcher: ingest.NewFetcher(ingest.FetchConfig{AllowPrivate: true, Timeout: time.Minute}, nil)},
		Config{FetchBudget: 200 * time.Millisecond})
	doc := fmt.Sprintf("AI tutoring doubles learning gains [1]. AI tutoring doubles learning gains for students [2].\n\n[1]: %[1]s/slow\n[2]: %[1]s/study\n", s.URL)
	r, err := c.Check(context.Background(), Document{Text: doc})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, src := range r.Sources {
		got[strings.TrimPrefix(src.URL, s.URL)] = src.Status
	}
	if diff := cmp.Diff(map[string]string{"/slow": StatusTimeout, "/study": StatusOK}, got); diff != "" {
		t.Errorf("source statuses (-want +got):\n%s", diff)
	}
}
