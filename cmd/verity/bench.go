package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/ingest"
)

func init() { subcommands = append(subcommands, newBenchCmd) }

func newBenchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Benchmarks of a whole verity process",
	}
	cmd.AddCommand(newBenchScaleCmd())
	return cmd
}

// benchScale is the state of one `verity bench scale`.
type benchScale struct {
	passages, claims, clients, partSize int
	dir, devData, binary                string
	out                                 io.Writer
}

func newBenchScaleCmd() *cobra.Command {
	b := &benchScale{}
	cmd := &cobra.Command{
		Use:   "scale",
		Short: "Ingest a synthetic corpus of N passages and time verify against it",
		Long: `scale measures how verity's embedded deployment grows with the corpus. It
builds a deterministic corpus of --passages passages, each 3 to 5 sentences
drawn from the development data in --dev-data (FEVER, VitaminC, SNLI and
SciFact evidence), ingests it with 'verity ingest' into --dir/data, starts
'verity serve' on that directory and sends it a fixed set of claims (FEVER
paper_dev claims that have evidence): after a warm-up, once sequentially and
then from --clients concurrent clients. It prints ingest passages/s and the
ingest's peak RSS, serve's start-up time (process start to /readyz), verify
latency p50/p99 for both runs, and serve's RSS.

A --dir that already holds a finished corpus of the same size is reused:
the ingest is not repeated and its figures are read from bench-ingest.json.
Run it under 'nice' on a shared machine; latencies are wall-clock.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if b.passages < 1 {
				return evidence.Invalid("passages", "must be at least 1, got %d", b.passages)
			}
			if b.claims < 1 {
				return evidence.Invalid("claims", "must be at least 1, got %d", b.claims)
			}
			if b.clients < 1 {
				return evidence.Invalid("clients", "must be at least 1, got %d", b.clients)
			}
			if b.partSize < 1 {
				return evidence.Invalid("part", "must be at least 1, got %d", b.partSize)
			}
			if b.dir == "" {
				return evidence.Invalid("dir", "is required (a directory outside the repository)")
			}
			b.out = cmd.OutOrStdout()
			return b.run(cmd.Context())
		},
	}
	f := cmd.Flags()
	f.IntVar(&b.passages, "passages", 100000, "passages in the corpus")
	f.StringVar(&b.dir, "dir", "", "working directory: corpus files, data directory, logs")
	f.StringVar(&b.devData, "dev-data", "../shared/data", "development data directory (the layout of ../shared/data)")
	f.IntVar(&b.claims, "claims", 300, "claims in the fixed claim set")
	f.IntVar(&b.clients, "clients", 8, "concurrent clients in the concurrent run")
	f.IntVar(&b.partSize, "part", 100000, "passages per generated JSONL file")
	f.StringVar(&b.binary, "verity", "", "verity binary to ingest and serve with, to compare versions (default: this one)")
	return cmd
}

// ingestRecord is what bench-ingest.json keeps of the ingest of a corpus.
type ingestRecord struct {
	Passages int `json:"passages"`
	// Stored is the passages the ingest reported; Passages when every
	// record is one passage.
	Stored       int     `json:"stored"`
	Seconds      float64 `json:"seconds"`
	PeakRSSBytes int64   `json:"peak_rss_bytes"`
	Generator    int     `json:"generator"`
}

// benchGenerator versions the corpus generator; a change makes old
// working directories stale.
const benchGenerator = 1

func (b *benchScale) run(ctx context.Context) error {
	exe := b.binary
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return fmt.Errorf("find the verity binary: %w", err)
		}
	}
	data := filepath.Join(b.dir, "data")
	fmt.Fprintf(b.out, "verity bench scale: %d passages in %s; load average %s\n", b.passages, b.dir, loadAvg())

	rec, err := b.ingest(ctx, exe, data)
	if err != nil {
		return err
	}
	fmt.Fprintf(b.out, "ingest: %d passages in %.1f s = %.0f passages/s, peak RSS %s\n",
		rec.Stored, rec.Seconds, float64(rec.Stored)/rec.Seconds, mib(rec.PeakRSSBytes))

	claims, err := benchClaims(b.devData, b.claims)
	if err != nil {
		return err
	}
	srv, err := startBenchServe(ctx, exe, data, filepath.Join(b.dir, "serve.log"))
	if err != nil {
		return err
	}
	defer srv.stop()
	fmt.Fprintf(b.out, "serve: start-up %.2f s, RSS after start-up %s\n", srv.startup.Seconds(), mib(srv.rss()))

	client := &http.Client{Timeout: time.Minute}
	warm := min(20, len(claims))
	if _, err := srv.verifyAll(ctx, client, claims[:warm], 1); err != nil {
		return err
	}
	cpu0 := srv.cpu()
	seq, err := srv.verifyAll(ctx, client, claims, 1)
	if err != nil {
		return err
	}
	cpu := srv.cpu() - cpu0
	fmt.Fprintf(b.out, "verify sequential: %d claims, p50 %s, p99 %s, %.1f claims/s, serve CPU %s a claim\n",
		len(claims), ms(seq.p(50)), ms(seq.p(99)), seq.rate(), ms(cpu/time.Duration(len(claims))))
	conc, err := srv.verifyAll(ctx, client, slices.Concat(claims, claims), b.clients)
	if err != nil {
		return err
	}
	fmt.Fprintf(b.out, "verify %d clients: %d requests, p50 %s, p99 %s, %.1f requests/s\n", b.clients, 2*len(claims), ms(conc.p(50)), ms(conc.p(99)), conc.rate())
	fmt.Fprintf(b.out, "serve RSS: %s now, %s peak; load average %s\n", mib(srv.rss()), mib(srv.peakRSS()), loadAvg())
	return nil
}

// ingest generates and ingests the corpus, or reads the figures of an
// earlier ingest of the same corpus in the directory.
func (b *benchScale) ingest(ctx context.Context, exe, data string) (ingestRecord, error) {
	recPath := filepath.Join(b.dir, "bench-ingest.json")
	if raw, err := os.ReadFile(recPath); err == nil {
		var rec ingestRecord
		if err := json.Unmarshal(raw, &rec); err == nil && rec.Passages == b.passages && rec.Generator == benchGenerator {
			fmt.Fprintf(b.out, "reusing the corpus ingested earlier in %s\n", b.dir)
			return rec, nil
		}
		return ingestRecord{}, fmt.Errorf("%s holds another corpus (%s); choose an empty --dir", b.dir, recPath)
	}
	if _, err := os.Stat(data); err == nil {
		return ingestRecord{}, fmt.Errorf("%s exists but no finished ingest is recorded in %s; remove it or choose an empty --dir", data, recPath)
	}
	parts, err := b.generate()
	if err != nil {
		return ingestRecord{}, err
	}
	logf, err := os.Create(filepath.Join(b.dir, "ingest.log"))
	if err != nil {
		return ingestRecord{}, err
	}
	defer logf.Close()
	start := time.Now()
	var peak int64
	stored := 0
	for _, part := range parts {
		var out bytes.Buffer
		cmd := exec.CommandContext(ctx, exe, "ingest", "--data", data, "--log-level", "warn", part)
		cmd.Stdout, cmd.Stderr = io.MultiWriter(logf, &out), logf
		if err := cmd.Run(); err != nil {
			return ingestRecord{}, fmt.Errorf("ingest %s: %w (see %s)", part, err, logf.Name())
		}
		m := ingestedLine.FindSubmatch(out.Bytes())
		if m == nil {
			return ingestRecord{}, fmt.Errorf("ingest %s: no summary in its output (see %s)", part, logf.Name())
		}
		n, _ := strconv.Atoi(string(m[1]))
		stored += n
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			peak = max(peak, ru.Maxrss*1024)
		}
	}
	rec := ingestRecord{Passages: b.passages, Stored: stored, Seconds: time.Since(start).Seconds(), PeakRSSBytes: peak, Generator: benchGenerator}
	raw, _ := json.Marshal(rec)
	if err := os.WriteFile(recPath, raw, 0o644); err != nil {
		return ingestRecord{}, err
	}
	return rec, nil
}

// generate writes the corpus as JSONL files of at most partSize records,
// one passage each, and returns their paths. Record i is 3 to 5 sentences
// of the development data chosen by a generator seeded with i, so that a
// corpus is the same on every run and the first N records of a larger
// corpus are the corpus of N.
func (b *benchScale) generate() ([]string, error) {
	pool, err := benchSentences(b.devData)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(b.dir, "corpus")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	base := time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC)
	var parts []string
	for start := 0; start < b.passages; start += b.partSize {
		path := filepath.Join(dir, fmt.Sprintf("part-%04d.jsonl", len(parts)))
		f, err := os.Create(path)
		if err != nil {
			return nil, err
		}
		w := bufio.NewWriter(f)
		enc := json.NewEncoder(w)
		for i := start; i < min(start+b.partSize, b.passages); i++ {
			rng := rand.New(rand.NewPCG(uint64(i), benchGenerator))
			ss := make([]string, 3+rng.IntN(3))
			for j := range ss {
				ss[j] = pool[rng.IntN(len(pool))]
			}
			// One passage a record: stay under the chunker's bounds.
			for len(ss) > 1 && (len(strings.Fields(strings.Join(ss, " "))) > benchMaxWords || len(strings.Join(ss, " ")) > benchMaxBytes) {
				ss = ss[:len(ss)-1]
			}
			host := fmt.Sprintf("site%03d.example", rng.IntN(1000))
			err := enc.Encode(map[string]string{
				"id":           fmt.Sprintf("bench-%07d", i),
				"url":          fmt.Sprintf("https://%s/p/%d", host, i),
				"title":        fmt.Sprintf("Passage %d", i),
				"text":         strings.Join(ss, " "),
				"published_at": base.AddDate(0, 0, rng.IntN(3650)).Format("2006-01-02"),
			})
			if err != nil {
				f.Close()
				return nil, err
			}
		}
		if err := errors.Join(w.Flush(), f.Close()); err != nil {
			return nil, err
		}
		parts = append(parts, path)
	}
	return parts, nil
}

// Bounds of a generated record, below the chunker's defaults
// (ingest.DefaultMaxWords, ingest.DefaultMaxChunkChars) so that each record
// is one passage.
const (
	benchMaxWords = ingest.DefaultMaxWords - 10
	benchMaxBytes = ingest.DefaultMaxChunkChars - 100
)

// benchSentences is the sentence pool of the corpus: the evidence of the
// FEVER, VitaminC and SNLI files and the abstract sentences of SciFact,
// deduplicated, in file order.
func benchSentences(dir string) ([]string, error) {
	seen := map[string]bool{}
	var pool []string
	add := func(s string) {
		s = strings.TrimSpace(s)
		if len(s) >= 20 && !seen[s] {
			seen[s] = true
			pool = append(pool, s)
		}
	}
	for _, rel := range []string{"fever/paper_dev.jsonl", "vitaminc/real_a.jsonl", "vitaminc/synthetic.jsonl", "snli/dev.jsonl", "snli/test.jsonl"} {
		err := eachJSONL(filepath.Join(dir, rel), func(line []byte) error {
			var r struct {
				Evidence []string `json:"evidence"`
			}
			if err := json.Unmarshal(line, &r); err != nil {
				return err
			}
			for _, e := range r.Evidence {
				add(e)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	err := eachJSONL(filepath.Join(dir, "scifact/corpus.jsonl"), func(line []byte) error {
		var r struct {
			Abstract []string `json:"abstract"`
		}
		if err := json.Unmarshal(line, &r); err != nil {
			return err
		}
		for _, s := range r.Abstract {
			add(s)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return pool, nil
}

// benchClaims returns n claims of FEVER paper_dev that have evidence,
// evenly spread over the file.
func benchClaims(dir string, n int) ([]string, error) {
	var all []string
	err := eachJSONL(filepath.Join(dir, "fever/paper_dev.jsonl"), func(line []byte) error {
		var r struct {
			Claim    string   `json:"claim"`
			Evidence []string `json:"evidence"`
		}
		if err := json.Unmarshal(line, &r); err != nil {
			return err
		}
		if len(r.Evidence) > 0 {
			all = append(all, r.Claim)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(all) < n {
		return nil, fmt.Errorf("the development data holds %d claims with evidence; --claims asks for %d", len(all), n)
	}
	out := make([]string, n)
	for i := range out {
		out[i] = all[i*len(all)/n]
	}
	return out, nil
}

func eachJSONL(path string, each func([]byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read development data: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for n := 1; sc.Scan(); n++ {
		if err := each(sc.Bytes()); err != nil {
			return fmt.Errorf("%s:%d: %w", path, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

// served is a `verity serve` child process.
type served struct {
	cmd     *exec.Cmd
	base    string
	startup time.Duration
	done    chan struct{}
}

var ingestedLine = regexp.MustCompile(`ingested \d+ sources \((\d+) passages\)`)

var listenLine = regexp.MustCompile(`listening on (http://[0-9.:]+)`)

// startBenchServe starts `verity serve` on data and waits until /readyz
// answers 200.
func startBenchServe(ctx context.Context, exe, data, logPath string) (*served, error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	cmd := exec.Command(exe, "serve", "--data", data, "--addr", "127.0.0.1:0", "--demo=false", "--log-level", "warn")
	cmd.Env = os.Environ()
	// The benchmark's clients are one address; the rate limit would turn
	// most of their requests away. Versions without one (see --verity)
	// reject the setting.
	if cfg, err := exec.CommandContext(ctx, exe, "config").Output(); err == nil && bytes.Contains(cfg, []byte("rate_limit")) {
		cmd.Env = append(cmd.Env, "VERITY_SERVER_RATE_LIMIT=0")
	}
	cmd.Stderr = logf
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		logf.Close()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("start verity serve: %w", err)
	}
	s := &served{cmd: cmd, done: make(chan struct{})}
	addr := make(chan string, 1)
	go func() {
		defer close(s.done)
		defer logf.Close()
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := listenLine.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case addr <- m[1]:
				default:
				}
			}
		}
		cmd.Wait() //nolint:errcheck // stop reports how it ended
	}()
	select {
	case s.base = <-addr:
	case <-s.done:
		return nil, fmt.Errorf("verity serve exited before listening (see %s)", logPath)
	case <-ctx.Done():
		s.stop()
		return nil, ctx.Err()
	}
	for {
		resp, err := http.Get(s.base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		select {
		case <-ctx.Done():
			s.stop()
			return nil, ctx.Err()
		case <-s.done:
			return nil, fmt.Errorf("verity serve exited (see %s)", logPath)
		case <-time.After(5 * time.Millisecond):
		}
	}
	s.startup = time.Since(start)
	return s, nil
}

