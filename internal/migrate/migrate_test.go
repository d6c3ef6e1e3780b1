package migrate

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	_ "modernc.org/sqlite"
)

func openDB(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name    string
		fsys    fstest.MapFS
		want    []int
		wantErr bool
	}{
		{"ordered by version", fstest.MapFS{
			"m/0002_b.sql": {Data: []byte("B")},
			"m/0010_c.sql": {Data: []byte("C")},
			"m/0001_a.sql": {Data: []byte("A")},
		}, []int{1, 2, 10}, false},
		{"stray file", fstest.MapFS{"m/0001_a.sql": {}, "m/README": {}}, nil, true},
		{"version zero", fstest.MapFS{"m/0000_a.sql": {}}, nil, true},
		{"duplicate version", fstest.MapFS{"m/0001_a.sql": {}, "m/1_b.sql": {}}, nil, true},
		{"missing dir", fstest.MapFS{}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms, err := Load(tt.fsys, "m")
			if (err != nil) != tt.wantErr {
				t.Fatalf("Load error = %v, want error %v", err, tt.wantErr)
			}
			var got []int
			for _, m := range ms {
				got = append(got, m.Version)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("versions (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUp(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	v1 := []Migration{{Version: 1, Name: "0001_a.sql", SQL: "CREATE TABLE a (x INTEGER); CREATE TABLE b (y INTEGER);"}}
	got, err := Up(ctx, db, "schema_migrations", v1)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{1}, got); diff != "" {
		t.Errorf("first run applied (-want +got):\n%s", diff)
	}
	if _, err := db.Exec("INSERT INTO b (y) VALUES (1)"); err != nil {
		t.Fatalf("second statement of a migration did not run: %v", err)
	}

	v2 := append(v1, Migration{Version: 2, Name: "0002_c.sql", SQL: "ALTER TABLE a ADD COLUMN z TEXT"})
	got, err = Up(ctx, db, "schema_migrations", v2)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{2}, got); diff != "" {
		t.Errorf("second run applied (-want +got):\n%s", diff)
	}
	got, err = Up(ctx, db, "schema_migrations", v2)
	if err != nil || len(got) != 0 {
		t.Errorf("third run applied %v, %v; want nothing", got, err)
	}

	if _, err := Up(ctx, db, "schema_migrations", v1); err == nil {
		t.Error("an older migration set ran against a newer schema")
	}
}

func TestUpFailedMigrationIsNotRecorded(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	bad := []Migration{{Version: 1, Name: "0001_a.sql", SQL: "CREATE TABLE a (x INTEGER); THIS IS NOT SQL;"}}
	if _, err := Up(ctx, db, "schema_migrations", bad); err == nil {
		t.Fatal("Up accepted a broken migration")
	}
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM schema_migrations").Scan(&n); err != nil || n != 0 {
		t.Errorf("recorded %d versions (err %v) after a failed migration, want 0", n, err)
	}
	good := []Migration{{Version: 1, Name: "0001_a.sql", SQL: "CREATE TABLE a (x INTEGER)"}}
	if _, err := Up(ctx, db, "schema_migrations", good); err != nil {
		t.Errorf("a failed migration left state behind: %v", err)
	}
}

func TestUpRejectsBadTableName(t *testing.T) {
	if _, err := Up(context.Background(), openDB(t), "x; DROP TABLE y", nil); err == nil {
		t.Error("Up accepted a table name that is not an identifier")
	}
}
