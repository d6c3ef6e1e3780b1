package llm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// Limits bound the time, size and retries of a client's calls. The zero
// value gives the defaults.
type Limits struct {
	// Timeout bounds one call when ctx carries no earlier deadline.
	// Default 2 minutes.
	Timeout time.Duration
	// Retries is how many times an idempotent call (Embed) is tried again
	// after the backend was unavailable. Default 2; negative means never.
	// Chat is not retried: it is costly, and a backend that is down should
	// fail fast.
	Retries int
	// Backoff is the wait before the first retry; it doubles on each
	// further one. Default 200 ms.
	Backoff time.Duration
	// MaxReplyBytes bounds a reply's text. Default 1 MiB.
	MaxReplyBytes int
	// EmbedBatch bounds the texts sent in one embeddings call; longer lists
	// are split. Default 64.
	EmbedBatch int
	// TopLogprobs is how many alternatives for the first token
	// LabelLogprobs asks for, 1 to 20. Default 20.
	TopLogprobs int
}

// defaultTimeout bounds one call to a backend: the time a local model may
// take for a long reply. It is the default of Limits.Timeout and of
// HTTPConfig.Timeout.
const defaultTimeout = 2 * time.Minute

// DefaultLimits returns the defaults the zero Limits stands for.
func DefaultLimits() Limits { return Limits{}.withDefaults() }

// Validate reports the first limit that cannot work. It checks the values
// as given: start from DefaultLimits. Of these, only Timeout is a setting
// of verity's configuration (ollama.timeout, openai.timeout), which the
// caller names.
func (l Limits) Validate() error {
	switch {
	case l.Timeout <= 0:
		return fmt.Errorf("timeout must be positive, got %v", l.Timeout)
	case l.Backoff <= 0:
		return fmt.Errorf("llm: Limits.Backoff must be positive, got %v", l.Backoff)
	case l.MaxReplyBytes < 1:
		return fmt.Errorf("llm: Limits.MaxReplyBytes must be positive, got %d", l.MaxReplyBytes)
	case l.EmbedBatch < 1:
		return fmt.Errorf("llm: Limits.EmbedBatch must be positive, got %d", l.EmbedBatch)
	case l.TopLogprobs < 1 || l.TopLogprobs > 20:
		return fmt.Errorf("llm: Limits.TopLogprobs must be between 1 and 20, got %d", l.TopLogprobs)
	}
	return nil
}

func (l Limits) withDefaults() Limits {
	if l.Timeout <= 0 {
		l.Timeout = defaultTimeout
	}
	if l.Retries == 0 {
		l.Retries = 2
	}
	if l.Retries < 0 {
		l.Retries = 0
	}
	if l.Backoff <= 0 {
		l.Backoff = 200 * time.Millisecond
	}
	if l.MaxReplyBytes <= 0 {
		l.MaxReplyBytes = 1 << 20
	}
	if l.EmbedBatch <= 0 {
		l.EmbedBatch = 64
	}
	if l.TopLogprobs <= 0 || l.TopLogprobs > 20 {
		l.TopLogprobs = 20
	}
	return l
}

// bound applies l.Timeout to ctx unless ctx ends sooner.
func (l Limits) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if d, ok := ctx.Deadline(); ok && time.Until(d) <= l.Timeout {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, l.Timeout)
}

// retry calls op until it succeeds, fails with an error other than
// ErrUnavailable, or has been retried l.Retries times. Waits end early when
// ctx is done.
func (l Limits) retry(ctx context.Context, log *slog.Logger, what string, op func() error) error {
	wait := l.Backoff
	for attempt := 0; ; attempt++ {
		err := op()
		if err == nil || attempt >= l.Retries || !errors.Is(err, ErrUnavailable) {
			return err
		}
		log.Warn("model backend unavailable, retrying", "op", what, "attempt", attempt+1, "wait", wait, "err", err)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
		wait *= 2
	}
}

// replyError is an error a client's own callback returned; it passes
// through call unchanged.
type replyError struct{ err error }

func (e *replyError) Error() string { return e.err.Error() }
func (e *replyError) Unwrap() error { return e.err }

// call runs one call of a backend's client, bounded by l.Timeout and with
// its body bounded by bodyLimit bytes (0: unbounded), and turns whatever
// went wrong into a *BackendError. done, for streamed calls, reports whether
// the backend finished its reply.
func (l Limits) call(ctx context.Context, backend, op string, bodyLimit int64, run func(ctx context.Context) error, done func() bool) error {
	bctx, cancel := l.bound(ctx)
	defer cancel()
	wctx, x := watch(bctx, bodyLimit)
	err := withStatus(run(wctx))
	if err == nil && (done == nil || done()) {
		return nil
	}
	status, readErr := x.get()
	var own *replyError
	switch {
	case ctx.Err() != nil:
		if err == nil {
			err = ctx.Err()
		}
	case bctx.Err() != nil:
		err = fmt.Errorf("%w: no reply within %v", errTimedOut, l.Timeout)
	case errors.As(err, &own):
	case errors.Is(readErr, errBodyTooLarge):
		err = readErr
	case readErr != nil:
		err = fmt.Errorf("%w: %w", errIncomplete, readErr)
	case err == nil && status >= 400:
		err = fmt.Errorf("HTTP status %d with no error message", status)
	case err == nil:
		err = fmt.Errorf("%w: the stream ended without its final message", errIncomplete)
	case done != nil && status < 400:
		// The server answered 200 and then sent an error line, or a line
		// that is not JSON: it failed mid-reply.
		err = fmt.Errorf("%w: %w", errIncomplete, err)
	}
	if status < 400 {
		status = 0
	}
	return newBackendError(ctx, backend, op, status, err)
}

// embedBodyLimit bounds an embeddings reply: 256 KiB a text is room for
// 16,384 dimensions written out as JSON numbers.
func (l Limits) embedBodyLimit() int64 { return int64(l.EmbedBatch) << 18 }

// embedInBatches embeds texts in batches of l.EmbedBatch through one,
// retrying a batch while the backend is unavailable, and checks that each
// text got a vector and that all have the same dimension.
func (l Limits) embedInBatches(ctx context.Context, log *slog.Logger, backend string, texts []string, one func(ctx context.Context, batch []string) ([][]float32, error)) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += l.EmbedBatch {
		batch := texts[start:min(start+l.EmbedBatch, len(texts))]
		var vs [][]float32
		err := l.retry(ctx, log, backend+" embed", func() error {
			var err error
			vs, err = one(ctx, batch)
			return err
		})
		if err != nil {
			return nil, err
		}
		if len(vs) != len(batch) {
			return nil, &BackendError{Backend: backend, Op: "embed", Err: fmt.Errorf("got %d vectors for %d texts", len(vs), len(batch))}
		}
		out = append(out, vs...)
	}
	for i, v := range out {
		if len(v) == 0 || len(v) != len(out[0]) {
			return nil, &BackendError{Backend: backend, Op: "embed", Err: fmt.Errorf("vector %d has %d dimensions, vector 0 has %d", i, len(v), len(out[0]))}
		}
	}
	return out, nil
}
