package corpus_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/corpus/corpustest"
	"github.com/verity-fc/verity/evidence"
)

// openPostgres opens a store in a schema of its own in the test database.
func openPostgres(t *testing.T, dbURL string, cfg corpus.PostgresConfig) *corpus.Postgres {
	t.Helper()
	if cfg.Schema == "" {
		cfg.Schema = corpustest.NewSchema(t, dbURL)
	}
	s, err := corpus.OpenPostgres(context.Background(), dbURL, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestPostgresConformance(t *testing.T) {
	dbURL := corpustest.PostgresURL(t)
	corpustest.Run(t, func(t *testing.T) corpus.Store { return openPostgres(t, dbURL, corpus.PostgresConfig{}) })
}

func TestPostgresCountJobs(t *testing.T) {
	dbURL := corpustest.PostgresURL(t)
	corpustest.RunJobCounter(t, func(t *testing.T) corpustest.JobCountingStore {
		return openPostgres(t, dbURL, corpus.PostgresConfig{})
	})
}

func TestPostgresKeys(t *testing.T) {
	dbURL := corpustest.PostgresURL(t)
	corpustest.RunKeys(t, func(t *testing.T) corpus.KeyStore { return openPostgres(t, dbURL, corpus.PostgresConfig{}) })
}

// TestPostgresMigrations opens one schema from several processes' worth of
// stores at once: the advisory lock lets each migration run once.
func TestPostgresMigrations(t *testing.T) {
	dbURL := corpustest.PostgresURL(t)
	schema := corpustest.NewSchema(t, dbURL)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			s, err := corpus.OpenPostgres(context.Background(), dbURL, corpus.PostgresConfig{Schema: schema})
			if err == nil {
				s.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("concurrent opens: %v", err)
	}
	s := openPostgres(t, dbURL, corpus.PostgresConfig{Schema: schema})
	var n int
	if err := s.Pool().QueryRow(context.Background(), "SELECT COUNT(*) FROM schema_migrations").Scan(&n); err != nil || n != migrationCount(t, "postgres") {
		t.Errorf("schema_migrations has %d rows (%v), want one per migration", n, err)
	}
	var cols []string
	rows, err := s.Pool().Query(context.Background(), `SELECT column_name FROM information_schema.columns
		WHERE table_schema = $1 AND table_name = 'deliberation_stages' ORDER BY ordinal_position`, schema)
	if err != nil {
		t.Fatal(err)
	}
	if cols, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		t.Fatal(err)
	}
	want := []string{"id", "message_id", "conversation_id", "stage_type", "stage_order", "model", "role", "content",
		"parsed_data", "response_time_ms", "created_at"}
	if diff := cmp.Diff(want, cols); diff != "" {
		t.Errorf("deliberation_stages columns (-want +got):\n%s", diff)
	}
}

func TestPostgresBadConfig(t *testing.T) {
	tests := []struct {
		name string
		url  string
		cfg  corpus.PostgresConfig
	}{
		{"bad url", "postgres://u:hunter2@host:notaport/db", corpus.PostgresConfig{}},
		{"bad schema", "postgres://u@127.0.0.1:1/db", corpus.PostgresConfig{Schema: "x; DROP TABLE y"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := corpus.OpenPostgres(context.Background(), tt.url, tt.cfg)
			if err == nil {
				t.Fatal("OpenPostgres accepted it")
			}
			if u, _ := url.Parse(tt.url); u != nil {
				if pw, ok := u.User.Password(); ok && strings.Contains(err.Error(), pw) {
					t.Errorf("error %q shows the password", err)
				}
			}
		})
	}
}

// TestPostgresUnstorableText: PostgreSQL text holds neither NUL nor invalid
// UTF-8; both are stored as U+FFFD rather than failing the write.
func TestPostgresUnstorableText(t *testing.T) {
	s := openPostgres(t, corpustest.PostgresURL(t), corpus.PostgresConfig{})
	ctx := context.Background()
	src := evidence.Source{ID: "a", Title: "nul\x00 and bad \xff byte"}
	if err := s.PutSource(ctx, src); err != nil {
		t.Fatal(err)
	}
	got, err := s.Source(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if want := "nul\uFFFD and bad \uFFFD byte"; got.Title != want {
		t.Errorf("title %q, want %q", got.Title, want)
	}
	j := corpus.Job{ID: "j", State: corpus.JobFailed, Sources: []string{"x\x00"}, Total: 1, Done: 1, Failed: 1,
		Errors: []corpus.JobError{{Source: "x\x00", Reason: "server said \xfe"}}, CreatedAt: time.Now(), UpdatedAt: time.Now()}
	if err := s.CreateJob(ctx, j); err != nil {
		t.Fatalf("CreateJob with NUL bytes: %v", err)
	}
}

// TestPostgresCreateJobTx: the job and what the callback writes commit
// together, or neither does.
func TestPostgresCreateJobTx(t *testing.T) {
	s := openPostgres(t, corpustest.PostgresURL(t), corpus.PostgresConfig{})
	ctx := context.Background()
	if _, err := s.Pool().Exec(ctx, "CREATE TABLE side (id TEXT)"); err != nil {
		t.Fatal(err)
	}
	job := func(id string) corpus.Job {
		return corpus.Job{ID: id, State: corpus.JobQueued, Sources: []string{"u"}, Total: 1, CreatedAt: time.Now(), UpdatedAt: time.Now()}
	}
	side := func(id string, fail error) func(context.Context, pgx.Tx) error {
		return func(ctx context.Context, tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "INSERT INTO side VALUES ($1)", id); err != nil {
				return err
			}
			return fail
		}
	}
	errBoom := errors.New("boom")
	if err := s.CreateJobTx(ctx, job("ok"), side("ok", nil)); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateJobTx(ctx, job("bad"), side("bad", errBoom)); !errors.Is(err, errBoom) {
		t.Errorf("CreateJobTx with a failing callback: error = %v, want boom", err)
	}
	if err := s.CreateJobTx(ctx, job("ok"), side("again", nil)); !errors.Is(err, corpus.ErrExists) {
		t.Errorf("CreateJobTx of an existing job: error = %v, want ErrExists", err)
	}
	if _, err := s.Job(ctx, "bad"); !errors.Is(err, corpus.ErrNotFound) {
		t.Errorf("the job of a rolled back transaction: %v, want ErrNotFound", err)
	}
	rows, _ := s.Pool().Query(ctx, "SELECT id FROM side ORDER BY id")
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"ok"}, ids); diff != "" {
		t.Errorf("side table (-want +got):\n%s", diff)
	}
}

