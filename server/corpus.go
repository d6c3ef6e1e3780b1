package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/jobs"
	"github.com/verity-fc/verity/verify"
)

// Jobs submits and reports ingest jobs.
type Jobs interface {
	Submit(ctx context.Context, sources []string) (corpus.Job, error)
	Job(ctx context.Context, id string) (corpus.Job, error)
	List(ctx context.Context, limit int) ([]corpus.Job, error)
}

// Sources lists the corpus.
type Sources interface {
	ListSources(ctx context.Context, opts corpus.ListOptions) ([]evidence.Source, int, error)
	Source(ctx context.Context, id string) (evidence.Source, error)
	Stats(ctx context.Context) (corpus.Stats, error)
}

// Upload limits for POST /v1/ingest as multipart/form-data.
const (
	maxUploadFiles = 20
	maxUploadBytes = 20 << 20 // all files together
)

var uploadExts = map[string]bool{".html": true, ".htm": true, ".md": true, ".markdown": true, ".txt": true, ".jsonl": true, ".pdf": true}

func (s *Server) corpusRoutes(g *gin.RouterGroup) {
	if s.deps.Jobs != nil {
		g.POST("/ingest", s.ingest)
		g.GET("/jobs", s.listJobs)
		g.GET("/jobs/:id", s.job)
	}
	if s.deps.Sources != nil {
		g.GET("/sources", s.listSources)
		g.GET("/sources/:id", s.source)
		g.GET("/stats", s.stats)
	}
}

type ingestRequest struct {
	Sources []string `json:"sources"`
}

// ingest enqueues a job. JSON bodies name http(s) URLs; multipart bodies
// carry files (field "file", repeatable) and optional "url" fields. Server
// paths are never accepted from a client: a client could otherwise read any
// file the server can.
func (s *Server) ingest(c *gin.Context) {
	var sources []string
	if strings.HasPrefix(c.ContentType(), "multipart/") {
		var err error
		if sources, err = s.saveUploads(c); err != nil {
			s.writeError(c, err)
			return
		}
	} else {
		var req ingestRequest
		if err := bindJSON(c, s.cfg.MaxBodyBytes, &req); err != nil {
			s.writeError(c, err)
			return
		}
		for i, src := range req.Sources {
			if err := checkURL(src); err != nil {
				s.writeError(c, evidence.Invalid(fmt.Sprintf("sources[%d]", i), "%v", err))
				return
			}
		}
		sources = req.Sources
	}
	j, err := s.deps.Jobs.Submit(c.Request.Context(), sources)
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.Header("Location", "/v1/jobs/"+j.ID)
	c.JSON(http.StatusAccepted, j)
}

func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("must be an http or https URL, got %q", raw)
	}
	return nil
}

// saveUploads stores uploaded files under the upload directory and returns
// their paths, plus any "url" fields.
func (s *Server) saveUploads(c *gin.Context) ([]string, error) {
	if s.cfg.UploadDir == "" {
		return nil, evidence.Invalid("file", "uploads are not enabled on this server")
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxUploadBytes+1<<20)
	form, err := c.MultipartForm()
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, evidence.Invalid("file", "uploads exceed the limit of %d bytes", maxUploadBytes)
		}
		return nil, evidence.Invalid("body", "is not a valid multipart form: %v", err)
	}
	var sources []string
	for i, raw := range form.Value["url"] {
		if err := checkURL(raw); err != nil {
			return nil, evidence.Invalid(fmt.Sprintf("url[%d]", i), "%v", err)
		}
		sources = append(sources, raw)
	}
	files := form.File["file"]
	if len(files) > maxUploadFiles {
		return nil, evidence.Invalid("file", "has %d files; the limit is %d", len(files), maxUploadFiles)
	}
	if len(files) == 0 && len(sources) == 0 {
		return nil, evidence.Invalid("file", "send at least one file or url field")
	}
	dir := filepath.Join(s.cfg.UploadDir, jobs.NewID())
	if len(files) > 0 {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, fmt.Errorf("create upload directory: %w", err)
		}
	}
	for i, fh := range files {
		name := filepath.Base(filepath.Clean("/" + fh.Filename))
		if !uploadExts[strings.ToLower(filepath.Ext(name))] {
			return nil, evidence.Invalid(fmt.Sprintf("file[%d]", i), "%q is not .html, .htm, .md, .markdown, .txt, .jsonl or .pdf", fh.Filename)
		}
		path := filepath.Join(dir, name)
		if err := saveFile(fh, path); err != nil {
			return nil, fmt.Errorf("save upload %s: %w", name, err)
		}
		sources = append(sources, path)
	}
	return sources, nil
}

func saveFile(fh *multipart.FileHeader, path string) error {
	src, err := fh.Open()
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o640)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	if err := dst.Sync(); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

func (s *Server) job(c *gin.Context) {
	j, err := s.deps.Jobs.Job(c.Request.Context(), c.Param("id"))
	if errors.Is(err, corpus.ErrNotFound) {
		err = &NotFoundError{Kind: "job", ID: c.Param("id")}
	}
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, j)
}

func (s *Server) listJobs(c *gin.Context) {
	limit, err := intQuery(c, "limit", 50, 1, corpus.MaxListLimit)
	if err != nil {
		s.writeError(c, err)
		return
	}
	js, err := s.deps.Jobs.List(c.Request.Context(), limit)
	if err != nil {
		s.writeError(c, err)
		return
	}
	if js == nil {
		js = []corpus.Job{}
	}
	c.JSON(http.StatusOK, gin.H{"jobs": js})
}

func (s *Server) listSources(c *gin.Context) {
	limit, err := intQuery(c, "limit", corpus.DefaultListLimit, 1, corpus.MaxListLimit)
	if err != nil {
		s.writeError(c, err)
		return
	}
	offset, err := intQuery(c, "offset", 0, 0, 1<<30)
	if err != nil {
		s.writeError(c, err)
		return
	}
	opts := corpus.ListOptions{Query: c.Query("q"), Domain: c.Query("domain"), Limit: limit, Offset: offset}
	if since := c.Query("since"); since != "" {
		t, err := verify.ParseDate(since)
		if err != nil {
			s.writeError(c, evidence.Invalid("since", "must be a date like 2020-01-01 or an RFC 3339 time, got %q", since))
			return
		}
		opts.Since = t
	}
	if len(opts.Query) > 200 || len(opts.Domain) > 253 {
		s.writeError(c, evidence.Invalid("q", "q and domain must be at most 200 and 253 bytes"))
		return
	}
	srcs, total, err := s.deps.Sources.ListSources(c.Request.Context(), opts)
	if err != nil {
		s.writeError(c, err)
		return
	}
	if srcs == nil {
		srcs = []evidence.Source{}
	}
	c.JSON(http.StatusOK, gin.H{"sources": srcs, "total": total, "limit": limit, "offset": offset})
}

func (s *Server) source(c *gin.Context) {
	src, err := s.deps.Sources.Source(c.Request.Context(), c.Param("id"))
	if errors.Is(err, corpus.ErrNotFound) {
		err = &NotFoundError{Kind: "source", ID: c.Param("id")}
	}
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, src)
}

func (s *Server) stats(c *gin.Context) {
	st, err := s.deps.Sources.Stats(c.Request.Context())
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, st)
}

// intQuery reads an integer query parameter within [min, max].
func intQuery(c *gin.Context, name string, def, min, max int) (int, error) {
	raw := c.Query(name)
	if raw == "" {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < min || n > max {
		return 0, evidence.Invalid(name, "must be an integer between %d and %d, got %q", min, max, raw)
	}
	return n, nil
}
