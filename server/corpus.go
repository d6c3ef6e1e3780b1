package server

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/retention"
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
// file the server can. A request that fails leaves no upload behind.
func (s *Server) ingest(c *gin.Context) {
	var (
		sources []string
		dir     string // this request's upload directory, "" when none
	)
	if strings.HasPrefix(c.ContentType(), "multipart/") {
		var err error
		if sources, dir, err = s.saveUploads(c); err != nil {
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
		s.removeUploads(dir)
		s.writeError(c, err)
		return
	}
	c.Header("Location", "/v1/jobs/"+j.ID)
	c.JSON(http.StatusAccepted, s.publicJob(j))
}

func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("must be an http or https URL, got %q", raw)
	}
	return nil
}

// saveUploads stores uploaded files in a new directory under the upload
// directory and returns their paths, plus any "url" fields, and the
// directory ("" when there were no files). Two files of the same name are
// stored under distinct names ("a.html", "a-2.html"). On error nothing is
// left behind.
func (s *Server) saveUploads(c *gin.Context) (sources []string, dir string, err error) {
	if s.cfg.UploadDir == "" {
		return nil, "", evidence.Invalid("file", "uploads are not enabled on this server")
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxUploadBytes+1<<20)
	form, err := c.MultipartForm()
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, "", evidence.Invalid("file", "uploads exceed the limit of %d bytes", maxUploadBytes)
		}
		if isTimeout(err) {
			return nil, "", errBodyTimeout
		}
		return nil, "", evidence.Invalid("body", "is not a valid multipart form: %v", err)
	}
	defer form.RemoveAll() // the temporary files of large parts
	for name, values := range form.Value {
		for i, v := range values {
			if err := evidence.CheckText(fmt.Sprintf("%s[%d]", name, i), v); err != nil {
				return nil, "", err
			}
		}
	}
	for i, raw := range form.Value["url"] {
		if err := checkURL(raw); err != nil {
			return nil, "", evidence.Invalid(fmt.Sprintf("url[%d]", i), "%v", err)
		}
		sources = append(sources, raw)
	}
	files := form.File["file"]
	if len(files) > maxUploadFiles {
		return nil, "", evidence.Invalid("file", "has %d files; the limit is %d", len(files), maxUploadFiles)
	}
	if len(files) == 0 && len(sources) == 0 {
		return nil, "", evidence.Invalid("file", "send at least one file or url field")
	}
	names := make([]string, len(files))
	taken := map[string]bool{}
	for i, fh := range files {
		field := fmt.Sprintf("file[%d]", i)
		if err := evidence.CheckText(field, fh.Filename); err != nil {
			return nil, "", err
		}
		name := uploadName(fh.Filename)
		if !uploadExts[strings.ToLower(filepath.Ext(name))] {
			return nil, "", evidence.Invalid(field, "%q is not .html, .htm, .md, .markdown, .txt, .jsonl or .pdf", clipName(fh.Filename))
		}
		names[i] = distinctName(name, taken)
	}
	if len(files) == 0 {
		return sources, "", nil
	}
	dir = filepath.Join(s.cfg.UploadDir, rand.Text())
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, "", fmt.Errorf("create upload directory: %w", err)
	}
	for i, fh := range files {
		path := filepath.Join(dir, names[i])
		if err := saveFile(fh, path); err != nil {
			s.removeUploads(dir)
			return nil, "", fmt.Errorf("save upload %s: %w", names[i], err)
		}
		sources = append(sources, path)
	}
	return sources, dir, nil
}

// uploadName is the base name of a client's file name, with no directory
// part whatever the client's path separator.
func uploadName(filename string) string {
	name := filepath.Base(filepath.Clean("/" + strings.ReplaceAll(filename, `\`, "/")))
	if name == "/" || name == "." {
		return ""
	}
	return name
}

// distinctName returns name, or name with "-2", "-3", ... before its
// extension, whichever taken (keys in lower case, as file systems may
// ignore case) does not hold yet, and marks it taken.
func distinctName(name string, taken map[string]bool) string {
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	out := name
	for n := 2; taken[strings.ToLower(out)]; n++ {
		out = stem + "-" + strconv.Itoa(n) + ext
	}
	taken[strings.ToLower(out)] = true
	return out
}

// removeUploads deletes one request's upload directory; "" is none.
func (s *Server) removeUploads(dir string) {
	if dir == "" {
		return
	}
	if err := os.RemoveAll(dir); err != nil {
		s.log.Warn("remove uploads of a failed request", "dir", dir, "err", err)
	}
}

// publicJob is j as clients see it, without paths on the server: an
// uploaded file is named "upload:<upload id>/<file name>" and any other
// file (the demo corpus serve ingests) by its base name, in the sources,
// the errors and the message alike.
func (s *Server) publicJob(j corpus.Job) corpus.Job {
	var prefixes []string
	if s.cfg.UploadDir != "" {
		// Ingest reports files by absolute path; the job lists them as
		// given.
		prefixes = append(prefixes, filepath.Clean(s.cfg.UploadDir)+string(filepath.Separator))
		if abs, err := filepath.Abs(s.cfg.UploadDir); err == nil && abs+string(filepath.Separator) != prefixes[0] {
			prefixes = append([]string{abs + string(filepath.Separator)}, prefixes...)
		}
	}
	var pairs []string
	for _, src := range j.Sources {
		if checkURL(src) == nil {
			continue
		}
		name := filepath.Base(src)
		for _, p := range prefixes {
			if rest, ok := strings.CutPrefix(src, p); ok {
				name = "upload:" + filepath.ToSlash(rest)
				break
			}
		}
		pairs = append(pairs, src, name)
		if abs, err := filepath.Abs(src); err == nil && abs != src {
			pairs = append(pairs, abs, name)
		}
	}
	if len(pairs) == 0 {
		return j
	}
	// Longest first, so that a path is never replaced by a part of it.
	type pair struct{ from, to string }
	ps := make([]pair, 0, len(pairs)/2)
	for i := 0; i < len(pairs); i += 2 {
		ps = append(ps, pair{pairs[i], pairs[i+1]})
	}
	slices.SortFunc(ps, func(a, b pair) int { return len(b.from) - len(a.from) })
	flat := make([]string, 0, len(pairs))
	for _, p := range ps {
		flat = append(flat, p.from, p.to)
	}
	hide := strings.NewReplacer(flat...).Replace
	j.Sources = slices.Clone(j.Sources)
	for i, src := range j.Sources {
		j.Sources[i] = hide(src)
	}
	j.Errors = slices.Clone(j.Errors)
	for i, e := range j.Errors {
		j.Errors[i] = corpus.JobError{Source: hide(e.Source), Reason: hide(e.Reason)}
	}
	j.Message = hide(j.Message)
	return j
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
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, s.publicJob(j))
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
	for i := range js {
		js[i] = s.publicJob(js[i])
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
	if s.deps.Storage == nil {
		c.JSON(http.StatusOK, st)
		return
	}
	use, err := retention.StorageOf(c.Request.Context(), s.deps.Storage, s.cfg.UploadDir)
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, struct {
		corpus.Stats
		Storage retention.Storage `json:"storage"`
	}{st, use})
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
