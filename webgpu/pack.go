package webgpu

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/discspan/discspan/network"
)

// Kinds and modules in the order of network's layout and of the decoder's
// Scores (cont, disc, gap; span, label; left, right).
var (
	kindNames   = [3]string{"cont", "disc", "gap"}
	moduleNames = [2]string{"span", "label"}
	sideNames   = [2]string{"left", "right"}
)

const (
	modSpan  = 0
	modLabel = 1
)

// weightMap locates one model's parameter tensors in the packed weights
// buffer, in elements (float32 or float16). An ensemble scored on one
// device has one map per model, its tensors one model after the other in
// the same buffer.
type weightMap struct {
	off   map[string]int
	total int // elements of the whole buffer (every model's tensors)
	// mlpW and mlpB locate the twelve endpoint MLPs, packed as one
	// (mlpCols, 2*LSTM2Hidden) matrix and one mlpCols bias in the order
	// kind, module, side.
	mlpW, mlpB int
	// loop: the loop copies are packed (see loopCopies), so lstm_loop.wgsl
	// can run.
	loop bool
}

// packOrder returns the tensor names in buffer order: tensors read together
// by one kernel dispatch are adjacent (both directions of an LSTM's w_ih and
// of its bias, the twelve MLP weights, the twelve MLP biases), so that one
// dispatch reaches the second with a constant stride.
func packOrder() []string {
	names := []string{"word.emb", "char.emb"}
	for _, l := range []string{"char_lstm", "lstm1", "lstm2"} {
		for _, t := range []string{"w_ih", "b", "w_hh"} {
			names = append(names, l+".fwd."+t, l+".bwd."+t)
		}
	}
	names = append(names, "tagger.w", "tagger.b")
	for _, t := range []string{"w", "b"} {
		for _, k := range kindNames {
			for _, m := range moduleNames {
				for _, s := range sideNames {
					names = append(names, k+"."+m+"."+s+"."+t)
				}
			}
		}
	}
	for _, k := range kindNames {
		for _, m := range moduleNames {
			names = append(names, k+"."+m+".biaffine")
		}
	}
	return names
}

// loopCopies are the tensors packed a second time, after every parameter,
// for lstm_loop.wgsl: the LSTMs' w_hh (the character LSTM's and the
// sentence LSTMs') transposed, (H, 4H), with PyTorch's gate-major columns
// (q*H+j: gate q of unit j), so that the invocations of neighbouring units
// read neighbouring values (one cache line a warp where the interleaved
// layout of lstm.wgsl takes four).
var loopCopies = []string{
	"char_lstm.fwd.w_hh" + loopSuffix, "char_lstm.bwd.w_hh" + loopSuffix,
	"lstm1.fwd.w_hh" + loopSuffix, "lstm1.bwd.w_hh" + loopSuffix, "lstm2.fwd.w_hh" + loopSuffix, "lstm2.bwd.w_hh" + loopSuffix,
}

// loopSuffix names a tensor's copy for lstm_loop.wgsl (see loopCopies).
const loopSuffix = "_gm"

// mapWeights returns the buffer positions of p's tensors (see mapMembers).
func mapWeights(p *network.Params, budget int) (weightMap, error) {
	wms, err := mapMembers([]*network.Params{p}, budget)
	if err != nil {
		return weightMap{}, err
	}
	return wms[0], nil
}

// mapMembers returns the buffer positions of the tensors of each model of
// ps (an ensemble, or one model), the models one after the other, with the
// loop copies (loopCopies) of every model when the buffer still holds at
// most budget elements with them (the storage binding limit over the bytes
// of an element): models too large for them score their sentence LSTMs
// with the per-step kernel. It fails when a model lacks a tensor or has
// one that packOrder does not place, and when the models are not shaped
// alike. The LSTMs' w_hh start at multiples of 4 elements, and the buffer
// holds a multiple of 8, so that lstm_loop.wgsl can read four elements a
// load (wt4) of float32 and float16 weights alike.
func mapMembers(ps []*network.Params, budget int) ([]weightMap, error) {
	wms := make([]weightMap, len(ps))
	total, copies := 0, 0
	for k, p := range ps {
		// Each model from a multiple of 8 elements: the models' tensors
		// are then evenly spaced, their alignment padding alike.
		total = alignUp(total, 8)
		wm := weightMap{off: map[string]int{}}
		for _, name := range packOrder() {
			t := p.Get(name)
			if t == nil {
				return nil, fmt.Errorf("webgpu: %sparameters have no tensor %q", memberPrefix(k, len(ps)), name)
			}
			if k > 0 && len(t.Data) != len(ps[0].Get(name).Data) {
				return nil, fmt.Errorf("webgpu: %stensor %q has %d values, model 1's %d: an ensemble's models must be shaped alike",
					memberPrefix(k, len(ps)), name, len(t.Data), len(ps[0].Get(name).Data))
			}
			if strings.HasSuffix(name, ".w_hh") {
				total = alignUp(total, 4) // read four elements a load (wt4) by lstm_loop.wgsl
			}
			wm.off[name] = total
			total += len(t.Data)
		}
		if len(wm.off) != len(p.Names()) {
			return nil, fmt.Errorf("webgpu: %sparameters have %d tensors, the kernels read %d", memberPrefix(k, len(ps)), len(p.Names()), len(wm.off))
		}
		for _, name := range loopCopies {
			copies += len(p.Get(strings.TrimSuffix(name, loopSuffix)).Data)
		}
		wm.mlpW = wm.off["cont.span.left.w"]
		wm.mlpB = wm.off["cont.span.left.b"]
		wms[k] = wm
	}
	loop := total+copies <= budget
	for k, p := range ps {
		if loop {
			for _, name := range loopCopies {
				wms[k].off[name] = total
				total += len(p.Get(strings.TrimSuffix(name, loopSuffix)).Data)
			}
		}
		wms[k].loop = loop
	}
	// Whole vec4 elements of float16 too, for the wts4 binding.
	total = alignUp(total, 8)
	for k := range wms {
		wms[k].total = total
	}
	return wms, nil
}

