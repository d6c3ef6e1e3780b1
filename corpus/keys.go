package corpus

import (
	"context"
	"time"

	"github.com/verity-fc/verity/evidence"
)

// KeyScope is what an API key may do.
type KeyScope string

// The scopes of an API key. Write implies read: a key that may ingest may
// also verify and list what it ingested.
const (
	ScopeRead  KeyScope = "read"
	ScopeWrite KeyScope = "write"
)

// Valid reports whether s is one of the scopes.
func (s KeyScope) Valid() bool { return s == ScopeRead || s == ScopeWrite }

// Allows reports whether a key of scope s may do what need names.
func (s KeyScope) Allows(need KeyScope) bool {
	return s == ScopeWrite || (s == ScopeRead && need == ScopeRead)
}

// APIKey is a stored API key. The key itself is never stored: Hash is the
// hex SHA-256 of it, which is enough for keys of 256 random bits (no
// dictionary to search), and Prefix its first characters, to tell keys
// apart in a listing.
type APIKey struct {
	ID     string   `json:"id"`
	Name   string   `json:"name"`
	Scope  KeyScope `json:"scope"`
	Prefix string   `json:"prefix"`
	Hash   string   `json:"-"`
	// CreatedAt is set by the caller; RevokedAt is zero while the key is
	// valid.
	CreatedAt time.Time `json:"created_at"`
	RevokedAt time.Time `json:"revoked_at,omitzero"`
}

// Revoked reports whether the key was revoked.
func (k APIKey) Revoked() bool { return !k.RevokedAt.IsZero() }

// KeyStore keeps API keys. SQLite and Postgres implement it next to Store;
// every implementation passes [corpustest.RunKeys].
type KeyStore interface {
	// CreateKey stores a new key, or returns an error wrapping ErrExists
	// when its ID or hash is taken.
	CreateKey(ctx context.Context, k APIKey) error
	// KeyByHash returns the key whose Hash is hash, revoked or not, or an
	// error wrapping ErrNotFound.
	KeyByHash(ctx context.Context, hash string) (APIKey, error)
	// ListKeys returns every key, revoked ones included, oldest first.
	ListKeys(ctx context.Context) ([]APIKey, error)
	// RevokeKey marks the key with id revoked at at; revoking a revoked key
	// keeps its first revocation time. An unknown id is an error wrapping
	// ErrNotFound.
	RevokeKey(ctx context.Context, id string, at time.Time) error
	// ActiveKeys counts the keys that are not revoked.
	ActiveKeys(ctx context.Context) (int, error)
}

// validateKey checks a key before it is stored.
func validateKey(k APIKey) error {
	switch {
	case k.ID == "" || len(k.ID) > 64:
		return evidence.Invalid("id", "must be 1 to 64 bytes")
	case len(k.Name) > 200:
		return evidence.Invalid("name", "is %d bytes; the limit is 200", len(k.Name))
	case !k.Scope.Valid():
		return evidence.Invalid("scope", "must be read or write, got %q", k.Scope)
	case len(k.Hash) != 64:
		return evidence.Invalid("hash", "must be a hex SHA-256")
	case k.CreatedAt.IsZero():
		return evidence.Invalid("created_at", "must be set")
	}
	return nil
}

const keyColumns = "id, name, scope, prefix, hash, created_at, revoked_at"
