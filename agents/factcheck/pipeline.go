package factcheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"golang.org/x/sync/errgroup"

	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/llm"
	"github.com/verity-fc/verity/prompts"
)

// Deps are the pipeline's collaborators.
type Deps struct {
	// Chat serves every model name that is not a built-in role; nil allows
	// built-in roles only.
	Chat llm.Chatter
	// Verifier is the evidence layer behind "verity/evidence"; nil rejects
	// that checker.
	Verifier Verifier
	// Stages stores each stage as it completes; nil stores nothing (and
	// Load fails).
	Stages StageStore
	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// Now defaults to time.Now; response times and the global timeout are
	// measured with it.
	Now func() time.Time
	// NewID returns a fresh message, conversation or stage id; default a
	// random UUID.
	NewID func() string
}

// Config holds the pipeline's defaults and limits. The zero value works.
type Config struct {
	// ExtractorModel is used when a request names none. Default
	// "verity/extractor".
	ExtractorModel string
	// CheckerModels are used when a request names none (1 to 4). Default
	// ["verity/evidence"].
	CheckerModels []string
	// ReporterModel is used when a request names none. Default
	// "verity/reporter".
	ReporterModel string
	// MaxContentLength truncates content when a request sets no
	// maxContentLength, in characters. Default 20,000.
	MaxContentLength int
	// StageTimeout bounds one stage when a request sets no timeoutMs.
	// Default 120 s.
	StageTimeout time.Duration
	// GlobalTimeout is the pipeline's budget. Once it has passed, the stage
	// that is running completes (within its own timeout), the remaining
	// stages are skipped and the partial result is returned. Default 600 s.
	GlobalTimeout time.Duration
	// MaxParallelCheckers bounds the checkers that run at once. Default 4.
	MaxParallelCheckers int
	// MaxClaims bounds the claims that are verified; the rest are dropped
	// with a note. Default 50.
	MaxClaims int
	// EvidenceParallelism bounds the claims the evidence checker verifies at
	// once. Default 4.
	EvidenceParallelism int
	// MaxTokens bounds each model reply; 0 leaves the backend's default.
	MaxTokens int
}

func (c Config) withDefaults() Config {
	c.ExtractorModel = or(c.ExtractorModel, BuiltinExtractor)
	c.ReporterModel = or(c.ReporterModel, BuiltinReporter)
	if len(c.CheckerModels) == 0 {
		c.CheckerModels = []string{BuiltinEvidence}
	}
	if c.MaxContentLength <= 0 {
		c.MaxContentLength = DefaultContentLength
	}
	if c.StageTimeout <= 0 {
		c.StageTimeout = DefaultTimeoutMs * time.Millisecond
	}
	if c.GlobalTimeout <= 0 {
		c.GlobalTimeout = 600 * time.Second
	}
	if c.MaxParallelCheckers <= 0 {
		c.MaxParallelCheckers = MaxCheckers
	}
	if c.MaxClaims <= 0 {
		c.MaxClaims = 50
	}
	if c.EvidenceParallelism <= 0 {
		c.EvidenceParallelism = 4
	}
	return c
}

// maxReplyChars bounds a model reply that is parsed and stored, in
// characters.
const maxReplyChars = 200_000

// stageWriteTimeout bounds one stage write. Writes do not inherit the
// request's cancellation: a stage that completed is kept even when the
// client has gone.
const stageWriteTimeout = 10 * time.Second

// Pipeline runs fact-checks.
type Pipeline struct {
	deps Deps
	cfg  Config
	log  *slog.Logger
}

// New returns a Pipeline.
func New(deps Deps, cfg Config) *Pipeline {
	if deps.Logger == nil {
		deps.Logger = slog.Default()
	}
	if deps.Now == nil {
		deps.Now = time.Now
	}
	if deps.NewID == nil {
		deps.NewID = func() string { return uuid.NewString() }
	}
	return &Pipeline{deps: deps, cfg: cfg.withDefaults(), log: deps.Logger}
}

