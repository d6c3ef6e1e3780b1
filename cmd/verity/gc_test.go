package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/verity-fc/verity/evidence"
)

func TestGCCommand(t *testing.T) {
	data := t.TempDir()
	old := filepath.Join(data, "uploads", "orphan")
	if err := os.MkdirAll(old, 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(old, "a.md"), []byte("hello"), 0o640); err != nil {
		t.Fatal(err)
	}
	at := time.Now().Add(-time.Hour)
	for _, p := range []string{filepath.Join(old, "a.md"), old} {
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	out, err := runVerity(t, "gc", "--json", "--data", data)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Deleted struct {
			Uploads     int   `json:"uploads"`
			UploadBytes int64 `json:"upload_bytes"`
		} `json:"deleted"`
		Storage struct {
			Uploads       int   `json:"uploads"`
			DatabaseBytes int64 `json:"database_bytes"`
		} `json:"storage"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Deleted.Uploads != 1 || got.Deleted.UploadBytes != 5 || got.Storage.Uploads != 0 || got.Storage.DatabaseBytes <= 0 {
		t.Errorf("gc = %s", out)
	}
	if _, err := os.Stat(old); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the orphaned upload is still there: %v", err)
	}
}

func TestCLIRefusesBadText(t *testing.T) {
	data := t.TempDir()
	stdin := filepath.Join(t.TempDir(), "doc.md")
	if err := os.WriteFile(stdin, []byte("A claim \x00 with NUL."), 0o640); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args  []string
		field string
	}{
		{[]string{"verify", "The tower is \xff tall.", "--data", data}, "claim"},
		{[]string{"verify", "The tower is tall.", "--domain", "a\xffb", "--data", data}, "--domain"},
		{[]string{"factcheck", stdin, "--data", data}, "input"},
	} {
		_, err := runVerity(t, tt.args...)
		var ie *evidence.InputError
		if !errors.As(err, &ie) || ie.Field != tt.field {
			t.Errorf("verity %q = %v, want an input error naming %s", tt.args, err, tt.field)
		}
	}
}
