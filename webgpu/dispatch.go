package webgpu

import "fmt"

// kernel names a compute pipeline (one WGSL file, entry point main).
type kernel int

const (
	kGather kernel = iota
	kMatmul
	kMatmulReduce
	kCharLSTM
	kLSTM
	kLSTMLoop
	kLSTMSplit
	kCharLoop
	kCharSplit
	kPair
	kAssemble
	numKernels
)

// kernelFiles are the WGSL files of the kernels, in package shaders, and
// kernelEntries their entry points.
var (
	kernelFiles = [numKernels]string{
		kGather:       "gather.wgsl",
		kMatmul:       "matmul.wgsl",
		kMatmulReduce: "matmul.wgsl",
		kCharLSTM:     "lstm.wgsl",
		kLSTM:         "lstm.wgsl",
		kLSTMLoop:     "lstm_loop.wgsl",
		kLSTMSplit:    "lstm_loop.wgsl",
		kCharLoop:     "lstm_loop.wgsl",
		kCharSplit:    "lstm_loop.wgsl",
		kPair:         "biaffine_pair.wgsl",
		kAssemble:     "assemble.wgsl",
	}
	kernelEntries = [numKernels]string{
		kGather:       "main",
		kMatmul:       "main",
		kMatmulReduce: "reduce",
		kCharLSTM:     "chars",
		kLSTM:         "sentence",
		kLSTMLoop:     "main",
		kLSTMSplit:    "split",
		kCharLoop:     "chars",
		kCharSplit:    "charsSplit",
		kPair:         "main",
		kAssemble:     "main",
	}
)

// defaultWorkgroupLimit is WebGPU's default limit on the invocations of
// one workgroup, which every adapter has.
const defaultWorkgroupLimit = 256

// kernelInvocations returns the invocations of one workgroup of kernel k
// where it needs more than defaultWorkgroupLimit: its pipeline is created,
// and plans use it, only on a device that allows them (Options.fits).
func kernelInvocations(k kernel) int {
	if k == kLSTMSplit || k == kCharSplit {
		return splitLoopWidth
	}
	return defaultWorkgroupLimit
}

// fixedDispatches is the number of dispatches of a chunk besides the LSTM
// time steps: the word gather, two LSTM input projections, the tagger, the
// MLPs and five per kind (five in all where a small chunk's kinds run
// together: kindsTogether).
const fixedDispatches = 5 + 5*3

// splitDispatches is the most reductions a chunk adds to fixedDispatches:
// one after each of its four Linear products (the LSTM input projections,
// the tagger, the MLPs) where it is split over its inner dimension
// (planner.innerSlices).
const splitDispatches = 4

// dispatch is one kernel dispatch: its pipeline, uniform parameters and
// workgroup grid.
type dispatch struct {
	kernel kernel
	params []byte
	grid   [3]uint32
	what   string  // for error messages
	work   float64 // estimated multiply-adds (or element operations)
}

// planner collects the dispatches of one chunk (or of the load-time plan)
// for model member of an ensemble of members models scored on one device
// (0 of 1 for a single model).
type planner struct {
	l               *layout
	wm              *weightMap
	maxWork         float64 // split dispatches estimated above this, where possible
	member, members int
	// rowOff is the first arena row of the model's activations (u, gm,
	// h1, h2): 0, or, when an ensemble's models share LSTM loop dispatches,
	// the model's share of the rows (see ensemblePlan).
	rowOff int
	// interleaved: lstm_loop.wgsl reads lstm.wgsl's interleaved W_hhᵀ,
	// four gates a load, instead of the gate-major loop copies
	// (planLimits.interleaved).
	interleaved bool
	// split: Linear products with few workgroups are split over their
	// inner dimension (planLimits.splitInner).
	split bool
	// splitLoop: the sentence LSTM loops of chunks of few sentences split
	// each unit's sum over several invocations (planLimits.splitLoop), at
	// most loopSlicesMost of them when it is above 0; the char loop too,
	// unless charsWhole (planLimits.charsWhole).
	splitLoop      bool
	loopSlicesMost int
	charsWhole     bool
	// slot places the model's biaffine scratch (tm, span and label
	// scores, three kinds each) after slot models' (see scoresTogether):
	// 0, or the model's index where an ensemble's score stages run as one
	// dispatch each.
	slot int
	ds   []dispatch
}

// canLoop says whether lstm_loop.wgsl can run the model's LSTMs: it reads
// the interleaved W_hhᵀ, or the weights buffer holds the loop copies.
func (p *planner) canLoop() bool { return p.interleaved || p.wm.loop }

// loopWeights returns the lstmParams fields that place the W_hhᵀ of LSTM
// name ("char_lstm", "lstm1", "lstm2") for lstm_loop.wgsl: its forward
// direction, the step to the backward one, and the layout flag.
func (p *planner) loopWeights(name string) (whh, whhZ, interleaved uint32) {
	suffix := loopSuffix
	if p.interleaved {
		suffix, interleaved = "", 1
	}
	fwd, bwd := p.wm.off[name+".fwd.w_hh"+suffix], p.wm.off[name+".bwd.w_hh"+suffix]
	return u32(fwd), u32(bwd - fwd), interleaved
}

// The model's activation regions (see planner.rowOff).
func (p *planner) u() int  { return p.l.u + p.rowOff*p.l.feat }
func (p *planner) gm() int { return p.l.gm + p.rowOff*p.l.gmStride }
func (p *planner) h1() int { return p.l.h1 + p.rowOff*2*p.l.c.LSTM1Hidden }
func (p *planner) h2() int { return p.l.h2 + p.rowOff*2*p.l.c.LSTM2Hidden }

// charTable returns the arena offset of the model's char table.
func (p *planner) charTable() int { return p.l.charTable + p.member*p.l.charTab }

// accum says whether the model adds its label scores and tag logits to the
// ones stored before it (an ensemble's models after the first).
func (p *planner) accum() uint32 {
	if p.member > 0 {
		return 1
	}
	return 0
}

// mean is the divisor of the summed scores and tag logits (the kernels'
// mean parameter): the number of models for the last model of an
// ensemble, else 0 (none).
func (p *planner) mean() uint32 {
	if p.members > 1 && p.member == p.members-1 {
		return u32(p.members)
	}
	return 0
}

