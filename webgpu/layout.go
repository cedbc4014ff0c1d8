package webgpu

import (
	"fmt"

	"github.com/discspan/discspan/network"
)

// layout bounds a chunk (the sentences whose activations the arena holds at
// once) and places its activations in the arena buffer and its tables in
// the ints buffer. All offsets and sizes are in elements (float32 or
// uint32).
//
// Arena, in order (T = tokCap):
//
//	charTable  (CharVocab, 2, 4*CharHidden)  the char LSTM input projections, computed once
//	           (one table per model of an ensemble scored on one device)
//	u          (T, feat)    [word embedding; char fwd; char bwd] per token
//	gm         (T, max(8*H1, 8*H2, mCols))  LSTM gate inputs, then the MLP outputs M
//	h1, h2     (T, 2*H1), (T, 2*H2)  BiLSTM states
//	cells      (T, 2, max H)  LSTM cell states of the running step (rows: tokens or sentences)
//	hA, hB     (T, 2, CharHidden)  char LSTM states, ping-pong between steps
//	tm         (T, tmStride)  first biaffine product of one module, (T, O, d+1)
//	spans      (pairCap)    span-module scores of one kind, n*n per sentence
//	lab        (Labels*pairCap)  label-module scores of one kind, n*n*Labels per sentence
//	out        (outCap)     the chunk's results: per sentence cont, disc, gap
//	                        (packed upper triangles, n(n+1)/2*Labels each), then
//	                        the tag logits (T, Tags)
type layout struct {
	c        network.Config
	maxWords int
	members  int // models scored on the device (an ensemble's) one after the other
	tokCap   int // tokens (n+2 per sentence) of a chunk
	pairCap  int // Σ n² of a chunk
	sentCap  int // sentences of a chunk
	charCap  int // character ids of a chunk

	feat     int          // WordDim + 2*CharHidden
	mCols    int          // columns of M: 6*(SpanMLP + LabelMLP)
	mCol     [3][2][2]int // first column of M of [kind][module][side]
	tmStride int          // floats of tm per token: max(SpanMLP+1, Labels*(LabelMLP+1))
	gmStride int          // floats of gm per token
	charTab  int          // floats of one model's char table

	charTable, u, gm, h1, h2, cells, hA, hB, tm, spans, lab, out int
	arena                                                        int // total floats
	outCap                                                       int
	ints                                                         int // total uint32s
}

// newLayout sizes the buffers for one model of configuration c (see
// newEnsembleLayout).
func newLayout(c network.Config, o Options) (*layout, error) {
	return newEnsembleLayout(c, o, 1)
}

// newEnsembleLayout sizes the buffers for members models of configuration c
// scored one after the other (they share every region but their char
// tables). The chunk's token capacity starts at
// o.ChunkTokens and is halved until the arena fits the storage binding
// limit (o.bindingBytes); it fails when even a single sentence of
// o.MaxWords words does not fit.
func newEnsembleLayout(c network.Config, o Options, members int) (*layout, error) {
	l := &layout{c: c, maxWords: o.MaxWords, members: members}
	l.feat = c.WordDim + 2*c.CharHidden
	col := 0
	for k := range kindNames {
		for m := range moduleNames {
			d := c.SpanMLP
			if m == modLabel {
				d = c.LabelMLP
			}
			for s := range sideNames {
				l.mCol[k][m][s] = col
				col += d
			}
		}
	}
	l.mCols = col
	l.tmStride = max(c.SpanMLP+1, c.Labels*(c.LabelMLP+1))
	l.gmStride = max(8*c.LSTM1Hidden, 8*c.LSTM2Hidden, l.mCols)
	l.charTab = c.CharVocab * 8 * c.CharHidden
	need := o.MaxWords + 2
	for tok := max(o.ChunkTokens, need); ; tok /= 2 {
		tok = max(tok, need)
		l.size(tok)
		if limit := o.bindingBytes(); 4*l.arena <= limit && 4*l.outCap <= limit {
			return l, nil
		}
		if tok == need {
			return nil, fmt.Errorf("webgpu: a chunk of one %d-word sentence needs %d MiB of activations, over the %d MiB storage limit (lower MaxWords)",
				o.MaxWords, 4*l.arena>>20, o.bindingBytes()>>20)
		}
	}
}

// size places the buffers for a token capacity of tok.
func (l *layout) size(tok int) {
	c := l.c
	l.tokCap = tok
	l.sentCap = tok / 2
	l.pairCap = max(l.maxWords*l.maxWords, 24*tok)
	l.charCap = tok * (c.MaxChars + 2)
	// Σ n(n+1)/2 = (Σ n² + Σ n)/2 <= (pairCap + tok)/2.
	l.outCap = 3*c.Labels*((l.pairCap+tok)/2) + tok*c.Tags
	next := 0
	place := func(n int) int {
		at := next
		next += (n + 63) &^ 63 // 256-byte aligned regions
		return at
	}
	l.charTable = place(l.members * l.charTab)
	l.u = place(tok * l.feat)
	l.gm = place(max(tok*l.gmStride, c.CharVocab*c.CharDim))
	l.h1 = place(tok * 2 * c.LSTM1Hidden)
	l.h2 = place(tok * 2 * c.LSTM2Hidden)
	l.cells = place(tok * 2 * max(c.CharHidden, c.LSTM1Hidden, c.LSTM2Hidden))
	l.hA = place(tok * 2 * c.CharHidden)
	l.hB = place(tok * 2 * c.CharHidden)
	l.tm = place(tok * l.tmStride)
	l.spans = place(l.pairCap)
	l.lab = place(c.Labels * l.pairCap)
	l.out = place(l.outCap)
	l.arena = next
	l.ints = max(4*l.sentCap+4*tok+l.charCap, c.CharVocab)
}

// slots returns the most dispatches of one chunk: for each model, the fixed
// ones and the reductions of split products, one per time step of the char LSTM and of each sentence LSTM, and
// the extra parts of the six pair products.
func (l *layout) slots() int {
	return l.members * (fixedDispatches + splitDispatches + l.c.MaxChars + 2 + 2*(l.maxWords+2) + 6*(maxPairParts-1))
}
