package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/sync/errgroup"

	"github.com/verity-fc/verity/evidence"
)

// SourceStore keeps source metadata. PutSource of an existing ID replaces
// it.
type SourceStore interface {
	// SourceHash returns the stored ContentHash of a source; ok is false
	// when the source is unknown.
	SourceHash(ctx context.Context, id string) (hash string, ok bool, err error)
	PutSource(ctx context.Context, src evidence.Source) error
}

// PassageIndex stores passages with their vectors; retrieval.Store
// satisfies it.
type PassageIndex interface {
	Upsert(ctx context.Context, passages []evidence.Passage, vecs [][]float32) error
	DeleteSource(ctx context.Context, sourceID string) error
}

// Embedder turns texts into vectors, one per text; llm.Embedder satisfies
// it. It is called from several goroutines at once.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Defaults of [Config].
const (
	DefaultWorkers      = 4
	DefaultEmbedBatch   = 32
	DefaultMaxTextBytes = 2 << 20 // 2 MiB
	DefaultMaxPassages  = 2000
	DefaultMaxFileBytes = 10 << 20 // 10 MiB
)

// Config configures an [Ingester]. The zero value works.
type Config struct {
	// Workers is how many sources, or runs of up to 64 consecutive records
	// of a JSONL file, are prepared at once (fetch, extract, chunk, embed);
	// one writer stores what they prepare when the stores batch. Default 4.
	Workers int
	// EmbedBatch is how many passages go to the embedder in one call.
	// Default 32.
	EmbedBatch int
	// MaxTextBytes bounds the text of one source; a longer text is cut at
	// the last paragraph break before the limit and the cut is logged.
	// Default 2 MiB.
	MaxTextBytes int
	// MaxPassages bounds the passages of one source; later ones are
	// dropped and the cut is logged. Default 2,000 (about 200,000 words).
	MaxPassages int
	// MaxFileBytes bounds a local file. Default 10 MiB.
	MaxFileBytes int64
	// Chunk shapes the passages.
	Chunk ChunkConfig
	// Reliability scores domains. Default: the built-in table.
	Reliability *ReliabilityTable
	// Now is the clock of IngestedAt. Default time.Now.
	Now func() time.Time
}

// DefaultConfig returns the defaults the zero Config stands for.
func DefaultConfig() Config { return Config{}.withDefaults() }

// Validate reports a Workers out of range, naming it as verity's
// configuration does (ingest.workers). It checks the values as given:
// start from DefaultConfig.
func (c Config) Validate() error {
	if c.Workers < 1 || c.Workers > 64 {
		return fmt.Errorf("ingest.workers must be between 1 and 64, got %d", c.Workers)
	}
	return nil
}

