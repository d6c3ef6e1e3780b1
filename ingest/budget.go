package ingest

import (
	"bytes"
	"context"
	"fmt"
	"io"
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
	cur := b.inFlight.Add(n)
	for {
		p := b.peak.Load()
		if cur <= p || b.peak.CompareAndSwap(p, cur) {
			return
		}
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