func ceilDiv(a, b int) uint32 { return uint32((a + b - 1) / b) }

// padded returns n rounded up to a multiple of tile, as float64.
func padded(n, tile int) float64 { return float64((n + tile - 1) / tile * tile) }

// dispatchOverhead is the fixed cost of a dispatch in the work estimates, in
// multiply-adds (about 1 ms on lavapipe), and stepCost the weight of an
// LSTM step's multiply-adds relative to the other kernels' (its k loop is
// short and barrier-bound: measured about 4 times slower per multiply-add
// on lavapipe).
const (
	dispatchOverhead = 5e5
	stepCost         = 4
)

func u32(v int) uint32 { return uint32(v) }

func (p *planner) add(k kernel, what string, work float64, params []byte, x, y, z uint32) {
	p.ds = append(p.ds, dispatch{kernel: k, params: params, grid: [3]uint32{max(x, 1), max(y, 1), max(z, 1)}, what: what, work: work + dispatchOverhead})
}

// gather dispatches gather.wgsl: rows rows of the dim-wide table at weights
// offset src, row ids read from ints[ids + r*idStride], written to the arena
// at dst with row stride ldd.
func (p *planner) gather(what string, rows, dim, ids, idStride, src, dst, ldd int) {
	prm := gatherParams{Rows: u32(rows), Dim: u32(dim), Ids: u32(ids), IDStride: u32(idStride), Src: u32(src), Dst: u32(dst), Ldd: u32(ldd)}
	p.add(kGather, what, float64(rows*dim), paramBytes(&prm), min(ceilDiv(rows*dim, 64), 4096), 1, 1)
}

// linearOp describes C_z = act(A W_zᵀ + b_z) for matmul.wgsl, z < zs.
type linearOp struct {
	rows, cols, inner int
	a, lda            int // arena
	w, wz             int // weights, W_z is (cols, inner)
	bias, biasZ       int // weights
	c, ldc, cz        int // arena
	zs                int
	leaky             bool
	ensemble          bool // add to C (not the first model) and divide (the last): see planner.accum, planner.mean
}

// linear dispatches matmul.wgsl for a Linear layer (weight (out, in)),
// split over its inner dimension where innerSlices says so: then the
// product writes each slice's sums and a reduce dispatch finishes C.
func (p *planner) linear(what string, op linearOp) {
	prm := matmulParams{
		Rows: u32(op.rows), Cols: u32(op.cols), Inner: u32(op.inner),
		A: u32(op.a), Lda: u32(op.lda), ACols: u32(op.inner),
		W: u32(op.w), Wz: u32(op.wz), Ldw: u32(op.inner), TransW: 1,
		Bias: u32(op.bias), BiasZ: u32(op.biasZ), HasBias: 1,
		C: u32(op.c), Ldc: u32(op.ldc), Cz: u32(op.cz),
	}
	if op.leaky {
		prm.Leaky, prm.Slope = 1, float32(p.l.c.LeakySlope)
	}
	if op.ensemble {
		prm.Accum, prm.Mean = p.accum(), p.mean()
	}
	work := padded(op.rows, 64) * padded(op.cols, 64) * float64(op.inner*op.zs)
	slices, per := p.innerSlices(op.rows, op.cols, op.inner, op.zs)
	if slices == 1 {
		p.add(kMatmul, what, work, paramBytes(&prm), ceilDiv(op.cols, 64), ceilDiv(op.rows, 64), u32(op.zs))
		return
	}
	size := op.zs * slices * op.rows * op.cols // one model's slice sums
	prm.Split, prm.KPer, prm.Part, prm.PartM = u32(slices), u32(per), u32(p.l.lab+p.member*size), u32(size)
	p.add(kMatmul, fmt.Sprintf("%s, %d slices", what, slices), work, paramBytes(&prm), ceilDiv(op.cols, 64)*u32(slices), ceilDiv(op.rows, 64), u32(op.zs))
	p.add(kMatmulReduce, what+" (reduce)", float64(size), paramBytes(&prm), ceilDiv(op.rows*op.cols, 64), 1, u32(op.zs))
}

// splitWorkgroups and minSliceSteps decide where a Linear product is split
// over its inner dimension (innerSlices): one with fewer workgroups than
// splitWorkgroups (one per 64x64 tile and z) is split into about enough
// slices to reach that, each of at least minSliceSteps of matmul.wgsl's
// 16-wide inner steps. On an NVIDIA H200 (session 10's profile of one
// 20-word sentence) such a product's workgroups each walked their inner
// dimension at about 3.6 µs a step, latency-bound, while most of the
// GPU's 132 multiprocessors had nothing to do: the tagger (one workgroup,
// 384 inner) took 86 µs.
const (
	splitWorkgroups = 128
	minSliceSteps   = 4
)

// innerSlices returns the slices of the inner dimension of a rows x cols
// product (zs of them) and the inner columns of each (a multiple of 16):
// 1 and inner where the planner does not split (see splitWorkgroups), or
// where the slices' sums of every model of the layout would not fit the
// arena's label scratch (lab), which no Linear product overlaps in time:
// the label scores are written and read within the score stage. The
// answer is the same for every model of an ensemble, whether they run at
// once or in turn.
func (p *planner) innerSlices(rows, cols, inner, zs int) (slices, per int) {
	steps := (inner + 15) / 16
	tiles := int(ceilDiv(rows, 64)*ceilDiv(cols, 64)) * zs
	if !p.split || tiles >= splitWorkgroups || steps < 2*minSliceSteps {
		return 1, inner
	}
	slices = min((splitWorkgroups+tiles-1)/tiles, steps/minSliceSteps)
	slices = min(slices, p.l.c.Labels*p.l.pairCap/(p.l.members*zs*rows*cols))
	if slices < 2 {
		return 1, inner
	}
	per = (steps + slices - 1) / slices * 16
	return (inner + per - 1) / per, per
}

// moduleSize returns the features d and outputs of a module's biaffine.
func (p *planner) moduleSize(mod int) (d, outs int) {
	if mod == modLabel {
		return p.l.c.LabelMLP, p.l.c.Labels
	}
	return p.l.c.SpanMLP, 1
}

