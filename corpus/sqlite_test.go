package corpus_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/corpus/corpustest"
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/internal/crashtest"
)

func openSQLite(t *testing.T) corpus.Store {
	t.Helper()
	s, err := corpus.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "corpus.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestSQLiteConformance(t *testing.T) {
	corpustest.Run(t, openSQLite)
}

func TestSQLiteCountJobs(t *testing.T) {
	corpustest.RunJobCounter(t, func(t *testing.T) corpustest.JobCountingStore { return openSQLite(t).(*corpus.SQLite) })
}

func TestSQLiteKeys(t *testing.T) {
	corpustest.RunKeys(t, func(t *testing.T) corpus.KeyStore { return openSQLite(t).(*corpus.SQLite) })
}

const crashChildEnv = "VERITY_CORPUS_CRASH_CHILD"

// TestSQLiteCrashKeepsAcknowledgedWrites kills a process that is writing
// sources (SIGKILL, mid-write) and checks that every source whose PutSource
// had returned is there after reopening. It covers a crash of the process;
// synchronous=FULL extends the guarantee to a crash of the machine, which a
// test cannot stage.
func TestSQLiteCrashKeepsAcknowledgedWrites(t *testing.T) {
	if path, ok := crashtest.Child(crashChildEnv); ok {
		crashChild(path)
		return
	}
	path := filepath.Join(t.TempDir(), "corpus.db")
	acked := crashtest.KillAfter(t, "TestSQLiteCrashKeepsAcknowledgedWrites", crashChildEnv, path, 40)
	s, err := corpus.OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatalf("reopen after a crash: %v", err)
	}
	defer s.Close()
	for _, id := range acked {
		got, err := s.Source(context.Background(), id)
		if err != nil {
			t.Errorf("acknowledged source %q lost: %v", id, err)
			continue
		}
		if got.ContentHash != "h-"+id {
			t.Errorf("source %q: content hash %q, want %q", id, got.ContentHash, "h-"+id)
		}
	}
}

// crashChild writes sources until it is killed, acknowledging each after
// PutSource returns.
func crashChild(path string) {
	ctx := context.Background()
	s, err := corpus.OpenSQLite(ctx, path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// Bounded so that an orphaned child stops by itself.
	for i := range 100000 {
		id := fmt.Sprintf("src-%d", i)
		if err := s.PutSource(ctx, evidence.Source{ID: id, ContentHash: "h-" + id, Title: strings.Repeat("t", 2000)}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		crashtest.Ack(id)
	}
	os.Exit(0)
}

// TestSQLiteSchema checks the parts of the schema that seed 001 names, and
// that reopening an existing file applies no migration twice.
func TestSQLiteSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "corpus.db")
	for range 2 {
		s, err := corpus.OpenSQLite(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cols := names(t, db, "SELECT name FROM pragma_table_info('deliberation_stages') ORDER BY cid")
	want := []string{"id", "message_id", "conversation_id", "stage_type", "stage_order", "model", "role", "content",
		"parsed_data", "response_time_ms", "created_at"}
	if diff := cmp.Diff(want, cols); diff != "" {
		t.Errorf("deliberation_stages columns (-want +got):\n%s", diff)
	}
	idxCols := names(t, db, "SELECT name FROM pragma_index_info('idx_deliberation_stages_message') ORDER BY seqno")
	if diff := cmp.Diff([]string{"message_id", "stage_order"}, idxCols); diff != "" {
		t.Errorf("idx_deliberation_stages_message columns (-want +got):\n%s", diff)
	}
	var versions int
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM schema_migrations").Scan(&versions); err != nil || versions != migrationCount(t, "sqlite") {
		t.Errorf("schema_migrations has %d rows (%v), want one per migration", versions, err)
	}
}

// names returns the one text column of query's rows.
func names(t *testing.T, db *sql.DB, query string) []string {
	t.Helper()
	rows, err := db.Query(query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// migrationCount is the number of migration files of a backend.
func migrationCount(t *testing.T, backend string) int {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join("migrations", backend))
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

func TestSQLitePutSources(t *testing.T) {
	ctx := context.Background()
	s, err := corpus.OpenSQLite(ctx, filepath.Join(t.TempDir(), "corpus.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	srcs := []evidence.Source{{ID: "a", Title: "A", ContentHash: "h1"}, {ID: "b", Title: "B", ContentHash: "h2"}}
	if err := s.PutSources(ctx, srcs); err != nil {
		t.Fatal(err)
	}
	for _, want := range srcs {
		if h, ok, err := s.SourceHash(ctx, want.ID); err != nil || !ok || h != want.ContentHash {
			t.Errorf("source %s: hash %q, %v, %v", want.ID, h, ok, err)
		}
	}
	// A source named twice in a batch is stored as last given.
	if err := s.PutSources(ctx, []evidence.Source{{ID: "d", ContentHash: "old"}, {ID: "e", ContentHash: "h5"}, {ID: "d", ContentHash: "new"}}); err != nil {
		t.Fatal(err)
	}
	if h, _, _ := s.SourceHash(ctx, "d"); h != "new" {
		t.Errorf("source put twice in a batch has hash %q, want the last", h)
	}
	// One bad source stores none of the batch.
	if err := s.PutSources(ctx, []evidence.Source{{ID: "c", ContentHash: "h3"}, {ID: ""}}); err == nil {
		t.Fatal("a source without an ID was accepted")
	}
	if _, ok, _ := s.SourceHash(ctx, "c"); ok {
		t.Error("part of a rejected batch was stored")
	}
}

func TestSQLiteSourceHashes(t *testing.T) {
	ctx := context.Background()
	s, err := corpus.OpenSQLite(ctx, filepath.Join(t.TempDir(), "corpus.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var srcs []evidence.Source
	var ids []string
	for i := range 1200 {
		id := fmt.Sprintf("s%d", i)
		ids = append(ids, id, "missing-"+id)
		if i%3 != 0 {
			srcs = append(srcs, evidence.Source{ID: id, ContentHash: "h" + id})
		}
	}
	if err := s.PutSources(ctx, srcs); err != nil {
		t.Fatal(err)
	}
	got, err := s.SourceHashes(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, src := range srcs {
		want[src.ID] = src.ContentHash
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SourceHashes of 2,400 ids, 800 stored (-want +got):\n%s", diff)
	}
	if got, err := s.SourceHashes(ctx, nil); err != nil || len(got) != 0 {
		t.Errorf("SourceHashes(nil) = %v, %v", got, err)
	}
}