func (c Config) withDefaults() Config {
	if c.Workers <= 0 {
		c.Workers = DefaultWorkers
	}
	if c.EmbedBatch <= 0 {
		c.EmbedBatch = DefaultEmbedBatch
	}
	if c.MaxTextBytes <= 0 {
		c.MaxTextBytes = DefaultMaxTextBytes
	}
	if c.MaxPassages <= 0 {
		c.MaxPassages = DefaultMaxPassages
	}
	if c.MaxFileBytes <= 0 {
		c.MaxFileBytes = DefaultMaxFileBytes
	}
	c.Chunk = c.Chunk.withDefaults()
	if c.Reliability == nil {
		c.Reliability, _ = NewReliabilityTable(nil)
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// Progress is reported once before the first source and after every
// source. Done counts sources finished either way (Ingested + Skipped +
// Failed, rejected arguments and lines among the failed); Total counts
// sources and rejected arguments and lines.
type Progress struct {
	Done, Total int
	// Current is the location of the source that just finished; "" in the
	// first report.
	Current                   string
	Ingested, Skipped, Failed int
	// NewFailures are the failures since the previous report: the rejected
	// arguments and lines in the first report, then the source that just
	// finished if it failed. Together they are Summary.Failed, in the order
	// sources finished.
	NewFailures []Failure
}

// Summary is the outcome of a run.
type Summary struct {
	// Total counts sources, rejected arguments and rejected lines.
	Total int `json:"total"`
	// Sources counts sources written in this run.
	Sources int `json:"sources"`
	// Chunks counts the passages written in this run.
	Chunks int `json:"chunks"`
	// Skipped counts sources whose content had not changed.
	Skipped int       `json:"skipped"`
	Failed  []Failure `json:"failed"`
}

// Ingester turns sources into stored, embedded passages.
type Ingester struct {
	fetcher *Fetcher
	sources SourceStore
	index   PassageIndex
	emb     Embedder
	cfg     Config
	logger  *slog.Logger
	// queued, when set (by tests), is called each time a source is queued
	// for the batch writer.
	queued func()
}

// New returns an Ingester. fetcher may be nil when no URL will be
// ingested; a URL then fails. A nil logger discards logs.
func New(fetcher *Fetcher, sources SourceStore, index PassageIndex, emb Embedder, cfg Config, logger *slog.Logger) *Ingester {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Ingester{fetcher: fetcher, sources: sources, index: index, emb: emb, cfg: cfg.withDefaults(), logger: logger}
}

// Run ingests the sources args names (see [Expand]). Each source is
// fetched or read, extracted, hashed, and, when its hash differs from the
// stored one, chunked, embedded, and written: the old passages deleted,
// the new ones upserted with IDs "<source id>#<ordinal>", and the source
// put last, so that a source the store reports is one whose passages are
// durable. A source that fails is recorded in the Summary with its reason
// and the others go on. progress, when not nil, is called once before the
// first source and after every source, from one goroutine at a time; it
// should return quickly.
//
// Run returns a non-nil error only when ctx ends (the Summary then counts
// what finished) or when args hold more than [MaxItems] sources.
func (in *Ingester) Run(ctx context.Context, args []string, progress func(Progress)) (Summary, error) {
	items, rejected, err := Expand(ctx, args)
	if err != nil {
		return Summary{}, fmt.Errorf("ingest: %w", err)
	}
	for _, f := range rejected {
		in.logger.Warn("ingest source rejected", "source", f.Source, "reason", f.Reason)
	}
	r := &run{
		progress: progress,
		sum:      Summary{Total: len(items) + len(rejected), Failed: rejected},
		failedAt: slices.Repeat([]int{-1}, len(rejected)),
		done:     len(rejected),
	}
	r.report("")

	g, gctx := errgroup.WithContext(ctx)
	done := func(i int, it Item, n int, skipped bool, err error) {
		r.finish(i, it, n, skipped, err)
		if err != nil {
			in.logger.Warn("ingest source failed", "source", it.Location, "id", it.ID, "err", err)
		} else {
			in.logger.Debug("ingest source done", "source", it.Location, "id", it.ID, "passages", n, "skipped", skipped)
		}
	}
	// Sources are written in batches when the stores allow it; see
	// batchWriter. It runs under ctx: gctx ends when the workers are done,
	// before the last batch is written.
	w := in.newBatchWriter(ctx, len(items), func(p prepared, err error) { done(p.i, p.it, len(p.ps), false, err) })
	g.SetLimit(in.cfg.Workers)
	for first, n := range in.bundles(items) {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			for _, o := range in.prepare(gctx, first, items[first:first+n]) {
				p, err := o.p, o.err
				if err == nil && !o.skipped && w != nil {
					if err := w.add(gctx, p); err != nil {
						return err
					}
					if in.queued != nil {
						in.queued()
					}
					continue
				}
				if err == nil && !o.skipped {
					err = in.write(gctx, p)
				}
				if err != nil && gctx.Err() != nil {
					// Interrupted, not failed.
					return gctx.Err()
				}
				done(p.i, p.it, len(p.ps), o.skipped, err)
			}
			return nil
		})
	}
	werr := g.Wait()
	if w != nil {
		w.close()
	}
	sum := r.summary()
	in.logger.Info("ingest finished", "total", sum.Total, "ingested", sum.Sources, "chunks", sum.Chunks,
		"skipped", sum.Skipped, "failed", len(sum.Failed))
	if err := ctx.Err(); err != nil {
		return sum, fmt.Errorf("ingest: %w", err)
	}
	if werr != nil {
		return sum, fmt.Errorf("ingest: %w", werr)
	}
	return sum, nil
}

