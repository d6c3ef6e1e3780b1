package ingest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestFetchStatusObserved(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "A page.")
	}))
	defer ts.Close()
	var got []string
	f := NewFetcher(FetchConfig{AllowPrivate: true, IgnoreRobots: true, Observe: func(s string) { got = append(got, s) }}, nil)
	for _, u := range []string{ts.URL + "/ok", ts.URL + "/missing", "http://169.254.169.254/latest"} {
		f.Fetch(context.Background(), u)
	}
	want := []string{"200", "404", "blocked"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("observed %v, want %v", got, want)
	}
}