// StageError is a stage failure that ends the pipeline; Message is the
// seed's text for the error event.
type StageError struct {
	Stage   string
	Model   string
	Message string
	Err     error
}

func (e *StageError) Error() string {
	return fmt.Sprintf("%s stage (%s): %s: %v", e.Stage, e.Model, e.Message, e.Err)
}

func (e *StageError) Unwrap() error { return e.Err }

// Unavailable reports that the failure is the models', not the request's:
// the server answers 503.
func (e *StageError) Unavailable() bool { return true }

// BackendName names what failed for the client.
func (e *StageError) BackendName() string { return "the " + e.Stage + " stage (" + e.Model + ")" }

// Messages of the error event.
const (
	msgExtractFailed  = "Claim extraction failed. Cannot proceed with verification."
	msgAllCheckers    = "All verification checkers failed."
	msgGenerateFailed = "Content generation failed. Cannot proceed with fact-check."
	msgCanceled       = "The fact-check was canceled."
	msgSaveFailed     = "Saving the fact-check failed."
	msgFailed         = "The fact-check failed."
)

// run is one fact-check in progress.
type run struct {
	p        *Pipeline
	pl       plan
	emit     func(Event)
	deadline time.Time
	res      Result
	notes    []string
}

// Run fact-checks req, calling emit with each event of seed 001 section C in
// order, synchronously from the calling goroutine. It validates req first
// (an *evidence.InputError, before any event). A fatal failure emits the
// error event and returns a *StageError; cancelling ctx (a client that
// disconnects) stops the pipeline. Stages are stored as each completes.
func (p *Pipeline) Run(ctx context.Context, req Request, emit func(Event)) (Result, error) {
	pl, err := p.plan(req)
	if err != nil {
		return Result{}, err
	}
	if emit == nil {
		emit = func(Event) {}
	}
	r := &run{p: p, pl: pl, emit: emit, deadline: p.deps.Now().Add(p.cfg.GlobalTimeout)}
	// A backstop on real time: the global budget plus one stage.
	ctx, cancel := context.WithTimeout(ctx, p.cfg.GlobalTimeout+pl.stageTimeout)
	defer cancel()
	res, err := r.run(ctx)
	if err != nil {
		msg := msgFailed
		var se *StageError
		switch {
		case errors.As(err, &se):
			msg = se.Message
		case ctx.Err() != nil:
			msg = msgCanceled
		}
		emit(Event{EventError, ErrorPayload{Message: msg}})
		return Result{}, err
	}
	return res, nil
}

func (r *run) run(ctx context.Context) (Result, error) {
	p, pl := r.p, r.pl
	r.res = Result{
		ConversationID: or(pl.conversationID, p.deps.NewID()),
		MessageID:      p.deps.NewID(),
		Verification:   Verification{Checkers: []CheckerResult{}, Consensus: []ClaimConsensus{}},
	}
	start := StartConfig{ExtractorModel: pl.extractor, CheckerModels: pl.checkers, ReporterModel: pl.reporter, ContentSource: SourceUserProvided}
	if pl.content == "" {
		start.ContentSource, start.GeneratorModel = SourceGenerated, pl.generator
		if slices.Contains(pl.checkers, pl.generator) {
			start.BiasWarning = biasWarning
			r.notes = append(r.notes, biasWarning)
		}
	}
	r.emit(Event{EventStart, StartPayload{ConversationID: r.res.ConversationID, MessageID: r.res.MessageID, Config: start}})

	content, err := r.content(ctx)
	if err != nil {
		return Result{}, err
	}
	if r.expired() {
		return r.partial("extract", "verify", "report"), nil
	}
	claims, opinionHeavy, err := r.extract(ctx, content)
	if err != nil {
		return Result{}, err
	}
	if len(claims) == 0 {
		if err := r.reportNoClaims(ctx, opinionHeavy); err != nil {
			return Result{}, err
		}
		return r.finish(), nil
	}
	if r.expired() {
		return r.partial("verify", "report"), nil
	}
	if err := r.verify(ctx, content, claims); err != nil {
		return Result{}, err
	}
	if r.expired() {
		return r.partial("report"), nil
	}
	if err := r.report(ctx, content, opinionHeavy); err != nil {
		return Result{}, err
	}
	return r.finish(), nil
}

