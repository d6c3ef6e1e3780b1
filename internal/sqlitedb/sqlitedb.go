// Package sqlitedb opens the SQLite files of the data directory the way
// verity needs them: write-ahead log, synchronous=FULL so that a committed
// write survives a crash of the process or the machine, a busy timeout so
// that writers queue instead of failing, immediate write transactions, and
// the schema migrated to the binary's version. It uses modernc.org/sqlite,
// which is pure Go and includes FTS5.
package sqlitedb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/verity-fc/verity/internal/migrate"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// BusyTimeoutMS is how long a connection waits for a lock held by another
// connection or process before it reports SQLITE_BUSY, in milliseconds.
const BusyTimeoutMS = 10000

// Open opens (creating when missing) the SQLite database at path, checks
// that it is usable, and applies ms, recording them in migrationsTable.
func Open(ctx context.Context, path, migrationsTable string, ms []migrate.Migration) (*sql.DB, error) {
	if strings.TrimSpace(path) == "" {
		return nil, errors.New("open sqlite: empty path")
	}
	// The driver splits its DSN at the first '?' (the parameters follow).
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("open sqlite: path %q must not contain '?' or '#'", path)
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("open sqlite: %w", err)
		}
	}
	dsn := path + fmt.Sprintf("?_pragma=busy_timeout(%d)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=foreign_keys(1)&_txlock=immediate", BusyTimeoutMS)
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	if _, err := migrate.Up(ctx, db, migrationsTable, ms); err != nil {
		db.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	return db, nil
}
