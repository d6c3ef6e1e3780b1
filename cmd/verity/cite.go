package main

import (
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/verity-fc/verity/agents/citations"
	"github.com/verity-fc/verity/evidence"
)

func init() { subcommands = append(subcommands, newCiteCmd) }

func newCiteCmd() *cobra.Command {
	var format, docFormat string
	cmd := &cobra.Command{
		Use:   "cite FILE|-",
		Short: "Check that every URL a document cites resolves and says what the document claims",
		Long: `cite reads a Markdown, HTML or plain-text document, finds its claims and
their citations, fetches every cited URL once through the guarded fetcher
(HTML, Markdown, text or PDF pages), and judges whether each page supports
the claim (NLI plus the numeric/date check). Claims without a source are
flagged; for a failing citation the corpus is searched for an alternative.
Prints seed 003's report as JSON, or for people with --format markdown.
Fetched pages are data: text in them that addresses the checker has no effect.

Citation forms read: [1], [2, 3], (1) and superscript markers with a
References, Sources or Notes list; reference links [text][id] and [id] with
[id]: url "title" definitions (ids case-insensitive); [^1] footnotes; inline
links; bare URLs; DOIs (doi:10..., https://doi.org/...) and arXiv ids
(arXiv:2301.01234); HTML <a>, <cite> and quotation cite attributes. A
reference entry without a URL is reported no_url.

A page is judged on its text whatever its length; it is thin_content only
when it has no text or shows nothing but a paywall, login, bot-check or
consent marker, which the report names. A document without claims has
accuracy_score null and a warning; a claim its own source contradicts is a
critical issue.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "json" && format != "markdown" {
				return evidence.Invalid("format", "must be json or markdown, got %q", format)
			}
			text, name, err := readInput(cmd.InOrStdin(), args[0], citations.DefaultMaxDocumentBytes)
			if err != nil {
				return err
			}
			if docFormat == "" {
				docFormat = formatOf(args[0])
			}
			return withApp(cmd, func(a *app) error {
				if err := a.warnIfEmpty(cmd.Context(), cmd.ErrOrStderr()); err != nil {
					return err
				}
				rep, err := a.citations.Check(cmd.Context(), citations.Document{Text: text, Format: docFormat, Path: name})
				if err != nil {
					return err
				}
				if format == "markdown" {
					_, err = io.WriteString(cmd.OutOrStdout(), citations.RenderMarkdown(rep))
					return err
				}
				return printJSON(cmd.OutOrStdout(), rep)
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&format, "format", "json", "output: json or markdown")
	f.StringVar(&docFormat, "input-format", "", "document format: markdown, html or text (default from the file extension)")
	f.Bool("allow-private", false, "let the fetcher reach loopback and private addresses (tests only)")
	bindFlag(f, "allow-private", "fetch.allow_private")
	return cmd
}

// formatOf guesses a document's format from its file name.
func formatOf(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".html", ".htm":
		return "html"
	case ".txt":
		return "text"
	case ".md", ".markdown":
		return "markdown"
	}
	return ""
}
