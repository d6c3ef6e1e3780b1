package sqlitedb

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/verity-fc/verity/internal/migrate"
)

func TestOpenSetsDurabilityPragmas(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sub", "x.db")
	ms := []migrate.Migration{{Version: 1, Name: "0001_t.sql", SQL: "CREATE TABLE t (x INTEGER)"}}
	db, err := Open(ctx, path, "schema_migrations", ms)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Three connections held at once, so that each is a new one.
	for i := range 3 {
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		var mode string
		var sync, busy int
		if err := c.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
			t.Fatal(err)
		}
		if err := c.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&sync); err != nil {
			t.Fatal(err)
		}
		if err := c.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&busy); err != nil {
			t.Fatal(err)
		}
		// synchronous: 2 is FULL.
		if mode != "wal" || sync != 2 || busy != BusyTimeoutMS {
			t.Errorf("connection %d: journal_mode=%s synchronous=%d busy_timeout=%d; want wal, 2, %d", i, mode, sync, busy, BusyTimeoutMS)
		}
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO t (x) VALUES (1)"); err != nil {
		t.Errorf("migration not applied: %v", err)
	}
}

func TestOpenRejectsBadPaths(t *testing.T) {
	for _, p := range []string{"", "  ", "a?b.db", "a#b.db"} {
		if db, err := Open(context.Background(), p, "schema_migrations", nil); err == nil {
			db.Close()
			t.Errorf("Open(%q) succeeded", p)
		}
	}
}