func (s *served) stop() {
	_ = s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.done:
	case <-time.After(15 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

// cpu is the CPU time the child has used (user and system), from
// /proc/PID/stat; 0 when /proc is not there. On a machine shared with other
// work it is steadier than latency.
func (s *served) cpu() time.Duration {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// Fields after the command name, which ends with ')': state is the
	// first, utime and stime the 12th and 13th, in clock ticks (100 a
	// second on Linux).
	i := bytes.LastIndexByte(raw, ')')
	f := strings.Fields(string(raw[i+1:]))
	if i < 0 || len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+st) * 10 * time.Millisecond
}

// rss and peakRSS read the child's VmRSS and VmHWM, in bytes; 0 when
// /proc is not there.
func (s *served) rss() int64     { return procStatus(s.cmd.Process.Pid, "VmRSS") }
func (s *served) peakRSS() int64 { return procStatus(s.cmd.Process.Pid, "VmHWM") }

func procStatus(pid int, field string) int64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(raw)) {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb * 1024
		}
	}
	return 0
}

// latencies are the durations of one run of requests.
type latencies struct {
	d    []time.Duration
	wall time.Duration
}

func (l latencies) p(pct int) time.Duration {
	if len(l.d) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(l.d))
	return s[min(len(s)-1, (len(s)*pct+99)/100-1)]
}

func (l latencies) rate() float64 { return float64(len(l.d)) / l.wall.Seconds() }

// verifyAll posts every claim to /v1/verify from clients concurrent
// clients and returns each request's latency.
func (s *served) verifyAll(ctx context.Context, client *http.Client, claims []string, clients int) (latencies, error) {
	out := latencies{d: make([]time.Duration, len(claims))}
	var (
		next int
		mu   sync.Mutex
		wg   sync.WaitGroup
		errs = make([]error, clients)
	)
	start := time.Now()
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(claims) || ctx.Err() != nil {
					return
				}
				body, _ := json.Marshal(map[string]string{"claim": claims[i]})
				t := time.Now()
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.base+"/v1/verify", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				resp, err := client.Do(req)
				if err != nil {
					errs[c] = fmt.Errorf("verify: %w", err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					errs[c] = fmt.Errorf("verify %q: status %d", claims[i], resp.StatusCode)
					return
				}
				out.d[i] = time.Since(t)
			}
		}()
	}
	wg.Wait()
	out.wall = time.Since(start)
	if err := errors.Join(append(errs, ctx.Err())...); err != nil {
		return latencies{}, err
	}
	return out, nil
}

func loadAvg() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(raw))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func mib(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
