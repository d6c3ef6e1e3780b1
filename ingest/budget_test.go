package ingest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"
)

// barrier lets handlers wait until n of them have arrived, or until a
// short wait has passed: the tests use it to make fetches overlap as much
// as the budget lets them, not to time anything.
type barrier struct {
	mu       sync.Mutex
	n, seen  int
	all      chan struct{}
	patience time.Duration
}

func newBarrier(n int, patience time.Duration) *barrier {
	return &barrier{n: n, all: make(chan struct{}), patience: patience}
}

func (b *barrier) wait() {
	b.mu.Lock()
	b.seen++
	if b.seen == b.n {
		close(b.all)
	}
	b.mu.Unlock()
	select {
	case <-b.all:
	case <-time.After(b.patience):
	}
}

// runCallers fetches url+"/<i>" n times, split between callers groups that
// run at once as two citation runs or an ingest job and a run would.
func runCallers(t *testing.T, f *Fetcher, url string, callers, n int) {
	t.Helper()
	var g errgroup.Group
	for c := range callers {
		g.Go(func() error {
			var inner errgroup.Group
			for i := range n / callers {
				inner.Go(func() error {
					p, err := f.Fetch(context.Background(), fmt.Sprintf("%s/%d-%d", url, c, i))
					if err != nil {
						return err
					}
					if len(p.Body) == 0 {
						return fmt.Errorf("empty body")
					}
					return nil
				})
			}
			return inner.Wait()
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
}

// TestFetchBudgetBytes: fetches through one Fetcher never hold more body
// bytes at once than MaxBytesInFlight, whoever the callers; without the
// budget the same load holds several times more.
func TestFetchBudgetBytes(t *testing.T) {
	const (
		page  = 256 << 10
		first = 96 << 10
		n     = 16
	)
	for _, tt := range []struct {
		name     string
		inFlight int64
		bounded  bool
	}{
		{"budget of 3 pages", 3 * page, true},
		{"budget larger than the load", 64 << 20, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// Every handler writes its first part whether or not the
			// client reads, so all of them arrive unless something fails.
			bar := newBarrier(n, 10*time.Second)
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				w.Header().Set("Content-Length", strconv.Itoa(page))
				w.Write([]byte(strings.Repeat("a", first)))
				w.(http.Flusher).Flush()
				bar.wait()
				w.Write([]byte(strings.Repeat("b", page-first)))
			}))
			defer ts.Close()
			f := NewFetcher(FetchConfig{AllowPrivate: true, IgnoreRobots: true, MaxBytes: page, MaxConcurrent: 64, MaxBytesInFlight: tt.inFlight}, nil)
			runCallers(t, f, ts.URL, 2, n)
			peak := f.budget.peak.Load()
			if f.budget.inFlight.Load() != 0 {
				t.Errorf("%d bytes still counted after every fetch returned", f.budget.inFlight.Load())
			}
			if tt.bounded && peak > tt.inFlight {
				t.Errorf("fetches held %d body bytes at once, over the budget of %d", peak, tt.inFlight)
			}
			if peak < page {
				t.Errorf("peak %d is less than one page: nothing was measured", peak)
			}
			if !tt.bounded && peak <= 3*page {
				t.Errorf("without a budget the load held only %d bytes at once; the bounded case proves nothing", peak)
			}
		})
	}
}

// TestFetchBudgetConcurrency: no more than MaxConcurrent fetches reach the
// network at once.
func TestFetchBudgetConcurrency(t *testing.T) {
	const n = 12
	for _, tt := range []struct {
		name  string
		limit int
	}{{"limit 3", 3}, {"limit above the load", 64}} {
		t.Run(tt.name, func(t *testing.T) {
			var active, peak atomic.Int64
			// With the limit, at most 3 handlers ever wait together.
			bar := newBarrier(n, 300*time.Millisecond)
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				cur := active.Add(1)
				defer active.Add(-1)
				for p := peak.Load(); cur > p && !peak.CompareAndSwap(p, cur); p = peak.Load() {
				}
				bar.wait()
				w.Header().Set("Content-Type", "text/plain")
				w.Write([]byte("ok"))
			}))
			defer ts.Close()
			f := NewFetcher(FetchConfig{AllowPrivate: true, IgnoreRobots: true, MaxConcurrent: tt.limit}, nil)
			runCallers(t, f, ts.URL, 2, n)
			got := int(peak.Load())
			if tt.limit < n && got > tt.limit {
				t.Errorf("%d fetches at once, over the limit of %d", got, tt.limit)
			}
			if tt.limit >= n && got <= 3 {
				t.Errorf("without a limit only %d fetches overlapped; the limited case proves nothing", got)
			}
		})
	}
}

// TestFetchBudgetWaitEndsWithContext: a fetch waiting for the budget gives
// up when its caller does.
func TestFetchBudgetWaitEndsWithContext(t *testing.T) {
	release := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release
		w.Write([]byte("ok"))
	}))
	defer ts.Close()
	defer close(release)
	f := NewFetcher(FetchConfig{AllowPrivate: true, IgnoreRobots: true, MaxConcurrent: 1}, nil)
	go f.Fetch(context.Background(), ts.URL+"/holder")
	for f.budget.fetches.TryAcquire(1) {
		f.budget.fetches.Release(1) // the holder has not taken the slot yet
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.Fetch(ctx, ts.URL+"/waiter"); err == nil || ctx.Err() == nil {
		t.Fatalf("Fetch with a canceled context while the budget is spent = %v, want an error", err)
	}
}

// TestExtractionBudget: Extract calls work on no more input bytes at once
// than the extraction budget, and a document larger than the budget is
// still extracted, alone.
func TestExtractionBudget(t *testing.T) {
	const budget = 1 << 20
	SetExtractionBudget(budget)
	defer SetExtractionBudget(0)
	extraction.peak.Store(0)
	page := []byte("<html><body>" + strings.Repeat("<p>The tower was painted green in 2024. </p>", (400<<10)/45) + "</body></html>")
	big := []byte("<html><body>" + strings.Repeat("<p>The tower was painted green in 2024. </p>", (1500<<10)/45) + "</body></html>")
	var g errgroup.Group
	for i := range 12 {
		g.Go(func() error {
			body := page
			if i == 0 {
				body = big
			}
			doc, err := Extract(body, "text/html", "")
			if err == nil && !strings.Contains(doc.Text, "painted green") {
				err = fmt.Errorf("extracted %d bytes without the text", len(doc.Text))
			}
			return err
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if peak := extraction.peak.Load(); peak > budget || peak < int64(len(page)) {
		t.Errorf("peak of input bytes under extraction = %d, want between one page (%d) and the budget (%d)", peak, len(page), budget)
	}
	if n := extraction.inFlight.Load(); n != 0 {
		t.Errorf("%d bytes still counted", n)
	}
}

func TestValidateExtractionBudget(t *testing.T) {
	if err := ValidateExtractionBudget(DefaultExtractionBudget); err != nil {
		t.Errorf("the default budget: %v", err)
	}
	if err := ValidateExtractionBudget(1); err != nil {
		t.Errorf("a one-byte budget: %v", err)
	}
	for _, n := range []int64{0, -1} {
		if err := ValidateExtractionBudget(n); err == nil || !strings.Contains(err.Error(), "fetch.max_extract_bytes") {
			t.Errorf("ValidateExtractionBudget(%d) = %v, want an error naming fetch.max_extract_bytes", n, err)
		}
	}
}