// biaffineLeft dispatches matmul.wgsl for T[r, o, :] = [A(r); 1]ᵀ W[o] of
// module mod of kind, with A its left endpoint features (the chunk's token
// rows of M) and W (outs, d+1, d+1), every o in one product of outs*(d+1)
// columns; T is written at the arena's tm with row stride outs*(d+1). With
// kinds = 3 the three kinds' in one dispatch (z = kind), kind k's T
// tokens*outs*(d+1) further (see kindsTogether).
func (p *planner) biaffineLeft(what string, kind, mod, kinds int, ch *chunk) {
	l := p.l
	d, outs := p.moduleSize(mod)
	D := d + 1
	weight := func(k int) int { return p.wm.off[kindNames[k]+"."+moduleNames[mod]+".biaffine"] }
	prm := matmulParams{
		Rows: u32(ch.tokens), Cols: u32(outs * D), Inner: u32(D),
		A: u32(p.gm() + l.mCol[kind][mod][0]), Lda: u32(l.mCols), ACols: u32(d),
		W: u32(weight(kind)), Ldw: u32(D), TransW: 2,
		C: u32(l.tm + p.slot*3*ch.tokens*outs*D), Ldc: u32(outs * D),
	}
	if kinds > 1 {
		prm.Az = u32(l.mCol[1][mod][0] - l.mCol[0][mod][0])
		prm.Wz = u32(weight(1) - weight(0))
		prm.Cz = u32(ch.tokens * outs * D)
	}
	p.add(kMatmul, what, padded(ch.tokens, 64)*padded(outs*D, 64)*float64(D*kinds), paramBytes(&prm), ceilDiv(outs*D, 64), ceilDiv(ch.tokens, 64), u32(kinds))
}

// scoresTogether says whether an ensemble's models, where they share their
// loops, also run their score stages (the biaffines' left and pair
// products, the assembly) as one dispatch each: where the three kinds run
// together and the tm region and the span and label scratch hold every
// model's three kinds at once (each model's after the models' before it:
// planner.slot).
func scoresTogether(l *layout, ch *chunk, lim planLimits, models int) bool {
	return kindsTogether(l, ch, lim) && 3*models*ch.tokens <= l.tokCap && 3*models*ch.pairs <= l.pairCap
}

// kindsTogether says whether the three kinds' biaffines and assemblies of
// ch run as one dispatch per stage (z = kind): where the chunk is small
// enough (a third of the rows, of the span pairs) for the tm region and
// the span and label scratch to hold the three kinds at once. A small
// chunk's dispatches are latency-bound, so three at once take about the
// time of one (one sentence: 15 dispatches of a model become 5).
func kindsTogether(l *layout, ch *chunk, lim planLimits) bool {
	return !lim.kindsInTurn && 3*ch.tokens <= l.tokCap && 3*ch.pairs <= l.pairCap
}

// charSteps dispatches lstm.wgsl (entry chars) once per step of the char
// BiLSTM over the tokens of a chunk, ping-ponging the states between hA and
// hB; each token's final states go to its feature row in u.
func (p *planner) charSteps(ch *chunk) {
	l, c := p.l, p.l.c
	H := c.CharHidden
	for s, rows := range ch.charRows {
		in, out := l.hA, l.hB
		if s%2 == 1 {
			in, out = out, in
		}
		prm := lstmParams{
			Hid: u32(H), Step: u32(s), Rows: u32(rows), Seqs: u32(ch.order), TokTable: u32(ch.tokTable),
			X:   u32(p.charTable()),
			Whh: u32(p.wm.off["char_lstm.fwd.w_hh"]), WhhZ: u32(p.wm.off["char_lstm.bwd.w_hh"] - p.wm.off["char_lstm.fwd.w_hh"]),
			HIn: u32(in), HOut: u32(out), C: u32(l.cells),
			Out: u32(p.u()), Ldo: u32(l.feat), Col: u32(c.WordDim),
		}
		p.add(kCharLSTM, fmt.Sprintf("char BiLSTM step %d", s), stepCost*2*padded(rows, 16)*padded(4*H, 64)*float64(H), paramBytes(&prm), ceilDiv(4*H, 64), ceilDiv(rows, 16), 2)
	}
}

// charLoop dispatches lstm_loop.wgsl (entry chars): the char BiLSTM over
// every token of a chunk in one dispatch, 256/CharHidden tokens a
// workgroup; each token's final states go to its feature row in u.
func (p *planner) charLoop(ch *chunk) {
	l, c := p.l, p.l.c
	H := c.CharHidden
	prm := lstmParams{
		Hid: u32(H), Rows: u32(ch.tokens), Seqs: u32(ch.order), TokTable: u32(ch.tokTable),
		X:   u32(p.charTable()),
		Out: u32(p.u()), Ldo: u32(l.feat), Col: u32(c.WordDim),
	}
	prm.Whh, prm.WhhZ, prm.Interleaved = p.loopWeights("char_lstm")
	k, what := kCharLoop, "char BiLSTM (loop)"
	if slices, length := charSlices(H, p.loopSlicesMost); p.splitLoop && !p.charsWhole && slices > 1 && len(ch.n) <= splitLoopSentences {
		k, prm.Slices, prm.SliceLen = kCharSplit, u32(slices), u32(length)
		what = fmt.Sprintf("char BiLSTM (loop, unit sums in %d slices)", slices)
	}
	p.add(k, what, charLoopWork(H, ch), paramBytes(&prm), ceilDiv(ch.tokens, charLoopWidth/H), 2, 1)
}

// charSlices returns how many invocations of lstm_loop.wgsl's charsSplit
// entry share each char unit's sum for char hidden size hid (0 where the
// char loop cannot run), and the rows of W_hhᵀ each sums: one group of
// charLoopWidth invocations a slice, at most 4 (so at most 3*charLoopWidth
// partial sums, within splitLoopPartials), at most most when above 0.
func charSlices(hid, most int) (slices, length int) {
	if hid <= 0 || hid > charLoopWidth {
		return 0, 0
	}
	slices = min(splitLoopWidth/charLoopWidth, hid)
	if most > 0 {
		slices = min(slices, most)
	}
	return slices, sliceRows(hid, slices)
}

