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
	// About is how far the passage speaks of the claim's subject and event,
	// in [0,1]: the weighted share of the claim's content words found in
	// its best window of one or two sentences (see package verify).
	About float64 `json:"about"`
	// SetAside says why the passage's judgment does not count, in full or
	// in part, toward the features; empty when it counts. See the
	// SetAside constants.
	SetAside string `json:"set_aside,omitempty"`
	// SupersededBy is the ID of the newer passage that supersedes this one
	// when SetAside is [SetAsideSuperseded].
	SupersededBy string `json:"superseded_by,omitempty"`
	// SameOriginAs is the origin of an earlier passage whose text this
	// passage nearly copies (syndication, a press release); agree_dom
	// counts the two as one origin. Empty when the passage is original.
	SameOriginAs string `json:"same_origin_as,omitempty"`
	// Conflict is set when a sentence of the passage states the claim's
	// event with another figure or another name in one of its roles; the
	// passage's judgment then counts as a contradiction (see package
	// verify).
	Conflict *Conflict `json:"conflict,omitempty"`
}

// Conflict is what a passage states differently from the claim in a
// sentence that is otherwise about the claim's subject and event.
type Conflict struct {
	// Kind is [ConflictFigure], [ConflictName] or [ConflictOpposite].
	Kind string `json:"kind"`
	// Claim is the claim's figure or name, Source the passage's.
	Claim  string `json:"claim"`
	Source string `json:"source"`
	// Sentence is the passage's sentence that states it.
	Sentence string `json:"sentence"`
}

// Kinds of [Conflict].
const (
	// ConflictFigure: the sentence holds every content word of the claim
	// and gives the claim's quantity or date another value.
	ConflictFigure = "figure"
	// ConflictName: the sentence holds every content word of the claim
	// but those of one name, and another name in its place, while
	// another name of the claim anchors the subject.
	ConflictName = "name"
	// ConflictOpposite: the sentence holds every content word of the claim
	// but one, and that word's antonym in its place ("fell" for "rose").
	ConflictOpposite = "opposite"
	// ConflictNegation: the sentence negates a word of an affirmative
	// claim ("is not an island"), or states every content word of a
	// negated claim without the negation.
	ConflictNegation = "negation"
)

// Why a judged passage is set aside. A passage not about the claim keeps
// its entailment but loses its contradiction; the others count not at all.
const (
	// SetAsideNotAbout: the passage is not about the claim's subject and
	// event, so it cannot contradict the claim.
	SetAsideNotAbout = "not_about_claim"
	// SetAsideUnrelated: the passage speaks of too little of the claim
	// to entail it either, so it counts on neither side.
	SetAsideUnrelated = "unrelated"
	// SetAsideSuperseded: a newer, credible passage supersedes this
	// time-dependent statement (a record, "so far", "currently", a latest
	// figure).
	SetAsideSuperseded = "superseded"
	// SetAsideBeforeClaimTime: the passage was published before the time
	// the claim names ("in 2023"), so it holds no evidence for that time.
	SetAsideBeforeClaimTime = "before_claim_time"
)

// CountingOrigin is the origin agree_dom counts the passage under: the
// origin of the passage it copies, or its own.
func (j Judged) CountingOrigin() string {
	if j.SameOriginAs != "" {
		return j.SameOriginAs
	}
	return j.Origin()
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

// Reason explains a verdict: a stable code and one sentence naming the
// passages and the rule that decided it.
type Reason struct {
	// Code is one of the Reason constants.
	Code string `json:"code"`
	Text string `json:"text"`
}

// Reason codes of a verify result. They are stable: clients may branch on
// them.
const (
	// ReasonSupported: enough independent origins entail the claim and no
	// passage about it contradicts it.
	ReasonSupported = "supported"
	// ReasonRefuted: a passage about the claim contradicts it strongly.
	ReasonRefuted = "refuted"
	// ReasonContested: passages entail the claim and others contradict it.
	ReasonContested = "contested"
	// ReasonSuperseded: older passages agree with the claim, but newer
	// credible ones contradict it and supersede them.
	ReasonSuperseded = "superseded"
	// ReasonSingleOrigin: the claim is entailed strongly, but by fewer
	// independent origins than the policy needs.
	ReasonSingleOrigin = "single_origin"
	// ReasonPartlyContradicted: the claim is entailed strongly, but a
	// passage contradicts it too much for Supported and too little for
	// Contested.
	ReasonPartlyContradicted = "partly_contradicted"
	// ReasonWeakEntailment: passages about the claim lean towards it, but
	// none entails it strongly enough.
	ReasonWeakEntailment = "weak_entailment"
	// ReasonWeakContradiction: passages about the claim lean against it,
	// but none contradicts it strongly enough.
	ReasonWeakContradiction = "weak_contradiction"
	// ReasonNoRelevantEvidence: no passage is about the claim.
	ReasonNoRelevantEvidence = "no_relevant_evidence"
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
	Reason    Reason             `json:"reason"`
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
