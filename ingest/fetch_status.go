package ingest

import (
	"context"
	"errors"
	"strconv"
)

// FetchStatus names the outcome of a Fetch in a few words, for metrics:
// the HTTP status code of a page or of a non-2xx answer ("200", "404"), or
// blocked, robots, too_large, timeout, redirects, content_type, canceled
// or error.
func FetchStatus(page *Page, err error) string {
	var se *StatusError
	switch {
	case err == nil && page != nil:
		return strconv.Itoa(page.StatusCode)
	case errors.As(err, &se):
		return strconv.Itoa(se.Code)
	case errors.Is(err, ErrBlocked):
		return "blocked"
	case errors.Is(err, ErrRobotsDisallowed):
		return "robots"
	case errors.Is(err, ErrTooLarge):
		return "too_large"
	case errors.Is(err, ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, ErrTooManyRedirects):
		return "redirects"
	case errors.Is(err, ErrUnsupportedContentType):
		return "content_type"
	case errors.Is(err, context.Canceled):
		return "canceled"
	}
	return "error"
}
