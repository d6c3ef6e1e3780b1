package ingest

import (
	"context"
	"fmt"
	"slices"

	"github.com/verity-fc/verity/evidence"
)

// SourceReplacer is a PassageIndex that can replace the passages of many
// sources in one transaction; retrieval.Embedded is one. Ingest then writes
// small sources in batches, one commit (one fsync) for many of them.
type SourceReplacer interface {
	ReplaceSources(ctx context.Context, sourceIDs []string, passages []evidence.Passage, vecs [][]float32) error
}

// SourceBatcher is a SourceStore that can put many sources in one
// transaction; corpus.SQLite is one.
type SourceBatcher interface {
	PutSources(ctx context.Context, srcs []evidence.Source) error
}

// Bounds of one batch of the writer: passages (under the embedded store's
// 10,000 a transaction) and sources.
const (
	maxBatchPassages = 4000
	maxBatchSources  = 2000
)

// Reserver is a PassageIndex that can make room for passages to come;
// retrieval.Embedded is one. The writer tells it, before its first write,
// how many sources the run holds and a quarter more: about the passages of
// a JSONL file, whose records are mostly one passage each (a record of two
// past the room would copy the whole index to grow it).
type Reserver interface {
	Reserve(n int)
}

// prepared is a source ready to write: its passages embedded.
type prepared struct {
	i    int
	it   Item
	src  evidence.Source
	ps   []evidence.Passage
	vecs [][]float32
}

// batchWriter writes prepared sources in batches: their passages in one
// ReplaceSources transaction, then their sources in one PutSources
// transaction, and only then reports them finished, so that a source
// reported ingested is one whose passages and hash are durable. A batch is
// whatever waited while the previous one was written, so batches grow
// with the rate of sources and a lone source is written at once.
type batchWriter struct {
	in     *Ingester
	rep    SourceReplacer
	bat    SourceBatcher
	queue  chan prepared
	done   chan struct{}
	finish func(p prepared, err error)
	// reserve is the sources of the run, told the index (a Reserver)
	// before the first write.
	reserve int
}

// newBatchWriter returns a running writer when the stores can batch, else
// nil.
func (in *Ingester) newBatchWriter(ctx context.Context, sources int, finish func(p prepared, err error)) *batchWriter {
	rep, ok1 := in.index.(SourceReplacer)
	bat, ok2 := in.sources.(SourceBatcher)
	if !ok1 || !ok2 {
		return nil
	}
	w := &batchWriter{in: in, rep: rep, bat: bat, queue: make(chan prepared, maxBatchSources), done: make(chan struct{}), finish: finish, reserve: sources}
	go w.run(ctx)
	return w
}

// add queues a prepared source; it blocks while the queue is full.
func (w *batchWriter) add(ctx context.Context, p prepared) error {
	select {
	case w.queue <- p:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// close writes what is queued and waits for the writer to stop. No add
// may follow.
func (w *batchWriter) close() {
	close(w.queue)
	<-w.done
}

func (w *batchWriter) run(ctx context.Context) {
	defer close(w.done)
	for p := range w.queue {
		batch, n := []prepared{p}, len(p.ps)
	fill:
		for n < maxBatchPassages && len(batch) < maxBatchSources {
			select {
			case q, ok := <-w.queue:
				if !ok {
					break fill
				}
				batch = append(batch, q)
				n += len(q.ps)
			default:
				break fill
			}
		}
		if ctx.Err() != nil {
			// Interrupted: nothing more is written or reported.
			continue
		}
		if r, ok := w.rep.(Reserver); ok && w.reserve > 0 {
			r.Reserve(w.reserve + w.reserve/4)
			w.reserve = 0
		}
		w.write(ctx, batch)
	}
}

// write stores one batch and reports each source. When the batch as a
// whole fails, each source is written alone, so that one bad source fails
// alone.
func (w *batchWriter) write(ctx context.Context, batch []prepared) {
	err := w.writeBatch(ctx, batch)
	if err == nil || len(batch) == 1 {
		for _, p := range batch {
			w.finish(p, err)
		}
		return
	}
	for _, p := range batch {
		w.finish(p, w.writeBatch(ctx, []prepared{p}))
	}
}

func (w *batchWriter) writeBatch(ctx context.Context, batch []prepared) error {
	ids := make([]string, len(batch))
	var ps []evidence.Passage
	var vecs [][]float32
	srcs := make([]evidence.Source, len(batch))
	for i, p := range batch {
		ids[i] = p.src.ID
		ps = append(ps, p.ps...)
		vecs = append(vecs, p.vecs...)
		srcs[i] = p.src
	}
	// Sources of more passages than a batch holds go alone: the first
	// chunk of passages replaces the source, the rest add to it.
	for len(ps) > maxBatchPassages*2 {
		if err := w.rep.ReplaceSources(ctx, ids, ps[:maxBatchPassages], vecs[:maxBatchPassages]); err != nil {
			return fmt.Errorf("store passages: %w", err)
		}
		ids, ps, vecs = nil, ps[maxBatchPassages:], vecs[maxBatchPassages:]
	}
	if err := w.rep.ReplaceSources(ctx, slices.Clip(ids), ps, vecs); err != nil {
		return fmt.Errorf("store passages: %w", err)
	}
	if err := w.bat.PutSources(ctx, srcs); err != nil {
		return fmt.Errorf("store source: %w", err)
	}
	return nil
}
