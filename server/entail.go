package server

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/verity-fc/verity/agents/entail"
	"github.com/verity-fc/verity/evidence"
)

// EntailmentRunner runs the four-agent entailment audit of seed 000
// (*entail.Pipeline).
type EntailmentRunner interface {
	Run(ctx context.Context, req entail.Request) (entail.Result, error)
}

// entailRoutes serves POST /v1/entailment when an audit is configured.
func (s *Server) entailRoutes(g *gin.RouterGroup) {
	if s.deps.Entail == nil {
		return
	}
	g.POST("/entailment", s.entailment)
}

// entailmentRequest is the body of POST /v1/entailment. source_excerpt
// must be present: "" asks about an empty source (the seed's edge rule),
// while a forgotten key is a client mistake.
type entailmentRequest struct {
	Claim         string  `json:"claim"`
	SourceExcerpt *string `json:"source_excerpt"`
	SourceType    string  `json:"source_type"`
}

func (s *Server) entailment(c *gin.Context) {
	var req entailmentRequest
	if err := bindJSON(c, s.cfg.MaxBodyBytes, &req); err != nil {
		s.writeError(c, err)
		return
	}
	if req.SourceExcerpt == nil {
		s.writeError(c, evidence.Invalid("source_excerpt", `is required; send "" for an empty source`))
		return
	}
	res, err := s.deps.Entail.Run(c.Request.Context(), entail.Request{Claim: req.Claim, SourceExcerpt: *req.SourceExcerpt, SourceType: req.SourceType})
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, res)
}