// expired reports that the global budget has passed.
func (r *run) expired() bool { return !r.p.deps.Now().Before(r.deadline) }

// partial ends a run that the global timeout cut short: the stages done so
// far are stored and returned, the rest are skipped.
func (r *run) partial(skipped ...string) Result {
	r.p.log.Warn("fact-check hit the global timeout", "message_id", r.res.MessageID, "skipped", skipped)
	r.res.Partial, r.res.Skipped = true, skipped
	r.res.Report.Notes = r.notes
	r.title()
	r.emit(Event{EventComplete, CompletePayload{Partial: true, SkippedStages: skipped}})
	return r.res
}

func (r *run) finish() Result {
	r.title()
	r.emit(Event{EventComplete, Empty{}})
	return r.res
}

// title is a new conversation's title: the question, cut to 80 characters
// at a word boundary.
func (r *run) title() {
	if !r.pl.newTitle {
		return
	}
	r.res.Title = makeTitle(r.pl.question)
	r.emit(Event{EventTitleComplete, TitlePayload{Title: r.res.Title}})
}

func makeTitle(q string) string {
	q = oneLine(q)
	const limit = 80
	if utf8.RuneCountInString(q) <= limit {
		return q
	}
	cut := truncateRunes(q, limit-1)
	if i := strings.LastIndexByte(cut, ' '); i > limit/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:") + "…"
}

// content returns the text to check: the user's, or the generator's answer
// (the question itself when the generator times out), truncated to
// maxContentLength.
func (r *run) content(ctx context.Context) (string, error) {
	p, pl := r.p, r.pl
	text := pl.content
	r.res.Content.Source = SourceUserProvided
	if text == "" {
		r.emit(Event{EventGenerateStart, Empty{}})
		prompt, err := prompts.FactCheckGenerate(pl.question)
		if err != nil {
			return "", err
		}
		t0 := p.deps.Now()
		reply, err := r.stage(ctx, func(sctx context.Context) (string, error) { return r.chat(sctx, pl.generator, prompt) })
		ms := p.deps.Now().Sub(t0).Milliseconds()
		fallback := false
		switch {
		case errors.Is(err, errStageTimeout):
			p.log.Warn("generator timed out; checking the question instead", "model", pl.generator, "timeout", pl.stageTimeout)
			reply, fallback = pl.question, true
			r.notes = append(r.notes, noteGenFallback)
		case err != nil:
			return "", &StageError{Stage: stageGenerate, Model: pl.generator, Message: msgGenerateFailed, Err: err}
		}
		text = strings.TrimSpace(reply)
		if text == "" {
			text, fallback = pl.question, true
		}
		r.res.Content = Content{Source: SourceGenerated, Model: pl.generator, ResponseTimeMs: &ms}
		data := generateData{ContentSource: SourceGenerated, InputQuestion: pl.question, ContentLength: utf8.RuneCountInString(text),
			WordCount: len(strings.Fields(text)), Fallback: fallback}
		if err := r.put(ctx, stageGenerate, orderGenerate, pl.generator, "generator", text, data, ms); err != nil {
			return "", err
		}
		r.emit(Event{EventGenerateComplete, GenerateCompletePayload{Model: pl.generator, Content: text, ResponseTimeMs: ms}})
	}
	if utf8.RuneCountInString(text) > pl.maxContent {
		text = truncateRunes(text, pl.maxContent)
		r.res.Content.Truncated = true
		r.res.Content.Note = truncationNote(pl.maxContent)
		r.notes = append(r.notes, r.res.Content.Note)
	}
	r.res.Content.Text = text
	return text, nil
}

