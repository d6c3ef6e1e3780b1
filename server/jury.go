package server

import (
	"context"
	"fmt"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/verity-fc/verity/agents/jury"
	"github.com/verity-fc/verity/evidence"
)

// JuryRunner runs the agentic jury of seed 002 (*jury.Jury).
type JuryRunner interface {
	Run(ctx context.Context, p jury.Pair) (jury.Card, error)
	RunBatch(ctx context.Context, pairs []jury.Pair) []jury.Outcome
}

// MaxJuryBatch bounds the pairs of one POST /v1/jury.
const MaxJuryBatch = 50

// juryRoutes serves POST /v1/jury when a jury is configured.
func (s *Server) juryRoutes(g *gin.RouterGroup) {
	if s.deps.Jury == nil {
		return
	}
	g.POST("/jury", s.jury)
}

// juryRequest is one pair (claim and truth) or a batch (pairs).
type juryRequest struct {
	Claim *string     `json:"claim"`
	Truth *string     `json:"truth"`
	Pairs []juryPairs `json:"pairs"`
}

type juryPairs struct {
	Claim string `json:"claim"`
	Truth string `json:"truth"`
}

// JuryBatch is the answer to a batch: one outcome per pair, in order; a
// pair that failed carries its error instead of a card.
type JuryBatch struct {
	Results []jury.Outcome `json:"results"`
}

func (s *Server) jury(c *gin.Context) {
	var req juryRequest
	if err := bindJSON(c, s.cfg.MaxBodyBytes, &req); err != nil {
		s.writeError(c, err)
		return
	}
	single := req.Claim != nil || req.Truth != nil
	switch {
	case single && req.Pairs != nil:
		s.writeError(c, evidence.Invalid("pairs", "give either claim and truth or pairs, not both"))
		return
	case single:
		p := jury.Pair{}
		if req.Claim != nil {
			p.Claim = *req.Claim
		}
		if req.Truth != nil {
			p.Truth = *req.Truth
		}
		if err := jury.ValidatePair(p, ""); err != nil {
			s.writeError(c, err)
			return
		}
		card, err := s.deps.Jury.Run(c.Request.Context(), p)
		if err != nil {
			s.writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, card)
		return
	case len(req.Pairs) == 0:
		s.writeError(c, evidence.Invalid("pairs", "give claim and truth, or pairs with 1 to %d entries", MaxJuryBatch))
		return
	case len(req.Pairs) > MaxJuryBatch:
		s.writeError(c, evidence.Invalid("pairs", "has %d entries; the limit is %d", len(req.Pairs), MaxJuryBatch))
		return
	}
	pairs := make([]jury.Pair, len(req.Pairs))
	for i, rp := range req.Pairs {
		// A pair's id is its index in the request.
		pairs[i] = jury.Pair{ID: i, Claim: rp.Claim, Truth: rp.Truth}
		if err := jury.ValidatePair(pairs[i], fmt.Sprintf("pairs[%d].", i)); err != nil {
			s.writeError(c, err)
			return
		}
	}
	out := s.deps.Jury.RunBatch(c.Request.Context(), pairs)
	for _, o := range out {
		if o.Err != nil {
			s.log.Warn("jury pair failed", "pair", o.PairID, "err", o.Err)
		}
	}
	c.JSON(http.StatusOK, JuryBatch{Results: out})
}