// TestPostgresDownAndBack cuts the connection to PostgreSQL: calls fail at
// once as unavailable, naming postgres; nothing stored is lost; and the
// store works again, by itself, once the server is reachable.
func TestPostgresDownAndBack(t *testing.T) {
	dbURL := corpustest.PostgresURL(t)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := corpustest.StartProxy(t, u.Host)
	s := openPostgres(t, corpustest.WithHost(t, dbURL, proxy.Addr()), corpus.PostgresConfig{
		Schema: corpustest.NewSchema(t, dbURL), Timeout: time.Minute,
	})
	ctx := context.Background()
	if err := s.PutSource(ctx, evidence.Source{ID: "kept", Passages: 2}); err != nil {
		t.Fatal(err)
	}

	proxy.Cut()
	calls := map[string]error{
		"PutSource": s.PutSource(ctx, evidence.Source{ID: "new"}),
		"Ping":      s.Ping(ctx),
	}
	_, calls["Source"] = s.Source(ctx, "kept")
	_, calls["Stats"] = s.Stats(ctx)
	for name, err := range calls {
		t.Logf("%s while down: %v", name, err)
		var be *corpus.BackendError
		if !errors.As(err, &be) || !be.Unavailable() || be.BackendName() != "postgres" {
			t.Errorf("%s while down: error = %v, want an unavailable *corpus.BackendError naming postgres", name, err)
		}
	}

	if err := proxy.Restore(); err != nil {
		t.Fatal(err)
	}
	got, err := s.Source(ctx, "kept")
	if err != nil {
		t.Fatalf("Source after the server returned: %v", err)
	}
	if got.Passages != 2 {
		t.Errorf("source read back after the outage: %+v", got)
	}
	if err := s.PutSource(ctx, evidence.Source{ID: "new"}); err != nil {
		t.Errorf("PutSource after the server returned: %v", err)
	}
}

// TestPostgresTimeout: a server that stops answering costs the store's own
// time limit and counts as unavailable.
func TestPostgresTimeout(t *testing.T) {
	dbURL := corpustest.PostgresURL(t)
	// Migrate first with the default time limit: the short one is for the
	// outage, not for creating tables on a busy machine.
	schema := corpustest.NewSchema(t, dbURL)
	openPostgres(t, dbURL, corpus.PostgresConfig{Schema: schema})
	s := openPostgres(t, dbURL, corpus.PostgresConfig{Schema: schema, Timeout: 200 * time.Millisecond})
	ctx := context.Background()
	// pg_sleep stands in for a server that does not answer.
	_, err := s.Pool().Exec(ctx, `CREATE FUNCTION slow_sources() RETURNS trigger LANGUAGE plpgsql AS
		$$ BEGIN PERFORM pg_sleep(5); RETURN NEW; END $$;
		CREATE TRIGGER slow BEFORE INSERT ON sources FOR EACH ROW EXECUTE FUNCTION slow_sources()`)
	if err != nil {
		t.Fatal(err)
	}
	err = s.PutSource(ctx, evidence.Source{ID: "slow"})
	var be *corpus.BackendError
	if !errors.As(err, &be) || !be.Unavailable() {
		t.Errorf("PutSource past the store's time limit: error = %v, want unavailable", err)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("the store's time limit reads as the caller's deadline: %v", err)
	}
	cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	err = s.PutSource(cctx, evidence.Source{ID: "slow"})
	if !errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &be) && be.Unavailable()) {
		t.Errorf("PutSource past the caller's deadline: error = %v, want the caller's DeadlineExceeded, not unavailable", err)
	}
}
