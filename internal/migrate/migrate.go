// Package migrate applies numbered SQL migrations kept in an embedded file
// system to a database/sql database, recording each applied version in a
// table. The corpus and the embedded passage store share it; it is written
// here rather than taken from goose or golang-migrate because those bring a
// dependency tree and driver registries for what is forty lines over
// database/sql.
package migrate

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
)

// fileName is a migration file: a positive version, an underscore, a name
// and ".sql", e.g. "0001_init.sql".
var fileName = regexp.MustCompile(`^([0-9]+)_[a-z0-9_]+\.sql$`)

var tableName = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// Migration is one numbered SQL script.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// Load reads the migrations in dir of fsys, in version order. Every file in
// dir must be a migration named like "0001_init.sql", and versions must be
// unique.
func Load(fsys fs.FS, dir string) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("read migrations: %w", err)
	}
	var ms []Migration
	for _, e := range entries {
		m := fileName.FindStringSubmatch(e.Name())
		if e.IsDir() || m == nil {
			return nil, fmt.Errorf("read migrations: %q is not a migration file like 0001_init.sql", e.Name())
		}
		v, err := strconv.Atoi(m[1])
		if err != nil || v < 1 {
			return nil, fmt.Errorf("read migrations: %q has no positive version", e.Name())
		}
		b, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("read migrations: %w", err)
		}
		ms = append(ms, Migration{Version: v, Name: e.Name(), SQL: string(b)})
	}
	slices.SortFunc(ms, func(a, b Migration) int { return a.Version - b.Version })
	for i := 1; i < len(ms); i++ {
		if ms[i].Version == ms[i-1].Version {
			return nil, fmt.Errorf("read migrations: %s and %s share version %d", ms[i-1].Name, ms[i].Name, ms[i].Version)
		}
	}
	return ms, nil
}

// Up applies, in order, every migration whose version is not yet recorded in
// table, each in its own transaction together with its record, so that a
// crash leaves the schema at a recorded version. table is created when
// missing. It returns the versions it applied. A database whose recorded
// version is newer than the newest of ms is refused rather than used by a
// binary that does not know its schema.
//
// The SQL it runs itself ($1 placeholders, BIGINT, CREATE TABLE IF NOT
// EXISTS) is understood by both SQLite and PostgreSQL.
func Up(ctx context.Context, db *sql.DB, table string, ms []Migration) ([]int, error) {
	if !tableName.MatchString(table) {
		return nil, fmt.Errorf("migrate: bad table name %q", table)
	}
	create := "CREATE TABLE IF NOT EXISTS " + table + " (version BIGINT PRIMARY KEY, name TEXT NOT NULL)"
	if _, err := db.ExecContext(ctx, create); err != nil {
		return nil, fmt.Errorf("create %s: %w", table, err)
	}
	var newest sql.NullInt64
	if err := db.QueryRowContext(ctx, "SELECT MAX(version) FROM "+table).Scan(&newest); err != nil {
		return nil, fmt.Errorf("read %s: %w", table, err)
	}
	if len(ms) > 0 && newest.Valid && newest.Int64 > int64(ms[len(ms)-1].Version) {
		return nil, fmt.Errorf("database schema is at version %d, newer than this binary's %d: upgrade verity", newest.Int64, ms[len(ms)-1].Version)
	}
	var applied []int
	for _, m := range ms {
		done, err := apply(ctx, db, table, m)
		if err != nil {
			return applied, err
		}
		if done {
			applied = append(applied, m.Version)
		}
	}
	return applied, nil
}

// apply runs m unless it is recorded, and reports whether it ran it.
func apply(ctx context.Context, db *sql.DB, table string, m Migration) (bool, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("migration %s: %w", m.Name, err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+table+" WHERE version = $1", m.Version).Scan(&n); err != nil {
		return false, fmt.Errorf("migration %s: %w", m.Name, err)
	}
	if n > 0 {
		return false, nil
	}
	if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
		return false, fmt.Errorf("migration %s: %w", m.Name, err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO "+table+" (version, name) VALUES ($1, $2)", m.Version, m.Name); err != nil {
		return false, fmt.Errorf("migration %s: record: %w", m.Name, err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("migration %s: commit: %w", m.Name, err)
	}
	return true, nil
}