// extract runs the extractor, deduplicates and bounds the claims, stores the
// extract stage and reports whether the content is mostly opinion.
func (r *run) extract(ctx context.Context, content string) ([]ExtractedClaim, bool, error) {
	p, pl := r.p, r.pl
	r.emit(Event{EventExtractStart, Empty{}})
	t0 := p.deps.Now()
	var claims []ExtractedClaim
	var stats *extractStats // the built-in extractor's, when it ran
	raw, err := r.stage(ctx, func(sctx context.Context) (string, error) {
		if pl.extractor == BuiltinExtractor {
			cs, st := builtinExtract(content, p.deps.Now())
			stats = &st
			return formatClaims(cs), nil
		}
		prompt, err := prompts.FactCheckExtract(content)
		if err != nil {
			return "", err
		}
		return r.chat(sctx, pl.extractor, prompt)
	})
	ms := p.deps.Now().Sub(t0).Milliseconds()
	if err != nil {
		return nil, false, &StageError{Stage: stageExtract, Model: pl.extractor, Message: msgExtractFailed, Err: err}
	}
	claims = resolveClaims(content, dedupeClaims(parseClaims(raw)))
	if len(claims) > p.cfg.MaxClaims {
		r.notes = append(r.notes, fmt.Sprintf("Only the first %d of %d claims were verified.", p.cfg.MaxClaims, len(claims)))
		claims = claims[:p.cfg.MaxClaims]
	}
	if stats == nil {
		_, st := builtinExtract(content, p.deps.Now())
		stats = &st
	}
	opinionHeavy := isOpinionHeavy(*stats, len(claims))
	breakdown := typeBreakdown(claims)
	r.res.Extraction = Extraction{Model: pl.extractor, Claims: claims, TypeBreakdown: breakdown, ResponseTimeMs: ms}
	data := extractData{Claims: claims, TotalClaims: len(claims), TypeBreakdown: breakdown, ContentSource: r.res.Content.Source,
		ContentText: content, Truncated: r.res.Content.Truncated, Note: r.res.Content.Note}
	if err := r.put(ctx, stageExtract, orderExtract, pl.extractor, "extractor", raw, data, ms); err != nil {
		return nil, false, err
	}
	briefs := make([]ClaimBrief, len(claims))
	for i, c := range claims {
		briefs[i] = ClaimBrief{ID: c.ID, Claim: c.Claim, Original: c.Original, Type: c.Type}
	}
	r.emit(Event{EventExtractComplete, ExtractCompletePayload{Model: pl.extractor, Claims: briefs, TotalClaims: len(claims),
		TypeBreakdown: breakdown, ResponseTimeMs: ms}})
	return claims, opinionHeavy, nil
}

// isOpinionHeavy judges the content by the built-in rules, whichever
// extractor ran: it is mostly opinion when more of its sentences are
// opinions, hedges, questions, predictions or definitions than are
// check-worthy, and the extractor found fewer claims than that.
func isOpinionHeavy(st extractStats, claims int) bool {
	return st.nonFactual > st.factual && claims < st.nonFactual
}

