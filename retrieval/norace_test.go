//go:build !race

package retrieval_test

const raceEnabled = false
