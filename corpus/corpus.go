// Package corpus keeps the corpus metadata: the sources that were ingested,
// the ingest jobs that ingest them, and the deliberation stages of the
// fact-check pipeline (seed 001). [Store] is the contract, with a SQLite
// implementation for the embedded deployment; every implementation passes
// [corpustest.Run]. Passages and their vectors live in the retrieval store.
package corpus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/verity-fc/verity/evidence"
)

// ErrNotFound reports that no source, job or stage has the given ID.
var ErrNotFound = errors.New("not found")

// ErrExists reports that a job with the given ID already exists.
var ErrExists = errors.New("already exists")

// Store is the metadata store contract. Implementations are safe for
// concurrent use, and a write that returned nil survives a crash of the
// process.
type Store interface {
	// PutSource inserts or replaces the source with s.ID.
	PutSource(ctx context.Context, s evidence.Source) error
	// Source returns the source with id, or an error wrapping ErrNotFound.
	Source(ctx context.Context, id string) (evidence.Source, error)
	// SourceHash returns the content hash of the source with id; ok is false
	// when there is no such source. Ingest calls it to skip unchanged sources.
	SourceHash(ctx context.Context, id string) (hash string, ok bool, err error)
	// ListSources returns one page of the sources that match opts, newest
	// ingested first and then by ID, and how many match in all.
	ListSources(ctx context.Context, opts ListOptions) ([]evidence.Source, int, error)
	// DeleteSource removes the source with id, or returns an error wrapping
	// ErrNotFound.
	DeleteSource(ctx context.Context, id string) error
	// Stats counts sources and their passages.
	Stats(ctx context.Context) (Stats, error)

	// CreateJob stores a new job, or returns an error wrapping ErrExists.
	CreateJob(ctx context.Context, j Job) error
	// UpdateJob replaces the stored job with j.ID, or returns an error
	// wrapping ErrNotFound. CreatedAt is kept as it was created.
	UpdateJob(ctx context.Context, j Job) error
	// Job returns the job with id, or an error wrapping ErrNotFound.
	Job(ctx context.Context, id string) (Job, error)
	// ListJobs returns the newest jobs first, at most limit of them
	// (default 50, at most 1000).
	ListJobs(ctx context.Context, limit int) ([]Job, error)
	// LiveJobs returns every queued or running job, oldest first, however
	// many there are: a runner resumes them all after a restart.
	LiveJobs(ctx context.Context) ([]Job, error)

	// PutStage stores one deliberation stage as it completes; a stage with
	// an existing ID is replaced.
	PutStage(ctx context.Context, s Stage) error
	// Stages returns the stages of a message ordered by StageOrder, then
	// CreatedAt; none is not an error.
	Stages(ctx context.Context, messageID string) ([]Stage, error)

	// Prune deletes old deliberation stages and final job records as opts
	// says; sources and passages are never pruned.
	Prune(ctx context.Context, opts PruneOptions) (Pruned, error)
	// Usage counts and sizes what the store holds.
	Usage(ctx context.Context) (Usage, error)
}

// Limits on what a store accepts and returns.
const (
	// DefaultListLimit is the page size when ListOptions.Limit or the limit
	// of ListJobs is 0.
	DefaultListLimit = 50
	// MaxListLimit bounds a page.
	MaxListLimit = 1000
	// MaxIDLen bounds the IDs of sources, jobs and stages, in bytes.
	MaxIDLen = 512
)

// ListOptions selects and pages sources. The zero value lists the first
// DefaultListLimit sources.
type ListOptions struct {
	// Query, when not empty, keeps sources whose title, URL or domain
	// contains it, ignoring ASCII case.
	Query string
	// Domain, when not empty, keeps sources of this domain, ignoring case.
	Domain string
	// Since, when not zero, keeps sources published at or after it; sources
	// without a date are dropped.
	Since time.Time
	// Limit is the page size: 0 means DefaultListLimit; at most MaxListLimit.
	Limit int
	// Offset skips that many matching sources; >= 0.
	Offset int
}

