//go:build race

package embedding

// raceEnabled is true when the tests run with -race. The retrieval quality
// test is billions of single-goroutine multiply-adds that the detector slows
// past a minute with nothing to find.
const raceEnabled = true
