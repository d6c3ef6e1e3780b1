package retrieval

import "time"

// Options override the Retriever's configuration for one request. Zero
// fields keep the configured value.
type Options struct {
	K       int
	TopN    int
	Domains []string
	Since   time.Time
}