// alignUp returns n rounded up to a multiple of a (a power of two).
func alignUp(n, a int) int { return (n + a - 1) &^ (a - 1) }

// memberPrefix names model k of an ensemble of m in an error ("model 2: "),
// or nothing for a single model.
func memberPrefix(k, m int) string {
	if m == 1 {
		return ""
	}
	return fmt.Sprintf("model %d: ", k+1)
}

// weightBudget returns the most elements of o's weight storage that the
// weights buffer may hold (the storage binding limit).
func weightBudget(o Options) int { return o.weightBytesLimit() / o.Weights.elemBytes() }

// packMembers returns the contents of the weights buffer: every tensor of
// each model of ps at its place in wms (see mapMembers), as little-endian
// float32 or float16 (rounded to nearest even), padded to a multiple of 4
// bytes. Tensors keep their row-major
// layout except the LSTMs': their gate rows are interleaved (row 4j+q is
// gate q of unit j, instead of q*H+j) in w_ih and b, so that the input
// projections come out interleaved, and w_hh is stored transposed with the
// same interleaving, (H, 4H), the layout lstm.wgsl reads; the sentence
// LSTMs' w_hh follow a second time, transposed without interleaving (see
// loopCopies). Cost O(parameters).
func packMembers(ps []*network.Params, wms []weightMap, f16 bool) []byte {
	size := 4 * wms[0].total
	if f16 {
		size = 2 * wms[0].total
	}
	buf := make([]byte, (size+3)&^3)
	for k, p := range ps {
		packModel(buf, p, wms[k], f16)
	}
	return buf
}

// packModel writes the tensors of p into buf at their places in wm.
func packModel(buf []byte, p *network.Params, wm weightMap, f16 bool) {
	names := packOrder()
	if wm.loop {
		names = append(names, loopCopies...)
	}
	for _, name := range names {
		off := wm.off[name]
		t := p.Get(strings.TrimSuffix(name, loopSuffix))
		data := t.Data
		switch {
		case strings.HasSuffix(name, loopSuffix): // (4H, H) -> (H, 4H), gate-major
			data = transpose(data, t.Shape[0], t.Shape[1])
		case strings.HasSuffix(name, ".w_hh"): // (4H, H) -> (H, 4H)
			h := t.Shape[1]
			data = interleaveCols(transpose(data, 4*h, h), h, h)
		case strings.HasSuffix(name, ".w_ih"):
			data = interleaveRows(data, t.Shape[0]/4, t.Shape[1])
		case strings.Contains(name, "lstm") && strings.HasSuffix(name, ".b"):
			data = interleaveRows(data, t.Shape[0]/4, 1)
		}
		for i, v := range data {
			if f16 {
				binary.LittleEndian.PutUint16(buf[2*(off+i):], toHalf(v))
			} else {
				binary.LittleEndian.PutUint32(buf[4*(off+i):], math.Float32bits(v))
			}
		}
	}
}

// interleaveRows reorders the rows of a (4h, cols) LSTM matrix from
// PyTorch's gate-major order (row q*h+j: gate q of unit j) to unit-major
// order (row 4j+q).
func interleaveRows(m []float32, h, cols int) []float32 {
	out := make([]float32, len(m))
	for q := 0; q < 4; q++ {
		for j := 0; j < h; j++ {
			copy(out[(4*j+q)*cols:(4*j+q+1)*cols], m[(q*h+j)*cols:(q*h+j+1)*cols])
		}
	}
	return out
}

// interleaveCols reorders the columns of a (rows, 4h) matrix the same way.
func interleaveCols(m []float32, rows, h int) []float32 {
	out := make([]float32, len(m))
	for r := 0; r < rows; r++ {
		for q := 0; q < 4; q++ {
			for j := 0; j < h; j++ {
				out[r*4*h+4*j+q] = m[r*4*h+q*h+j]
			}
		}
	}
	return out
}

// transpose returns the (cols, rows) transpose of the row-major rows×cols
// matrix m.
func transpose(m []float32, rows, cols int) []float32 {
	out := make([]float32, len(m))
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			out[c*rows+r] = m[r*cols+c]
		}
	}
	return out
}
