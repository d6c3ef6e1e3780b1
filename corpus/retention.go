package corpus

import (
	"time"
)

// PruneOptions says what [Store.Prune] deletes. The zero value deletes
// nothing. Sources and passages are never pruned: they are what a user
// asked to keep.
type PruneOptions struct {
	// StagesBefore, when not zero, deletes the deliberation stages created
	// before it.
	StagesBefore time.Time
	// JobsBefore, when not zero, deletes the final jobs (not queued or
	// running) that finished before it (last updated, for a final job
	// without a finish time).
	JobsBefore time.Time
	// KeepJobs, when positive, then deletes the oldest final jobs beyond
	// the newest KeepJobs of them. Live jobs are never deleted.
	KeepJobs int
}

// Pruned counts what [Store.Prune] deleted.
type Pruned struct {
	Stages int `json:"stages"`
	Jobs   int `json:"jobs"`
}

// Usage is what the metadata store holds, for GET /v1/stats and
// `verity gc`.
type Usage struct {
	Jobs int `json:"jobs"`
	// LiveJobs are the queued and running ones.
	LiveJobs int `json:"live_jobs"`
	Stages   int `json:"stages"`
	// StageBytes is the size of the stages' content and parsed data.
	StageBytes int64 `json:"stage_bytes"`
	// DatabaseBytes is the size of the store's tables and indexes on disk
	// (SQLite: the whole file).
	DatabaseBytes int64 `json:"database_bytes"`
}

// liveStates is the SQL list of the states of live jobs; every other state
// is final, whatever states are added later.
const liveStates = "('" + string(JobQueued) + "', '" + string(JobRunning) + "')"
