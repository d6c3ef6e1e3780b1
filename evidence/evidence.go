// Package evidence defines the domain types every verity package speaks:
// sources and their passages, NLI judgments, the scoring features, verdicts
// and citations. It depends on the standard library only.
package evidence

import (
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Source is one ingested document: a web page, a file or a JSONL record.
type Source struct {
	ID          string    `json:"id"`
	URL         string    `json:"url,omitempty"`
	Domain      string    `json:"domain,omitempty"`
	Title       string    `json:"title,omitempty"`
	PublishedAt time.Time `json:"published_at,omitzero"`
	// Reliability is the source's trust score in [0,1].
	Reliability float64 `json:"reliability"`
	// ContentHash is the hex SHA-256 of the extracted text; re-ingesting a
	// source with the same hash is a no-op.
	ContentHash string    `json:"content_hash,omitempty"`
	IngestedAt  time.Time `json:"ingested_at,omitzero"`
	Passages    int       `json:"passages"`
}

// Origin is what agree_dom counts: the source's domain, or for a source with
// no domain (a file, a JSONL record) the source itself.
func (s Source) Origin() string { return Origin(s.Domain, s.ID) }

// Origin returns domain when it is set and "source:"+sourceID otherwise.
func Origin(domain, sourceID string) string {
	if domain != "" {
		return strings.ToLower(domain)
	}
	return "source:" + sourceID
}

// Passage is a chunk of a source's text, the unit that is retrieved and
// judged. Source metadata is denormalised onto it so that a retrieved passage
// carries everything a citation needs.
type Passage struct {
	ID          string    `json:"id"`
	SourceID    string    `json:"source_id"`
	Ordinal     int       `json:"ordinal"`
	Text        string    `json:"text"`
	URL         string    `json:"url,omitempty"`
	Domain      string    `json:"domain,omitempty"`
	Title       string    `json:"title,omitempty"`
	PublishedAt time.Time `json:"published_at,omitzero"`
	Reliability float64   `json:"reliability"`
}

// Origin is the passage's origin for domain agreement; see [Origin].
func (p Passage) Origin() string { return Origin(p.Domain, p.SourceID) }

// Judgment is an NLI judgment of one (claim, passage) pair. The three
// probabilities are in [0,1] and sum to 1.
type Judgment struct {
	Entail     float64 `json:"entail"`
	Contradict float64 `json:"contradict"`
	Neutral    float64 `json:"neutral"`
}

// NumCheck is the result of comparing the numbers, dates and units of a claim
// with those of a passage.
type NumCheck struct {
	// Applicable is false when the claim has no quantity the passage speaks
	// to; OK is then meaningless.
	Applicable bool `json:"applicable"`
	OK         bool `json:"ok"`
	// Mismatches lists claim quantities the passage gives differently.
	Mismatches []Mismatch `json:"mismatches,omitempty"`
}

// Mismatch is one claim quantity and the passage's different figure.
type Mismatch struct {
	Claim  string `json:"claim"`
	Source string `json:"source"`
}

// Judged is a retrieved passage with its scores.
type Judged struct {
	Passage
	Judgment
	// Relevance is the retrieval score (fused rank score), never truth.
	Relevance float64 `json:"relevance"`
	// Recency is the time-decay weight in [0,1]; 0.5 when the date is unknown.
	Recency float64  `json:"recency"`
	Num     NumCheck `json:"num"`
}

// Features are the seed-004 features computed on the re-ranked passages.
type Features struct {
	EMax     float64 `json:"e_max"`
	EMean3   float64 `json:"e_mean3"`
	CMax     float64 `json:"c_max"`
	AgreeDom int     `json:"agree_dom"`
	RelAvg   float64 `json:"rel_avg"`
	RecMax   float64 `json:"rec_max"`
	// NumOK is 1 when every applicable numeric/date check agrees, 0 when one
	// disagrees, and 0.5 when no check applies.
	NumOK float64 `json:"num_ok"`
}

// Verdict is the outcome of verifying a claim.
type Verdict string

const (
	Supported         Verdict = "Supported"
	Refuted           Verdict = "Refuted"
	Contested         Verdict = "Contested"
	NotEnoughEvidence Verdict = "Not enough evidence"
)

// Citation is a passage chosen to back a verdict.
type Citation struct {
	URL         string    `json:"url"`
	Title       string    `json:"title"`
	Domain      string    `json:"domain"`
	PublishedAt time.Time `json:"published_at,omitzero"`
	Snippet     string    `json:"snippet"`
	SourceID    string    `json:"source_id"`
}

// Result is the answer to a verify request.
type Result struct {
	Claim     string             `json:"claim"`
	Verdict   Verdict            `json:"verdict"`
	Score     int                `json:"score"`
	Citations []Citation         `json:"citations"`
	Features  Features           `json:"features"`
	Passages  []Judged           `json:"passages"`
	TimingsMS map[string]float64 `json:"timings_ms"`
}

// DomainOf returns the lower-case host of rawURL without a leading "www.",
// or "" when rawURL has no host.
func DomainOf(rawURL string) string {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || u.Host == "" {
		return ""
	}
	h := strings.ToLower(u.Hostname())
	return strings.TrimPrefix(h, "www.")
}

// InputError reports a request field that is missing, malformed or out of
// range. The HTTP layer answers it with 400 and the CLI exits non-zero with
// the same message.
type InputError struct {
	// Field names the offending field as the client spelled it, e.g.
	// "claim", "k", "modeConfig.checkerModels"; "body" for the request as a
	// whole.
	Field   string
	Message string
}

func (e *InputError) Error() string {
	if e.Field == "" {
		return e.Message
	}
	return e.Field + ": " + e.Message
}

// Invalid returns an *InputError for field.
func Invalid(field, format string, args ...any) *InputError {
	return &InputError{Field: field, Message: fmt.Sprintf(format, args...)}
}
