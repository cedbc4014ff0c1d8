//go:build !js && cgo && ((linux && (amd64 || arm64)) || darwin || (windows && (amd64 || arm64)))

package webgpu

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/discspan/discspan/network"
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

// TestLargeBindings: a native device asks for storage bindings and buffers
// up to largeStorageLimit where its adapter allows more than WebGPU's
// default 128 MiB, and a scorer on it sizes its chunks to the device's
// limit. The small preset's arena passes 128 MiB at DefaultChunkTokens
// tokens: planned for 128 MiB its chunks are halved, for 512 MiB they are
// not; on a device that allows it, a scorer keeps DefaultChunkTokens and
// scores as the CPU reference.
func TestLargeBindings(t *testing.T) {
	c := network.Small()
	l128, err := newLayout(c, Options{}.withDefaults(false))
	if err != nil {
		t.Fatal(err)
	}
	lLarge, err := newLayout(c, Options{bindingLimit: largeStorageLimit}.withDefaults(false))
	if err != nil {
		t.Fatal(err)
	}
	if l128.tokCap >= DefaultChunkTokens || lLarge.tokCap != DefaultChunkTokens {
		t.Errorf("small preset: chunk tokens %d with 128 MiB bindings (want fewer than %d), %d with 512 MiB (want %d)",
			l128.tokCap, DefaultChunkTokens, lLarge.tokCap, DefaultChunkTokens)
	}
	t.Logf("small preset: arena %d MiB at %d tokens; %d tokens within 128 MiB", 4*lLarge.arena>>20, lLarge.tokCap, l128.tokCap)

	skipSlowAdapter(t)
	d, err := openDevice(Options{})
	if err != nil {
		t.Fatalf("no WebGPU adapter: %v", err)
	}
	al := d.adapter.GetLimits().Limits
	want := max(storageLimit, int(min(al.MaxStorageBufferBindingSize, al.MaxBufferSize, largeStorageLimit)))
	got := d.bindingLimit
	d.release()
	t.Logf("%s: adapter limits: storage binding %d MiB, buffer %d MiB; the device's: %d MiB", d.info.Name, al.MaxStorageBufferBindingSize>>20, al.MaxBufferSize>>20, got>>20)
	if got != want {
		t.Fatalf("device binding limit %d, want %d", got, want)
	}
	if got < 4*lLarge.arena {
		t.Logf("this adapter's limit is below the small preset's %d MiB arena: chunks stay halved here, not scored", 4*lLarge.arena>>20)
		return
	}
	m := randomModel(t, c, 5)
	s := openScorer(t, m.Params, Options{asHardware: true})
	if s.lay.tokCap != DefaultChunkTokens {
		t.Fatalf("scorer on a %d MiB device: chunk tokens %d, want %d", got>>20, s.lay.tokCap, DefaultChunkTokens)
	}
	batch := randomBatch(c, 3, 7, 25, 1)
	if d := againstCPU(t, s, m, batch); !d.within(tolF32) {
		t.Errorf("small preset in a %d MiB arena: %s", 4*s.lay.arena>>20, d.describe(tolF32))
	}
}

// TestWorkgroupLimit: a native device asks for workgroups of up to
// splitLoopWidth invocations where its adapter allows more than WebGPU's
// default 256; the device really has them (its limits, and the split
// loop's pipeline, which a scorer creates only then), and a scorer plans
// its loops accordingly.
func TestWorkgroupLimit(t *testing.T) {
	skipSlowAdapter(t)
	d, err := openDevice(Options{})
	if err != nil {
		t.Fatalf("no WebGPU adapter: %v", err)
	}
	al, dl := d.adapter.GetLimits().Limits, d.dev.GetLimits().Limits
	want := max(256, int(min(al.MaxComputeInvocationsPerWorkgroup, al.MaxComputeWorkgroupSizeX, splitLoopWidth)))
	got := d.info.Workgroup
	d.release()
	t.Logf("%s: adapter allows %d invocations (x %d); the device asked for %d and has %d", d.info.Name, al.MaxComputeInvocationsPerWorkgroup, al.MaxComputeWorkgroupSizeX, got, dl.MaxComputeInvocationsPerWorkgroup)
	if got != want || int(dl.MaxComputeInvocationsPerWorkgroup) < got || int(dl.MaxComputeWorkgroupSizeX) < got {
		t.Fatalf("AdapterInfo.Workgroup %d, want %d; the device's limits: %d invocations, x %d", got, want, dl.MaxComputeInvocationsPerWorkgroup, dl.MaxComputeWorkgroupSizeX)
	}
	s := openScorer(t, randomModel(t, microConfig(), 5).Params, Options{asHardware: true})
	wide := s.Adapter().Workgroup >= splitLoopWidth
	if s.opts.workgroupLimit != s.Adapter().Workgroup || (s.pipes[kLSTMSplit] != nil) != wide || s.limits().splitLoop != wide {
		t.Errorf("scorer: workgroup limit %d (device %d), split pipeline %v, plan splits loops %v; want both %v",
			s.opts.workgroupLimit, s.Adapter().Workgroup, s.pipes[kLSTMSplit] != nil, s.limits().splitLoop, wide)
	}
	if !wide {
		return
	}
	// A plan that needs a pipeline the scorer lacks is an error, not a crash.
	s.pipes[kLSTMSplit].Release()
	s.pipes[kLSTMSplit] = nil
	if _, err := s.Score(randomBatch(microConfig(), 5, 7)); err == nil || !strings.Contains(err.Error(), "has no pipeline on this device") {
		t.Errorf("scoring without the split pipeline: %v", err)
	}
}
