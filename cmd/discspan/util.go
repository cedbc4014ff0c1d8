package main

import (
	"fmt"

	"github.com/discspan/discspan/chart/tree"
)

// blocksOf returns the interstice blocks of sorted word positions.
func blocksOf(positions []int) [][2]int {
	var out [][2]int
	for _, b := range tree.Blocks(positions) {
		out = append(out, [2]int{b.Start, b.End})
	}
	return out
}

// checkWorkers refuses a negative --workers (0 means all cores).
func checkWorkers(n int) error {
	if n < 0 {
		return fmt.Errorf("%w: --workers %d: want a number of goroutines, or 0 for all cores", errUsage, n)
	}
	return nil
}

// checkMaxWords refuses a --max-words that is neither a positive number of
// words nor -1 (no limit); zeroOK lets 0 stand for the default.
func checkMaxWords(n int, zeroOK bool) error {
	if n >= 1 || n == -1 || (n == 0 && zeroOK) {
		return nil
	}
	return fmt.Errorf("%w: --max-words %d: want a number of words, or -1 for no limit", errUsage, n)
}
