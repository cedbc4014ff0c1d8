package netcuda

import (
	"testing"

	"github.com/discspan/discspan/network"
)

// BenchmarkPlanBatch is the host side of a step: the batch layout and its
// dropout masks (network.PlanBatch) for 1500 words, paper preset.
func BenchmarkPlanBatch(b *testing.B) {
	c := network.Paper()
	batch, _ := mixedBatch(c, 1500, 1)
	for i := 0; b.Loop(); i++ {
		if _, err := network.PlanBatch(c, batch, uint64(i), true); err != nil {
			b.Fatal(err)
		}
	}
}