// charLoopWidth is the workgroup size of lstm_loop.wgsl's chars entry: a
// workgroup holds charLoopWidth/CharHidden tokens, so the char loop runs
// for a CharHidden of at most charLoopWidth.
const charLoopWidth = 256

// charLoopWork is the estimated work of the char loop over ch: every
// token's steps (as many as the longest token's in its workgroup: at most
// the chunk's longest).
func charLoopWork(hid int, ch *chunk) float64 {
	return stepCost * float64(2*ch.tokens*len(ch.charRows)*4*hid*hid)
}

// lstmSteps dispatches lstm.wgsl (entry sentence) once per step of the
// BiLSTM layer name (hidden size hid) over the sentences of a chunk: gate
// inputs from gm (row stride 8H), states to out (row stride 2H).
func (p *planner) lstmSteps(name string, hid int, ch *chunk, out int) {
	l := p.l
	for s, rows := range ch.sentRows {
		prm := lstmParams{
			Hid: u32(hid), Step: u32(s), Rows: u32(rows), Seqs: 0,
			X: u32(p.gm()), Ldx: u32(8 * hid),
			Whh: u32(p.wm.off[name+".fwd.w_hh"]), WhhZ: u32(p.wm.off[name+".bwd.w_hh"] - p.wm.off[name+".fwd.w_hh"]),
			C: u32(l.cells), Out: u32(out), Ldo: u32(2 * hid),
		}
		p.add(kLSTM, fmt.Sprintf("%s step %d", name, s), stepCost*2*padded(rows, 16)*padded(4*hid, 64)*float64(hid), paramBytes(&prm), ceilDiv(4*hid, 64), ceilDiv(rows, 16), 2)
	}
}

// loopSentences is the most sentences of a chunk whose BiLSTMs run as
// persistent loops (lstm_loop.wgsl, one dispatch per layer) rather than one
// tiled dispatch per step (lstm.wgsl): with few sentences the step kernel's
// tiles are mostly empty, and the loop has the lower latency (on lavapipe,
// about 10 times for a single sentence).
const loopSentences = 4

// hardwareLoopSentences is loopSentences on a hardware adapter: 0, no
// limit. On an NVIDIA H200 the loop was as fast as the per-step kernel on
// the Alpino test set in chunks of 4096 tokens (8.6 against 11.8 ms of
// device time for both layers), and faster at 64 sentences (5.8 against
// 7.1 ms a batch), with fewer dispatches (220 against 542 for the test
// set).
const hardwareLoopSentences = 0

// lstmLoop dispatches lstm_loop.wgsl: the BiLSTM layer name over every
// sentence of a chunk in one dispatch, gate inputs from gm; entry split
// (each unit's sum over loopSlices(hid) invocations) where the plan allows
// it and the chunk has at most splitLoopSentences sentences, else main.
func (p *planner) lstmLoop(name string, hid int, ch *chunk, out int) {
	prm := lstmParams{
		Hid: u32(hid), Seqs: 0, X: u32(p.gm()), Ldx: u32(8 * hid),
		Out: u32(out), Ldo: u32(2 * hid),
	}
	prm.Whh, prm.WhhZ, prm.Interleaved = p.loopWeights(name)
	k, what := kLSTMLoop, name+" (loop)"
	if slices, length := loopSlices(hid, p.loopSlicesMost); p.splitLoop && slices > 1 && len(ch.n) <= splitLoopSentences {
		k, prm.Slices, prm.SliceLen = kLSTMSplit, u32(slices), u32(length)
		what = fmt.Sprintf("%s (loop, unit sums in %d slices)", name, slices)
	}
	p.add(k, what, loopWork(hid, ch), paramBytes(&prm), u32(len(ch.n)), 2, 1)
}

// splitLoopWidth is the workgroup size of lstm_loop.wgsl's split entry,
// splitLoopHidden the largest hidden size it runs (h is kept at that
// stride), and splitLoopPartials the partial sums its workgroup memory
// holds (slices 1..S-1 of every unit: part's 512 and 256 more where h
// leaves hbuf free; see putPartial).
const (
	splitLoopWidth    = 1024
	splitLoopHidden   = 512
	splitLoopPartials = 768
)

// splitLoopSentences is the most sentences of a chunk whose LSTM loops
// split each unit's sum: two workgroups of 1024 invocations per sentence
// are about the most that a large GPU keeps resident at once (an H100 or
// H200 has 132 multiprocessors of 2048 invocations); beyond, main's
// smaller workgroups keep more sentences running.
const splitLoopSentences = 128

// loopSlices returns how many invocations of lstm_loop.wgsl's split entry
// share each unit's sum for hidden size hid (0 where it cannot run: hid
// above splitLoopHidden), and the rows of W_hhᵀ each sums: as many
// slices as the workgroup and its partial sums hold, at most 8, of
// ceil(hid/slices) rows, rounded up to a multiple of 8 (preact4's
// unrolling) where the last slice still gets rows; at most most slices
// when most is above 0 (a profile variant).
func loopSlices(hid, most int) (slices, length int) {
	if hid <= 0 || hid > splitLoopHidden {
		return 0, 0
	}
	slices = min(8, splitLoopWidth/hid, 1+splitLoopPartials/hid)
	if most > 0 {
		slices = min(slices, most)
	}
	return slices, sliceRows(hid, slices)
}

// sliceRows returns the rows of each of slices slices of hid rows:
// ceil(hid/slices), rounded up to a multiple of 8 (preact4's unrolling)
// where the last slice still gets rows.
func sliceRows(hid, slices int) int {
	length := (hid + slices - 1) / slices
	if padded := (length + 7) / 8 * 8; padded*(slices-1) < hid {
		length = padded
	}
	return length
}

// loopWork is the estimated work of one lstm_loop.wgsl dispatch over ch:
// one workgroup per sentence and direction, each serial over its tokens,
// so the longest sentence bounds the time.
func loopWork(hid int, ch *chunk) float64 {
	return stepCost * float64(2*(ch.maxN+2)*4*hid*hid)
}

