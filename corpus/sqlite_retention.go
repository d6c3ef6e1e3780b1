package corpus

import (
	"context"
	"fmt"
)

// LiveJobs implements Store.
func (s *SQLite) LiveJobs(ctx context.Context) ([]Job, error) {
	return s.queryJobs(ctx, "list live jobs", "SELECT "+jobColumns+" FROM jobs WHERE state IN "+liveStates+" ORDER BY created_at, id")
}

// queryJobs returns the jobs query selects (jobColumns), never nil.
func (s *SQLite) queryJobs(ctx context.Context, op, query string, args ...any) ([]Job, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	defer rows.Close()
	out := []Job{}
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		out = append(out, j)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return out, nil
}

// Prune implements Store.
func (s *SQLite) Prune(ctx context.Context, opts PruneOptions) (Pruned, error) {
	var out Pruned
	if !opts.StagesBefore.IsZero() {
		res, err := s.db.ExecContext(ctx, "DELETE FROM deliberation_stages WHERE created_at < $1", opts.StagesBefore.UnixMicro())
		if err != nil {
			return out, fmt.Errorf("prune stages: %w", err)
		}
		n, _ := res.RowsAffected()
		out.Stages = int(n)
	}
	if !opts.JobsBefore.IsZero() {
		res, err := s.db.ExecContext(ctx, "DELETE FROM jobs WHERE state NOT IN "+liveStates+
			" AND COALESCE(finished_at, updated_at) < $1", opts.JobsBefore.UnixMicro())
		if err != nil {
			return out, fmt.Errorf("prune jobs: %w", err)
		}
		n, _ := res.RowsAffected()
		out.Jobs += int(n)
	}
	if opts.KeepJobs > 0 {
		res, err := s.db.ExecContext(ctx, "DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE state NOT IN "+liveStates+
			" ORDER BY created_at DESC, id DESC LIMIT -1 OFFSET $1)", opts.KeepJobs)
		if err != nil {
			return out, fmt.Errorf("prune jobs: %w", err)
		}
		n, _ := res.RowsAffected()
		out.Jobs += int(n)
	}
	return out, nil
}

// Usage implements Store.
func (s *SQLite) Usage(ctx context.Context) (Usage, error) {
	var u Usage
	err := s.db.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM jobs),
		(SELECT COUNT(*) FROM jobs WHERE state IN `+liveStates+`),
		(SELECT COUNT(*) FROM deliberation_stages),
		(SELECT COALESCE(SUM(LENGTH(CAST(content AS BLOB)) + COALESCE(LENGTH(CAST(parsed_data AS BLOB)), 0)), 0) FROM deliberation_stages),
		(SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size())`).
		Scan(&u.Jobs, &u.LiveJobs, &u.Stages, &u.StageBytes, &u.DatabaseBytes)
	if err != nil {
		return Usage{}, fmt.Errorf("storage usage: %w", err)
	}
	return u, nil
}
