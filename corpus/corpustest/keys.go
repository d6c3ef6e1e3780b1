package corpustest

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/corpus"
)

// RunKeys runs the suite of corpus.KeyStore. open returns a new, empty
// store for each subtest and arranges its cleanup with t.Cleanup.
func RunKeys(t *testing.T, open func(t *testing.T) corpus.KeyStore) {
	tests := []struct {
		name string
		run  func(t *testing.T, s corpus.KeyStore)
	}{
		{"RoundTrip", testKeyRoundTrip},
		{"Duplicate", testKeyDuplicate},
		{"Revoke", testKeyRevoke},
		{"Invalid", testKeyInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, open(t)) })
	}
}

func apiKey(id string, scope corpus.KeyScope, created time.Time) corpus.APIKey {
	return corpus.APIKey{
		ID: id, Name: "name of " + id, Scope: scope, Prefix: "vk_" + id,
		Hash:      fmt.Sprintf("%x", sha256.Sum256([]byte(id))),
		CreatedAt: created,
	}
}

func testKeyRoundTrip(t *testing.T, s corpus.KeyStore) {
	ctx := context.Background()
	a := apiKey("a", corpus.ScopeRead, day)
	b := apiKey("bb", corpus.ScopeWrite, day.Add(time.Minute))
	for _, k := range []corpus.APIKey{b, a} {
		if err := s.CreateKey(ctx, k); err != nil {
			t.Fatalf("CreateKey(%s): %v", k.ID, err)
		}
	}
	got, err := s.KeyByHash(ctx, b.Hash)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(b, got); diff != "" {
		t.Errorf("KeyByHash (-want +got):\n%s", diff)
	}
	if _, err := s.KeyByHash(ctx, strings.Repeat("f", 64)); !errors.Is(err, corpus.ErrNotFound) {
		t.Errorf("KeyByHash(unknown) = %v, want ErrNotFound", err)
	}
	all, err := s.ListKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]corpus.APIKey{a, b}, all); diff != "" {
		t.Errorf("ListKeys, oldest first (-want +got):\n%s", diff)
	}
	if n, err := s.ActiveKeys(ctx); err != nil || n != 2 {
		t.Errorf("ActiveKeys = %d, %v; want 2", n, err)
	}
}

func testKeyDuplicate(t *testing.T, s corpus.KeyStore) {
	ctx := context.Background()
	a := apiKey("a", corpus.ScopeRead, day)
	if err := s.CreateKey(ctx, a); err != nil {
		t.Fatal(err)
	}
	sameID := apiKey("a", corpus.ScopeWrite, day.Add(time.Hour))
	sameID.Hash = strings.Repeat("e", 64)
	sameHash := apiKey("other", corpus.ScopeWrite, day)
	sameHash.Hash = a.Hash
	for name, k := range map[string]corpus.APIKey{"same id": sameID, "same hash": sameHash} {
		if err := s.CreateKey(ctx, k); !errors.Is(err, corpus.ErrExists) {
			t.Errorf("CreateKey(%s) = %v, want ErrExists", name, err)
		}
	}
	if got, err := s.KeyByHash(ctx, a.Hash); err != nil || got.ID != "a" || got.Scope != corpus.ScopeRead {
		t.Errorf("after duplicates, KeyByHash = %+v, %v; want the first key", got, err)
	}
}

func testKeyRevoke(t *testing.T, s corpus.KeyStore) {
	ctx := context.Background()
	a, b := apiKey("a", corpus.ScopeRead, day), apiKey("bb", corpus.ScopeWrite, day)
	for _, k := range []corpus.APIKey{a, b} {
		if err := s.CreateKey(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	first := day.Add(48 * time.Hour)
	if err := s.RevokeKey(ctx, "a", first); err != nil {
		t.Fatal(err)
	}
	if err := s.RevokeKey(ctx, "a", first.Add(time.Hour)); err != nil {
		t.Fatalf("revoking twice: %v", err)
	}
	got, err := s.KeyByHash(ctx, a.Hash)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Revoked() || !got.RevokedAt.Equal(first) {
		t.Errorf("revoked key has RevokedAt %v, want the first revocation %v", got.RevokedAt, first)
	}
	if n, err := s.ActiveKeys(ctx); err != nil || n != 1 {
		t.Errorf("ActiveKeys after one revocation = %d, %v; want 1", n, err)
	}
	if err := s.RevokeKey(ctx, "missing", first); !errors.Is(err, corpus.ErrNotFound) {
		t.Errorf("RevokeKey(missing) = %v, want ErrNotFound", err)
	}
}

func testKeyInvalid(t *testing.T, s corpus.KeyStore) {
	ctx := context.Background()
	for name, mod := range map[string]func(*corpus.APIKey){
		"no id":      func(k *corpus.APIKey) { k.ID = "" },
		"bad scope":  func(k *corpus.APIKey) { k.Scope = "admin" },
		"short hash": func(k *corpus.APIKey) { k.Hash = "abc" },
		"no time":    func(k *corpus.APIKey) { k.CreatedAt = time.Time{} },
	} {
		k := apiKey("a", corpus.ScopeRead, day)
		mod(&k)
		wantInputError(t, name, s.CreateKey(ctx, k))
	}
	if n, err := s.ActiveKeys(ctx); err != nil || n != 0 {
		t.Errorf("ActiveKeys after invalid keys = %d, %v; want 0", n, err)
	}
}