// maxPairParts bounds the dispatches one biaffine pair product is split
// into (see layout.slots).
const maxPairParts = 8

// biaffinePair dispatches biaffine_pair.wgsl for one module of one kind, in
// up to maxPairParts dispatches of consecutive row tiles when the product
// is estimated above p.maxWork (a long sentence on a software adapter).
func (p *planner) biaffinePair(what string, kind, mod, kinds int, ch *chunk) {
	l := p.l
	d, outs := p.moduleSize(mod)
	out := l.spans + p.slot*3*ch.pairs
	if mod == modLabel {
		out = l.lab + p.slot*3*ch.pairs*outs
	}
	tiles := int(ceilDiv(ch.maxN*outs, 32))
	perTile := float64(len(ch.n)) * 32 * padded(ch.maxN, 32) * float64(d+1)
	step := tiles
	if p.maxWork > 0 && perTile*float64(tiles) > p.maxWork {
		step = max(int(p.maxWork/perTile), (tiles+maxPairParts-1)/maxPairParts, 1)
	}
	for t0 := 0; t0 < tiles; t0 += step {
		n := min(step, tiles-t0)
		prm := pairParams{
			Outs: u32(outs), Dim: u32(d + 1), SentTable: 0, T: u32(l.tm + p.slot*3*ch.tokens*outs*(d+1)),
			R: u32(p.gm() + l.mCol[kind][mod][1]), Ldr: u32(l.mCols),
			Out: u32(out), Tile0: u32(t0),
		}
		if kinds > 1 {
			prm.KindSents = u32(len(ch.n))
			prm.TKind = u32(ch.tokens * outs * (d + 1))
			prm.RKind = u32(l.mCol[1][mod][1] - l.mCol[0][mod][1])
			prm.OutKind = u32(ch.pairs * outs)
		}
		p.add(kPair, what, perTile*float64(n*kinds), paramBytes(&prm), u32(n), ceilDiv(ch.maxN, 32), u32(len(ch.n)*kinds))
	}
}

// assemble dispatches assemble.wgsl for one kind, or with kinds = 3 for
// the three at once: the label and span scratch summed into the kind's
// packed blocks of the out region.
func (p *planner) assemble(what string, kind, kinds int, ch *chunk) {
	l := p.l
	prm := assembleParams{Labels: u32(l.c.Labels), SentTable: 0, Out: u32(l.out), Spans: u32(l.spans + p.slot*3*ch.pairs), Kind: u32(kind), Mean: p.mean(),
		Lab: u32(l.lab + p.slot*3*ch.pairs*l.c.Labels), Accum: p.accum()}
	if kinds > 1 {
		prm.KindSents, prm.LabKind, prm.SpanKind = u32(len(ch.n)), u32(ch.pairs*l.c.Labels), u32(ch.pairs)
	}
	p.add(kAssemble, what, float64(ch.pairs*l.c.Labels*kinds), paramBytes(&prm), min(ceilDiv(ch.maxN*ch.maxN*l.c.Labels, 256), 4096), 1, u32(len(ch.n)*kinds))
}

// initPlan returns the dispatches run once at load time: each model's
// projected character table (CharEmb W_ihᵀ + b for both directions of the
// char LSTM), via a gather of the whole char embedding table into gm (ids
// 0..V-1 in ints) and one matmul.
func initPlan(l *layout, wms []weightMap) []dispatch {
	var ds []dispatch
	for k := range wms {
		ds = append(ds, initModel(l, &wms[k], k, len(wms))...)
	}
	return ds
}

// initModel returns initPlan's dispatches for model member of members.
func initModel(l *layout, wm *weightMap, member, members int) []dispatch {
	c := l.c
	p := &planner{l: l, wm: wm, member: member, members: members}
	p.gather("char table gather", c.CharVocab, c.CharDim, 0, 1, wm.off["char.emb"], l.gm, c.CharDim)
	h4 := 4 * c.CharHidden
	p.linear("char table projection", linearOp{
		rows: c.CharVocab, cols: h4, inner: c.CharDim,
		a: l.gm, lda: c.CharDim,
		w: wm.off["char_lstm.fwd.w_ih"], wz: wm.off["char_lstm.bwd.w_ih"] - wm.off["char_lstm.fwd.w_ih"],
		bias: wm.off["char_lstm.fwd.b"], biasZ: wm.off["char_lstm.bwd.b"] - wm.off["char_lstm.fwd.b"],
		c: p.charTable(), ldc: 2 * h4, cz: h4, zs: 2,
	})
	return p.ds
}

// planLimits are what shapes a chunk's dispatches besides its sentences:
// the limits of a software adapter, and the kernel choices of the adapter
// (see planLimitsFor).
type planLimits struct {
	maxWork   float64 // split pair products estimated above it (0: no limit)
	loopIters int     // the most loop iterations of one invocation (0: no limit)
	loopSents int     // the most sentences of a chunk whose BiLSTMs loop (0: no limit)
	charSteps bool    // the char BiLSTM one dispatch per step, always (a profile variant)
	inTurn    bool    // an ensemble's loops model after model, always (a profile variant)
	// interleaved: the loops read lstm.wgsl's interleaved W_hhᵀ four gates
	// a load, and need no loop copies (a profile variant until measured on
	// a GPU against the gate-major copies).
	interleaved bool
	// kindsInTurn: the three kinds' biaffines and assemblies one after the
	// other even where they fit at once (a profile variant).
	kindsInTurn bool
	// splitInner: Linear products with few workgroups are split over their
	// inner dimension (planner.innerSlices): on a hardware adapter, unless
	// a profile variant turns it off (Options.noSplitInner); on a software
	// one only for tests (Options.TestSplitInner), as its few cores gain
	// nothing from more workgroups.
	splitInner bool
	// splitLoop: the sentence LSTM loops of small chunks split each unit's
	// sum over several invocations (lstm_loop.wgsl split, planner.lstmLoop)
	// on a device that allows workgroups of splitLoopWidth invocations:
	// on a hardware adapter unless a profile variant turns it off
	// (Options.noSplitLoop), on a software one only for tests
	// (Options.TestSplitLoop); loopSlicesMost > 0 caps the invocations
	// per unit (Options.loopSlicesMost). Where the sentence loops split,
	// the char loop does too (lstm_loop.wgsl charsSplit), unless a profile
	// variant keeps it whole (charsWhole, Options.noSplitChars).
	splitLoop      bool
	loopSlicesMost int
	charsWhole     bool
}

