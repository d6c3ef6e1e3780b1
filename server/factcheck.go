package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/verity-fc/verity/agents/factcheck"
	"github.com/verity-fc/verity/evidence"
)

// FactChecker runs and rebuilds fact-checks (factcheck.Pipeline).
type FactChecker interface {
	Validate(req factcheck.Request) error
	Run(ctx context.Context, req factcheck.Request, emit func(factcheck.Event)) (factcheck.Result, error)
	Load(ctx context.Context, messageID string) (factcheck.Result, error)
}

// factcheckRoutes adds POST /v1/factcheck and GET /v1/factchecks/{messageId}
// when a FactChecker is configured. The POST is not under the request
// timeout: a fact-check runs for minutes and the pipeline's own global
// timeout (600 s by default) bounds it.
func (s *Server) factcheckRoutes(g *gin.RouterGroup) {
	if s.deps.FactCheck == nil {
		return
	}
	g.POST("/factcheck", s.postFactcheck)
	g.GET("/factchecks/:messageId", s.timeout(), s.getFactcheck)
}

// postFactcheck runs a fact-check: as server-sent events when the client
// accepts text/event-stream, otherwise as one JSON result.
func (s *Server) postFactcheck(c *gin.Context) {
	var req factcheck.Request
	if err := bindJSON(c, s.cfg.MaxBodyBytes, &req); err != nil {
		s.writeError(c, err)
		return
	}
	if err := s.deps.FactCheck.Validate(req); err != nil {
		s.writeError(c, err)
		return
	}
	// The server's write timeout, if any, is meant for ordinary answers.
	if err := http.NewResponseController(c.Writer).SetWriteDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		s.log.Warn("cannot lift the write deadline for a fact-check", "err", err)
	}
	if !strings.Contains(c.GetHeader("Accept"), "text/event-stream") {
		res, err := s.deps.FactCheck.Run(c.Request.Context(), req, nil)
		if err != nil {
			s.writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, res)
		return
	}
	s.streamFactcheck(c, req)
}

// streamFactcheck writes each pipeline event as "event: NAME\ndata: JSON\n\n"
// and flushes it at once. The pipeline runs on the request's context, so a
// client that disconnects cancels it.
func (s *Server) streamFactcheck(c *gin.Context, req factcheck.Request) {
	w := c.Writer
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	w.WriteHeader(http.StatusOK)
	w.Flush()

	// A comment line every StreamHeartbeat keeps proxies and load
	// balancers from closing a stream whose stage runs long (a model
	// checker may take minutes). Writes are serialised with the events'.
	var mu sync.Mutex
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(s.cfg.StreamHeartbeat)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-c.Request.Context().Done():
				return
			case <-t.C:
				mu.Lock()
				if _, err := io.WriteString(w, ": keep-alive\n\n"); err == nil {
					w.Flush()
				}
				mu.Unlock()
			}
		}
	}()
	defer func() {
		close(stop)
		<-stopped
	}()

	sawError := false
	emit := func(e factcheck.Event) {
		mu.Lock()
		defer mu.Unlock()
		sawError = sawError || e.Name == factcheck.EventError
		writeEvent(w, e.Name, e.Data)
	}
	_, err := s.deps.FactCheck.Run(c.Request.Context(), req, emit)
	if err == nil {
		return
	}
	p := s.logError(c, err)
	mu.Lock()
	defer mu.Unlock()
	if !sawError {
		writeEvent(w, factcheck.EventError, factcheck.ErrorPayload{Message: p.Detail})
	}
}

// writeEvent writes one server-sent event. encoding/json never writes a line
// break, so the data stays on its one line. A client that has gone away
// makes the write fail; the cancelled context ends the pipeline.
func writeEvent(w gin.ResponseWriter, name string, data any) {
	b, err := json.Marshal(data)
	if err != nil {
		b, _ = json.Marshal(factcheck.ErrorPayload{Message: "the server could not encode the " + name + " event"})
		name = factcheck.EventError
	}
	if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b); err == nil {
		w.Flush()
	}
}

// getFactcheck rebuilds a stored fact-check from its deliberation stages.
func (s *Server) getFactcheck(c *gin.Context) {
	id := c.Param("messageId")
	if n := utf8.RuneCountInString(id); n > factcheck.MaxIDChars {
		s.writeError(c, evidence.Invalid("messageId", "is %d characters; the limit is %d", n, factcheck.MaxIDChars))
		return
	}
	res, err := s.deps.FactCheck.Load(c.Request.Context(), id)
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, res)
}
