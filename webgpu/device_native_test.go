//go:build !js

package webgpu

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCopyParallel checks that copyParallel puts every byte of src into
// the dsts back to back, whatever their number and sizes: the packed rows
// of a read-back (many small pieces), one large piece, empty pieces, and
// totals below and above the part each goroutine gets.
func TestCopyParallel(t *testing.T) {
	cases := []struct {
		name  string
		sizes []int
	}{
		{"nothing", nil},
		{"one empty", []int{0}},
		{"one small", []int{13}},
		{"one large", []int{3*copyPart + 7}},
		{"many rows", rowSizes(40, 39)},
		{"many rows with empty ones", append(append([]int{0}, rowSizes(20, 28)...), 0, 0, 5*copyPart/2)},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			total := 0
			for _, n := range tc.sizes {
				total += n
			}
			src := make([]byte, total)
			for i := range src {
				src[i] = byte(rng.IntN(256))
			}
			dsts := make([][]byte, len(tc.sizes))
			for k, n := range tc.sizes {
				dsts[k] = make([]byte, n)
			}
			copyParallel(dsts, src)
			if got := bytes.Join(dsts, nil); !bytes.Equal(got, src) {
				t.Fatalf("%d pieces, %d bytes: the copy differs from the source", len(dsts), total)
			}
		})
	}
}

// rowSizes returns the bytes of the packed rows of the three score blocks
// of sentences of 1..n words with l labels (float32).
func rowSizes(n, l int) []int {
	var sizes []int
	for w := 1; w <= n; w++ {
		for range 3 {
			for x := range w {
				sizes = append(sizes, 4*(w-x)*l)
			}
		}
	}
	if len(sizes) == 0 {
		panic(fmt.Sprint("no rows for ", n))
	}
	return sizes
}

// BenchmarkReadBackCopy compares, on the host alone, the copy of the Alpino
// test set's scores (the shipped model's labels and tags) out of a mapped
// read-back into freshly allocated results: the decoder's layout read back
// whole (one piece per chunk-sized run, as before session 12) against the
// packed upper triangles (half the bytes, a piece per row); into fresh
// results (whose pages the copy touches first, as in Score) and into
// results reused (the copy alone).
func BenchmarkReadBackCopy(b *testing.B) {
	f, batch := testSet(b)
	models, err := f.Models()
	if err != nil {
		b.Fatal(err)
	}
	c := models[0].Params.Config()
	full, packed := 0, 0
	var rows []piece // each packed row's place in the results, in read-back order
	tokens := 0
	for _, in := range batch {
		n := in.Len()
		for k := range 3 {
			for x := range n {
				rows = append(rows, piece{at: full + k*n*n*c.Labels + (x*n+x)*c.Labels, n: (n - x) * c.Labels})
			}
		}
		full += 3 * n * n * c.Labels
		packed += 3 * triangle(n) * c.Labels
		tokens += n + 2
	}
	tags := tokens * c.Tags
	for _, v := range []struct {
		name   string
		floats int
		fresh  bool
	}{
		{"whole layout, fresh results", full + tags, true},
		{"packed rows, fresh results", packed + tags, true},
		{"whole layout, results reused", full + tags, false},
		{"packed rows, results reused", packed + tags, false},
	} {
		b.Run(strings.ReplaceAll(v.name, " ", "_"), func(b *testing.B) {
			src := make([]byte, 4*v.floats)
			b.SetBytes(int64(len(src)))
			out := make([]float32, full+tags)
			for b.Loop() {
				if v.fresh {
					out = make([]float32, full+tags)
				}
				dsts := [][]byte{floatBytes(out)}
				if v.floats != full+tags {
					dsts = dsts[:0]
					for _, r := range rows {
						dsts = append(dsts, floatBytes(out[r.at:r.at+r.n]))
					}
					dsts = append(dsts, floatBytes(out[full:]))
				}
				copyParallel(dsts, src)
			}
		})
	}
}