// planLimitsFor returns the plan limits of o (after withDefaults) on a
// software or hardware adapter.
func planLimitsFor(o Options, software bool) planLimits {
	lim := planLimits{maxWork: o.SubmitWork, loopSents: hardwareLoopSentences}
	if software {
		lim.loopIters, lim.loopSents = softwareLoopLimit, loopSentences
	}
	if o.loopSentences > 0 {
		lim.loopSents = o.loopSentences
	}
	lim.charSteps, lim.inTurn, lim.interleaved, lim.kindsInTurn = o.charSteps, o.modelsInTurn, o.loopInterleaved, o.kindsInTurn
	lim.splitInner = (!software || o.TestSplitInner) && !o.noSplitInner
	lim.splitLoop = (!software || o.TestSplitLoop) && !o.noSplitLoop && o.fits(kLSTMSplit)
	lim.loopSlicesMost, lim.charsWhole = o.loopSlicesMost, o.noSplitChars
	return lim
}

// softwareLoopLimit is the most loop iterations, all loops together, that
// llvmpipe (lavapipe) runs in one shader invocation (gallivm's loop
// limiter, LP_MAX_TGSI_LOOP_ITERATIONS): past it every loop exits at once
// and the results are wrong. lstm_loop.wgsl met it with the shipped model
// (H 192) from about 168 words on, so that New's self-check refused
// lavapipe with the default MaxWords.
const softwareLoopLimit = 65535

// loopIterations bounds the loop iterations of one lstm_loop.wgsl
// invocation over a sentence of n words with hidden size hid: per step, up
// to ceil(hid/256) units of at most hid/4 + hid%4 iterations each (the sums
// over the hidden state, four terms an iteration, or hid/8 + hid%8 at
// eight) and two more, and one for the step.
func loopIterations(n, hid int) int {
	units := (hid + 255) / 256
	sum := max(hid/4+hid%4, hid/8+hid%8)
	return (n+2)*(units*(sum+2)+1) + units
}

// chunkPlan returns the dispatches of one model's forward pass over a
// chunk, in order (see doc.go): fixedDispatches plus one per LSTM time step
// (or per layer for the LSTM loops: at most loopSentences sentences, and
// within lim.loopIters), plus the parts of pair products estimated above
// lim.maxWork.
func chunkPlan(l *layout, wm *weightMap, ch *chunk, lim planLimits) []dispatch {
	var ds []dispatch
	for _, stage := range memberStages(l, wm, ch, lim, 0, 1, 0, 0) {
		ds = append(ds, stage...)
	}
	return ds
}

// ensemblePlan returns the dispatches of an ensemble's forward passes over
// a chunk (chunkPlan's for each model): every model after the first adds
// its label scores, span scores and tag logits to those in the out region,
// and the last divides the sums by the number of models, so that the out
// region holds the ensemble's mean (scorer.Mean's) with no more read-back
// than one model's.
//
// Where both sentence LSTMs loop and the chunk's tokens fit the arena's
// rows once per model (small batches: one sentence, 64), each model's
// activations take a share of the rows and the models' loops run as one
// dispatch (grid z = the model): the loops are latency-bound, so the
// models' layers then take about the time of one. Otherwise the models
// run one after the other over the same rows.
func ensemblePlan(l *layout, wms []weightMap, ch *chunk, lim planLimits) []dispatch {
	if share := l.tokCap / len(wms); len(wms) > 1 && ch.tokens <= share && !lim.inTurn {
		if ds, ok := loopsTogether(l, wms, ch, lim, share); ok {
			return ds
		}
	}
	var ds []dispatch
	for k := range wms {
		for _, stage := range memberStages(l, &wms[k], ch, lim, k, len(wms), 0, 0) {
			ds = append(ds, stage...)
		}
	}
	return ds
}

// loopsTogether returns ensemblePlan's dispatches with model k's
// activations from arena row k*share on and the models' sentence LSTM
// loops as one dispatch each; false where a layer would not loop.
func loopsTogether(l *layout, wms []weightMap, ch *chunk, lim planLimits, share int) ([]dispatch, bool) {
	stages := make([][numStages][]dispatch, len(wms))
	scores := scoresTogether(l, ch, lim, len(wms))
	for k := range wms {
		slot := 0
		if scores {
			slot = k
		}
		stages[k] = memberStages(l, &wms[k], ch, lim, k, len(wms), k*share, slot)
		for _, st := range []int{stageLSTM1, stageLSTM2} {
			if len(stages[k][st]) != 1 || stages[k][st][0].kernel != kLSTMLoop && stages[k][st][0].kernel != kLSTMSplit {
				return nil, false
			}
		}
	}
	// The char LSTM too, where it loops (else its steps run model after
	// model, each over its own rows).
	charLoop := len(stages[0][stageChars]) == 1 && (stages[0][stageChars][0].kernel == kCharLoop || stages[0][stageChars][0].kernel == kCharSplit)
	var ds []dispatch
	for st := range numStages {
		if st == stageLSTM1 || st == stageLSTM2 || st == stageChars && charLoop {
			ds = append(ds, loopTogether(stages, st))
			continue
		}
		// The word embeddings, the input projections, the endpoint MLPs
		// and, where each model has its biaffine scratch, the score
		// stages of every model as one dispatch each (the tagger adds
		// into the shared tag rows: model after model); the rest model
		// after model.
		rest := make([][]dispatch, len(stages))
		for k := range stages {
			rest[k] = stages[k][st]
		}
		for len(rest[0]) > 0 {
			if d, ok := productsTogether(rest); ok {
				ds = append(ds, d)
				for k := range rest {
					rest[k] = rest[k][1:]
				}
				continue
			}
			if addsInTurn(rest[1][0]) { // the tagger: each model's in turn, then on
				for k := range rest {
					ds = append(ds, rest[k][0])
					rest[k] = rest[k][1:]
				}
				continue
			}
			for k := range rest {
				ds = append(ds, rest[k]...)
				rest[k] = nil
			}
		}
	}
	return ds, true
}