// run gathers the outcome of one Run from its workers.
type run struct {
	progress func(Progress)

	mu  sync.Mutex
	sum Summary
	// failedAt is the item index of each failure (-1 for rejected
	// arguments and lines), to sort failures into argument order.
	failedAt []int
	done     int
	// reported is how many failures earlier reports carried.
	reported int
}

func (r *run) finish(i int, it Item, passages int, skipped bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case err != nil:
		r.sum.Failed = append(r.sum.Failed, Failure{Source: it.Location, Reason: err.Error(), Err: err})
		r.failedAt = append(r.failedAt, i)
	case skipped:
		r.sum.Skipped++
	default:
		r.sum.Sources++
		r.sum.Chunks += passages
	}
	r.done++
	r.report(it.Location)
}

// report calls the progress callback; the caller holds mu or is alone.
func (r *run) report(current string) {
	fresh := r.sum.Failed[r.reported:]
	r.reported = len(r.sum.Failed)
	if r.progress == nil {
		return
	}
	r.progress(Progress{
		Done:        r.done,
		Total:       r.sum.Total,
		Current:     current,
		Ingested:    r.sum.Sources,
		Skipped:     r.sum.Skipped,
		Failed:      len(r.sum.Failed),
		NewFailures: slices.Clone(fresh),
	})
}

func (r *run) summary() Summary {
	r.mu.Lock()
	defer r.mu.Unlock()
	order := make([]int, len(r.sum.Failed))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return r.failedAt[a] - r.failedAt[b] })
	sum := r.sum
	sum.Failed = make([]Failure, len(order))
	for i, j := range order {
		sum.Failed[i] = r.sum.Failed[j]
	}
	return sum
}

// errNoText is a source that yields no text.
var errNoText = errors.New("no text extracted")

// Bounds of a bundle: consecutive records of one JSONL file that one worker
// prepares together, reading their lines at once, looking up their hashes
// in one query (SourceHasher) and embedding their passages in shared
// batches.
const (
	maxBundleItems = 64
	maxBundleBytes = 1 << 20
)

// bundles splits items into runs that one worker prepares, yielding the
// index of each run's first item and its length: records of one file, at
// most maxBundleItems of them (fewer when the items are few, so that every
// worker gets some) and maxBundleBytes of lines, else single items.
func (in *Ingester) bundles(items []Item) iter.Seq2[int, int] {
	size := min(maxBundleItems, max(1, len(items)/(4*in.cfg.Workers)))
	return func(yield func(int, int) bool) {
		for first := 0; first < len(items); {
			n, bytes := 1, items[first].length
			if items[first].Kind == KindRecord {
				for first+n < len(items) && n < size {
					next := items[first+n]
					if next.Kind != KindRecord || next.Path != items[first].Path || bytes+next.length > maxBundleBytes {
						break
					}
					n++
					bytes += next.length
				}
			}
			if !yield(first, n) {
				return
			}
			first += n
		}
	}
}

// SourceHasher is a SourceStore that looks up the hashes of many sources in
// one query; corpus.SQLite is one.
type SourceHasher interface {
	// SourceHashes returns the stored ContentHash of each of ids that is
	// known, by id.
	SourceHashes(ctx context.Context, ids []string) (map[string]string, error)
}

