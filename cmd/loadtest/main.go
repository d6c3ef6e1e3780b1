// Command loadtest drives POST /v1/verify of a verity server on loopback
// with N concurrent clients for a fixed time and reports throughput,
// latency percentiles, statuses and the server's resident memory. It
// refuses any address that is not loopback: it is a measuring tool, not a
// way to load someone else's server. scripts/loadtest.sh runs it against a
// fresh `verity serve` with an API key.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// claims are about the demo corpus, so that verify retrieves and judges
// real passages.
var claims = []string{
	"The Golden Gate Bridge opened in 1937.",
	"The Eiffel Tower was completed in 1889.",
	"Water boils at 100 degrees Celsius at sea level.",
	"The Great Wall of China is visible from the Moon with the naked eye.",
	"Mount Everest is the highest mountain above sea level.",
	"The Amazon is the longest river in the world.",
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(2)
	}
}

func run() error {
	base := flag.String("url", "http://127.0.0.1:8080", "server base URL (loopback only)")
	key := flag.String("key", os.Getenv("VERITY_API_KEY"), "API key (default $VERITY_API_KEY)")
	clients := flag.Int("clients", 50, "concurrent clients (1-500)")
	dur := flag.Duration("duration", 60*time.Second, "how long to run (at most 10m)")
	pid := flag.Int("pid", 0, "the server's process ID, to sample its RSS from /proc")
	asJSON := flag.Bool("json", false, "print the report as JSON")
	flag.Parse()
	u, err := url.Parse(*base)
	if err != nil || !loopback(u.Hostname()) {
		return fmt.Errorf("-url must be a loopback http URL, got %q", *base)
	}
	if *clients < 1 || *clients > 500 || *dur <= 0 || *dur > 10*time.Minute {
		return errors.New("-clients must be 1-500 and -duration at most 10m")
	}

	ctx, cancel := context.WithTimeout(context.Background(), *dur)
	defer cancel()
	tr := &http.Transport{MaxIdleConnsPerHost: *clients, MaxConnsPerHost: *clients}
	client := &http.Client{Transport: tr, Timeout: 2 * time.Minute}

	var rss rssSampler
	if *pid > 0 {
		rss.start(ctx, *pid)
	}
	results := make([][]sample, *clients)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range *clients {
		wg.Go(func() {
			for n := 0; ctx.Err() == nil; n++ {
				s := call(ctx, client, *base, *key, claims[(i+n)%len(claims)])
				if s.status == 0 && ctx.Err() != nil {
					return // cut off by the end of the run, not an error
				}
				results[i] = append(results[i], s)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	rss.stop()
	return report(os.Stdout, slices.Concat(results...), elapsed, *clients, &rss, *asJSON)
}

type sample struct {
	status  int
	latency time.Duration
}

func call(ctx context.Context, c *http.Client, base, key, claim string) sample {
	body, _ := json.Marshal(map[string]string{"claim": claim})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/verify", bytes.NewReader(body))
	if err != nil {
		return sample{}
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	t0 := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return sample{latency: time.Since(t0)}
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return sample{status: resp.StatusCode, latency: time.Since(t0)}
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// rssSampler reads VmRSS of a process every 250 ms.
type rssSampler struct {
	wg               sync.WaitGroup
	mu               sync.Mutex
	first, max, last int64 // KiB
}

func (r *rssSampler) start(ctx context.Context, pid int) {
	read := func() {
		kb := readRSS(pid)
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.first == 0 {
			r.first = kb
		}
		r.max, r.last = max(r.max, kb), kb
	}
	read()
	r.wg.Go(func() {
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				read()
				return
			case <-t.C:
				read()
			}
		}
	})
}

func (r *rssSampler) stop() { r.wg.Wait() }

func readRSS(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

type summary struct {
	Clients    int                `json:"clients"`
	Seconds    float64            `json:"seconds"`
	Requests   int                `json:"requests"`
	OK         int                `json:"ok"`
	Statuses   map[string]int     `json:"statuses"`
	Throughput float64            `json:"ok_per_second"`
	Latency    map[string]float64 `json:"latency_ms"`
	RSSStartMB float64            `json:"rss_start_mb,omitempty"`
	RSSMaxMB   float64            `json:"rss_max_mb,omitempty"`
	RSSEndMB   float64            `json:"rss_end_mb,omitempty"`
}

func report(w io.Writer, all []sample, elapsed time.Duration, clients int, rss *rssSampler, asJSON bool) error {
	s := summary{Clients: clients, Seconds: elapsed.Seconds(), Requests: len(all), Statuses: map[string]int{}}
	var lat []time.Duration
	for _, x := range all {
		name := strconv.Itoa(x.status)
		if x.status == 0 {
			name = "transport error"
		}
		s.Statuses[name]++
		if x.status == http.StatusOK {
			s.OK++
			lat = append(lat, x.latency)
		}
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		if len(lat) == 0 {
			return 0
		}
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	s.Throughput = float64(s.OK) / elapsed.Seconds()
	s.Latency = map[string]float64{"p50": pct(0.50), "p99": pct(0.99), "max": pct(1)}
	mb := func(kb int64) float64 { return float64(kb) / 1024 }
	s.RSSStartMB, s.RSSMaxMB, s.RSSEndMB = mb(rss.first), mb(rss.max), mb(rss.last)
	if asJSON {
		return json.NewEncoder(w).Encode(s)
	}
	fmt.Fprintf(w, "clients %d, %.1f s: %d requests, %d OK (%.1f/s); statuses %v\n", clients, s.Seconds, s.Requests, s.OK, s.Throughput, s.Statuses)
	fmt.Fprintf(w, "latency of OK answers: p50 %.1f ms, p99 %.1f ms, max %.1f ms\n", s.Latency["p50"], s.Latency["p99"], s.Latency["max"])
	if rss.first > 0 {
		fmt.Fprintf(w, "server RSS: %.0f MB at start, %.0f MB at most, %.0f MB at the end\n", s.RSSStartMB, s.RSSMaxMB, s.RSSEndMB)
	}
	return nil
}
