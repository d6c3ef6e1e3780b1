// Package ingest brings sources into verity's corpus. It holds the one
// guarded HTTP client of the project ([Fetcher]: no internal addresses,
// bounded size and time, robots.txt), text extraction from HTML, Markdown
// and plain text with title and publication date ([Extract]), sentence
// chunking ([Chunk]), the domain reliability table, the expansion of
// command-line sources ([Expand]) and the [Ingester] that turns them into
// embedded passages, idempotently.
package ingest
