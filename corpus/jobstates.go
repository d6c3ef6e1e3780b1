package corpus

import (
	"context"
	"fmt"
)

// JobCounter counts the stored jobs by state, for metrics. SQLite and
// Postgres implement it; [corpustest.RunJobCounter] checks them.
type JobCounter interface {
	// CountJobs returns how many jobs are in each state; states without
	// jobs are absent.
	CountJobs(ctx context.Context) (map[JobState]int, error)
}

var (
	_ JobCounter = (*SQLite)(nil)
	_ JobCounter = (*Postgres)(nil)
)

const countJobsSQL = "SELECT state, COUNT(*) FROM jobs GROUP BY state"

// CountJobs implements JobCounter.
func (s *SQLite) CountJobs(ctx context.Context) (map[JobState]int, error) {
	rows, err := s.db.QueryContext(ctx, countJobsSQL)
	if err != nil {
		return nil, fmt.Errorf("count jobs: %w", err)
	}
	defer rows.Close()
	out := map[JobState]int{}
	for rows.Next() {
		var state string
		var n int
		if err := rows.Scan(&state, &n); err != nil {
			return nil, fmt.Errorf("count jobs: %w", err)
		}
		out[JobState(state)] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("count jobs: %w", err)
	}
	return out, nil
}

// CountJobs implements JobCounter.
func (p *Postgres) CountJobs(ctx context.Context) (map[JobState]int, error) {
	out := map[JobState]int{}
	err := p.call(ctx, "count jobs", func(ctx context.Context) error {
		rows, err := p.pool.Query(ctx, countJobsSQL)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var state string
			var n int
			if err := rows.Scan(&state, &n); err != nil {
				return err
			}
			out[JobState(state)] = n
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
