package ingest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/semaphore"
)

// Defaults of the fetch budget of [FetchConfig].
const (
	DefaultMaxConcurrentFetches = 16
	DefaultMaxBytesInFlight     = 64 << 20 // 64 MiB
)

// budget bounds, across every caller of one Fetcher (ingest jobs and the
// citation checker share it), the fetches under way and the body bytes
// they may hold at once. A fetch takes a slot before it connects and
// reserves its body's size once the headers are in: the announced
// Content-Length, or MaxBytes when none is announced. Both waits end
// with the caller's context.
type budget struct {
	fetches *semaphore.Weighted
	bytes   *semaphore.Weighted
	limit   int64 // of bytes

	// inFlight and peak count the body bytes read by fetches under way:
	// what the budget bounds, measured where it is held.
	inFlight, peak atomic.Int64
}

func newBudget(fetches int, bytes int64) *budget {
	return &budget{fetches: semaphore.NewWeighted(int64(fetches)), bytes: semaphore.NewWeighted(bytes), limit: bytes}
}

// begin takes a fetch slot; call the returned func to give it back.
func (b *budget) begin(ctx context.Context) (func(), error) {
	if err := b.fetches.Acquire(ctx, 1); err != nil {
		return nil, fmt.Errorf("wait for a fetch slot: %w", err)
	}
	return func() { b.fetches.Release(1) }, nil
}

// reserve holds n body bytes, at most the whole budget; call the
// returned func to give them back.
func (b *budget) reserve(ctx context.Context, n int64) (func(), error) {
	n = min(max(n, 1), b.limit)
	if err := b.bytes.Acquire(ctx, n); err != nil {
		return nil, fmt.Errorf("wait for %d bytes of the fetch budget: %w", n, err)
	}
	return func() { b.bytes.Release(n) }, nil
}

// held records that a fetch under way holds n more body bytes (negative:
// gave them back).
func (b *budget) held(n int64) {
	raise(&b.peak, b.inFlight.Add(n))
}

// raise sets *peak to cur when cur is higher.
func raise(peak *atomic.Int64, cur int64) {
	for p := peak.Load(); cur > p && !peak.CompareAndSwap(p, cur); p = peak.Load() {
	}
}

// readBody reads at most MaxBytes+1 bytes of r, into one buffer of the
// announced size (n, -1 when unknown) so that a body is not copied while
// it grows, counting what it holds in the budget.
func (f *Fetcher) readBody(r io.Reader, n int64) ([]byte, error) {
	limit := f.cfg.MaxBytes + 1
	buf := bytes.NewBuffer(make([]byte, 0, min(max(n, 0), limit)+bytes.MinRead))
	var held int64
	defer func() { f.budget.held(-held) }()
	lr := io.LimitReader(r, limit)
	for {
		m, err := buf.ReadFrom(io.LimitReader(lr, 64<<10))
		f.budget.held(m)
		held += m
		if err != nil {
			return nil, err
		}
		if m == 0 {
			return buf.Bytes(), nil
		}
	}
}

// DefaultExtractionBudget is the input bytes that Extract calls work on at
// once in this process, by default.
const DefaultExtractionBudget = 32 << 20

// extraction bounds the input bytes that Extract calls work on at once,
// process-wide: parsing a large HTML page takes several times its size,
// and ingest and the citation checker both extract what they fetch.
var extraction = newExtractionBudget(DefaultExtractionBudget)

type extractionBudget struct {
	mu    sync.Mutex
	sem   *semaphore.Weighted
	limit int64
	// inFlight and peak count the input bytes under extraction.
	inFlight, peak atomic.Int64
}

func newExtractionBudget(n int64) *extractionBudget {
	return &extractionBudget{sem: semaphore.NewWeighted(n), limit: n}
}

// ValidateExtractionBudget reports an extraction budget that cannot work,
// naming it as verity's configuration does (fetch.max_extract_bytes). It
// checks the value as given: start from DefaultExtractionBudget.
func ValidateExtractionBudget(n int64) error {
	if n < 1 {
		return fmt.Errorf("fetch.max_extract_bytes must be positive, got %d", n)
	}
	return nil
}

// SetExtractionBudget sets how many input bytes Extract calls work on at
// once in this process (default 32 MiB); a document larger than the
// budget takes all of it. n <= 0 restores the default. Call it at start,
// before any extraction.
func SetExtractionBudget(n int64) {
	if n <= 0 {
		n = DefaultExtractionBudget
	}
	extraction.mu.Lock()
	defer extraction.mu.Unlock()
	extraction.sem, extraction.limit = semaphore.NewWeighted(n), n
}

// hold waits until n input bytes (at least 1, at most the budget) are
// free, takes them and returns the func that gives them back.
func (b *extractionBudget) hold(n int64) func() {
	b.mu.Lock()
	sem, limit := b.sem, b.limit
	b.mu.Unlock()
	n = min(max(n, 1), limit)
	_ = sem.Acquire(context.Background(), n) // fails only when its context ends
	raise(&b.peak, b.inFlight.Add(n))
	return func() {
		b.inFlight.Add(-n)
		sem.Release(n)
	}
}
