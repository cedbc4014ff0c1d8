//go:build !race

package network

// raceDetector is set when the tests run under the race detector, which
// makes allocations larger than the code's own.
const raceDetector = false
