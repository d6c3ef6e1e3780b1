package corpus

import (
	"encoding/json"
	"math"
	"strings"

	"github.com/verity-fc/verity/evidence"
)

// The checks below are shared by every implementation so that they reject
// the same input with the same *evidence.InputError.

// validateID returns an *evidence.InputError when id is empty or too long.
func validateID(field, id string) error {
	switch {
	case id == "":
		return evidence.Invalid(field, "must not be empty")
	case len(id) > MaxIDLen:
		return evidence.Invalid(field, "is %d bytes; the limit is %d", len(id), MaxIDLen)
	}
	return nil
}

// validateSource checks a source before it is stored.
func validateSource(s evidence.Source) error {
	if err := validateID("id", s.ID); err != nil {
		return err
	}
	if math.IsNaN(s.Reliability) || s.Reliability < 0 || s.Reliability > 1 {
		return evidence.Invalid("reliability", "must be in [0,1], got %v", s.Reliability)
	}
	if s.Passages < 0 {
		return evidence.Invalid("passages", "must not be negative, got %d", s.Passages)
	}
	return nil
}

// normalizeListOptions checks opts and fills in the default limit.
func normalizeListOptions(opts ListOptions) (ListOptions, error) {
	switch {
	case opts.Limit < 0 || opts.Limit > MaxListLimit:
		return opts, evidence.Invalid("limit", "must be between 1 and %d, got %d", MaxListLimit, opts.Limit)
	case opts.Offset < 0:
		return opts, evidence.Invalid("offset", "must not be negative, got %d", opts.Offset)
	}
	if opts.Limit == 0 {
		opts.Limit = DefaultListLimit
	}
	opts.Domain = strings.ToLower(strings.TrimSpace(opts.Domain))
	return opts, nil
}

// normalizeJobLimit checks the limit of ListJobs and fills in the default.
func normalizeJobLimit(limit int) (int, error) {
	switch {
	case limit < 0 || limit > MaxListLimit:
		return 0, evidence.Invalid("limit", "must be between 1 and %d, got %d", MaxListLimit, limit)
	case limit == 0:
		return DefaultListLimit, nil
	}
	return limit, nil
}

// validateJob checks a job before it is stored.
func validateJob(j Job) error {
	if err := validateID("id", j.ID); err != nil {
		return err
	}
	switch {
	case !j.State.Valid():
		return evidence.Invalid("state", "must be queued, running, succeeded, partial, failed or canceled, got %q", j.State)
	case j.Total < 0 || j.Done < 0 || j.Ingested < 0 || j.Skipped < 0 || j.Failed < 0:
		return evidence.Invalid("total", "job counts must not be negative")
	case j.Done > j.Total:
		return evidence.Invalid("done", "is %d, more than total %d", j.Done, j.Total)
	case j.Ingested+j.Skipped+j.Failed != j.Done:
		return evidence.Invalid("done", "is %d but ingested+skipped+failed is %d", j.Done, j.Ingested+j.Skipped+j.Failed)
	case j.CreatedAt.IsZero():
		return evidence.Invalid("created_at", "must be set")
	}
	return nil
}

// validateStage checks a deliberation stage before it is stored.
func validateStage(s Stage) error {
	if err := validateID("id", s.ID); err != nil {
		return err
	}
	if err := validateID("messageId", s.MessageID); err != nil {
		return err
	}
	switch {
	case s.StageType == "":
		return evidence.Invalid("stageType", "must not be empty")
	case len(s.ParsedData) > 0 && !json.Valid(s.ParsedData):
		return evidence.Invalid("parsedData", "is not valid JSON")
	case s.ResponseTimeMS < 0:
		return evidence.Invalid("responseTimeMs", "must not be negative, got %d", s.ResponseTimeMS)
	}
	return nil
}
