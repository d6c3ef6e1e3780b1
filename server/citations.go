package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/verity-fc/verity/agents/citations"
	"github.com/verity-fc/verity/evidence"
)

// CitationChecker checks the citations of a document (*citations.Checker).
type CitationChecker interface {
	Check(ctx context.Context, doc citations.Document) (citations.Report, error)
}

// Limits of POST /v1/citations.
const (
	// maxDocumentBytes bounds the document, as a JSON field or a file.
	maxDocumentBytes = citations.DefaultMaxDocumentBytes
	// maxCitationJSONBytes bounds the JSON body: the document may double
	// in size when escaped.
	maxCitationJSONBytes = 2*maxDocumentBytes + 64<<10
	maxDocumentPathChars = 300
)

// documentFormats maps an uploaded file's extension to its format.
var documentFormats = map[string]string{
	".md": citations.FormatMarkdown, ".markdown": citations.FormatMarkdown,
	".html": citations.FormatHTML, ".htm": citations.FormatHTML,
	".txt": citations.FormatText, ".text": citations.FormatText,
}

func (s *Server) citationRoutes(g *gin.RouterGroup) {
	if s.deps.Citations != nil {
		g.POST("/citations", s.checkCitations)
	}
}

type citationRequest struct {
	Document string `json:"document"`
	// Format is markdown, html or text; empty sniffs.
	Format string `json:"format"`
	// Path names the document in the report.
	Path string `json:"path"`
}

// checkCitations answers a document's citation report: JSON, or Markdown
// when the client accepts text/markdown first. The document comes as JSON
// ({"document", "format", "path"}) or as a multipart upload (field "file",
// optional field "format").
func (s *Server) checkCitations(c *gin.Context) {
	var (
		doc citations.Document
		err error
	)
	if strings.HasPrefix(c.ContentType(), "multipart/") {
		doc, err = readDocumentUpload(c)
	} else {
		doc, err = s.readDocumentJSON(c)
	}
	if err != nil {
		s.writeError(c, err)
		return
	}
	report, err := s.deps.Citations.Check(c.Request.Context(), doc)
	if err != nil {
		s.writeError(c, err)
		return
	}
	if c.NegotiateFormat(gin.MIMEJSON, "text/markdown") == "text/markdown" {
		c.Data(http.StatusOK, "text/markdown; charset=utf-8", []byte(citations.RenderMarkdown(report)))
		return
	}
	c.JSON(http.StatusOK, report)
}

func (s *Server) readDocumentJSON(c *gin.Context) (citations.Document, error) {
	if c.Request.ContentLength > maxCitationJSONBytes {
		return citations.Document{}, evidence.Invalid("document", "is larger than the limit of %d bytes", maxDocumentBytes)
	}
	var req citationRequest
	if err := bindJSON(c, maxCitationJSONBytes, &req); err != nil {
		return citations.Document{}, err
	}
	switch {
	case strings.TrimSpace(req.Document) == "":
		return citations.Document{}, evidence.Invalid("document", "must not be empty")
	case len(req.Document) > maxDocumentBytes:
		return citations.Document{}, evidence.Invalid("document", "is %d bytes; the limit is %d", len(req.Document), maxDocumentBytes)
	case utf8.RuneCountInString(req.Path) > maxDocumentPathChars:
		return citations.Document{}, evidence.Invalid("path", "must be at most %d characters", maxDocumentPathChars)
	}
	return citations.Document{Text: req.Document, Format: req.Format, Path: req.Path}, nil
}

func readDocumentUpload(c *gin.Context) (citations.Document, error) {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxDocumentBytes+64<<10)
	fh, err := c.FormFile("file")
	if err != nil {
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			return citations.Document{}, evidence.Invalid("file", "is larger than the limit of %d bytes", maxDocumentBytes)
		case errors.Is(err, http.ErrMissingFile):
			return citations.Document{}, evidence.Invalid("file", "send the document as the form field \"file\"")
		}
		if isTimeout(err) {
			return citations.Document{}, errBodyTimeout
		}
		return citations.Document{}, evidence.Invalid("body", "is not a valid multipart form: %v", err)
	}
	if fh.Size > maxDocumentBytes {
		return citations.Document{}, evidence.Invalid("file", "is %d bytes; the limit is %d", fh.Size, maxDocumentBytes)
	}
	name := uploadName(fh.Filename)
	format := c.PostForm("format")
	for _, field := range []struct{ name, value string }{{"file", fh.Filename}, {"format", format}} {
		if err := evidence.CheckText(field.name, field.value); err != nil {
			return citations.Document{}, err
		}
	}
	if format == "" {
		f, ok := documentFormats[strings.ToLower(filepath.Ext(name))]
		if !ok {
			return citations.Document{}, evidence.Invalid("file", "%q is not .md, .markdown, .html, .htm, .txt or .text; name the format in the field \"format\"", clipName(fh.Filename))
		}
		format = f
	}
	f, err := fh.Open()
	if err != nil {
		return citations.Document{}, fmt.Errorf("open upload: %w", err)
	}
	defer f.Close()
	body, err := io.ReadAll(io.LimitReader(f, maxDocumentBytes+1))
	if err != nil {
		return citations.Document{}, fmt.Errorf("read upload: %w", err)
	}
	if len(body) > maxDocumentBytes {
		return citations.Document{}, evidence.Invalid("file", "is larger than the limit of %d bytes", maxDocumentBytes)
	}
	if strings.TrimSpace(string(body)) == "" {
		return citations.Document{}, evidence.Invalid("file", "is empty")
	}
	if err := evidence.CheckText("file", string(body)); err != nil {
		return citations.Document{}, err
	}
	return citations.Document{Text: string(body), Format: format, Path: name}, nil
}

// clipName shortens a client's file name for an error message.
func clipName(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:77]) + "..."
	}
	return s
}