// outcome is what prepare made of one item: a source to write, a skip, or
// a failure.
type outcome struct {
	p       prepared
	skipped bool
	err     error
}

// pending is an item on its way through prepare.
type pending struct {
	src    evidence.Source
	hash   string
	known  bool
	chunks []string
	vecs   [][]float32
}

// prepare loads, chunks and embeds items (items[0] is the run's item
// first), or reports each skipped when its content is unchanged. A known
// source whose content changed is marked unfinished before it is
// returned.
func (in *Ingester) prepare(ctx context.Context, first int, items []Item) []outcome {
	out := make([]outcome, len(items))
	work := make([]pending, len(items))
	for k, it := range items {
		out[k].p.i, out[k].p.it = first+k, it
	}
	hashes := in.lookUpHashes(ctx, items)
	// Lines that cannot be read together (the file shrank since it was
	// listed) are read one by one, each failing alone.
	lines, _ := readLines(items)
	for k, it := range items {
		var line []byte
		if lines != nil {
			line = lines[k]
		}
		out[k].skipped, out[k].err = in.chunk(ctx, it, line, hashes, &work[k])
	}
	in.embedAll(ctx, out, work)
	for k := range items {
		if out[k].err != nil || out[k].skipped {
			continue
		}
		out[k].err = in.finish(ctx, &out[k].p, &work[k])
	}
	return out
}

// lookUpHashes returns the stored hashes of the items' sources, by ID, when
// the store can look them up together; nil leaves each to SourceHash.
func (in *Ingester) lookUpHashes(ctx context.Context, items []Item) map[string]string {
	sh, ok := in.sources.(SourceHasher)
	if !ok || len(items) < 2 {
		return nil
	}
	ids := make([]string, len(items))
	for k, it := range items {
		ids[k] = it.ID
	}
	hashes, err := sh.SourceHashes(ctx, ids)
	if err != nil {
		return nil // each is looked up alone, and fails alone
	}
	return hashes
}

