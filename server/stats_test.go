package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/verity-fc/verity/corpus"
)

func TestStatsShowStorage(t *testing.T) {
	ctx := context.Background()
	store, err := corpus.OpenSQLite(ctx, filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if err := store.PutStage(ctx, corpus.Stage{ID: "s", MessageID: "m", StageType: "report", Content: "12345"}); err != nil {
		t.Fatal(err)
	}
	uploads := t.TempDir()
	if err := os.MkdirAll(filepath.Join(uploads, "u1"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(uploads, "u1", "a.md"), make([]byte, 1000), 0o640); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(New(Config{UploadDir: uploads}, Deps{Verifier: realVerifier(), Sources: store, Storage: store}, quietLogger()).Handler())
	defer ts.Close()
	r, err := http.Get(ts.URL + "/v1/stats")
	resp, body := readResponse(t, r, err)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var got struct {
		Sources int `json:"sources"`
		Storage struct {
			Stages        int   `json:"stages"`
			StageBytes    int64 `json:"stage_bytes"`
			DatabaseBytes int64 `json:"database_bytes"`
			Uploads       int   `json:"uploads"`
			UploadBytes   int64 `json:"upload_bytes"`
		} `json:"storage"`
	}
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	st := got.Storage
	if st.Stages != 1 || st.StageBytes != 5 || st.DatabaseBytes <= 0 || st.Uploads != 1 || st.UploadBytes != 1000 {
		t.Errorf("stats = %s", body)
	}
}