// addsInTurn says whether d, a later model's dispatch, adds its results to
// the earlier models' in the out region (the tagger's product: matmul.wgsl
// with accum), so that the models' dispatches can follow each other
// directly, whatever the dispatches after them.
func addsInTurn(d dispatch) bool {
	return (d.kernel == kMatmul || d.kernel == kMatmulReduce) && paramsOf[matmulParams](d.params).Accum == 1
}

// productsTogether returns the one dispatch that runs the first dispatch
// of every model's list, where it is a gather, a matmul.wgsl product into
// each model's own rows (not adding to the stored values, as the tagger of
// a later model does, nor into rows the models share, as the biaffines' tm
// unless each model has its scratch: scoresTogether), a pair product of
// the three kinds at once, or an assembly of the three kinds at once (which
// sums the models' scores); with grid z the model (times the kernel's own
// z) and the steps from one model's offsets to the next's (which the
// models' plans space evenly); false otherwise.
func productsTogether(lists [][]dispatch) (dispatch, bool) {
	d := lists[0][0]
	models := uint32(len(lists))
	switch d.kernel {
	case kGather:
		p0 := paramsOf[gatherParams](d.params)
		p1 := paramsOf[gatherParams](lists[1][0].params)
		p0.SrcM, p0.DstM = p1.Src-p0.Src, p1.Dst-p0.Dst
		for k, l := range lists {
			want := p0
			want.Src, want.Dst, want.SrcM, want.DstM = p0.Src+uint32(k)*p0.SrcM, p0.Dst+uint32(k)*p0.DstM, 0, 0
			if l[0].kernel != kGather || paramsOf[gatherParams](l[0].params) != want || l[0].grid != d.grid {
				panic("webgpu: the models' gathers differ beyond their offsets")
			}
		}
		d.params = paramBytes(&p0)
	case kMatmul, kMatmulReduce: // a split product's reduction like its product
		p0 := paramsOf[matmulParams](d.params)
		if p0.Accum != 0 || p0.Mean != 0 {
			return d, false
		}
		p1 := paramsOf[matmulParams](lists[1][0].params)
		if p1.Accum != 0 || p1.Mean != 0 {
			return d, false
		}
		p0.ZIn = d.grid[2]
		p0.AM, p0.WM, p0.BiasM, p0.CM = p1.A-p0.A, p1.W-p0.W, p1.Bias-p0.Bias, p1.C-p0.C
		if p0.CM == 0 { // the models write the same rows (the biaffines' tm): in turn
			return d, false
		}
		partM := p0.PartM // each model's slice sums after the models' before it
		for k, l := range lists {
			want := p0
			want.A, want.W, want.Bias, want.C = p0.A+uint32(k)*p0.AM, p0.W+uint32(k)*p0.WM, p0.Bias+uint32(k)*p0.BiasM, p0.C+uint32(k)*p0.CM
			want.Part = p0.Part + uint32(k)*partM
			want.ZIn, want.AM, want.WM, want.BiasM, want.CM = 0, 0, 0, 0, 0
			if l[0].kernel != d.kernel || paramsOf[matmulParams](l[0].params) != want || l[0].grid != d.grid {
				return d, false // the score stage's products of one model, differently shaped: in turn
			}
		}
		d.params = paramBytes(&p0)
	case kPair:
		// The models' scratch one after the other (planner.slot), three
		// kinds each: model m's kind k is the pair kernel's kind 3m+k.
		p0 := paramsOf[pairParams](d.params)
		p1 := paramsOf[pairParams](lists[1][0].params)
		if p0.KindSents == 0 || p1.T != p0.T+3*p0.TKind || p1.Out != p0.Out+3*p0.OutKind {
			return d, false
		}
		p0.RM = p1.R - p0.R
		for k, l := range lists {
			want := p0
			want.T, want.Out, want.R, want.RM = p0.T+uint32(3*k)*p0.TKind, p0.Out+uint32(3*k)*p0.OutKind, p0.R+uint32(k)*p0.RM, 0
			if l[0].kernel != kPair || paramsOf[pairParams](l[0].params) != want || l[0].grid != d.grid {
				panic("webgpu: the models' pair products differ beyond their offsets")
			}
		}
		d.params = paramBytes(&p0)
	case kAssemble:
		// One assembly sums the models' scratch and divides by their
		// number (the models in turn: the first writes, the others add,
		// the last divides).
		p0 := paramsOf[assembleParams](d.params)
		p1 := paramsOf[assembleParams](lists[1][0].params)
		if p1.Lab == p0.Lab || p1.Spans == p0.Spans {
			return d, false
		}
		p0.Models, p0.LabM, p0.SpanM = models, p1.Lab-p0.Lab, p1.Spans-p0.Spans
		for k, l := range lists {
			pk := paramsOf[assembleParams](l[0].params)
			want := p0
			want.Lab, want.Spans, want.Models, want.LabM, want.SpanM = p0.Lab+uint32(k)*p0.LabM, p0.Spans+uint32(k)*p0.SpanM, 0, 0, 0
			want.Accum, want.Mean = pk.Accum, pk.Mean
			if l[0].kernel != kAssemble || pk != want || l[0].grid != d.grid {
				panic("webgpu: the models' assemblies differ beyond their offsets")
			}
		}
		p0.Accum, p0.Mean = 0, paramsOf[assembleParams](lists[len(lists)-1][0].params).Mean
		d.params = paramBytes(&p0)
		d.what += fmt.Sprintf(", %d models", models)
		d.work *= float64(models)
		return d, true
	default:
		return d, false
	}
	d.grid[2] *= models
	d.what += fmt.Sprintf(", %d models", models)
	d.work *= float64(models)
	return d, true
}