// readLines reads the lines of a bundle of records with one read; nil when
// the items are not records of one file in file order.
func readLines(items []Item) ([][]byte, error) {
	if items[0].Kind != KindRecord || len(items) < 2 {
		return nil, nil
	}
	for k := 1; k < len(items); k++ {
		if items[k].Path != items[0].Path || items[k].offset < items[k-1].offset+int64(items[k-1].length) {
			return nil, nil
		}
	}
	f, err := os.Open(items[0].Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	start, last := items[0].offset, items[len(items)-1]
	buf := make([]byte, last.offset+int64(last.length)-start)
	if _, err := f.ReadAt(buf, start); err != nil {
		return nil, fmt.Errorf("read lines %d-%d: %w", items[0].Line, last.Line, err)
	}
	lines := make([][]byte, len(items))
	for k, it := range items {
		lines[k] = buf[it.offset-start : it.offset-start+int64(it.length)]
	}
	return lines, nil
}

// chunk loads an item (a record from line when not nil), normalises and
// hashes its text, and chunks it into w unless its stored hash (from
// hashes when not nil) says it is unchanged.
func (in *Ingester) chunk(ctx context.Context, it Item, line []byte, hashes map[string]string, w *pending) (skipped bool, err error) {
	src, text, err := in.load(ctx, it, line)
	if err != nil {
		return false, err
	}
	text = NormalizeText(text)
	if len(text) > in.cfg.MaxTextBytes {
		in.logger.Warn("ingest text cut", "source", it.Location, "bytes", len(text), "limit", in.cfg.MaxTextBytes)
		text = cutText(text, in.cfg.MaxTextBytes)
	}
	if text == "" {
		return false, errNoText
	}
	src.ID = it.ID
	hash := contentHash(src, text, in.cfg.Chunk)
	var old string
	var known bool
	if hashes != nil {
		old, known = hashes[src.ID]
	} else if old, known, err = in.sources.SourceHash(ctx, src.ID); err != nil {
		return false, fmt.Errorf("look up source: %w", err)
	}
	if known && old == hash {
		return true, nil
	}
	chunks := Chunk(text, in.cfg.Chunk)
	if len(chunks) > in.cfg.MaxPassages {
		in.logger.Warn("ingest passages cut", "source", it.Location, "passages", len(chunks), "limit", in.cfg.MaxPassages)
		chunks = chunks[:in.cfg.MaxPassages]
	}
	*w = pending{src: src, hash: hash, known: known, chunks: chunks}
	return false, nil
}

// embedAll embeds the chunks of the items still going, in shared batches of
// EmbedBatch; when that fails and more than one item was in it, each item
// is embedded alone, so that a text the embedder refuses fails its source
// alone.
func (in *Ingester) embedAll(ctx context.Context, out []outcome, work []pending) {
	var chunks []string
	var going []int
	for k := range out {
		if out[k].err == nil && !out[k].skipped {
			chunks = append(chunks, work[k].chunks...)
			going = append(going, k)
		}
	}
	if len(going) == 0 {
		return
	}
	if len(going) > 1 {
		if vecs, err := in.embed(ctx, chunks); err == nil {
			for _, k := range going {
				n := len(work[k].chunks)
				work[k].vecs, vecs = vecs[:n:n], vecs[n:]
			}
			return
		}
	}
	for _, k := range going {
		work[k].vecs, out[k].err = in.embed(ctx, work[k].chunks)
	}
}

// finish makes the passages of an embedded item into p, marking the
// sentences that address a checker, and marks a known source unfinished.
func (in *Ingester) finish(ctx context.Context, p *prepared, w *pending) error {
	src, chunks := w.src, w.chunks
	// Sentences that address a checker stay in the passage for the record,
	// marked so that verify neither judges nor cites them.
	for i, c := range chunks {
		var n int
		if chunks[i], n = MarkInstructions(c); n > 0 {
			in.logger.Info("instruction-like sentences marked", "source", p.it.Location, "passage", i, "sentences", n)
		}
	}
	ps := make([]evidence.Passage, len(chunks))
	for i, c := range chunks {
		ps[i] = evidence.Passage{
			ID:          src.ID + "#" + strconv.Itoa(i),
			SourceID:    src.ID,
			Ordinal:     i,
			Text:        c,
			URL:         src.URL,
			Domain:      src.Domain,
			Title:       src.Title,
			PublishedAt: src.PublishedAt,
			Reliability: src.Reliability,
		}
	}

	if w.known {
		// Mark the source unfinished before its old passages go: if the
		// process dies before the final PutSource, the empty hash makes
		// the next run redo it whatever its content.
		if err := in.sources.PutSource(ctx, src); err != nil {
			return fmt.Errorf("mark source unfinished: %w", err)
		}
	}
	src.ContentHash = w.hash
	src.Passages = len(ps)
	src.IngestedAt = in.cfg.Now().UTC()
	p.src, p.ps, p.vecs = src, ps, w.vecs
	return nil
}

// write stores one prepared source where the stores cannot batch: the old
// passages deleted, the new ones upserted, and the source put last, so that
// a source the store reports is one whose passages are durable.
func (in *Ingester) write(ctx context.Context, p prepared) error {
	if err := in.index.DeleteSource(ctx, p.src.ID); err != nil {
		return fmt.Errorf("delete old passages: %w", err)
	}
	if err := in.index.Upsert(ctx, p.ps, p.vecs); err != nil {
		return fmt.Errorf("store passages: %w", err)
	}
	if err := in.sources.PutSource(ctx, p.src); err != nil {
		return fmt.Errorf("store source: %w", err)
	}
	return nil
}

// load gets an item's text and metadata. Record fields override extracted
// ones; the domain comes from the URL; the reliability from the record,
// else the table.
func (in *Ingester) load(ctx context.Context, it Item, line []byte) (evidence.Source, string, error) {
	var (
		src evidence.Source
		doc Document
		rel *float64
	)
	switch it.Kind {
	case KindURL:
		if in.fetcher == nil {
			return src, "", errors.New("no fetcher configured for URLs")
		}
		page, err := in.fetcher.Fetch(ctx, it.URL)
		if err != nil {
			return src, "", err
		}
		if doc, err = Extract(page.Body, page.ContentType, page.URL); err != nil {
			return src, "", err
		}
		src.URL = page.URL
	case KindFile:
		body, err := readFile(it.Path, in.cfg.MaxFileBytes)
		if err != nil {
			return src, "", err
		}
		if doc, err = Extract(body, "", it.Path); err != nil {
			return src, "", err
		}
		if doc.Title == "" {
			doc.Title = strings.TrimSuffix(filepath.Base(it.Path), filepath.Ext(it.Path))
		}
	case KindRecord:
		var rec Record
		var err error
		if line != nil {
			rec, err = parseLine(it, line)
		} else {
			rec, err = loadRecord(it)
		}
		if err != nil {
			return src, "", err
		}
		src.URL, src.Title, src.PublishedAt, src.Domain = rec.URL, rec.Title, rec.PublishedAt, rec.Domain
		doc.Text, rel = rec.Text, rec.Reliability
	default:
		return src, "", fmt.Errorf("unknown item kind %v", it.Kind)
	}
	if src.Title == "" {
		src.Title = doc.Title
	}
	if src.PublishedAt.IsZero() {
		src.PublishedAt = doc.PublishedAt
	}
	if src.Domain == "" {
		src.Domain = evidence.DomainOf(src.URL)
	}
	if rel != nil {
		src.Reliability = *rel
	} else {
		src.Reliability = in.cfg.Reliability.Lookup(src.Domain)
	}
	return src, doc.Text, nil
}

func readFile(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	body, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(body)) > max {
		return nil, fmt.Errorf("%w: %s is over %d bytes", ErrTooLarge, path, max)
	}
	return body, nil
}

