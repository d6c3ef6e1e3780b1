// Package retention deletes what verity keeps only for a while: uploaded
// files once their ingest job has ended, fact-check stages and finished
// job records past their age. Sources and passages, which a user asked to
// keep, are never touched. [Collector.Collect] is one pass (`verity gc`);
// `verity serve` runs one at start and then every interval.
package retention

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/jobs"
)

// Store is the metadata store's part that retention uses; corpus.Store
// implements it.
type Store interface {
	LiveJobs(ctx context.Context) ([]corpus.Job, error)
	Prune(ctx context.Context, opts corpus.PruneOptions) (corpus.Pruned, error)
}

// Config says what is kept and for how long. The zero value prunes no
// records and deletes uploads once their job has ended.
type Config struct {
	// Days is how long fact-check stages and finished job records are
	// kept; 0 keeps them.
	Days int
	// UploadDays is how long an upload directory is kept once no queued or
	// running job uses it; 0 deletes it then.
	UploadDays int
	// MaxJobs bounds the finished job records kept, newest first; 0 keeps
	// them all.
	MaxJobs int
	// Interval is how often `verity serve` collects (Every's interval); 0
	// only at start and with `verity gc`.
	Interval time.Duration
	// UploadDir holds one directory per upload request; "" means none.
	UploadDir string
	// Grace is the least age of an upload directory no job uses before it
	// is deleted: a request may be between saving its files and
	// submitting its job. Default 10 minutes.
	Grace time.Duration
	// Now is the clock. Default time.Now.
	Now func() time.Time
}

// DefaultConfig returns what verity keeps by default: fact-check stages
// and finished job records for 30 days, at most 10,000 finished job
// records, uploads until their job ends; a pass every hour.
func DefaultConfig() Config { return Config{Days: 30, MaxJobs: 10000, Interval: time.Hour} }

// Validate reports a negative bound, naming it as verity's configuration
// does (retention.days).
func (c Config) Validate() error {
	if c.Days < 0 || c.UploadDays < 0 || c.MaxJobs < 0 {
		return fmt.Errorf("retention.days, retention.upload_days and retention.max_jobs must not be negative")
	}
	if c.Interval < 0 {
		return fmt.Errorf("retention.interval must not be negative, got %v", c.Interval)
	}
	return nil
}

// Collector prunes per its Config.
type Collector struct {
	store Store
	cfg   Config
	log   *slog.Logger
}