// Stats are corpus totals.
type Stats struct {
	Sources int `json:"sources"`
	// Passages is the sum of the sources' passage counts.
	Passages int `json:"passages"`
}

// JobState is where an ingest job is in its life.
type JobState string

// The states of a job. Queued and Running are live; the others are final.
// A finished job is Succeeded when every source was ingested or skipped
// (unchanged), Partial when some failed and others did not (Errors says
// which and why), and Failed when every source failed or the job could
// not run (Message says why).
const (
	JobQueued    JobState = "queued"
	JobRunning   JobState = "running"
	JobSucceeded JobState = "succeeded"
	JobPartial   JobState = "partial"
	JobFailed    JobState = "failed"
	JobCanceled  JobState = "canceled"
)

// Valid reports whether s is one of the job states.
func (s JobState) Valid() bool {
	switch s {
	case JobQueued, JobRunning, JobSucceeded, JobPartial, JobFailed, JobCanceled:
		return true
	}
	return false
}

// Final reports whether a job in state s will not change again.
func (s JobState) Final() bool {
	return s == JobSucceeded || s == JobPartial || s == JobFailed || s == JobCanceled
}

// Outcome is the final state and message of a job whose work ran to the
// end: Failed when every source failed, Partial when some did, Succeeded
// otherwise.
func (j Job) Outcome() (JobState, string) {
	switch {
	case j.Failed > 0 && j.Failed >= j.Total:
		return JobFailed, "every source failed"
	case j.Failed > 0:
		return JobPartial, fmt.Sprintf("%d of %d sources failed", j.Failed, j.Total)
	}
	return JobSucceeded, ""
}

// Job is one ingest request and its progress.
type Job struct {
	ID    string   `json:"id"`
	State JobState `json:"state"`
	// Sources are what was asked for: URLs or file names, in order.
	Sources []string `json:"sources"`
	// Total is the number of sources; Done of them are finished, and each
	// finished one was Ingested, Skipped (unchanged) or Failed.
	// Ingested+Skipped+Failed must equal Done, and Done must not exceed
	// Total.
	Total    int        `json:"total"`
	Done     int        `json:"done"`
	Ingested int        `json:"ingested"`
	Skipped  int        `json:"skipped"`
	Failed   int        `json:"failed"`
	Errors   []JobError `json:"errors,omitempty"`
	// CreatedAt and UpdatedAt are set by the caller; FinishedAt is zero
	// until the job reaches a final state.
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at"`
	FinishedAt time.Time `json:"finished_at,omitzero"`
	// Message says why a job failed or was canceled.
	Message string `json:"message,omitempty"`
}

// JobError is why one source of a job failed.
type JobError struct {
	Source string `json:"source"`
	Reason string `json:"reason"`
}

// Stage is one row of the deliberation_stages table of seed 001: the output
// of one model in one stage of a fact-check of a message.
type Stage struct {
	ID             string `json:"id"`
	MessageID      string `json:"messageId"`
	ConversationID string `json:"conversationId,omitempty"`
	// StageType is "generate", "extract", "verify_0".."verify_3" or
	// "report" in seed 001; the store accepts any non-empty type.
	StageType string `json:"stageType"`
	// StageOrder is 0 generate, 1 extract, 10+i checker i, 99 report.
	StageOrder int    `json:"stageOrder"`
	Model      string `json:"model"`
	Role       string `json:"role"`
	Content    string `json:"content"`
	// ParsedData is the stage's structured result; empty or valid JSON.
	ParsedData     json.RawMessage `json:"parsedData,omitempty"`
	ResponseTimeMS int64           `json:"responseTimeMs"`
	// CreatedAt defaults to the time of PutStage when zero.
	CreatedAt time.Time `json:"createdAt"`
}
