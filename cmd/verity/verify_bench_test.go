package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"testing"

	"github.com/verity-fc/verity/internal/shareddata"
	"github.com/verity-fc/verity/verify"
)

// BenchmarkVerifyScale runs verify in process over the data directory of a
// corpus `verity bench scale` built, for 100 of its FEVER claims in turn,
// so that a CPU profile shows where a claim's time goes:
//
//	VERITY_VERIFY_BENCH_DATA=/work/bench-data/100k/data \
//	  go test -run '^$' -bench VerifyScale -benchtime 300x -cpuprofile cpu.prof ./cmd/verity/
func BenchmarkVerifyScale(b *testing.B) {
	data := os.Getenv("VERITY_VERIFY_BENCH_DATA")
	if data == "" {
		b.Skip("VERITY_VERIFY_BENCH_DATA names no data directory")
	}
	ctx := context.Background()
	cfg := defaultConfig()
	cfg.Data = data
	a, err := openApp(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	claims, err := benchClaims(shareddata.Dir(b), 100)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		if _, err := a.verify.Verify(ctx, verify.Request{Claim: claims[i%len(claims)]}); err != nil {
			b.Fatal(err)
		}
	}
}
