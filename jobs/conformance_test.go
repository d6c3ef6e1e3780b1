package jobs_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/corpus/corpustest"
	"github.com/verity-fc/verity/jobs"
	"github.com/verity-fc/verity/jobs/jobstest"
)

var (
	_ jobstest.Runner = (*jobs.Local)(nil)
	_ jobstest.Runner = (*jobs.River)(nil)
)

var discard = slog.New(slog.DiscardHandler)

func TestLocalConformance(t *testing.T) {
	jobstest.Run(t, func(t *testing.T, work jobs.Work) jobstest.Runner {
		s, err := corpus.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "corpus.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return jobs.NewLocal(s, work, jobs.Config{ProgressEvery: time.Nanosecond}, discard)
	})
}

// TestRiverConformance runs the suite over PostgreSQL
// (VERITY_TEST_DATABASE_URL), each runner in a schema of its own.
func TestRiverConformance(t *testing.T) {
	jobstest.Run(t, func(t *testing.T, work jobs.Work) jobstest.Runner {
		dbURL := corpustest.PostgresURL(t)
		s, err := corpus.OpenPostgres(context.Background(), dbURL, corpus.PostgresConfig{Schema: corpustest.NewSchema(t, dbURL)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		r, err := jobs.NewRiver(context.Background(), s.Pool(), s, work, jobs.RiverConfig{
			MaxAttempts:   2,
			Backoff:       func(int) time.Duration { return time.Millisecond },
			PollInterval:  20 * time.Millisecond,
			ProgressEvery: time.Nanosecond,
		}, discard)
		if err != nil {
			t.Fatal(err)
		}
		return r
	})
}
