package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/verity-fc/verity/claim"
	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/evidence"
)

// Problem is an RFC 9457 problem document. Field names the offending request
// field for a 400.
type Problem struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail,omitempty"`
	Field  string `json:"field,omitempty"`
	// Reason is the code of a 422: why the text is not a checkable claim
	// (question, imperative, opinion, no_verb).
	Reason string `json:"reason,omitempty"`
}

// The behaviours problemFor reads from errors, so that this package need
// not import every package whose errors it answers.
type (
	// unavailable is implemented by backend errors that know whether they
	// are transient (llm.BackendError, the stores' own errors, a
	// fact-check's StageError).
	unavailable interface {
		error
		Unavailable() bool
	}
	// backendNamer is implemented by backend errors that name their
	// backend.
	backendNamer interface{ BackendName() string }
	// busy is implemented by errors of a queue that is full (jobs.ErrBusy).
	busy interface {
		error
		Busy() bool
	}
	// schemaFailure is implemented by errors of a model that gave no reply
	// satisfying the requested schema (llm.SchemaError).
	schemaFailure interface {
		error
		Schema() (model string, attempts int)
	}
	// failedAgent is implemented by errors of an agent whose model gave no
	// valid output within its retries.
	failedAgent interface {
		error
		FailedAgent() string
	}
)

// problemFor is the one place that maps errors to HTTP statuses. The client
// sees a clear message; the log gets the detail.
func problemFor(err error) Problem {
	var (
		ie *evidence.InputError
		nc *claim.NotCheckable
		un unavailable
		sf schemaFailure
		bz busy
		fa failedAgent
	)
	switch {
	case errors.As(err, &ie):
		return Problem{Type: "https://verity.dev/problems/invalid-request", Title: "Invalid request", Status: http.StatusBadRequest, Detail: ie.Error(), Field: ie.Field}
	case errors.As(err, &nc):
		return Problem{Type: "https://verity.dev/problems/not-a-claim", Title: "Not a checkable claim", Status: http.StatusUnprocessableEntity, Detail: nc.Error(), Field: "claim", Reason: nc.Reason}
	case errors.Is(err, corpus.ErrNotFound):
		// The stores word it for the client: `job "ID": not found`.
		return Problem{Type: "https://verity.dev/problems/not-found", Title: "Not found", Status: http.StatusNotFound, Detail: err.Error()}
	case errors.As(err, &sf):
		model, attempts := sf.Schema()
		return Problem{Type: "https://verity.dev/problems/model-output", Title: "Invalid model output", Status: http.StatusBadGateway, Detail: fmt.Sprintf("model %s did not produce valid output after %d attempts", model, attempts)}
	case errors.Is(err, errBodyTimeout):
		return Problem{Type: "https://verity.dev/problems/body-timeout", Title: "Request timeout", Status: http.StatusRequestTimeout, Detail: "the request body did not arrive within the server's read timeout"}
	case errors.As(err, &bz) && bz.Busy():
		return Problem{Type: "https://verity.dev/problems/busy", Title: "Busy", Status: http.StatusServiceUnavailable, Detail: "the ingest queue is full; try again later"}
	case errors.As(err, &un) && un.Unavailable():
		name := "a backend"
		var bn backendNamer
		if errors.As(err, &bn) {
			name = bn.BackendName()
		}
		return Problem{Type: "https://verity.dev/problems/backend-unavailable", Title: "Backend unavailable", Status: http.StatusServiceUnavailable, Detail: name + " is unavailable; try again later"}
	case errors.As(err, &fa):
		return Problem{Type: "https://verity.dev/problems/agent-failed", Title: "Agent failed", Status: http.StatusBadGateway, Detail: "agent " + fa.FailedAgent() + " gave no valid output within its retries; try again or configure another model"}
	case errors.Is(err, context.DeadlineExceeded):
		return Problem{Type: "https://verity.dev/problems/timeout", Title: "Timed out", Status: http.StatusGatewayTimeout, Detail: "the request took longer than the server allows"}
	case errors.Is(err, context.Canceled):
		// The client went away; nobody reads this.
		return Problem{Type: "about:blank", Title: "Client closed request", Status: 499}
	default:
		return Problem{Type: "about:blank", Title: "Internal server error", Status: http.StatusInternalServerError, Detail: "the server failed to answer; the error is logged"}
	}
}

// writeError answers err as problem JSON and logs it once.
func (s *Server) writeError(c *gin.Context, err error) {
	writeProblem(c, s.logError(c, err))
}

// logError logs a failed request once and returns its problem; an event
// stream, whose status is already sent, reports the problem as an event.
func (s *Server) logError(c *gin.Context, err error) Problem {
	p := problemFor(err)
	level := slog.LevelInfo
	if p.Status >= 500 {
		level = slog.LevelError
	}
	s.log.Log(c.Request.Context(), level, "request failed", "method", c.Request.Method, "path", c.FullPath(), "status", p.Status, "err", err)
	return p
}

func writeProblem(c *gin.Context, p Problem) {
	c.Header("Content-Type", "application/problem+json")
	c.AbortWithStatusJSON(p.Status, p)
}

// errBodyTimeout reports a request body that was sent too slowly.
var errBodyTimeout = errors.New("request body timed out")

// bindJSON decodes a JSON request body into v strictly: unknown fields,
// wrong types, trailing data, an empty body and a body over limit bytes are
// *evidence.InputError naming the field.
func bindJSON(c *gin.Context, limit int64, v any) error {
	body, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, limit))
	if err != nil {
		return jsonInputError(err, limit)
	}
	if err := checkJSONText(body); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonInputError(err, limit)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return jsonInputError(err, limit)
		}
		return evidence.Invalid("body", "must hold exactly one JSON object")
	}
	return nil
}

func jsonInputError(err error, limit int64) error {
	var (
		mbe *http.MaxBytesError
		se  *json.SyntaxError
		te  *json.UnmarshalTypeError
	)
	switch {
	case isTimeout(err):
		return errBodyTimeout
	case errors.As(err, &mbe):
		return evidence.Invalid("body", "is larger than the limit of %d bytes", limit)
	case errors.Is(err, io.EOF):
		return evidence.Invalid("body", "must be a JSON object, got an empty body")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return evidence.Invalid("body", "is malformed JSON: unexpected end of input")
	case errors.As(err, &se):
		return evidence.Invalid("body", "is malformed JSON at byte %d: %v", se.Offset, se)
	case errors.As(err, &te):
		if te.Field == "" {
			return evidence.Invalid("body", "must be a JSON object, got %s", te.Value)
		}
		name := jsonTypeName(te.Type.Kind().String())
		if n, ok := strings.CutPrefix(te.Value, "number "); ok && name == "a whole number" {
			if f, err := strconv.ParseFloat(n, 64); err == nil && f == math.Trunc(f) {
				return evidence.Invalid(te.Field, "is out of range, got %s", n)
			}
			return evidence.Invalid(te.Field, "must be a whole number, got %s", n)
		}
		return evidence.Invalid(te.Field, "must be %s, got %s", name, te.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		// encoding/json has no typed error for unknown fields.
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return evidence.Invalid(name, "is not a known field")
	default:
		return evidence.Invalid("body", "is not valid JSON: %v", err)
	}
}

func jsonTypeName(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "a whole number"
	case "float64", "float32":
		return "a number"
	case "bool":
		return "a boolean"
	case "slice":
		return "an array"
	case "struct", "map":
		return "an object"
	}
	return kind
}
