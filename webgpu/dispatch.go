package webgpu

import "fmt"

// kernel names a compute pipeline (one WGSL file, entry point main).
type kernel int

const (
	kGather kernel = iota
	kMatmul
	kCharLSTM
	kLSTM
	kLSTMLoop
	kCharLoop
	kPair
	kAssemble
	numKernels
)

// kernelFiles are the WGSL files of the kernels, in package shaders, and
// kernelEntries their entry points.
var (
	kernelFiles = [numKernels]string{
		kGather:   "gather.wgsl",
		kMatmul:   "matmul.wgsl",
		kCharLSTM: "lstm.wgsl",
		kLSTM:     "lstm.wgsl",
		kLSTMLoop: "lstm_loop.wgsl",
		kCharLoop: "lstm_loop.wgsl",
		kPair:     "biaffine_pair.wgsl",
		kAssemble: "assemble.wgsl",
	}
	kernelEntries = [numKernels]string{
		kGather:   "main",
		kMatmul:   "main",
		kCharLSTM: "chars",
		kLSTM:     "sentence",
		kLSTMLoop: "main",
		kCharLoop: "chars",
		kPair:     "main",
		kAssemble: "main",
	}
)

// fixedDispatches is the number of dispatches of a chunk besides the LSTM
// time steps: the word gather, two LSTM input projections, the tagger, the
// MLPs and five per kind.
const fixedDispatches = 5 + 5*3

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
	ds              []dispatch
}

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

// linear dispatches matmul.wgsl for a Linear layer (weight (out, in)).
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
	p.add(kMatmul, what, padded(op.rows, 64)*padded(op.cols, 64)*float64(op.inner*op.zs), paramBytes(&prm), ceilDiv(op.cols, 64), ceilDiv(op.rows, 64), u32(op.zs))
}

// biaffineLeft dispatches matmul.wgsl for T[r, o, :] = [A(r); 1]ᵀ W[o] with
// A (rows, d) at arena offset a (row stride lda) and W (outs, d+1, d+1) at
// weights offset w, every o in one product of outs*(d+1) columns; T is
// written at arena offset c with row stride outs*(d+1).
func (p *planner) biaffineLeft(what string, rows, a, lda, d, outs, w, c int) {
	D := d + 1
	prm := matmulParams{
		Rows: u32(rows), Cols: u32(outs * D), Inner: u32(D),
		A: u32(a), Lda: u32(lda), ACols: u32(d),
		W: u32(w), Ldw: u32(D), TransW: 2,
		C: u32(c), Ldc: u32(outs * D),
	}
	p.add(kMatmul, what, padded(rows, 64)*padded(outs*D, 64)*float64(D), paramBytes(&prm), ceilDiv(outs*D, 64), ceilDiv(rows, 64), 1)
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
			Out: u32(l.u), Ldo: u32(l.feat), Col: u32(c.WordDim),
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
		Whh: u32(p.wm.off["char_lstm.fwd.w_hh"+loopSuffix]), WhhZ: u32(p.wm.off["char_lstm.bwd.w_hh"+loopSuffix] - p.wm.off["char_lstm.fwd.w_hh"+loopSuffix]),
		Out: u32(l.u), Ldo: u32(l.feat), Col: u32(c.WordDim),
	}
	p.add(kCharLoop, "char BiLSTM (loop)", charLoopWork(H, ch), paramBytes(&prm), ceilDiv(ch.tokens, charLoopWidth/H), 2, 1)
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
			X: u32(l.gm), Ldx: u32(8 * hid),
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
// sentence of a chunk in one dispatch, gate inputs from gm.
func (p *planner) lstmLoop(name string, hid int, ch *chunk, out int) {
	l := p.l
	prm := lstmParams{
		Hid: u32(hid), Seqs: 0, X: u32(l.gm), Ldx: u32(8 * hid),
		Whh: u32(p.wm.off[name+".fwd.w_hh"+loopSuffix]), WhhZ: u32(p.wm.off[name+".bwd.w_hh"+loopSuffix] - p.wm.off[name+".fwd.w_hh"+loopSuffix]),
		Out: u32(out), Ldo: u32(2 * hid),
	}
	p.add(kLSTMLoop, name+" (loop)", loopWork(hid, ch), paramBytes(&prm), u32(len(ch.n)), 2, 1)
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
func (p *planner) biaffinePair(what string, kind, mod int, ch *chunk) {
	l, c := p.l, p.l.c
	outs, d, out, label := 1, c.SpanMLP, l.spans, 0
	if mod == modLabel {
		outs, d, out, label = c.Labels, c.LabelMLP, l.out, 1
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
			Outs: u32(outs), Dim: u32(d + 1), SentTable: 0, T: u32(l.tm),
			R: u32(l.gm + l.mCol[kind][mod][1]), Ldr: u32(l.mCols),
			Out: u32(out), Label: u32(label), Kind: u32(kind), Tile0: u32(t0),
		}
		if mod == modLabel {
			prm.Accum = p.accum()
		}
		p.add(kPair, what, perTile*float64(n), paramBytes(&prm), u32(n), ceilDiv(ch.maxN, 32), u32(len(ch.n)))
	}
}

