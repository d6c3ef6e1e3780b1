package factcheck

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/verity-fc/verity/claim"
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/verify"
)

// Verifier is the evidence layer (verify.Service): it verifies one claim
// against the corpus.
type Verifier interface {
	Verify(ctx context.Context, req verify.Request) (evidence.Result, error)
}

// The evidence checker ("verity/evidence") verifies each claim with the
// evidence layer and maps its verdicts onto the seed's:
//
//	Supported          -> VERIFIED      HIGH when the score is >= 85, else MEDIUM
//	Refuted            -> DISPUTED      HIGH when c_max >= 0.90, else MEDIUM
//	Contested          -> DISPUTED      LOW: sources disagree, so the claim is
//	                                    treated conservatively, as the seed
//	                                    breaks a VERIFIED/DISPUTED tie
//	Not enough evidence-> UNVERIFIABLE  LOW
//
// The evidence is the evidence layer's score and features with the cited
// passages; a DISPUTED verdict's correction quotes the passage that most
// contradicts the claim.
const (
	supportedHighScore = 85
	refutedHighCMax    = 0.90
	// snippetChars bounds quoted passages in evidence and corrections.
	snippetChars = 300
	// correctionChars bounds the quote of a correction: a sentence or two.
	correctionChars = 240
)

// evidenceCheck verifies every claim, at most parallel at once. A claim the
// evidence layer rejects as input (too long, say) is UNVERIFIABLE; any other
// error fails the checker.
func evidenceCheck(ctx context.Context, v Verifier, claims []ExtractedClaim, parallel int) ([]ClaimVerification, error) {
	out := make([]ClaimVerification, len(claims))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(parallel)
	for i, c := range claims {
		g.Go(func() error {
			res, err := v.Verify(gctx, verify.Request{Claim: c.Claim})
			var (
				ie *evidence.InputError
				nc *claim.NotCheckable
			)
			switch {
			case errors.As(err, &ie):
				out[i] = ClaimVerification{ClaimID: c.ID, Verdict: Unverifiable, Confidence: Low, CheckerModel: BuiltinEvidence,
					Evidence: "The evidence layer could not check this claim: " + ie.Error()}
				return nil
			case errors.As(err, &nc):
				out[i] = ClaimVerification{ClaimID: c.ID, Verdict: Unverifiable, Confidence: Low, CheckerModel: BuiltinEvidence,
					Evidence: "Not a checkable claim (" + nc.Reason + "): " + nc.Error()}
				return nil
			case err != nil:
				return fmt.Errorf("verify %s: %w", c.ID, err)
			}
			out[i] = fromEvidence(c.ID, res)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// fromEvidence maps an evidence-layer result onto a verification.
func fromEvidence(claimID string, res evidence.Result) ClaimVerification {
	v := ClaimVerification{ClaimID: claimID, CheckerModel: BuiltinEvidence, Citations: []Citation{}}
	switch res.Verdict {
	case evidence.Supported:
		v.Verdict, v.Confidence = Verified, Medium
		if res.Score >= supportedHighScore {
			v.Confidence = High
		}
	case evidence.Refuted:
		v.Verdict, v.Confidence = Disputed, Medium
		if res.Features.CMax >= refutedHighCMax {
			v.Confidence = High
		}
	case evidence.Contested:
		v.Verdict, v.Confidence = Disputed, Low
	default:
		v.Verdict, v.Confidence = Unverifiable, Low
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Evidence layer: %s, score %d/100 (strongest entailment %.2f, strongest contradiction %.2f, %d agreeing sources).",
		res.Verdict, res.Score, res.Features.EMax, res.Features.CMax, res.Features.AgreeDom)
	if res.Reason.Text != "" {
		fmt.Fprintf(&b, " Why (%s): %s", res.Reason.Code, res.Reason.Text)
	}
	if len(res.Passages) == 0 && len(res.Citations) == 0 {
		b.WriteString(" No passage in the corpus speaks to this claim.")
	}
	for _, c := range res.Citations {
		v.Citations = append(v.Citations, Citation{URL: c.URL, Title: c.Title, Domain: c.Domain, PublishedAt: c.PublishedAt,
			Snippet: c.Snippet, SourceID: c.SourceID})
		fmt.Fprintf(&b, " Source: %s: \"%s\"", citationName(c), oneLine(truncateRunes(c.Snippet, snippetChars)))
	}
	if v.Verdict == Disputed {
		if p, ok := mostContradicting(res.Passages); ok {
			// The correction quotes the sentences about the claim, not the
			// whole passage, and links its source.
			quote, _ := verify.About(res.Claim, p.Text)
			corr := fmt.Sprintf("According to %s: \"%s\"", passageName(p), oneLine(truncateRunes(quote, correctionChars)))
			if p.URL != "" {
				corr += " " + p.URL
			}
			v.Correction = &corr
		}
	}
	v.Evidence = b.String()
	return v
}

// mostContradicting returns the passage that contradicts the claim most
// among those that count toward the verdict (none set aside).
func mostContradicting(ps []evidence.Judged) (evidence.Judged, bool) {
	best, ok := evidence.Judged{}, false
	for _, p := range ps {
		if p.SetAside != "" {
			continue
		}
		if !ok || p.Contradict > best.Contradict {
			best, ok = p, true
		}
	}
	return best, ok
}

func citationName(c evidence.Citation) string {
	return describeSource(c.Title, c.Domain, c.URL, c.SourceID)
}

func passageName(p evidence.Judged) string {
	return describeSource(p.Title, p.Domain, p.URL, p.SourceID)
}

func describeSource(title, domain, url, sourceID string) string {
	switch {
	case title != "" && domain != "":
		return title + " (" + domain + ")"
	case title != "":
		return title
	case url != "":
		return url
	}
	return "source " + sourceID
}

// oneLine joins the lines of s, so that a quoted passage keeps the
// verification text format one field a line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// formatVerifications writes verifications in the verification prompt's text
// format, so that the evidence checker's stage row reads like a model's.
func formatVerifications(vs []ClaimVerification) string {
	var b strings.Builder
	for _, v := range vs {
		corr := "N/A"
		if v.Correction != nil {
			corr = *v.Correction
		}
		fmt.Fprintf(&b, "VERIFICATION %s: %s\nEvidence: %s\nCorrection: %s\nConfidence: %s\n\n", v.ClaimID, v.Verdict, v.Evidence, corr, v.Confidence)
	}
	s := summarizeVerifications(vs)
	fmt.Fprintf(&b, "VERIFICATION SUMMARY:\nVerified: %d\nDisputed: %d\nUnverifiable: %d", s.Verified, s.Disputed, s.Unverifiable)
	return b.String()
}
