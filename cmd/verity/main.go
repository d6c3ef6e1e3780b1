// Command verity is the evidence-scoring service and its command-line tools:
// serve the API, ingest sources, verify claims, evaluate and train models.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/verity-fc/verity/claim"
	"github.com/verity-fc/verity/evidence"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := newRootCmd().ExecuteContext(ctx)
	stop()
	if err != nil {
		var ie *evidence.InputError
		if errors.As(err, &ie) {
			fmt.Fprintln(os.Stderr, "verity: invalid input:", ie.Error())
			os.Exit(2)
		}
		var ue *usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(os.Stderr, "verity: %v\nRun '%s --help' for usage.\n", ue, ue.path)
			os.Exit(2)
		}
		var nc *claim.NotCheckable
		if errors.As(err, &nc) {
			fmt.Fprintf(os.Stderr, "verity: not a checkable claim (%s): %s\n", nc.Reason, nc.Error())
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "verity:", err)
		os.Exit(1)
	}
}
