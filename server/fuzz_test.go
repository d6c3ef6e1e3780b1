package server

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzUpload sends a multipart body to POST /v1/ingest. Whatever the body,
// the answer is 202 or a 4xx problem, never a 5xx; every stored file lies
// inside the upload directory; a refused request leaves nothing behind.
func FuzzUpload(f *testing.F) {
	seed := func(parts ...part) []byte {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		mw.SetBoundary("BOUNDARY")
		for _, p := range parts {
			if p.name == "" {
				mw.WriteField(p.field, p.body)
				continue
			}
			fw, _ := mw.CreateFormFile(p.field, p.name)
			fw.Write([]byte(p.body))
		}
		mw.Close()
		return buf.Bytes()
	}
	f.Add(seed(part{"file", "a.md", "# A"}, part{"url", "", "https://e.example/p"}))
	f.Add(seed(part{"file", "a.md", "x"}, part{"file", "a.md", "y"}, part{"file", "A.MD", "z"}))
	f.Add(seed(part{"file", "../../etc/passwd.txt", "x"}, part{"file", `..\..\win.html`, "y"}, part{"file", "/abs/x.jsonl", "{}"}))
	f.Add(seed(part{"file", "run.sh", "echo"}))
	f.Add(seed(part{"file", "a\x00.md", "x"}, part{"url", "", "javascript:alert(1)"}))
	f.Add(seed(part{"file", ".md", ""}, part{"file", "..md", ""}, part{"file", "...", ""}))
	f.Add([]byte("--BOUNDARY\r\nContent-Disposition: form-data; name=\"file\"; filename=\"x.md\"\r\n\r\nunterminated"))
	f.Add([]byte("--BOUNDARY\r\nContent-Disposition: form-data; name=\"file\"; filename*=UTF-8''%C3%A9.md\r\n\r\nx\r\n--BOUNDARY--\r\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		dir := t.TempDir()
		js := &recordingJobs{}
		h := New(Config{MaxBodyBytes: 4096, UploadDir: dir}, Deps{Verifier: realVerifier(), Jobs: js}, quietLogger()).Handler()
		req := httptest.NewRequest(http.MethodPost, "/v1/ingest", bytes.NewReader(body))
		req.Header.Set("Content-Type", "multipart/form-data; boundary=BOUNDARY")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		switch {
		case rec.Code == http.StatusAccepted:
		case rec.Code >= 400 && rec.Code < 500:
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Fatalf("status %d left %d entries in the upload directory", rec.Code, len(entries))
			}
			return
		default:
			t.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
		if strings.Contains(rec.Body.String(), dir) {
			t.Errorf("the answer shows the server path: %s", rec.Body)
		}
		for _, j := range js.jobs {
			for _, src := range j.Sources {
				if strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://") {
					continue
				}
				rel, err := filepath.Rel(dir, src)
				if err != nil || strings.HasPrefix(rel, "..") || strings.Count(filepath.ToSlash(rel), "/") != 1 {
					t.Errorf("file stored at %s, outside one upload directory of %s", src, dir)
				}
				if _, err := os.Stat(src); err != nil {
					t.Errorf("stored file: %v", err)
				}
			}
		}
	})
}