// loopTogether returns the one lstm_loop.wgsl dispatch that runs stage st
// (the char LSTM's or a sentence LSTM's loop) of every model: model 0's, with grid z the
// number of models and the steps from one model's weights and rows to the
// next (which the models' plans space evenly).
func loopTogether(stages [][numStages][]dispatch, st int) dispatch {
	d := stages[0][st][0]
	p0 := paramsOf[lstmParams](d.params)
	if len(stages) > 1 {
		p1 := paramsOf[lstmParams](stages[1][st][0].params)
		p0.WhhM, p0.XM, p0.OutM = p1.Whh-p0.Whh, p1.X-p0.X, p1.Out-p0.Out
		for k := range stages {
			pk := paramsOf[lstmParams](stages[k][st][0].params)
			if pk.Whh != p0.Whh+uint32(k)*p0.WhhM || pk.X != p0.X+uint32(k)*p0.XM || pk.Out != p0.Out+uint32(k)*p0.OutM {
				panic("webgpu: the models' loops are not evenly spaced")
			}
		}
	}
	d.params = paramBytes(&p0)
	d.grid[2] = uint32(len(stages))
	d.what += fmt.Sprintf(", %d models", len(stages))
	d.work *= float64(len(stages))
	return d
}

// The stages of a model's forward pass (memberStages): the word
// embeddings, the char LSTM (its loop or steps), the first sentence LSTM's
// input projection, its loop or steps, between the two, the second's,
// after.
const (
	stageWords = iota
	stageChars
	stageInput
	stageLSTM1
	stageTagger
	stageLSTM2
	stageScores
	numStages
)

// memberStages returns chunkPlan's dispatches for model member of members,
// its activations from arena row rowOff on, cut into stages.
func memberStages(l *layout, wm *weightMap, ch *chunk, lim planLimits, member, members, rowOff, slot int) [numStages][]dispatch {
	c := l.c
	p := &planner{l: l, wm: wm, maxWork: lim.maxWork, member: member, members: members, rowOff: rowOff, interleaved: lim.interleaved, slot: slot, split: lim.splitInner, splitLoop: lim.splitLoop, loopSlicesMost: lim.loopSlicesMost, charsWhole: lim.charsWhole}
	var stages [numStages][]dispatch
	cut := func(st int) {
		stages[st] = p.ds
		p.ds = nil
	}
	T := ch.tokens
	p.gather("word embeddings", T, c.WordDim, ch.tokTable, 3, wm.off["word.emb"], p.u(), l.feat)
	cut(stageWords)
	// The char loop, where the sentence loops would run (see layer below)
	// and the hidden size fits a workgroup, else a dispatch per step.
	if p.canLoop() && !lim.charSteps && c.CharHidden <= charLoopWidth && (lim.loopSents == 0 || len(ch.n) <= lim.loopSents) &&
		(lim.loopIters == 0 || loopIterations(len(ch.charRows)-2, c.CharHidden) <= lim.loopIters) &&
		(p.maxWork <= 0 || charLoopWork(c.CharHidden, ch) <= p.maxWork) {
		p.charLoop(ch)
	} else {
		p.charSteps(ch)
	}
	cut(stageChars)
	projection := func(name string, in, hid, a int) {
		p.linear(name+" input projection", linearOp{
			rows: T, cols: 4 * hid, inner: in, a: a, lda: in,
			w: wm.off[name+".fwd.w_ih"], wz: wm.off[name+".bwd.w_ih"] - wm.off[name+".fwd.w_ih"],
			bias: wm.off[name+".fwd.b"], biasZ: wm.off[name+".bwd.b"] - wm.off[name+".fwd.b"],
			c: p.gm(), ldc: 8 * hid, cz: 4 * hid, zs: 2,
		})
	}
	layer := func(name string, hid, out int) {
		// The loop is one dispatch that cannot be split. On a software
		// adapter the per-step kernel runs instead where the loop would
		// pass llvmpipe's loop limit (lim.loopIters: every loop exits early
		// and the last steps are wrong) or the work of a submission; on
		// any adapter where the weights buffer has no room for the loop's
		// copy of W_hh.
		if p.canLoop() && (lim.loopSents == 0 || len(ch.n) <= lim.loopSents) && (lim.loopIters == 0 || loopIterations(ch.maxN, hid) <= lim.loopIters) &&
			(p.maxWork <= 0 || loopWork(hid, ch) <= p.maxWork) {
			p.lstmLoop(name, hid, ch, out)
		} else {
			p.lstmSteps(name, hid, ch, out)
		}
	}
	projection("lstm1", l.feat, c.LSTM1Hidden, p.u())
	cut(stageInput)
	layer("lstm1", c.LSTM1Hidden, p.h1())
	cut(stageLSTM1)
	h1 := 2 * c.LSTM1Hidden
	p.linear("tagger", linearOp{
		rows: T, cols: c.Tags, inner: h1, a: p.h1(), lda: h1,
		w: wm.off["tagger.w"], bias: wm.off["tagger.b"],
		c: l.out + ch.tagsOff, ldc: c.Tags, zs: 1, ensemble: true,
	})
	projection("lstm2", h1, c.LSTM2Hidden, p.h1())
	cut(stageTagger)
	layer("lstm2", c.LSTM2Hidden, p.h2())
	cut(stageLSTM2)
	h2 := 2 * c.LSTM2Hidden
	p.linear("endpoint MLPs", linearOp{
		rows: T, cols: l.mCols, inner: h2, a: p.h2(), lda: h2,
		w: wm.mlpW, bias: wm.mlpB, c: p.gm(), ldc: l.mCols, zs: 1, leaky: true,
	})
	if kindsTogether(l, ch, lim) {
		for m, mod := range moduleNames {
			p.biaffineLeft(mod+" biaffine (left), 3 kinds", 0, m, 3, ch)
			p.biaffinePair(mod+" biaffine (pairs), 3 kinds", 0, m, 3, ch)
		}
		p.assemble("assembly, 3 kinds", 0, 3, ch)
	} else {
		for k, kind := range kindNames {
			for m, mod := range moduleNames {
				p.biaffineLeft(kind+"."+mod+" biaffine (left)", k, m, 1, ch)
				p.biaffinePair(kind+"."+mod+" biaffine (pairs)", k, m, 1, ch)
			}
			p.assemble(kind+" assembly", k, 1, ch)
		}
	}
	cut(stageScores)
	return stages
}