// assemble dispatches assemble.wgsl for one kind.
func (p *planner) assemble(what string, kind int, ch *chunk) {
	l := p.l
	prm := assembleParams{Labels: u32(l.c.Labels), SentTable: 0, Out: u32(l.out), Spans: u32(l.spans), Kind: u32(kind), Mean: p.mean()}
	p.add(kAssemble, what, float64(ch.pairs*l.c.Labels), paramBytes(&prm), min(ceilDiv(ch.maxN*ch.maxN*l.c.Labels, 256), 4096), 1, u32(len(ch.n)))
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
	lim.charSteps = o.charSteps
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
// to ceil(hid/256) units of hid/4 + hid%4 iterations each (the sums over
// the hidden state, four terms an iteration) and two more, and one for the
// step.
func loopIterations(n, hid int) int {
	units := (hid + 255) / 256
	return (n+2)*(units*(hid/4+hid%4+2)+1) + units
}

// chunkPlan returns the dispatches of one model's forward pass over a
// chunk, in order (see doc.go): fixedDispatches plus one per LSTM time step
// (or per layer for the LSTM loops: at most loopSentences sentences, and
// within lim.loopIters), plus the parts of pair products estimated above
// lim.maxWork.
func chunkPlan(l *layout, wm *weightMap, ch *chunk, lim planLimits) []dispatch {
	return memberPlan(l, wm, ch, lim, 0, 1)
}

// ensemblePlan returns the dispatches of an ensemble's forward passes over
// a chunk, model after model (chunkPlan's each): every model after the
// first adds its label scores, span scores and tag logits to those in the
// out region, and the last divides the sums by the number of models, so
// that the out region holds the ensemble's mean (scorer.Mean's) with no
// more read-back than one model's.
func ensemblePlan(l *layout, wms []weightMap, ch *chunk, lim planLimits) []dispatch {
	var ds []dispatch
	for k := range wms {
		ds = append(ds, memberPlan(l, &wms[k], ch, lim, k, len(wms))...)
	}
	return ds
}

// memberPlan returns chunkPlan's dispatches for model member of members.
func memberPlan(l *layout, wm *weightMap, ch *chunk, lim planLimits, member, members int) []dispatch {
	c := l.c
	p := &planner{l: l, wm: wm, maxWork: lim.maxWork, member: member, members: members}
	T := ch.tokens
	p.gather("word embeddings", T, c.WordDim, ch.tokTable, 3, wm.off["word.emb"], l.u, l.feat)
	// The char loop, where the sentence loops would run (see bi below) and
	// the hidden size fits a workgroup, else a dispatch per step.
	if p.wm.loop && !lim.charSteps && c.CharHidden <= charLoopWidth && (lim.loopSents == 0 || len(ch.n) <= lim.loopSents) &&
		(lim.loopIters == 0 || loopIterations(len(ch.charRows)-2, c.CharHidden) <= lim.loopIters) &&
		(p.maxWork <= 0 || charLoopWork(c.CharHidden, ch) <= p.maxWork) {
		p.charLoop(ch)
	} else {
		p.charSteps(ch)
	}
	bi := func(name string, in, hid, a, out int) {
		p.linear(name+" input projection", linearOp{
			rows: T, cols: 4 * hid, inner: in, a: a, lda: in,
			w: wm.off[name+".fwd.w_ih"], wz: wm.off[name+".bwd.w_ih"] - wm.off[name+".fwd.w_ih"],
			bias: wm.off[name+".fwd.b"], biasZ: wm.off[name+".bwd.b"] - wm.off[name+".fwd.b"],
			c: l.gm, ldc: 8 * hid, cz: 4 * hid, zs: 2,
		})
		// The loop is one dispatch that cannot be split. On a software
		// adapter the per-step kernel runs instead where the loop would
		// pass llvmpipe's loop limit (lim.loopIters: every loop exits early
		// and the last steps are wrong) or the work of a submission; on
		// any adapter where the weights buffer has no room for the loop's
		// copy of W_hh.
		if p.wm.loop && (lim.loopSents == 0 || len(ch.n) <= lim.loopSents) && (lim.loopIters == 0 || loopIterations(ch.maxN, hid) <= lim.loopIters) &&
			(p.maxWork <= 0 || loopWork(hid, ch) <= p.maxWork) {
			p.lstmLoop(name, hid, ch, out)
		} else {
			p.lstmSteps(name, hid, ch, out)
		}
	}
	bi("lstm1", l.feat, c.LSTM1Hidden, l.u, l.h1)
	h1 := 2 * c.LSTM1Hidden
	p.linear("tagger", linearOp{
		rows: T, cols: c.Tags, inner: h1, a: l.h1, lda: h1,
		w: wm.off["tagger.w"], bias: wm.off["tagger.b"],
		c: l.out + ch.tagsOff, ldc: c.Tags, zs: 1, ensemble: true,
	})
	bi("lstm2", h1, c.LSTM2Hidden, l.h1, l.h2)
	h2 := 2 * c.LSTM2Hidden
	p.linear("endpoint MLPs", linearOp{
		rows: T, cols: l.mCols, inner: h2, a: l.h2, lda: h2,
		w: wm.mlpW, bias: wm.mlpB, c: l.gm, ldc: l.mCols, zs: 1, leaky: true,
	})
	for k, kind := range kindNames {
		for m, mod := range moduleNames {
			d, outs := c.SpanMLP, 1
			if m == modLabel {
				d, outs = c.LabelMLP, c.Labels
			}
			name := kind + "." + mod
			p.biaffineLeft(name+" biaffine (left)", T, l.gm+l.mCol[k][m][0], l.mCols, d, outs, wm.off[name+".biaffine"], l.tm)
			p.biaffinePair(name+" biaffine (pairs)", k, m, ch)
		}
		p.assemble(kind+" assembly", k, ch)
	}
	return p.ds
}
