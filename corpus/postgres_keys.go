package corpus

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

var _ KeyStore = (*Postgres)(nil)

func scanPGKey(r pgx.Row) (APIKey, error) {
	var k APIKey
	var scope string
	var created, revoked pgtype.Timestamptz
	err := r.Scan(&k.ID, &k.Name, &scope, &k.Prefix, &k.Hash, &created, &revoked)
	k.Scope, k.CreatedAt, k.RevokedAt = KeyScope(scope), fromTS(created), fromTS(revoked)
	return k, err
}

// CreateKey implements KeyStore.
func (p *Postgres) CreateKey(ctx context.Context, k APIKey) error {
	if err := validateKey(k); err != nil {
		return err
	}
	n, err := p.exec(ctx, fmt.Sprintf("create key %q", k.ID), insertKeySQL,
		text(k.ID), text(k.Name), string(k.Scope), text(k.Prefix), text(k.Hash), ts(k.CreatedAt), ts(k.RevokedAt))
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("create key %q: %w", k.ID, ErrExists)
	}
	return nil
}

// KeyByHash implements KeyStore.
func (p *Postgres) KeyByHash(ctx context.Context, hash string) (APIKey, error) {
	var k APIKey
	err := p.call(ctx, "get key", func(ctx context.Context) error {
		var err error
		k, err = scanPGKey(p.pool.QueryRow(ctx, "SELECT "+keyColumns+" FROM api_keys WHERE hash = $1", text(hash)))
		return err
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return APIKey{}, fmt.Errorf("key: %w", ErrNotFound)
	}
	return k, err
}

// ListKeys implements KeyStore.
func (p *Postgres) ListKeys(ctx context.Context) ([]APIKey, error) {
	out := []APIKey{}
	err := p.call(ctx, "list keys", func(ctx context.Context) error {
		rows, err := p.pool.Query(ctx, "SELECT "+keyColumns+" FROM api_keys ORDER BY created_at, id")
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (APIKey, error) { return scanPGKey(r) })
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// RevokeKey implements KeyStore.
func (p *Postgres) RevokeKey(ctx context.Context, id string, at time.Time) error {
	n, err := p.exec(ctx, fmt.Sprintf("revoke key %q", id), revokeKeySQL, text(id), ts(at))
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("revoke key %q: %w", id, ErrNotFound)
	}
	return nil
}

// ActiveKeys implements KeyStore.
func (p *Postgres) ActiveKeys(ctx context.Context) (int, error) {
	var n int
	err := p.call(ctx, "count keys", func(ctx context.Context) error {
		return p.pool.QueryRow(ctx, activeKeySQL).Scan(&n)
	})
	return n, err
}
