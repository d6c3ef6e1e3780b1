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
	long := strings.Repeat("The survey covered many schools in several countries. ", 20)
	tests := []struct {
		name, title, text, want, detail string
	}{
		{"article", "Market report", long, StatusOK, ""},
		{"short page stating the claim", "Tutoring study", "AI tutoring doubled learning gains for students in the 2023 trial, the study of 1,200 pupils found.", StatusOK, ""},
		{"one word", "Market report", "Revised.", StatusOK, ""},
		{"loading", "Market report", "Loading...", StatusThinContent, `the page shows only a bot check marker ("loading")`},
		{"no text", "Market report", "", StatusThinContent, "the page has no text"},
		{"paywall only", "Markets", "Subscribe to continue reading. Already a subscriber?", StatusThinContent, `the page shows only a paywall marker ("subscribe to continue")`},
		{"paywall with a teaser", "Markets", "Subscribe to continue reading. The AI tutoring market grew fast.", StatusOK, ""},
		{"bot check", "Just a moment", "Checking your browser before accessing the site.", StatusThinContent, `the page shows only a bot check marker ("checking your browser")`},
		{"long page with a cookie banner", "Markets", "We use cookies to improve your experience. " + long, StatusOK, ""},
		{"404 title", "404 Not Found", long, StatusNotFound, "the page says it was not found (served with status 200)"},
		{"not found title", "Not Found | Example", long, StatusNotFound, "the page says it was not found (served with status 200)"},
		{"soft 404 text", "Example", "Sorry, the page you were looking for does not exist. Page not found. Try the search box.", StatusNotFound, "the page says it was not found (served with status 200)"},
		{"title about something not found", "Dark matter not found in new survey", long, StatusOK, ""},
		{"404 in a short text", "Prion survey", "Of the 32,441 samples, 404 were tested again in a second laboratory run.", StatusOK, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, detail, _, _ := contentStatus(tt.title, tt.text)
			if got != tt.want || detail != tt.detail {
				t.Errorf("status = %q, %q; want %q, %q", got, detail, tt.want, tt.detail)
			}
		})
	}
}

// TestWallMarkers: each marker of the set is found, by kind and name, and
// ordinary sentences about the same words are not markers.
func TestWallMarkers(t *testing.T) {
	tests := []struct{ sentence, kind, name string }{
		{"Subscribe now to continue reading this article.", "paywall", "subscribe to continue"},
		{"Register free to continue reading.", "paywall", "to continue reading"},
		{"This story is for subscribers only.", "paywall", "subscribers only"},
		{"Already a subscriber?", "paywall", "already a subscriber"},
		{"Please log in to continue.", "login", "sign in to continue"},
		{"Create a free account to read more.", "login", "create an account"},
		{"Verify you are human by completing the action below.", "bot check", "verify you are human"},
		{"Confirm you are not a robot.", "bot check", "are you a robot"},
		{"Please solve the CAPTCHA.", "bot check", "captcha"},
		{"Checking if the site connection is secure.", "bot check", "checking your browser"},
		{"Our systems have detected unusual traffic from your network.", "bot check", "unusual traffic"},
		{"Please enable JavaScript to view this page.", "bot check", "javascript required"},
		{"Access denied.", "bot check", "access denied"},
		{"Just a moment...", "bot check", "loading"},
		{"Loading…", "bot check", "loading"},
		{"Loading times fell 40% after the update.", "", ""},
		{"We use cookies to personalise content.", "consent", "cookie consent"},
		{"Subscriptions to streaming services rose 12% in 2023.", "", ""},
		{"The robot vacuum market doubled.", "", ""},
		{"Cookies and biscuits sold 4% more.", "", ""},
	}
	for _, tt := range tests {
		m, ok := wallOf(tt.sentence)
		if ok != (tt.kind != "") || m.kind != tt.kind || m.name != tt.name {
			t.Errorf("wallOf(%q) = %q %q, %v; want %q %q", tt.sentence, m.kind, m.name, ok, tt.kind, tt.name)
		}
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
