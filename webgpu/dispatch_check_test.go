//go:build js || (cgo && ((linux && (amd64 || arm64)) || darwin || (windows && (amd64 || arm64))))

package webgpu

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/cogentcore/webgpu/wgpu"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/weights"
)

// TestDispatchByDispatch runs a chunk's plan one dispatch per submission,
// reads the whole arena back after each, and compares it with a float64
// emulation of that one dispatch (kernel semantics as documented in the
// .wgsl files) applied to the arena the GPU left before it. Each dispatch is
// thus checked on its own inputs: the first dispatch that deviates names the
// faulty kernel (and its grid) instead of an end-to-end difference, and a
// write outside the region a kernel should touch shows up as well. It runs
// for the random micro model and for the shipped default model when
// present, each with the per-step LSTM kernels (lstm.wgsl: chars and
// sentence) and with the loops (lstm_loop.wgsl: chars and main; the plan's
// kernels are checked); on a real GPU this localises a
// driver-specific discrepancy.
func TestDispatchByDispatch(t *testing.T) {
	type model struct {
		name string
		p    *network.Params
	}
	models := []model{{"random micro", randomModel(t, microConfig(), 3).Params}, {"random long inner", randomModel(t, longInnerConfig(), 3).Params}}
	if f, err := weights.ReadFile(defaultModel); err == nil && !testing.Short() {
		if ms, err := f.Models(); err == nil && len(ms) > 0 {
			models = append(models, model{"default model 1", ms[0].Params})
		}
	}
	// steps: one dispatch per step for the char and sentence LSTMs
	// (lstm.wgsl); loop: the loops (lstm_loop.wgsl, both entries), reading
	// the gate-major copies of W_hhᵀ or, interleaved, lstm.wgsl's own four
	// gates a load (wt4 of each weights snippet: f32, f16 unpacked, f16
	// native where the device has shader-f16).
	steps := planLimits{loopSents: 1, charSteps: true}
	interleaved := planLimits{interleaved: true}
	cases := []struct {
		name    string
		w       Weights
		noF16   bool
		lengths []int
		lim     planLimits
	}{
		{"steps f32", WeightsF32, false, []int{3, 1, 7, 12, 2, 21, 5, 16, 9}, steps},
		{"loop f32", WeightsF32, false, []int{17}, planLimits{}},
		{"loop f16", WeightsF16, false, []int{6, 19, 1}, planLimits{}},
		{"loop f32, many sentences", WeightsF32, false, []int{3, 1, 7, 12, 2, 21, 5, 16, 9}, planLimits{}},
		{"loop f32, interleaved", WeightsF32, false, []int{17, 4}, interleaved},
		{"loop f16, interleaved", WeightsF16, false, []int{6, 19, 1}, interleaved},
		{"loop f16 unpacked, interleaved", WeightsF16, true, []int{6, 19, 1}, interleaved},
		// Linear products split over their inner dimension (the hardware
		// default) where the model's are long enough: not the micro
		// model's.
		{"loop f32, products split", WeightsF32, false, []int{17}, planLimits{splitInner: true}},
		{"steps f16, products split", WeightsF16, false, []int{3, 1, 7, 12, 2, 21, 5, 16, 9}, planLimits{loopSents: 1, charSteps: true, splitInner: true}},
		// Each unit's sum split over invocations (lstm_loop.wgsl split,
		// the hardware default for small chunks): both layouts of W_hhᵀ.
		{"loop f32, units split", WeightsF32, false, []int{17, 4}, planLimits{splitLoop: true}},
		{"loop f16 unpacked, interleaved, units split", WeightsF16, true, []int{6, 19, 1}, planLimits{splitLoop: true, interleaved: true}},
	}
	for _, m := range models {
		for _, tc := range cases {
			// The micro model's products are too short to split; the long
			// inner one is there for the splits only; the shipped model
			// runs every case.
			if tc.lim.splitInner && m.name == "random micro" || !tc.lim.splitInner && m.name == "random long inner" {
				continue
			}
			t.Run(m.name+"/"+tc.name, func(t *testing.T) {
				// Small chunks keep the arena (read back after every
				// dispatch) small.
				s := openScorer(t, m.p, Options{Weights: tc.w, NoShaderF16: tc.noF16, MaxWords: 24, ChunkTokens: 128})
				batch := randomBatch(m.p.Config(), 5, tc.lengths...)
				chunks := planChunks(batch, s.lay)
				if len(chunks) != 1 {
					t.Fatalf("%d chunks, want 1", len(chunks))
				}
				// The load-time char table first, then the chunk.
				ids := make([]uint32, m.p.Config().CharVocab)
				for i := range ids {
					ids[i] = uint32(i)
				}
				ps := []*network.Params{m.p}
				checkDispatches(t, s, ps, initPlan(s.lay, s.wms), ids)
				ds := chunkPlan(s.lay, &s.wms[0], chunks[0], tc.lim)
				kernels := map[kernel]bool{}
				for _, d := range ds {
					kernels[d.kernel] = true
				}
				// The three kinds' biaffines and assemblies: one dispatch
				// each stage where the chunk is small (up to three
				// sentences here), a dispatch per kind otherwise (nine).
				merged := 0
				for _, d := range ds {
					if strings.HasSuffix(d.what, ", 3 kinds") {
						merged++
					}
				}
				together := kindsTogether(s.lay, chunks[0], tc.lim)
				if want := map[bool]int{true: 5, false: 0}[together]; merged != want || together != (len(tc.lengths) <= 3) {
					t.Fatalf("%d sentences: %d dispatches for the 3 kinds at once, want %d", len(tc.lengths), merged, want)
				}
				if kernels[kMatmulReduce] != tc.lim.splitInner {
					t.Fatalf("the plan's kernels %v: want products split over their inner dimension %v", kernels, tc.lim.splitInner)
				}
				if loop := tc.lim.loopSents == 0; (kernels[kLSTMLoop] || kernels[kLSTMSplit]) != loop || (kernels[kCharLoop] || kernels[kCharSplit]) != loop || kernels[kLSTM] == loop || kernels[kCharLSTM] == loop {
					t.Fatalf("the plan's kernels %v: want the loops %v", kernels, loop)
				}
				if loop := tc.lim.loopSents == 0; kernels[kLSTMSplit] != (loop && tc.lim.splitLoop) || kernels[kLSTMLoop] != (loop && !tc.lim.splitLoop) || kernels[kCharSplit] != (loop && tc.lim.splitLoop) {
					t.Fatalf("the plan's kernels %v: want the units' sums split %v", kernels, tc.lim.splitLoop)
				}
				checkDispatches(t, s, ps, ds, chunks[0].ints)
			})
		}
	}
}

