//go:build race

package retrieval_test

// raceEnabled is true when the race detector is on; the pure-Go SQLite
// runs some 80 times slower under it.
const raceEnabled = true