// embed embeds chunks in batches of EmbedBatch.
func (in *Ingester) embed(ctx context.Context, chunks []string) ([][]float32, error) {
	vecs := make([][]float32, 0, len(chunks))
	for batch := range slices.Chunk(chunks, in.cfg.EmbedBatch) {
		out, err := in.emb.Embed(ctx, batch)
		if err != nil {
			return nil, fmt.Errorf("embed passages: %w", err)
		}
		if len(out) != len(batch) {
			return nil, fmt.Errorf("embed passages: %d vectors for %d texts", len(out), len(batch))
		}
		vecs = append(vecs, out...)
	}
	return vecs, nil
}

// cutText cuts text to at most max bytes, at the last paragraph break
// before the limit when there is one, else at a rune boundary.
func cutText(text string, max int) string {
	if len(text) <= max {
		return text
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	text = text[:cut]
	if i := strings.LastIndex(text, "\n\n"); i > 0 {
		text = text[:i]
	}
	return strings.TrimSpace(text)
}

// contentHash is the hex SHA-256 of everything a source's passages are
// made of: the normalised text, the metadata copied onto every passage,
// and the chunking settings. A change to any of them re-ingests the
// source; identical content is skipped.
func contentHash(src evidence.Source, text string, cfg ChunkConfig) string {
	h := sha256.New()
	fmt.Fprintf(h, "verity-ingest-v1\x00%s\x00%s\x00%s\x00%s\x00%g\x00%d,%d,%d,%d\x00",
		src.URL, src.Domain, src.Title, src.PublishedAt.UTC().Format(time.RFC3339Nano), src.Reliability,
		cfg.MinWords, cfg.MaxWords, cfg.MaxChars, cfg.OverlapSentences)
	io.WriteString(h, text)
	return hex.EncodeToString(h.Sum(nil))
}