// checkDispatches runs and checks the dispatches ds (with the ints table
// ints) one by one; ps are the scorer's models.
func checkDispatches(t *testing.T, s *Scorer, ps []*network.Params, ds []dispatch, ints []uint32) {
	t.Helper()
	rb, err := s.d.dev.CreateBuffer(&wgpu.BufferDescriptor{Label: "arena read-back", Size: uint64(4 * s.lay.arena), Usage: wgpu.BufferUsageMapRead | wgpu.BufferUsageCopyDst})
	if err != nil {
		t.Fatal(err)
	}
	defer rb.Release()
	readArena := func() []float32 {
		enc, err := s.d.dev.CreateCommandEncoder(nil)
		if err != nil {
			t.Fatal(err)
		}
		defer enc.Release()
		if err := enc.CopyBufferToBuffer(s.arena, 0, rb, 0, uint64(4*s.lay.arena)); err != nil {
			t.Fatal(err)
		}
		cmd, err := enc.Finish(nil)
		if err != nil {
			t.Fatal(err)
		}
		s.d.queue.Submit(cmd)
		raw, err := s.d.readBuffer(rb, uint64(4*s.lay.arena))
		if err != nil {
			t.Fatal(err)
		}
		out := make([]float32, s.lay.arena)
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
		return out
	}
	em := &emulator{w: packedValues(ps, s.wms, s.opts.Weights == WeightsF16), ints: ints}
	before := readArena()
	failed := 0
	for i, d := range ds {
		// Dispatch i alone, with its uniforms in slot 0 (see runGroup).
		if err := s.runJobs([]*job{{ds: ds[i : i+1], ints: ints}}); err != nil {
			t.Fatal(err)
		}
		after := readArena()
		want := append([]float32(nil), before...)
		em.run(d, before, want)
		worst, at, scale := 0.0, -1, 0.0
		for j := range want {
			e := math.Abs(float64(after[j]) - float64(want[j]))
			if math.IsNaN(e) {
				e = math.Inf(1)
			}
			if r := e / (1 + math.Abs(float64(want[j]))); r > worst {
				worst, at = r, j
			}
			scale = math.Max(scale, math.Abs(float64(want[j])))
		}
		msg := fmt.Sprintf("dispatch %d %-32s grid %v: max rel diff %.3g", i, d.what, d.grid, worst)
		if at >= 0 {
			msg += fmt.Sprintf(" at arena[%d] (%s): got %g want %g", at, s.lay.region(at), after[at], want[at])
		}
		if worst > 1e-4 {
			failed++
			if failed <= 10 {
				t.Errorf("%s", msg)
			}
		} else if testing.Verbose() {
			t.Logf("%s", msg)
		}
		before = after
	}
}

