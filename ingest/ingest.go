package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
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
	// Workers is how many sources are processed at once (fetch, extract,
	// embed, store). Default 4.
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
	w := in.newBatchWriter(ctx, func(p prepared, err error) { done(p.i, p.it, len(p.ps), false, err) })
	g.SetLimit(in.cfg.Workers)
	for i, it := range items {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			p, skipped, err := in.prepare(gctx, i, it)
			if err == nil && !skipped && w != nil {
				return w.add(gctx, p)
			}
			if err == nil && !skipped {
				err = in.write(gctx, p)
			}
			if err != nil && gctx.Err() != nil {
				// Interrupted, not failed.
				return gctx.Err()
			}
			done(i, it, len(p.ps), skipped, err)
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

// prepare loads, chunks and embeds one item (its index in the run is i),
// or reports it skipped when its content is unchanged. A known source whose
// content changed is marked unfinished before it is returned.
func (in *Ingester) prepare(ctx context.Context, i int, it Item) (p prepared, skipped bool, err error) {
	src, text, err := in.load(ctx, it)
	if err != nil {
		return p, false, err
	}
	text = NormalizeText(text)
	if len(text) > in.cfg.MaxTextBytes {
		in.logger.Warn("ingest text cut", "source", it.Location, "bytes", len(text), "limit", in.cfg.MaxTextBytes)
		text = cutText(text, in.cfg.MaxTextBytes)
	}
	if text == "" {
		return p, false, errNoText
	}
	src.ID = it.ID
	hash := contentHash(src, text, in.cfg.Chunk)
	old, known, err := in.sources.SourceHash(ctx, src.ID)
	if err != nil {
		return p, false, fmt.Errorf("look up source: %w", err)
	}
	if known && old == hash {
		return p, true, nil
	}

	chunks := Chunk(text, in.cfg.Chunk)
	if len(chunks) > in.cfg.MaxPassages {
		in.logger.Warn("ingest passages cut", "source", it.Location, "passages", len(chunks), "limit", in.cfg.MaxPassages)
		chunks = chunks[:in.cfg.MaxPassages]
	}
	vecs, err := in.embed(ctx, chunks)
	if err != nil {
		return p, false, err
	}
	// Sentences that address a checker stay in the passage for the record,
	// marked so that verify neither judges nor cites them.
	for i, c := range chunks {
		var n int
		if chunks[i], n = MarkInstructions(c); n > 0 {
			in.logger.Info("instruction-like sentences marked", "source", it.Location, "passage", i, "sentences", n)
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

	if known {
		// Mark the source unfinished before its old passages go: if the
		// process dies before the final PutSource, the empty hash makes
		// the next run redo it whatever its content.
		if err := in.sources.PutSource(ctx, src); err != nil {
			return p, false, fmt.Errorf("mark source unfinished: %w", err)
		}
	}
	src.ContentHash = hash
	src.Passages = len(ps)
	src.IngestedAt = in.cfg.Now().UTC()
	return prepared{i: i, it: it, src: src, ps: ps, vecs: vecs}, false, nil
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
func (in *Ingester) load(ctx context.Context, it Item) (evidence.Source, string, error) {
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
		rec, err := loadRecord(it)
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
