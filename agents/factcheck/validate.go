package factcheck

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/verity-fc/verity/evidence"
)

// Limits of seed 001's request schema (section D, Zod), and the bounds
// verity adds on free text.
const (
	MinContentLength     = 500
	MaxContentLength     = 50_000
	DefaultContentLength = 20_000
	MinTimeoutMs         = 30_000
	MaxTimeoutMs         = 180_000
	DefaultTimeoutMs     = 120_000
	MaxCheckers          = 4
	// MaxQuestionChars bounds the question, in characters.
	MaxQuestionChars = 50_000
	// MaxModelNameChars bounds a model name, in characters.
	MaxModelNameChars = 200
	// MaxIDChars bounds conversationId and messageId, in characters.
	MaxIDChars = 200
)

// msgNeitherContentNorGenerator is the seed's exact refine message.
const msgNeitherContentNorGenerator = "Either contentToCheck or generatorModel must be provided"

// plan is a validated request with the defaults applied.
type plan struct {
	question       string
	conversationID string
	content        string // "" when generating
	generator      string
	extractor      string
	checkers       []string
	reporter       string
	maxContent     int
	stageTimeout   time.Duration
	newTitle       bool
}

// Validate checks req as seed 001's schema does and returns an
// *evidence.InputError naming the first bad field, e.g.
// "modeConfig.checkerModels". It also rejects models the pipeline cannot
// run: a "verity/" name that is no built-in role for its place, a model name
// when no model backend is configured, and the evidence checker without the
// evidence layer.
func (p *Pipeline) Validate(req Request) error {
	_, err := p.plan(req)
	return err
}

func (p *Pipeline) plan(req Request) (plan, error) {
	q := strings.TrimSpace(req.Question)
	switch n := utf8.RuneCountInString(q); {
	case n == 0:
		return plan{}, evidence.Invalid("question", "Question or content description is required")
	case n > MaxQuestionChars:
		return plan{}, evidence.Invalid("question", "is %d characters; the limit is %d", n, MaxQuestionChars)
	}
	if req.Mode != "fact_check" {
		return plan{}, evidence.Invalid("mode", `must be "fact_check", got %q`, req.Mode)
	}
	if n := utf8.RuneCountInString(req.ConversationID); n > MaxIDChars {
		return plan{}, evidence.Invalid("conversationId", "is %d characters; the limit is %d", n, MaxIDChars)
	}
	// Zod lets modeConfig be absent, but then there is nothing to check and
	// nothing to generate it with: the same rule rejects it.
	mc := req.ModeConfig
	if mc == nil {
		return plan{}, evidence.Invalid("modeConfig", msgNeitherContentNorGenerator)
	}
	pl := plan{
		question:       q,
		conversationID: req.ConversationID,
		newTitle:       req.ConversationID == "",
		content:        mc.ContentToCheck,
		generator:      mc.GeneratorModel,
		extractor:      or(mc.ExtractorModel, p.cfg.ExtractorModel),
		reporter:       or(mc.ReporterModel, p.cfg.ReporterModel),
		checkers:       p.cfg.CheckerModels,
		maxContent:     p.cfg.MaxContentLength,
		stageTimeout:   p.cfg.StageTimeout,
	}
	if mc.CheckerModels != nil {
		if n := len(mc.CheckerModels); n < 1 || n > MaxCheckers {
			return plan{}, evidence.Invalid("modeConfig.checkerModels", "must hold 1 to %d models, got %d", MaxCheckers, n)
		}
		pl.checkers = mc.CheckerModels
	}
	if n := mc.MaxContentLength; n != nil {
		if *n < MinContentLength || *n > MaxContentLength {
			return plan{}, evidence.Invalid("modeConfig.maxContentLength", "must be between %d and %d, got %d", MinContentLength, MaxContentLength, *n)
		}
		pl.maxContent = *n
	}
	if n := mc.TimeoutMs; n != nil {
		if *n < MinTimeoutMs || *n > MaxTimeoutMs {
			return plan{}, evidence.Invalid("modeConfig.timeoutMs", "must be between %d and %d, got %d", MinTimeoutMs, MaxTimeoutMs, *n)
		}
		pl.stageTimeout = time.Duration(*n) * time.Millisecond
	}
	if strings.TrimSpace(pl.content) == "" {
		pl.content = ""
		if pl.generator == "" {
			return plan{}, evidence.Invalid("modeConfig", msgNeitherContentNorGenerator)
		}
		if err := p.checkModel("modeConfig.generatorModel", pl.generator, ""); err != nil {
			return plan{}, err
		}
	} else {
		pl.generator = ""
	}
	if err := p.checkModel("modeConfig.extractorModel", pl.extractor, BuiltinExtractor); err != nil {
		return plan{}, err
	}
	for i, m := range pl.checkers {
		if err := p.checkModel(fmt.Sprintf("modeConfig.checkerModels[%d]", i), m, BuiltinEvidence); err != nil {
			return plan{}, err
		}
	}
	if err := p.checkModel("modeConfig.reporterModel", pl.reporter, BuiltinReporter); err != nil {
		return plan{}, err
	}
	pl.checkers = append([]string(nil), pl.checkers...)
	return pl, nil
}

// checkModel checks that the pipeline can run model in a place whose
// built-in role is builtin ("" when there is none).
func (p *Pipeline) checkModel(field, model, builtin string) error {
	switch n := utf8.RuneCountInString(model); {
	case strings.TrimSpace(model) == "":
		return evidence.Invalid(field, "must name a model")
	case n > MaxModelNameChars:
		return evidence.Invalid(field, "is %d characters; the limit is %d", n, MaxModelNameChars)
	}
	if strings.HasPrefix(model, builtinPrefix) {
		switch {
		case builtin == "":
			return evidence.Invalid(field, "%q is not a model: there is no built-in role for this place", model)
		case model != builtin:
			return evidence.Invalid(field, "%q is not a built-in role for this place; the built-in is %q", model, builtin)
		case model == BuiltinEvidence && p.deps.Verifier == nil:
			return evidence.Invalid(field, "%q needs the evidence layer, which is not configured", model)
		}
		return nil
	}
	if p.deps.Chat == nil {
		if builtin == "" {
			return evidence.Invalid(field, "%q needs a model backend and none is configured; provide contentToCheck instead", model)
		}
		return evidence.Invalid(field, "%q needs a model backend and none is configured; use %q or configure one", model, builtin)
	}
	return nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