// New returns a Collector. A nil logger discards logs.
func New(store Store, cfg Config, logger *slog.Logger) *Collector {
	if cfg.Grace <= 0 {
		cfg.Grace = 10 * time.Minute
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Collector{store: store, cfg: cfg, log: logger}
}

// Report is what one pass deleted.
type Report struct {
	corpus.Pruned
	// Uploads counts the upload directories deleted and UploadBytes the
	// size of their files.
	Uploads     int   `json:"uploads"`
	UploadBytes int64 `json:"upload_bytes"`
}

// Collect runs one pass: it prunes the store, then deletes the upload
// directories that no queued or running job uses and that are old
// enough.
func (c *Collector) Collect(ctx context.Context) (Report, error) {
	var r Report
	now := c.cfg.Now()
	opts := corpus.PruneOptions{KeepJobs: c.cfg.MaxJobs}
	if c.cfg.Days > 0 {
		cutoff := now.AddDate(0, 0, -c.cfg.Days)
		opts.StagesBefore, opts.JobsBefore = cutoff, cutoff
	}
	pruned, err := c.store.Prune(ctx, opts)
	r.Pruned = pruned
	if err != nil {
		return r, fmt.Errorf("prune the store: %w", err)
	}
	if c.cfg.UploadDir == "" {
		return r, nil
	}
	live, err := c.store.LiveJobs(ctx)
	if err != nil {
		return r, fmt.Errorf("list live jobs: %w", err)
	}
	inUse := map[string]bool{}
	for _, j := range live {
		for _, src := range j.Sources {
			if d, ok := uploadDirOf(c.cfg.UploadDir, src); ok {
				inUse[d] = true
			}
		}
	}
	entries, err := os.ReadDir(c.cfg.UploadDir)
	if errors.Is(err, fs.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return r, fmt.Errorf("list uploads: %w", err)
	}
	keep := c.cfg.Grace
	if d := time.Duration(c.cfg.UploadDays) * 24 * time.Hour; d > keep {
		keep = d
	}
	for _, e := range entries {
		if !e.IsDir() || inUse[e.Name()] {
			continue
		}
		dir := filepath.Join(c.cfg.UploadDir, e.Name())
		files, size, newest, err := walk(dir)
		if err != nil {
			return r, err
		}
		if now.Sub(newest) < keep {
			continue
		}
		if err := os.RemoveAll(dir); err != nil {
			return r, fmt.Errorf("delete uploads: %w", err)
		}
		c.log.Debug("deleted uploads", "dir", e.Name(), "files", files, "bytes", size)
		r.Uploads++
		r.UploadBytes += size
	}
	return r, nil
}

// Every runs Collect now and then every interval until ctx is done,
// logging each pass that deleted something and each failure; interval
// 0 runs it once.
func (c *Collector) Every(ctx context.Context, interval time.Duration) {
	for {
		r, err := c.Collect(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			c.log.Warn("retention pass failed", "err", err)
		case r != (Report{}):
			c.log.Info("retention pass", "stages", r.Stages, "jobs", r.Jobs, "uploads", r.Uploads, "upload_bytes", r.UploadBytes)
		}
		if interval <= 0 {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(interval):
		}
	}
}

// Storage is what verity keeps, for GET /v1/stats and `verity gc`.
type Storage struct {
	corpus.Usage
	// Uploads counts the upload directories and UploadBytes the size of
	// their files.
	Uploads     int   `json:"uploads"`
	UploadBytes int64 `json:"upload_bytes"`
}

// UsageStore sizes the metadata store; corpus.Store implements it.
type UsageStore interface {
	Usage(ctx context.Context) (corpus.Usage, error)
}

// StorageOf measures store and the upload directory dir ("" for none).
func StorageOf(ctx context.Context, store UsageStore, dir string) (Storage, error) {
	u, err := store.Usage(ctx)
	if err != nil {
		return Storage{}, fmt.Errorf("storage usage: %w", err)
	}
	n, size, err := Usage(dir)
	if err != nil {
		return Storage{}, err
	}
	return Storage{Usage: u, Uploads: n, UploadBytes: size}, nil
}

// Usage counts the upload directories under dir and the size of their
// files; a missing dir holds none.
func Usage(dir string) (uploads int, bytes int64, err error) {
	if dir == "" {
		return 0, 0, nil
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, fmt.Errorf("list uploads: %w", err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		_, size, _, err := walk(filepath.Join(dir, e.Name()))
		if err != nil {
			return 0, 0, err
		}
		uploads++
		bytes += size
	}
	return uploads, bytes, nil
}

// DropUploads wraps work so that, once it has ingested a job's sources
// without failing as a whole, the job's uploaded files are deleted at
// once rather than at the next pass. A job whose work failed keeps them:
// a queue may try it again; the next pass deletes them once it is over.
func DropUploads(work jobs.Work, uploadDir string, logger *slog.Logger) jobs.Work {
	if work == nil || uploadDir == "" {
		return work
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return func(ctx context.Context, sources []string, report func(jobs.Update)) error {
		if err := work(ctx, sources, report); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return nil // interrupted: the job runs again and needs its files
		}
		done := map[string]bool{}
		for _, src := range sources {
			d, ok := uploadDirOf(uploadDir, src)
			if !ok || done[d] {
				continue
			}
			done[d] = true
			if err := os.RemoveAll(filepath.Join(uploadDir, d)); err != nil {
				logger.Warn("delete the uploads of a finished job", "dir", d, "err", err)
			}
		}
		return nil
	}
}

// uploadDirOf returns the name of the directory under uploadDir that
// holds the file src, when it is one.
func uploadDirOf(uploadDir, src string) (string, bool) {
	if strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://") {
		return "", false
	}
	rel, err := filepath.Rel(filepath.Clean(uploadDir), filepath.Clean(src))
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return "", false
	}
	first, _, ok := strings.Cut(filepath.ToSlash(rel), "/")
	return first, ok
}

// walk counts the files under dir, their total size and the newest
// modification time (of dir itself when it is empty).
func walk(dir string) (files int, size int64, newest time.Time, err error) {
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.ModTime().After(newest) {
			newest = info.ModTime()
		}
		if info.Mode().IsRegular() {
			files++
			size += info.Size()
		}
		return nil
	})
	if err != nil {
		return 0, 0, time.Time{}, fmt.Errorf("read uploads %s: %w", filepath.Base(dir), err)
	}
	return files, size, newest, nil
}
