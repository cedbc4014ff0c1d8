package decode

import (
	"fmt"
	"testing"
)

// BenchmarkDecode measures seconds per sentence on random scores with 30
// labels, the setting of the reference C++ figures in decoder.md (n6 and
// n6wn only up to n=40 in short mode).
func BenchmarkDecode(b *testing.B) {
	for _, v := range Variants {
		for _, n := range []int{20, 40, 80} {
			if testing.Short() && n == 80 && v >= N5WN {
				continue
			}
			s := randomScores(uint64(n), n, 30, 1)
			b.Run(fmt.Sprintf("%s_%d", v, n), func(b *testing.B) {
				b.ReportAllocs()
				dec := NewDecoder(nil)
				for b.Loop() {
					if _, err := dec.Decode(v, s); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