// region names the arena region holding element i.
func (l *layout) region(i int) string {
	names := []string{"charTable", "u", "gm", "h1", "h2", "cells", "hA", "hB", "tm", "spans", "lab", "out"}
	offs := []int{l.charTable, l.u, l.gm, l.h1, l.h2, l.cells, l.hA, l.hB, l.tm, l.spans, l.lab, l.out, l.arena}
	for k := len(names) - 1; k >= 0; k-- {
		if i >= offs[k] {
			return fmt.Sprintf("%s+%d", names[k], i-offs[k])
		}
	}
	return "?"
}

// packedValues returns the weights buffer's elements as the kernels read
// them (float16 widened exactly).
func packedValues(ps []*network.Params, wms []weightMap, f16 bool) []float64 {
	raw := packMembers(ps, wms, f16)
	out := make([]float64, wms[0].total)
	for i := range out {
		if f16 {
			out[i] = float64(fromHalf(binary.LittleEndian.Uint16(raw[2*i:])))
		} else {
			out[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:])))
		}
	}
	return out
}

// emulator computes one dispatch in float64 from the arena before it (in)
// into out (a copy of in).
type emulator struct {
	w    []float64
	ints []uint32
}

func sigm64(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// charLoop emulates lstm_loop.wgsl's chars entry for model m of the
// dispatch (grid z).
func (e *emulator) charLoop(p lstmParams, m uint32, in, out []float32) {
	H := p.Hid
	for r := range p.Rows {
		tok := e.ints[p.Seqs+r]
		first := e.ints[p.TokTable+3*tok+1]
		count := e.ints[p.TokTable+3*tok+2]
		for dir := range uint32(2) {
			h := make([]float64, H)
			c := make([]float64, H)
			for s := range count {
				ch := e.ints[first+s]
				if dir == 1 {
					ch = e.ints[first+count-1-s]
				}
				h = e.loopStep(in, p.X+m*p.XM+(ch*2+dir)*4*H, h, c, p.Whh+m*p.WhhM+dir*p.WhhZ, H, p.Interleaved == 1)
			}
			for j := range H {
				out[p.Out+m*p.OutM+tok*p.Ldo+p.Col+dir*H+j] = float32(h[j])
			}
		}
	}
}

// loopStep is one step of lstm_loop.wgsl's LSTM (both entries): gate
// inputs at arena offset g (unit-interleaved, 4j+q), the previous state h,
// W_hhᵀ at weights offset whh, gate-major (column q*H+j) or interleaved
// (column 4j+q). It updates the cell states c in place and returns the new
// state.
func (e *emulator) loopStep(in []float32, g uint32, h, c []float64, whh, H uint32, interleaved bool) []float64 {
	hn := make([]float64, H)
	for j := range H {
		var a [4]float64
		for q := range uint32(4) {
			col := q*H + j
			if interleaved {
				col = 4*j + q
			}
			a[q] = float64(in[g+4*j+q])
			for k := range H {
				a[q] += h[k] * e.w[whh+k*4*H+col]
			}
		}
		c[j] = sigm64(a[1])*c[j] + sigm64(a[0])*math.Tanh(a[2])
		hn[j] = sigm64(a[3]) * math.Tanh(c[j])
	}
	return hn
}

func (e *emulator) run(d dispatch, in, out []float32) {
	switch d.kernel {
	case kGather:
		p := paramsOf[gatherParams](d.params)
		for m := range d.grid[2] { // an ensemble's models at once
			for r := range p.Rows {
				id := e.ints[p.Ids+r*p.IDStride]
				for c := range p.Dim {
					out[p.Dst+m*p.DstM+r*p.Ldd+c] = float32(e.w[p.Src+m*p.SrcM+id*p.Dim+c])
				}
			}
		}
	case kMatmul, kMatmulReduce:
		p := paramsOf[matmulParams](d.params)
		slices := max(p.Split, 1)
		for zz := range d.grid[2] {
			z, m := zz, uint32(0) // an ensemble's models at once: zz = m*ZIn + z
			if p.ZIn > 0 {
				z, m = zz%p.ZIn, zz/p.ZIn
			}
			base := p.W + z*p.Wz + m*p.WM
			// The slices' sums (one slice of the whole inner dimension
			// unless split).
			part := func(s, r, c uint32) uint32 {
				return p.Part + m*p.PartM + ((z*slices+s)*p.Rows+r)*p.Cols + c
			}
			for r := range p.Rows {
				for c := range p.Cols {
					sum := 0.0
					if d.kernel == kMatmulReduce {
						for s := range slices {
							sum += float64(in[part(s, r, c)])
						}
					} else {
						for s := range slices {
							kEnd := p.Inner
							if p.Split > 1 {
								kEnd = min((s+1)*p.KPer, p.Inner)
							}
							slice := 0.0
							for k := s * p.KPer; k < kEnd; k++ {
								a := 1.0
								if k < p.ACols {
									a = float64(in[p.A+z*p.Az+m*p.AM+r*p.Lda+k])
								}
								var b float64
								switch p.TransW {
								case 1:
									b = e.w[base+c*p.Ldw+k]
								case 2:
									D := p.Ldw
									b = e.w[base+(c/D)*D*D+k*D+c%D]
								default:
									b = e.w[base+k*p.Ldw+c]
								}
								slice += a * b
							}
							if p.Split > 1 {
								out[part(s, r, c)] = float32(slice)
							}
							sum += slice
						}
						if p.Split > 1 {
							continue // the reduction finishes C
						}
					}
					if p.HasBias == 1 {
						sum += e.w[p.Bias+z*p.BiasZ+m*p.BiasM+c]
					}
					if p.Leaky == 1 && sum <= 0 {
						sum *= float64(p.Slope)
					}
					at := p.C + z*p.Cz + m*p.CM + r*p.Ldc + c
					if p.Accum == 1 {
						sum += float64(in[at])
					}
					if p.Mean > 1 {
						sum /= float64(p.Mean)
					}
					out[at] = float32(sum)
				}
			}
		}
	case kCharLSTM, kLSTM:
		p := paramsOf[lstmParams](d.params)
		chars := d.kernel == kCharLSTM
		H := p.Hid
		for dir := range uint32(2) {
			for r := range p.Rows {
				var t, x, prev uint32
				last := false
				if chars {
					tok := e.ints[p.Seqs+r]
					first := e.ints[p.TokTable+3*tok+1]
					count := e.ints[p.TokTable+3*tok+2]
					s := p.Step
					if dir == 1 {
						s = count - 1 - p.Step
					}
					ch := e.ints[first+s]
					t, x, prev, last = tok, p.X+(ch*2+dir)*4*H, p.HIn+(r*2+dir)*H, p.Step+1 == count
				} else {
					first := e.ints[p.Seqs+4*r]
					n := e.ints[p.Seqs+4*r+1] + 2
					t = first + p.Step
					tp := t - 1
					if dir == 1 {
						t = first + n - 1 - p.Step
						tp = t + 1
					}
					x, prev = p.X+t*p.Ldx+dir*4*H, p.Out+tp*p.Ldo+dir*H
				}
				for j := range H {
					var a [4]float64
					for q := range uint32(4) {
						a[q] = float64(in[x+4*j+q])
						if p.Step > 0 {
							for k := range H {
								a[q] += float64(in[prev+k]) * e.w[p.Whh+dir*p.WhhZ+k*4*H+4*j+q]
							}
						}
					}
					ci := p.C + (r*2+dir)*H + j
					cprev := 0.0
					if p.Step > 0 {
						cprev = float64(in[ci])
					}
					c := sigm64(a[1])*cprev + sigm64(a[0])*math.Tanh(a[2])
					h := float32(sigm64(a[3]) * math.Tanh(c))
					out[ci] = float32(c)
					if chars {
						out[p.HOut+(r*2+dir)*H+j] = h
						if last {
							out[p.Out+t*p.Ldo+p.Col+dir*H+j] = h
						}
					} else {
						out[p.Out+t*p.Ldo+p.Col+dir*H+j] = h
					}
				}
			}
		}
	case kLSTMLoop, kLSTMSplit: // split: the same sums, each unit's over slices
		p := paramsOf[lstmParams](d.params)
		H := p.Hid
		for m := range d.grid[2] { // an ensemble's models at once
			for sent := range d.grid[0] {
				first := e.ints[p.Seqs+4*sent]
				count := e.ints[p.Seqs+4*sent+1] + 2
				for dir := range uint32(2) {
					h := make([]float64, H)
					c := make([]float64, H)
					for s := range count {
						t := first + s
						if dir == 1 {
							t = first + count - 1 - s
						}
						h = e.loopStep(in, p.X+m*p.XM+t*p.Ldx+dir*4*H, h, c, p.Whh+m*p.WhhM+dir*p.WhhZ, H, p.Interleaved == 1)
						for j := range H {
							out[p.Out+m*p.OutM+t*p.Ldo+dir*H+j] = float32(h[j])
						}
					}
				}
			}
		}
	case kCharLoop, kCharSplit: // split: the same sums, each unit's over slices
		p := paramsOf[lstmParams](d.params)
		for m := range d.grid[2] { // an ensemble's models at once
			e.charLoop(p, m, in, out)
		}
	case kPair:
		p := paramsOf[pairParams](d.params)
		for zz := range d.grid[2] {
			z, kk := zz, uint32(0) // kk: model*3 + kind
			if p.KindSents > 0 {
				z, kk = zz%p.KindSents, zz/p.KindSents
			}
			first := e.ints[p.SentTable+4*z]
			n := e.ints[p.SentTable+4*z+1]
			base := p.Out + kk*p.OutKind + e.ints[p.SentTable+4*z+3]*p.Outs
			D := p.Dim
			tbase := p.T + kk*p.TKind + (first+1)*p.Outs*D
			rbase := p.R + kk%3*p.RKind + kk/3*p.RM + (first+1)*p.Ldr
			for rr := p.Tile0 * 32; rr < min((p.Tile0+d.grid[0])*32, n*p.Outs); rr++ {
				x, o := rr/p.Outs, rr%p.Outs
				for y := x; y < n; y++ {
					sum := 0.0
					for k := range D {
						r := 1.0
						if k < D-1 {
							r = float64(in[rbase+y*p.Ldr+k])
						}
						sum += float64(in[tbase+rr*D+k]) * r
					}
					out[base+(x*n+y)*p.Outs+o] = float32(sum)
				}
			}
		}
	case kAssemble:
		p := paramsOf[assembleParams](d.params)
		for zz := range d.grid[2] {
			z, kind := zz, uint32(0)
			if p.KindSents > 0 {
				z, kind = zz%p.KindSents, zz/p.KindSents
			}
			n := e.ints[p.SentTable+4*z+1]
			L := p.Labels
			block := p.Out + e.ints[p.SentTable+4*z+2] + (p.Kind+kind)*n*(n+1)/2*L
			spanOff := e.ints[p.SentTable+4*z+3]
			lab, spans := p.Lab+kind*p.LabKind, p.Spans+kind*p.SpanKind
			// The packed block's cells row by row: (x, x..n-1).
			cell := uint32(0)
			for x := range n {
				for y := x; y < n; y++ {
					for a := range L {
						at := block + cell*L + a
						v := 0.0
						for m := range max(p.Models, 1) {
							v += float64(in[lab+m*p.LabM+spanOff*L+(x*n+y)*L+a]) + float64(in[spans+m*p.SpanM+spanOff+x*n+y])
						}
						if p.Accum == 1 {
							v += float64(in[at])
						}
						if p.Mean > 1 {
							v /= float64(p.Mean)
						}
						out[at] = float32(v)
					}
					cell++
				}
			}
		}
	default:
		panic(fmt.Sprintf("no emulation of kernel %d", d.kernel))
	}
}
