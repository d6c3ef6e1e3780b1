package corpus

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

var _ KeyStore = (*SQLite)(nil)

const (
	insertKeySQL = `INSERT INTO api_keys (` + keyColumns + `) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`
	revokeKeySQL = `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1`
	activeKeySQL = `SELECT COUNT(*) FROM api_keys WHERE revoked_at IS NULL`
)

func scanKey(r scanner) (APIKey, error) {
	var k APIKey
	var scope string
	var created, revoked sql.NullInt64
	err := r.Scan(&k.ID, &k.Name, &scope, &k.Prefix, &k.Hash, &created, &revoked)
	k.Scope, k.CreatedAt, k.RevokedAt = KeyScope(scope), fromMicros(created), fromMicros(revoked)
	return k, err
}

// CreateKey implements KeyStore.
func (s *SQLite) CreateKey(ctx context.Context, k APIKey) error {
	if err := validateKey(k); err != nil {
		return err
	}
	res, err := s.db.ExecContext(ctx, insertKeySQL, k.ID, k.Name, string(k.Scope), k.Prefix, k.Hash, micros(k.CreatedAt), micros(k.RevokedAt))
	if err != nil {
		return fmt.Errorf("create key %q: %w", k.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("create key %q: %w", k.ID, err)
	} else if n == 0 {
		return fmt.Errorf("create key %q: %w", k.ID, ErrExists)
	}
	return nil
}

// KeyByHash implements KeyStore.
func (s *SQLite) KeyByHash(ctx context.Context, hash string) (APIKey, error) {
	k, err := scanKey(s.db.QueryRowContext(ctx, "SELECT "+keyColumns+" FROM api_keys WHERE hash = $1", hash))
	if errors.Is(err, sql.ErrNoRows) {
		return APIKey{}, fmt.Errorf("key: %w", ErrNotFound)
	}
	if err != nil {
		return APIKey{}, fmt.Errorf("get key: %w", err)
	}
	return k, nil
}

// ListKeys implements KeyStore.
func (s *SQLite) ListKeys(ctx context.Context) ([]APIKey, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+keyColumns+" FROM api_keys ORDER BY created_at, id")
	if err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
	defer rows.Close()
	out := []APIKey{}
	for rows.Next() {
		k, err := scanKey(rows)
		if err != nil {
			return nil, fmt.Errorf("list keys: %w", err)
		}
		out = append(out, k)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
	return out, nil
}

// RevokeKey implements KeyStore.
func (s *SQLite) RevokeKey(ctx context.Context, id string, at time.Time) error {
	res, err := s.db.ExecContext(ctx, revokeKeySQL, id, micros(at))
	if err != nil {
		return fmt.Errorf("revoke key %q: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("revoke key %q: %w", id, err)
	} else if n == 0 {
		return fmt.Errorf("revoke key %q: %w", id, ErrNotFound)
	}
	return nil
}

// ActiveKeys implements KeyStore.
func (s *SQLite) ActiveKeys(ctx context.Context) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, activeKeySQL).Scan(&n); err != nil {
		return 0, fmt.Errorf("count keys: %w", err)
	}
	return n, nil
}
