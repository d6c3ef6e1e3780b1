package factcheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/verity-fc/verity/corpus"
)

// StageStore keeps the deliberation_stages rows (corpus.Store implements
// it on SQLite and PostgreSQL).
type StageStore interface {
	// PutStage stores one stage as it completes.
	PutStage(ctx context.Context, s corpus.Stage) error
	// Stages returns a message's stages ordered by StageOrder, then
	// CreatedAt.
	Stages(ctx context.Context, messageID string) ([]corpus.Stage, error)
}

// Stage types, orders and roles of seed 001 section E.
const (
	stageGenerate = "generate"
	stageExtract  = "extract"
	stageVerify   = "verify_" // + checker index
	stageReport   = "report"

	orderGenerate = 0
	orderExtract  = 1
	orderVerify   = 10 // + checker index
	orderReport   = 99
)

// ErrNotFound is corpus.ErrNotFound, the one not-found sentinel: Load
// returns it, wrapped, for a message with no fact-check stages.
var ErrNotFound = corpus.ErrNotFound

// generateData is the generate row's parsedData.
type generateData struct {
	ContentSource string `json:"contentSource"`
	InputQuestion string `json:"inputQuestion"`
	ContentLength int    `json:"contentLength"`
	WordCount     int    `json:"wordCount"`
	// Fallback is true when the generator timed out and the question
	// stands in for its answer.
	Fallback bool `json:"fallback,omitempty"`
}

// extractData is the extract row's parsedData. The seed's row keeps the raw
// extraction text in content, so the text that was checked (after
// truncation) is kept here as contentText for Load.
type extractData struct {
	Claims        []ExtractedClaim `json:"claims"`
	TotalClaims   int              `json:"totalClaims"`
	TypeBreakdown map[string]int   `json:"typeBreakdown"`
	ContentSource string           `json:"contentSource"`
	ContentText   string           `json:"contentText"`
	Truncated     bool             `json:"truncated,omitempty"`
	Note          string           `json:"note,omitempty"`
}

// verifyData is a verify_i row's parsedData.
type verifyData struct {
	Verifications []ClaimVerification `json:"verifications"`
	Summary       Summary             `json:"summary"`
}

// reportData is the report row's parsedData.
type reportData struct {
	ReliabilityScore     *int    `json:"reliabilityScore"`
	Verified             int     `json:"verified"`
	Disputed             int     `json:"disputed"`
	Unverifiable         int     `json:"unverifiable"`
	TotalClaims          int     `json:"totalClaims"`
	CheckerCount         int     `json:"checkerCount"`
	AverageAgreementRate float64 `json:"averageAgreementRate"`
	// Fallback is true when the reporter model failed (seed 001 section F).
	Fallback bool `json:"fallback,omitempty"`
	// RequestedModel is the reporter that was asked for when it differs
	// from the row's model (after a fallback).
	RequestedModel string           `json:"requestedModel,omitempty"`
	FailedCheckers []CheckerFailure `json:"failedCheckers,omitempty"`
	Notes          []string         `json:"notes,omitempty"`
	Note           string           `json:"note,omitempty"`
	Title          string           `json:"title,omitempty"`
}

// Load rebuilds a fact-check from its stored stages as seed 001's
// loadFactCheckResult does, recomputing the consensus from the stored
// verifications. A message with no fact-check stages is ErrNotFound.
func (p *Pipeline) Load(ctx context.Context, messageID string) (Result, error) {
	if p.deps.Stages == nil {
		return Result{}, errors.New("load fact-check: no stage store is configured")
	}
	stages, err := p.deps.Stages.Stages(ctx, messageID)
	if err != nil {
		return Result{}, fmt.Errorf("load fact-check %s: %w", messageID, err)
	}
	var gen, ext, rep *corpus.Stage
	var ver []corpus.Stage
	for i := range stages {
		s := &stages[i]
		switch {
		case s.StageType == stageGenerate && gen == nil:
			gen = s
		case s.StageType == stageExtract && ext == nil:
			ext = s
		case strings.HasPrefix(s.StageType, stageVerify):
			ver = append(ver, *s)
		case s.StageType == stageReport && rep == nil:
			rep = s
		}
	}
	if gen == nil && ext == nil && len(ver) == 0 && rep == nil {
		return Result{}, fmt.Errorf("fact-check %q: %w", messageID, ErrNotFound)
	}

	r := Result{MessageID: messageID, Content: Content{Source: SourceUserProvided}}
	var ed extractData
	if ext != nil {
		if err := decodeParsed(ext, &ed); err != nil {
			return Result{}, err
		}
		r.ConversationID = ext.ConversationID
	}
	if gen != nil {
		ms := gen.ResponseTimeMS
		r.Content = Content{Source: SourceGenerated, Model: gen.Model, Text: gen.Content, ResponseTimeMs: &ms}
		r.ConversationID = gen.ConversationID
	}
	if ext != nil {
		// The extract row's contentText is the text that was checked; the
		// seed reads the extract row's content, which is the raw extraction.
		r.Content.Text = or(ed.ContentText, r.Content.Text)
		r.Content.Truncated, r.Content.Note = ed.Truncated, ed.Note
		r.Extraction = Extraction{Model: ext.Model, Claims: ed.Claims, TypeBreakdown: ed.TypeBreakdown, ResponseTimeMs: ext.ResponseTimeMS}
	} else {
		r.Extraction.Model = "unknown"
	}
	if r.Extraction.Claims == nil {
		r.Extraction.Claims = []ExtractedClaim{}
	}
	if r.Extraction.TypeBreakdown == nil {
		r.Extraction.TypeBreakdown = map[string]int{}
	}

	r.Verification.Checkers = make([]CheckerResult, 0, len(ver))
	all := make([][]ClaimVerification, 0, len(ver))
	for i := range ver {
		var vd verifyData
		if err := decodeParsed(&ver[i], &vd); err != nil {
			return Result{}, err
		}
		r.Verification.Checkers = append(r.Verification.Checkers, CheckerResult{
			Model: ver[i].Model, Verifications: vd.Verifications, Summary: vd.Summary, ResponseTimeMs: ver[i].ResponseTimeMS,
		})
		all = append(all, vd.Verifications)
	}
	r.Verification.Consensus = calculateConsensus(r.Extraction.Claims, all)

	r.Report = Report{Model: "unknown"}
	if rep != nil {
		var rd reportData
		if err := decodeParsed(rep, &rd); err != nil {
			return Result{}, err
		}
		r.Report = Report{
			Model: rep.Model, ReliabilityScore: rd.ReliabilityScore, ReportText: rep.Content,
			Summary:        Summary{Verified: rd.Verified, Disputed: rd.Disputed, Unverifiable: rd.Unverifiable},
			ResponseTimeMs: rep.ResponseTimeMS, Fallback: rd.Fallback, Notes: rd.Notes,
		}
		r.Verification.Failed = rd.FailedCheckers
		r.Title = rd.Title
	}
	return r, nil
}

func decodeParsed(s *corpus.Stage, v any) error {
	if len(s.ParsedData) == 0 {
		return nil
	}
	if err := json.Unmarshal(s.ParsedData, v); err != nil {
		return fmt.Errorf("decode %s stage of %s: %w", s.StageType, s.MessageID, err)
	}
	return nil
}
