//go:build race

package wordvec

// raceEnabled is true when the tests run with -race. Decoding the 300 MB
// wink JSON is a single goroutine's work that the detector slows ten-fold,
// past a minute, with nothing to find.
const raceEnabled = true