// verify runs the checkers in parallel (at most MaxParallelCheckers at
// once) under one stage timeout. Each result is stored and emitted as it
// arrives, so a slow checker does not hold back a fast one's event. A
// failed checker is left out; with none left the pipeline fails.
func (r *run) verify(ctx context.Context, content string, claims []ExtractedClaim) error {
	p, pl := r.p, r.pl
	r.emit(Event{EventVerifyStart, VerifyStartPayload{CheckerCount: len(pl.checkers), ClaimCount: len(claims)}})
	ids := make([]string, len(claims))
	pc := make([]prompts.FactCheckClaim, len(claims))
	for i, c := range claims {
		ids[i] = c.ID
		pc[i] = prompts.FactCheckClaim{ID: c.ID, Claim: c.Claim, Context: c.Context, Type: c.Type}
	}
	prompt, err := prompts.FactCheckVerify(content, pc)
	if err != nil {
		return err
	}

	// A checker's failure is recorded, not returned: it must not cancel
	// the others. Only a failed stage write fails the group, which then
	// cancels the checkers still running.
	vctx, cancel := context.WithTimeout(ctx, pl.stageTimeout)
	defer cancel()
	g, gctx := errgroup.WithContext(vctx)
	g.SetLimit(p.cfg.MaxParallelCheckers)
	results := make([]*CheckerResult, len(pl.checkers))
	var (
		mu     sync.Mutex // serialises failed, stage writes and events
		failed []CheckerFailure
	)
	for i, model := range pl.checkers {
		g.Go(func() error {
			var (
				raw string
				vs  []ClaimVerification
				ms  int64
			)
			err := gctx.Err()
			if err == nil {
				t0 := p.deps.Now()
				raw, vs, err = r.check(gctx, model, prompt, claims, ids)
				ms = p.deps.Now().Sub(t0).Milliseconds()
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				reason := "failed"
				if errors.Is(err, context.DeadlineExceeded) && vctx.Err() != nil && ctx.Err() == nil {
					reason = fmt.Sprintf("timed out after %s", pl.stageTimeout)
				}
				p.log.Warn("checker failed", "model", model, "index", i, "err", err)
				failed = append(failed, CheckerFailure{Model: model, Error: reason})
				return nil
			}
			if gctx.Err() != nil && vctx.Err() == nil {
				// Another checker's stage write failed: the run is over.
				return nil
			}
			cr := CheckerResult{Model: model, Verifications: vs, Summary: summarizeVerifications(vs), ResponseTimeMs: ms}
			results[i] = &cr
			if err := r.put(ctx, fmt.Sprintf("%s%d", stageVerify, i), orderVerify+i, model, "checker", raw,
				verifyData{Verifications: vs, Summary: cr.Summary}, ms); err != nil {
				return err
			}
			briefs := make([]VerdictBrief, len(vs))
			for j, v := range vs {
				briefs[j] = VerdictBrief{ClaimID: v.ClaimID, Verdict: v.Verdict, Confidence: v.Confidence}
			}
			r.emit(Event{EventCheckerComplete, CheckerCompletePayload{Model: model, Verifications: briefs, Summary: cr.Summary, ResponseTimeMs: ms}})
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("verify claims: %w", err)
	}
	all := [][]ClaimVerification{}
	for _, cr := range results {
		if cr != nil {
			r.res.Verification.Checkers = append(r.res.Verification.Checkers, *cr)
			all = append(all, cr.Verifications)
		}
	}
	// Failures are listed in checker order, whatever order they came in.
	slices.SortStableFunc(failed, func(a, b CheckerFailure) int {
		return slices.Index(pl.checkers, a.Model) - slices.Index(pl.checkers, b.Model)
	})
	r.res.Verification.Failed = failed
	if len(all) == 0 {
		return &StageError{Stage: "verify", Model: strings.Join(pl.checkers, ", "), Message: msgAllCheckers, Err: errors.New("no checker completed")}
	}
	if len(failed) > 0 {
		r.notes = append(r.notes, fmt.Sprintf("Only %d of %d checkers completed; the consensus rests on fewer checkers.", len(all), len(pl.checkers)))
	}
	r.res.Verification.Consensus = calculateConsensus(claims, all)
	briefs := make([]ConsensusBrief, len(r.res.Verification.Consensus))
	for i, c := range r.res.Verification.Consensus {
		briefs[i] = ConsensusBrief{ClaimID: c.ClaimID, Claim: c.Claim, Original: c.Original, ConsensusVerdict: c.ConsensusVerdict, AgreementRate: c.AgreementRate, Correction: c.Correction}
	}
	r.emit(Event{EventAllCheckers, AllCheckersPayload{Consensus: briefs, FailedCheckers: failed}})
	return nil
}

// check runs one checker and recovers its panic, so that no panic in a
// checker goroutine takes the process down.
func (r *run) check(ctx context.Context, model, prompt string, claims []ExtractedClaim, ids []string) (raw string, vs []ClaimVerification, err error) {
	defer func() {
		if v := recover(); v != nil {
			r.p.log.Error("checker panicked", "model", model, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			err = fmt.Errorf("checker %s panicked: %v", model, v)
		}
	}()
	if model == BuiltinEvidence {
		vs, err := evidenceCheck(ctx, r.p.deps.Verifier, claims, r.p.cfg.EvidenceParallelism)
		if err != nil {
			return "", nil, err
		}
		return formatVerifications(vs), vs, nil
	}
	raw, err = r.chat(ctx, model, prompt)
	if err != nil {
		return "", nil, err
	}
	return raw, parseVerifications(raw, model, ids), nil
}

// report writes the report: the reporter model's, or the template report
// when the reporter is built in or fails.
func (r *run) report(ctx context.Context, content string, opinionHeavy bool) error {
	p, pl := r.p, r.pl
	r.emit(Event{EventReportStart, Empty{}})
	cs := r.res.Verification.Consensus
	s := summarize(cs)
	notes := slices.Concat(r.notes, consensusNotes(cs, s, opinionHeavy))
	checkers := make([]string, len(r.res.Verification.Checkers))
	for i, c := range r.res.Verification.Checkers {
		checkers[i] = c.Model
	}
	t0 := p.deps.Now()
	score := reliabilityScore(s)
	model, text, fallback := pl.reporter, "", false
	if pl.reporter != BuiltinReporter {
		var err error
		text, err = r.stage(ctx, func(sctx context.Context) (string, error) {
			prompt, err := prompts.FactCheckReport(reportPrompt(content, cs, s, r.res.Extraction.Model, checkers, pl.reporter))
			if err != nil {
				return "", err
			}
			return r.chat(sctx, pl.reporter, prompt)
		})
		switch {
		case ctx.Err() != nil:
			return fmt.Errorf("report: %w", ctx.Err())
		case err != nil || strings.TrimSpace(text) == "":
			p.log.Warn("reporter failed; writing the template report", "model", pl.reporter, "err", err)
			model, fallback = BuiltinReporter, true
			notes = append(notes, noteReporterFail)
		default:
			if n, ok := parseScore(text); ok {
				score = &n
			} else {
				notes = append(notes, noteNoScore)
			}
			if len(notes) > 0 {
				text = strings.TrimRight(text, "\n") + "\n\n## Notes\n- " + strings.Join(notes, "\n- ") + "\n"
			}
		}
	}
	if pl.reporter == BuiltinReporter || fallback {
		text = templateReport(reportInput{content: content, consensus: cs, summary: s, score: score, extractor: r.res.Extraction.Model,
			checkers: checkers, failed: r.res.Verification.Failed, reporter: BuiltinReporter, notes: notes})
	}
	ms := p.deps.Now().Sub(t0).Milliseconds()
	r.res.Report = Report{Model: model, ReliabilityScore: score, ReportText: text, Summary: s, ResponseTimeMs: ms, Fallback: fallback, Notes: notes}
	data := reportData{ReliabilityScore: score, Verified: s.Verified, Disputed: s.Disputed, Unverifiable: s.Unverifiable,
		TotalClaims: len(cs), CheckerCount: len(checkers), AverageAgreementRate: averageAgreement(cs), Fallback: fallback,
		FailedCheckers: r.res.Verification.Failed, Notes: notes, Title: r.titleText()}
	if fallback {
		data.RequestedModel = pl.reporter
	}
	if err := r.put(ctx, stageReport, orderReport, model, "reporter", text, data, ms); err != nil {
		return err
	}
	r.emit(Event{EventReportComplete, ReportCompletePayload{Model: model, ReliabilityScore: score, ResponseTimeMs: ms,
		Summary: ReportSummary{Verified: s.Verified, Disputed: s.Disputed, Unverifiable: s.Unverifiable, Note: strings.Join(notes, " ")}}})
	return nil
}

// reportNoClaims is seed 001's path for content without verifiable claims:
// no verification, a report with a null score and the note.
func (r *run) reportNoClaims(ctx context.Context, opinionHeavy bool) error {
	r.emit(Event{EventReportStart, Empty{}})
	notes := slices.Concat(r.notes, consensusNotes(nil, Summary{}, opinionHeavy))
	text := templateReport(reportInput{content: r.res.Content.Text, extractor: r.res.Extraction.Model, reporter: BuiltinReporter, notes: notes})
	r.res.Report = Report{Model: BuiltinReporter, ReportText: text, Notes: notes}
	data := reportData{Notes: notes, Note: noteNoClaimsShort, Title: r.titleText()}
	if err := r.put(ctx, stageReport, orderReport, BuiltinReporter, "reporter", text, data, 0); err != nil {
		return err
	}
	r.emit(Event{EventReportComplete, ReportCompletePayload{Model: BuiltinReporter, Summary: ReportSummary{Note: noteNoClaimsShort}}})
	return nil
}

func (r *run) titleText() string {
	if !r.pl.newTitle {
		return ""
	}
	return makeTitle(r.pl.question)
}

func reportPrompt(content string, cs []ClaimConsensus, s Summary, extractor string, checkers []string, reporter string) prompts.FactCheckReportData {
	d := prompts.FactCheckReportData{
		Content: content, TotalClaims: len(cs), CheckerCount: len(checkers),
		Verified: s.Verified, Disputed: s.Disputed, Unverifiable: s.Unverifiable,
		ExtractorModel: extractor, CheckerModels: checkers, ReporterModel: reporter,
	}
	for _, c := range cs {
		pc := prompts.FactCheckConsensus{ClaimID: c.ClaimID, Claim: c.Claim, Type: c.Type, ConsensusVerdict: c.ConsensusVerdict, AgreementRate: c.AgreementRate}
		if c.Correction != nil {
			pc.Correction = *c.Correction
		}
		for _, v := range c.Verdicts {
			pc.Verdicts = append(pc.Verdicts, prompts.FactCheckVerdict{CheckerModel: v.CheckerModel, Verdict: v.Verdict, Confidence: v.Confidence, Evidence: oneLine(v.Evidence)})
		}
		d.Consensus = append(d.Consensus, pc)
	}
	return d
}

// errStageTimeout marks a stage that ran out of its own time.
var errStageTimeout = errors.New("stage timed out")

// stage runs fn under the per-stage timeout. A stage that runs out of its
// own time (not the caller's) returns an error wrapping errStageTimeout.
func (r *run) stage(ctx context.Context, fn func(context.Context) (string, error)) (string, error) {
	sctx, cancel := context.WithTimeout(ctx, r.pl.stageTimeout)
	defer cancel()
	out, err := fn(sctx)
	if err != nil && sctx.Err() != nil && ctx.Err() == nil {
		return "", fmt.Errorf("%w after %s: %w", errStageTimeout, r.pl.stageTimeout, err)
	}
	return out, err
}

// chat asks model for one reply to prompt. The prompt carries the untrusted
// content as data; the reply is only ever parsed, never followed.
func (r *run) chat(ctx context.Context, model, prompt string) (string, error) {
	resp, err := r.p.deps.Chat.Chat(ctx, llm.ChatRequest{
		Model:     model,
		Messages:  []llm.Message{{Role: "user", Content: prompt}},
		MaxTokens: r.p.cfg.MaxTokens,
	})
	if err != nil {
		return "", fmt.Errorf("model %s: %w", model, err)
	}
	return truncateRunes(resp.Content, maxReplyChars), nil
}

// put stores one stage. The write does not inherit ctx's cancellation, so
// that a completed stage survives a client that disconnects.
func (r *run) put(ctx context.Context, typ string, order int, model, role, content string, parsed any, ms int64) error {
	if r.p.deps.Stages == nil {
		return nil
	}
	data, err := json.Marshal(parsed)
	if err != nil {
		return fmt.Errorf("encode %s stage: %w", typ, err)
	}
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), stageWriteTimeout)
	defer cancel()
	err = r.p.deps.Stages.PutStage(wctx, corpus.Stage{
		ID: r.p.deps.NewID(), MessageID: r.res.MessageID, ConversationID: r.res.ConversationID,
		StageType: typ, StageOrder: order, Model: model, Role: role, Content: content,
		ParsedData: data, ResponseTimeMS: ms, CreatedAt: r.p.deps.Now(),
	})
	if err != nil {
		return &StageError{Stage: typ, Model: "stage store", Message: msgSaveFailed, Err: err}
	}
	return nil
}
