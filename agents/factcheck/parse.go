package factcheck

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// maxFieldChars bounds each parsed text field (claim, context, evidence,
// correction), in characters, so that a runaway model answer cannot bloat
// the stored stages and events.
const maxFieldChars = 2000

// claimRe is the seed's parseClaims expression.
var claimRe = regexp.MustCompile(`(?i)CLAIM\s+(\d+):\s*(.+)\nContext:\s*(.+)\nType:\s*(STATISTIC|DATE|ATTRIBUTION|TECHNICAL|COMPARISON|CAUSAL)`)

// claimHeadRe starts a block for the fallback parse: "CLAIM 3:", "Claim #3.",
// "**CLAIM 3**:".
var claimHeadRe = regexp.MustCompile(`(?i)\bCLAIM\s*#?\s*\d+\s*[:.)]`)

// fieldRe finds "Context:" and "Type:" lines in a fallback block.
var (
	contextRe = regexp.MustCompile(`(?im)^\s*Context\s*:\s*(.+)$`)
	typeRe    = regexp.MustCompile(`(?im)^\s*Type\s*:\s*\[?\s*([A-Za-z]+)`)
)

// parseClaims is seed 001's parseClaims: the seed's expression first; when it
// matches nothing, the fallback splits the text at each "CLAIM n" heading and
// reads each block's first line as the claim and its Context and Type lines
// when present (context defaults to the claim, an unknown type to
// TECHNICAL). IDs are claim_1, claim_2, ... in order of appearance, whatever
// numbers the model wrote.
func parseClaims(text string) []ExtractedClaim {
	text = normalizeModelText(text)
	var out []ExtractedClaim
	for _, m := range claimRe.FindAllStringSubmatch(text, -1) {
		out = appendClaim(out, m[2], m[3], strings.ToUpper(m[4]))
	}
	if len(out) > 0 {
		return out
	}
	heads := claimHeadRe.FindAllStringIndex(text, -1)
	for i, h := range heads {
		end := len(text)
		if i+1 < len(heads) {
			end = heads[i+1][0]
		}
		block := text[h[1]:end]
		if j := strings.Index(strings.ToUpper(block), "EXTRACTION SUMMARY"); j >= 0 {
			block = block[:j]
		}
		first, _, _ := strings.Cut(strings.TrimSpace(block), "\n")
		if contextRe.MatchString(first) || typeRe.MatchString(first) {
			continue
		}
		ctx := first
		if m := contextRe.FindStringSubmatch(block); m != nil {
			ctx = m[1]
		}
		typ := "TECHNICAL"
		if m := typeRe.FindStringSubmatch(block); m != nil && slices.Contains(ClaimTypes, strings.ToUpper(m[1])) {
			typ = strings.ToUpper(m[1])
		}
		out = appendClaim(out, first, ctx, typ)
	}
	return out
}

func appendClaim(out []ExtractedClaim, claim, ctx, typ string) []ExtractedClaim {
	claim = clip(strings.TrimSpace(claim))
	if claim == "" {
		return out
	}
	return append(out, ExtractedClaim{
		ID:      fmt.Sprintf("claim_%d", len(out)+1),
		Claim:   claim,
		Context: clip(strings.TrimSpace(ctx)),
		Type:    typ,
	})
}

// dedupeClaims drops claims whose text repeats an earlier claim exactly and
// renumbers the rest claim_1..n, as seed 001 asks before verification.
// Similar but not identical claims both stay.
func dedupeClaims(claims []ExtractedClaim) []ExtractedClaim {
	seen := map[string]bool{}
	out := make([]ExtractedClaim, 0, len(claims))
	for _, c := range claims {
		if seen[c.Claim] {
			continue
		}
		seen[c.Claim] = true
		c.ID = fmt.Sprintf("claim_%d", len(out)+1)
		out = append(out, c)
	}
	return out
}

// verificationRe is the seed's parseVerifications expression, widened in
// the claim id to match "best-effort by claim number" (seed 001 section F):
// "claim_3", "Claim 3", "claim #3" and a bare "3" all name claim_3.
var verificationRe = regexp.MustCompile(`(?i)VERIFICATION\s+((?:claim[_\s#-]*)?\d+)\s*:\s*(VERIFIED|DISPUTED|UNVERIFIABLE)\nEvidence:\s*([\s\S]*?)\nCorrection:\s*([\s\S]*?)\nConfidence:\s*(HIGH|MEDIUM|LOW)`)

var digitsRe = regexp.MustCompile(`\d+`)

// missingEvidence is the seed's evidence for a claim the checker skipped.
const missingEvidence = "Checker did not address this claim"

// parseVerifications is seed 001's parseVerifications: one verification per
// expected claim id, in that order. A verdict whose claim number matches no
// expected id is dropped; the first verdict for a claim wins; a claim with
// no verdict is UNVERIFIABLE with the evidence "Checker did not address this
// claim" and LOW confidence. A correction is kept only on a DISPUTED verdict
// and "N/A", "none" or "-" mean none.
func parseVerifications(text, model string, expectedClaimIDs []string) []ClaimVerification {
	text = normalizeModelText(text)
	found := map[string]ClaimVerification{}
	for _, m := range verificationRe.FindAllStringSubmatch(text, -1) {
		n, err := strconv.Atoi(digitsRe.FindString(m[1]))
		if err != nil {
			continue
		}
		id := fmt.Sprintf("claim_%d", n)
		if _, dup := found[id]; dup || !slices.Contains(expectedClaimIDs, id) {
			continue
		}
		v := ClaimVerification{
			ClaimID:      id,
			Verdict:      strings.ToUpper(m[2]),
			Evidence:     clip(strings.TrimSpace(m[3])),
			Confidence:   strings.ToUpper(m[5]),
			CheckerModel: model,
		}
		if corr := clip(strings.TrimSpace(m[4])); v.Verdict == Disputed && !noCorrection(corr) {
			v.Correction = &corr
		}
		found[id] = v
	}
	out := make([]ClaimVerification, 0, len(expectedClaimIDs))
	for _, id := range expectedClaimIDs {
		v, ok := found[id]
		if !ok {
			v = ClaimVerification{ClaimID: id, Verdict: Unverifiable, Evidence: missingEvidence, Confidence: Low, CheckerModel: model}
		}
		out = append(out, v)
	}
	return out
}

func noCorrection(s string) bool {
	switch strings.ToUpper(strings.Trim(s, `"'. `)) {
	case "", "N/A", "NA", "NONE", "-", "—":
		return true
	}
	return false
}

// normalizeModelText makes line ends "\n" and drops Markdown bold markers,
// which models add around "CLAIM 1:" and "VERIFICATION claim_1:" although
// the prompts do not ask for them.
func normalizeModelText(s string) string {
	return strings.NewReplacer("\r\n", "\n", "\r", "\n", "**", "").Replace(s)
}

// clip cuts s to maxFieldChars characters.
func clip(s string) string {
	return truncateRunes(s, maxFieldChars)
}

// truncateRunes returns the first n characters of s.
func truncateRunes(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}
