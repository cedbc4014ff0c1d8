package main

import "github.com/discspan/discspan/chart/tree"

// blocksOf returns the interstice blocks of sorted word positions.
func blocksOf(positions []int) [][2]int {
	var out [][2]int
	for _, b := range tree.Blocks(positions) {
		out = append(out, [2]int{b.Start, b.End})
	}
	return out
}
