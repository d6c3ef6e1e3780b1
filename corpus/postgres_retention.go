package corpus

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// LiveJobs implements Store.
func (p *Postgres) LiveJobs(ctx context.Context) ([]Job, error) {
	return p.queryJobs(ctx, "list live jobs", "SELECT "+jobColumns+" FROM jobs WHERE state IN "+liveStates+" ORDER BY created_at, id")
}

// queryJobs returns the jobs query selects (jobColumns), never nil.
func (p *Postgres) queryJobs(ctx context.Context, op, query string, args ...any) ([]Job, error) {
	var out []Job
	err := p.call(ctx, op, func(ctx context.Context) error {
		rows, err := p.pool.Query(ctx, query, args...)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Job, error) { return scanPGJob(r) })
		return err
	})
	if err != nil {
		return nil, err
	}
	if out == nil {
		out = []Job{}
	}
	return out, nil
}

// Prune implements Store.
func (p *Postgres) Prune(ctx context.Context, opts PruneOptions) (Pruned, error) {
	var out Pruned
	if !opts.StagesBefore.IsZero() {
		n, err := p.exec(ctx, "prune stages", "DELETE FROM deliberation_stages WHERE created_at < $1", ts(opts.StagesBefore))
		if err != nil {
			return out, err
		}
		out.Stages = int(n)
	}
	if !opts.JobsBefore.IsZero() {
		n, err := p.exec(ctx, "prune jobs", "DELETE FROM jobs WHERE state NOT IN "+liveStates+
			" AND COALESCE(finished_at, updated_at) < $1", ts(opts.JobsBefore))
		if err != nil {
			return out, err
		}
		out.Jobs += int(n)
	}
	if opts.KeepJobs > 0 {
		n, err := p.exec(ctx, "prune jobs", "DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE state NOT IN "+liveStates+
			" ORDER BY created_at DESC, id DESC OFFSET $1)", opts.KeepJobs)
		if err != nil {
			return out, err
		}
		out.Jobs += int(n)
	}
	return out, nil
}

// Usage implements Store.
func (p *Postgres) Usage(ctx context.Context) (Usage, error) {
	var u Usage
	err := p.call(ctx, "storage usage", func(ctx context.Context) error {
		return p.pool.QueryRow(ctx, `SELECT
			(SELECT COUNT(*) FROM jobs),
			(SELECT COUNT(*) FROM jobs WHERE state IN `+liveStates+`),
			(SELECT COUNT(*) FROM deliberation_stages),
			(SELECT COALESCE(SUM(octet_length(content) + COALESCE(octet_length(parsed_data::text), 0)), 0)::BIGINT FROM deliberation_stages),
			(pg_total_relation_size('sources'::regclass) + pg_total_relation_size('jobs'::regclass)
				+ pg_total_relation_size('deliberation_stages'::regclass))::BIGINT`).
			Scan(&u.Jobs, &u.LiveJobs, &u.Stages, &u.StageBytes, &u.DatabaseBytes)
	})
	if err != nil {
		return Usage{}, err
	}
	return u, nil
}
