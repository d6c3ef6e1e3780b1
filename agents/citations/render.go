package citations

import (
	"fmt"
	"strings"
)

// RenderMarkdown renders a report for people: the summary, then critical
// issues, citation issues, unsourced claims, recommendations and the
// sources fetched. Text that came from the document or from fetched pages
// is escaped, so it cannot add links, images or markup of its own.
func RenderMarkdown(r Report) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	title := "Citation check"
	if r.AnalysisPath != "" {
		title += ": " + escape(r.AnalysisPath)
	}
	w("# %s\n\n", title)
	s := r.Summary
	score := "none (no claims)"
	if s.AccuracyScore != nil {
		score = fmt.Sprintf("**%.1f%%**", *s.AccuracyScore)
	}
	w("Checked %s. Accuracy %s: %d of %d claims verified, %d false, %d unverified. %d of %d citations valid.\n\n",
		r.Timestamp.Format("2006-01-02 15:04:05 MST"), score, s.VerifiedClaims, s.TotalClaims, s.FalseClaims,
		s.UnverifiedClaims, s.CitationsValid, s.CitationsChecked)
	for _, warning := range r.Warnings {
		w("> **Warning:** %s\n\n", escape(warning))
	}
	d := r.VerificationDetails
	w("Fetched %d of %d cited URLs; %d corpus searches for alternative sources; %.1f s.\n\n",
		d.WebfetchSuccessful, d.WebfetchAttempts, d.WebsearchFallbacks, d.ProcessingTimeSeconds)

	if len(r.CriticalIssues) > 0 {
		w("## Critical issues\n\n")
		for _, ci := range r.CriticalIssues {
			where := ci.Location
			if ci.CitationID != "" {
				where += ", " + ci.CitationID
			}
			w("- **%s** (%s): %s  \n  %s  \n  *Recommendation:* %s\n", escape(ci.Severity), escape(where),
				quote(ci.Claim), escape(ci.Issue), escape(ci.Recommendation))
		}
		w("\n")
	}
	if len(r.CitationIssues) > 0 {
		w("## Citation issues\n\n| Citation | Status | Severity | Location | Claim | Source says | Recommendation |\n|---|---|---|---|---|---|---|\n")
		for _, ci := range r.CitationIssues {
			w("| %s | %s | %s | %s | %s | %s | %s |\n", cell(ci.CitationID+" "+ci.URL), cell(ci.Status), cell(ci.Severity),
				cell(ci.Location), cell(ci.Claim), cell(ci.Actual), cell(ci.Recommendation))
		}
		w("\n")
	}
	if len(r.UnsourcedClaims) > 0 {
		w("## Unsourced claims\n\n| Severity | Location | Kind | Claim | Recommendation |\n|---|---|---|---|---|\n")
		for _, u := range r.UnsourcedClaims {
			w("| %s | %s | %s | %s | %s |\n", cell(u.Severity), cell(u.Location), cell(u.Kind), cell(u.Claim), cell(u.Recommendation))
		}
		w("\n")
	}
	if len(r.Recommendations) > 0 {
		w("## Recommendations\n\n")
		for _, rec := range r.Recommendations {
			w("- %s\n", escape(rec))
		}
		w("\n")
	}
	if len(r.Sources) > 0 {
		w("## Sources fetched\n\n| URL | Status | Fetched | SHA-256 of text |\n|---|---|---|---|\n")
		for _, src := range r.Sources {
			sum := src.ContentSHA256
			if len(sum) > 16 {
				sum = sum[:16] + "..."
			}
			w("| %s | %s | %s | %s |\n", cell(src.URL), cell(src.Status), src.FetchedAt.Format("2006-01-02 15:04:05"), cell(sum))
		}
		w("\n")
	}
	return b.String()
}

// mdEscaper escapes the characters that start Markdown markup, and
// angle brackets so that no HTML gets through.
var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "<", "&lt;", ">", "&gt;",
	"#", `\#`, "|", `\|`, "!", `\!`, "~", `\~`,
)

// escape makes s inert Markdown on one line.
func escape(s string) string {
	return mdEscaper.Replace(strings.Join(strings.Fields(s), " "))
}

// cell is escape for a table cell; an empty cell shows a dash.
func cell(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return escape(s)
}

func quote(s string) string { return "\u201c" + escape(s) + "\u201d" }
