// Package nli judges whether passages entail, contradict or are neutral to a
// claim. It defines the Judge contract, the built-in judge that works
// offline, and the numeric, date and unit agreement check.
package nli

import (
	"context"

	"github.com/verity-fc/verity/evidence"
)

// Judge returns one judgment per passage, in the order given. Implementations
// must be safe for concurrent use.
type Judge interface {
	Judge(ctx context.Context, claim string, passages []string) ([]evidence.Judgment, error)
}
