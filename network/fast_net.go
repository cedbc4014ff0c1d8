package network

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/network/internal/wasmsimd"
)

// The optimised float32 path (see "Implementation" in doc.go). It computes
// exactly the network of net.go (same equations, same dropout masks drawn
// in the same order from the same generators) but over a GROUP of sentences
// at once, with every product a batch-invariant GEMM (fast_gemm.go) on
// weights transposed once per call (prepare):
//
//   - the character BiLSTM runs over the characters of every token of the
//     group together, the sentence BiLSTMs over all sentences (packed
//     recurrences, fast_lstm.go); without character dropout, identical
//     character sequences are computed once;
//   - the endpoint MLPs and the biaffines' first product run over all words
//     of the group: t = [l;1] W' (all words at once); then per sentence the
//     scores [r;1]ᵀ t[x] of the pairs x <= y, by blocks of 16 rows x from
//     the block's first x (in training as (x, o) × y, then transposed into
//     place; in inference straight into place, W' permuted for it);
//   - the backward pass mirrors it.
//
// The float64 generic code of net.go stays the reference: the tests check
// that this path matches it (fast_test.go).

// prepared holds the weights of one call in the layouts gemm wants.
type prepared struct {
	train        bool // the layouts of training (see biQ, biR)
	cfg          Config
	w            net[float32]
	char, l1, l2 [2]prepLSTM
	tagT         []float32                 // (2*LSTM1Hidden, Tags)
	mlpT         [numKinds][2][2][]float32 // [kind][module][left, right] (2*LSTM2Hidden, d)
	biQ          [numKinds][2][]float32    // (D, O*D): [i][o*D+j] = w[o][i][j], D = d+1 (training) or [i][j*O+o] (inference); nil where biQP holds it
	biR          [numKinds][2][]float32    // (O*D, D): [o*D+j][i] = w[o][i][j]; training only
	biQP         [numKinds][2][]float32    // biQ packed by wasmsimd.Pack8 for the wasm kernels (inference; the only copy), or nil

	// Inference weights kept by a Params (preparedFor): the version and
	// tensor slices they were prepared from.
	version uint64
	data    []tensorID
}

// prepare transposes or permutes the weights of w into ar, on workers
// goroutines, in the layouts of training (train) or inference. Cost
// O(number of weights).
func prepare(ar *arena, w net[float32], train bool, workers int) *prepared {
	c := w.cfg
	p := &prepared{train: train, cfg: c, w: w}
	var tasks []func()
	for d := range 2 {
		dir := func(b bilstm[float32]) lstm[float32] {
			if d == 0 {
				return b.fwd
			}
			return b.bwd
		}
		for _, x := range []struct {
			dst *prepLSTM
			l   lstm[float32]
		}{{&p.char[d], dir(w.charLSTM)}, {&p.l1[d], dir(w.lstm1)}, {&p.l2[d], dir(w.lstm2)}} {
			G := 4 * x.l.hid
			*x.dst = prepLSTM{w: x.l, wihT: ar.take(x.l.in * G)}
			if packForKernels && !train && G%32 == 0 {
				// The kernels read the packed copy for steps of fewer
				// than 4 rows; the plain one is made on first use (a
				// batch of sentences, or of characters).
				x.dst.whhP = ar.take(x.l.hid * G)
				x.dst.lazy = new(lazyTranspose)
			} else {
				x.dst.whhT = ar.take(x.l.hid * G)
			}
			dst, l := x.dst, x.l
			tasks = append(tasks, func() {
				transposeInto(dst.wihT, G, l.wih, l.in, G, l.in)
				if dst.whhP != nil {
					packRecurrent(dst.whhP, l.whh, l.hid, G)
					return
				}
				transposeInto(dst.whhT, G, l.whh, l.hid, G, l.hid)
			})
		}
	}
	p.tagT = ar.take(w.tagger.in * w.tagger.out)
	tasks = append(tasks, func() {
		transposeInto(p.tagT, w.tagger.out, w.tagger.w, w.tagger.in, w.tagger.out, w.tagger.in)
	})
	for k := range numKinds {
		for mod := range 2 {
			md := w.mods[k][mod]
			for side, l := range [2]linear[float32]{md.left, md.right} {
				t := ar.take(l.in * l.out)
				p.mlpT[k][mod][side] = t
				tasks = append(tasks, func() { transposeInto(t, l.out, l.w, l.in, l.out, l.in) })
			}
			D, O := md.bi.d+1, md.bi.outs
			if packForKernels && !train {
				// By panels: the kernels read this wide matrix (O*D
				// columns) in one stream instead of rows far apart. The
				// packed copy is the only one (gemmPanelsGo reads it
				// where the kernels cannot be loaded), written straight
				// from the weights.
				qp := ar.take(wasmsimd.Pack8Len(D, O*D))
				p.biQP[k][mod] = qp
				tasks = append(tasks, func() { packBiaffine(qp, md.bi.w, D, O) })
				continue
			}
			q := ar.take(D * O * D)
			p.biQ[k][mod] = q
			tasks = append(tasks, func() {
				if train {
					for o := 0; o < O; o++ {
						for i := 0; i < D; i++ {
							copy(q[i*O*D+o*D:i*O*D+(o+1)*D], md.bi.w[(o*D+i)*D:(o*D+i+1)*D])
						}
					}
					return
				}
				for i := 0; i < D; i++ {
					transposeInto(q[i*O*D:], O, md.bi.w[i*D:], D*D, O, D) // [i][j][o]
				}
			})
			if train {
				r := ar.take(O * D * D)
				p.biR[k][mod] = r
				tasks = append(tasks, func() {
					for o := 0; o < O; o++ {
						transposeInto(r[o*D*D:], D, md.bi.w[o*D*D:], D, D, D)
					}
				})
			}
		}
	}
	parallelFor(len(tasks), workers, func(i int) { tasks[i]() })
	return p
}

// packBiaffine writes the inference layout of a biaffine weight w (O, D,
// D) packed by wasmsimd.Pack8 to dst: the (D, O*D) matrix q[i][j*O+o] =
// w[o][i][j] by panels of 8 columns, the last padded with zeros, as
// Pack8 of that matrix would, without the matrix itself.
func packBiaffine(dst, w []float32, D, O int) {
	n := O * D
	for t := 0; t < (n+7)/8; t++ {
		for i := 0; i < D; i++ {
			row := dst[(t*D+i)*8 : (t*D+i+1)*8]
			for c := range row {
				col := 8*t + c
				if col >= n {
					row[c] = 0
					continue
				}
				j, o := col/O, col%O
				row[c] = w[(o*D+i)*D+j]
			}
		}
	}
}

// groupSentence places one sentence in a group.
type groupSentence struct {
	in          Input
	n, N        int
	tok0, word0 int // first token row and first word row
	scores      [numKinds][]float32
	tags        []float32 // (n, Tags)
	dScores     [numKinds][]float32
	dTags       []float32
}

// modRun records one module (span or label, one kind) over a group.
type modRun struct {
	z, y, mask [2][]float32 // left, right: (W, d) pre-activation, output, dropout mask
	l1, r1     []float32    // (W, D): outputs with a 1 appended
	t          []float32    // (W, O*D): t[x][o*D+j] (training; inference: t[x][j*O+o]) = Σ_i l1[x,i] w[o,i,j]
	s          [][]float32  // per sentence (n*O, npad): s[x*O+o][y], for y >= x (training and span modules)
}

// group is the forward record of a group of sentences.
type group struct {
	p        *prepared
	ar       *arena
	train    bool // dropout
	sents    []groupSentence
	T, W     int   // tokens (BOS and EOS included) and words
	tokens   []int // (T) word ids
	charPk   *packing
	tokSeq   []int     // (T) character sequence of each token
	charIDs  []int     // (characters) ids, sequence after sequence
	charX    []float32 // (characters, CharDim), after dropout
	charMask []float32 // nil: no dropout
	chRun    [2]*lstmRun
	charFeat []float32 // (sequences, 2*CharHidden)
	sentPk   *packing
	feat     []float32 // (T, featDim), after dropout
	featMask []float32
	l1Run    [2]*lstmRun
	h1       []float32 // (T, 2*LSTM1Hidden)
	tag      []float32 // (T, Tags)
	l2Run    [2]*lstmRun
	h2       []float32 // (T, 2*LSTM2Hidden), after dropout
	h2Mask   []float32
	words    []float32 // (W, 2*LSTM2Hidden)
	mods     [numKinds][2]modRun
	dec      *decode.Decoder // the hinge loss's decoder (Targets.Hinge)
	k        *wasmKernels    // the SIMD kernels of the forward pass (nil: Go code)
}

// npad rounds n up to a multiple of 16 (the width of a GEMM tile).
func npad(n int) int { return (n + 15) &^ 15 }

// pcg is math/rand/v2's PCG (PCG-DXSM, 128-bit state) with its state in
// a value, so that the mask loops keep it in registers: pcg{seed1, seed2}
// yields exactly the values of rand.NewPCG(seed1, seed2).Uint64
// (TestPCGStream checks it).
type pcg struct{ hi, lo uint64 }

func (p *pcg) uint64() uint64 {
	var v uint64
	p.hi, p.lo, v = pcgNext(p.hi, p.lo)
	return v
}

// pcgNext advances the state (hi, lo) and returns the new state and the
// output (values, so that loops keep the state in registers).
func pcgNext(hi, lo uint64) (nhi, nlo, out uint64) {
	const (
		mulHi    = 2549297995355413924
		mulLo    = 4865540595714422341
		incHi    = 6364136223846793005
		incLo    = 1442695040888963407
		cheapMul = 0xda942042e4dd58b5
	)
	h, l := bits.Mul64(lo, mulLo)
	h += hi*mulLo + lo*mulHi
	l, c := bits.Add64(l, incLo, 0)
	h, _ = bits.Add64(h, incHi, c)
	out = h
	out ^= out >> 32
	out *= cheapMul
	out ^= out >> 48
	out *= l | 1
	return h, l, out
}

// fillMask draws an inverted-dropout mask into m exactly as dropoutMask
// does with rand.New(rand.NewPCG(src.hi, src.lo)): Float64() >= p is the
// same test as (Uint64()<<11>>11) >= ceil(p*2^53), as Float64 is
// (Uint64()<<11>>11)/2^53.
func fillMask(src *pcg, m []float32, p float64) {
	keep := float32(1 / (1 - p))
	thr := uint64(math.Ceil(p * (1 << 53)))
	keepBits := math.Float32bits(keep)
	hi, lo := src.hi, src.lo
	var v uint64
	for i := range m {
		hi, lo, v = pcgNext(hi, lo)
		b := uint32(0) // branch-free: the test is a coin toss
		if v<<11>>11 >= thr {
			b = keepBits
		}
		m[i] = math.Float32frombits(b)
	}
	src.hi, src.lo = hi, lo
}

// newGroup lays out the sentences ins (none empty) in one group and draws
// their dropout masks from rngs (nil: inference), rngs[i] being the source
// of sentenceRNG for sentence i, on maskWorkers goroutines (the sentences'
// masks are independent; 0: all cores).
func newGroup(p *prepared, ar *arena, ins []Input, rngs []pcg, maskWorkers int) *group {
	c := p.cfg
	g := &group{p: p, ar: ar, train: rngs != nil, sents: make([]groupSentence, len(ins))}
	for i, in := range ins {
		s := &g.sents[i]
		s.in, s.n, s.N = in, in.Len(), in.Len()+2
		s.tok0, s.word0 = g.T, g.W
		g.T += s.N
		g.W += s.n
	}
	T, W := g.T, g.W
	g.tokens = make([]int, T)
	for _, s := range g.sents {
		g.tokens[s.tok0], g.tokens[s.tok0+s.N-1] = BOSWord, EOSWord
		copy(g.tokens[s.tok0+1:], s.in.WordIDs)
	}

	// Character sequences, deduplicated when there is no character dropout.
	dedupe := !g.train || c.DropChar == 0
	g.tokSeq = make([]int, T)
	var lens []int
	var seen map[string]int
	var key []byte
	if dedupe {
		seen = make(map[string]int, T)
	}
	for _, s := range g.sents {
		for t := 0; t < s.N; t++ {
			seq := c.charSequence(s.in, t)
			if dedupe {
				key = key[:0]
				for _, ch := range seq {
					key = binary.AppendUvarint(key, uint64(ch))
				}
				if q, ok := seen[string(key)]; ok {
					g.tokSeq[s.tok0+t] = q
					continue
				}
				seen[string(key)] = len(lens)
			}
			g.tokSeq[s.tok0+t] = len(lens)
			lens = append(lens, len(seq))
			g.charIDs = append(g.charIDs, seq...)
		}
	}
	g.charPk = newPacking(lens)
	Rc, Dc := len(g.charIDs), c.CharDim

	// Dropout masks, per sentence in the order of net.forward.
	if g.train {
		D, H2 := c.featDim(), 2*c.LSTM2Hidden
		if c.DropChar > 0 {
			g.charMask = ar.take(Rc * Dc)
		}
		if c.DropFeat > 0 {
			g.featMask = ar.take(T * D)
		}
		if c.DropLSTM > 0 {
			g.h2Mask = ar.take(T * H2)
		}
		if c.DropMLP > 0 {
			for k := range numKinds {
				for mod := range 2 {
					d, _ := c.moduleDims(mod)
					g.mods[k][mod].mask = [2][]float32{ar.take(W * d), ar.take(W * d)}
				}
			}
		}
		parallelFor(len(g.sents), maskWorkers, func(i int) {
			s := g.sents[i]
			rng := &rngs[i]
			if g.charMask != nil {
				r0 := g.charPk.starts[g.tokSeq[s.tok0]]
				r1 := g.charPk.starts[g.tokSeq[s.tok0+s.N-1]] + g.charPk.lens[g.tokSeq[s.tok0+s.N-1]]
				fillMask(rng, g.charMask[r0*Dc:r1*Dc], c.DropChar)
			}
			if g.featMask != nil {
				fillMask(rng, g.featMask[s.tok0*D:(s.tok0+s.N)*D], c.DropFeat)
			}
			if g.h2Mask != nil {
				fillMask(rng, g.h2Mask[s.tok0*H2:(s.tok0+s.N)*H2], c.DropLSTM)
			}
			if c.DropMLP > 0 {
				for k := range numKinds {
					for mod := range 2 {
						d, _ := c.moduleDims(mod)
						for side := range 2 {
							fillMask(rng, g.mods[k][mod].mask[side][s.word0*d:(s.word0+s.n)*d], c.DropMLP)
						}
					}
				}
			}
		})
	}
	return g
}

// embedChars looks up the character embeddings of the group (after
// dropout), the first step of forward.
func (g *group) embedChars() {
	Dc := g.p.cfg.CharDim
	g.charX = g.ar.take(len(g.charIDs) * Dc)
	for r, id := range g.charIDs {
		copy(g.charX[r*Dc:(r+1)*Dc], g.p.w.charEmb.w[id*Dc:(id+1)*Dc])
	}
	applyMask(g.charX, g.charMask)
}

// forward runs the network over the group and writes every sentence's
// scores and tag logits (into fresh slices when out, else into the arena).
func (g *group) forward(out bool) {
	p, ar, c := g.p, g.ar, g.p.cfg
	T, W := g.T, g.W
	keep := p.train                  // the record backward needs
	alloc := func(n int) []float32 { // outputs are fresh (x > y: 0)
		if out {
			return make([]float32, n)
		}
		return ar.take(n) // x > y: never read
	}

	g.embedChars()

	// Character BiLSTM: [fwd state after EOW; bwd state after BOW].
	Hc := c.CharHidden
	nseq := len(g.charPk.lens)
	g.charFeat = ar.take(nseq * 2 * Hc)
	for d := range 2 {
		g.chRun[d] = p.char[d].forward(g.k, ar, g.charPk, g.charX, d == 1, keep, nil, 0, g.charFeat[d*Hc:], 2*Hc)
	}

	// Word features and BiLSTM1.
	D, Dw := c.featDim(), c.WordDim
	g.feat = ar.take(T * D)
	for t, id := range g.tokens {
		copy(g.feat[t*D:t*D+Dw], p.w.wordEmb.w[id*Dw:(id+1)*Dw])
		q := g.tokSeq[t]
		copy(g.feat[t*D+Dw:(t+1)*D], g.charFeat[q*2*Hc:(q+1)*2*Hc])
	}
	applyMask(g.feat, g.featMask)
	lens := make([]int, len(g.sents))
	for i, s := range g.sents {
		lens[i] = s.N
	}
	g.sentPk = newPacking(lens)
	H1, H2 := c.LSTM1Hidden, c.LSTM2Hidden
	g.h1 = ar.take(T * 2 * H1)
	for d := range 2 {
		g.l1Run[d] = p.l1[d].forward(g.k, ar, g.sentPk, g.feat, d == 1, keep, g.h1[d*H1:], 2*H1, nil, 0)
	}

	// Tagger (on every token; BOS and EOS rows are ignored).
	K := c.Tags
	g.tag = ar.take(T * K)
	g.k.gemmNN(false, T, K, 2*H1, g.h1, 2*H1, p.tagT, K, g.tag, K)
	addBias(g.tag, T, K, p.w.tagger.b)
	for i := range g.sents {
		s := &g.sents[i]
		s.tags = alloc(s.n * K)
		copy(s.tags, g.tag[(s.tok0+1)*K:(s.tok0+1+s.n)*K])
	}

	// BiLSTM2 and its dropout; the word rows.
	g.h2 = ar.take(T * 2 * H2)
	for d := range 2 {
		g.l2Run[d] = p.l2[d].forward(g.k, ar, g.sentPk, g.h1, d == 1, keep, g.h2[d*H2:], 2*H2, nil, 0)
	}
	applyMask(g.h2, g.h2Mask)
	I := 2 * H2
	g.words = ar.take(W * I)
	for _, s := range g.sents {
		copy(g.words[s.word0*I:(s.word0+s.n)*I], g.h2[(s.tok0+1)*I:(s.tok0+1+s.n)*I])
	}

	// Modules over all words, then per-sentence biaffine scores.
	slope := float32(c.LeakySlope)
	for k := range numKinds {
		for mod := range 2 {
			md, mr := p.w.mods[k][mod], &g.mods[k][mod]
			d, O := md.left.out, md.bi.outs
			Dd := d + 1
			for side, l := range [2]linear[float32]{md.left, md.right} {
				z := ar.take(W * d)
				g.k.gemmNN(false, W, d, I, g.words, I, p.mlpT[k][mod][side], d, z, d)
				addBias(z, W, d, l.b)
				y := ar.take(W * d)
				leakyTo(y, z, slope)
				applyMask(y, mr.mask[side])
				mr.z[side], mr.y[side] = z, y
			}
			mr.l1, mr.r1 = ar.take(W*Dd), ar.take(W*Dd)
			for x := 0; x < W; x++ {
				copy(mr.l1[x*Dd:x*Dd+d], mr.y[0][x*d:(x+1)*d])
				mr.l1[x*Dd+d] = 1
				copy(mr.r1[x*Dd:x*Dd+d], mr.y[1][x*d:(x+1)*d])
				mr.r1[x*Dd+d] = 1
			}
			// t = [l;1] W' for all words: (W, O*D), [x][o][j] in
			// training, [x][j][o] in inference (see prepare).
			mr.t = ar.take(W * O * Dd)
			if qp := p.biQP[k][mod]; qp == nil {
				g.k.gemmNN(false, W, O*Dd, Dd, mr.l1, Dd, p.biQ[k][mod], O*Dd, mr.t, O*Dd)
			} else if !g.k.gemmPanels(false, W, O*Dd, Dd, mr.l1, Dd, qp, mr.t, O*Dd) {
				gemmPanelsGo(false, W, O*Dd, Dd, mr.l1, Dd, qp, mr.t, O*Dd)
			}
			if mod == modSpan || p.train {
				mr.s = make([][]float32, len(g.sents))
				for i, s := range g.sents {
					mr.s[i] = g.biaffineScores(mr, &s, O, Dd)
				}
			}
		}
	}

	// Final scores: span + label, for x <= y.
	L := c.Labels
	for i := range g.sents {
		s := &g.sents[i]
		n, np := s.n, npad(s.n)
		for k := range numKinds {
			sc := alloc(n * n * L)
			span := g.mods[k][modSpan].s[i]
			if !g.p.train {
				// Row x: the label scores of (x, y >= x) straight into
				// place, [r(y);1]ᵀ t[x] with t[x] as (D, L) (the same
				// products in the same order as biaffineScores), then
				// the span score.
				mr := &g.mods[k][modLabel]
				Dd := g.p.w.mods[k][modLabel].bi.d + 1
				for x := 0; x < n; x++ {
					g.k.gemmNN(false, n-x, L, Dd, mr.r1[(s.word0+x)*Dd:], Dd, mr.t[(s.word0+x)*L*Dd:], L, sc[(x*n+x)*L:], L)
					for y := x; y < n; y++ {
						addScalar(sc[(x*n+y)*L:(x*n+y+1)*L], span[x*np+y])
					}
				}
				s.scores[k] = sc
				continue
			}
			lab := g.mods[k][modLabel].s[i]
			for x := 0; x < n; x++ {
				for a := 0; a < L; a++ {
					lrow := lab[(x*L+a)*np:]
					for y := x; y < n; y++ {
						sc[(x*n+y)*L+a] = span[x*np+y] + lrow[y]
					}
				}
			}
			s.scores[k] = sc
		}
	}
}

// addScalar adds v to every element of x.
func addScalar(x []float32, v float32) {
	for i := range x {
		x[i] += v
	}
}

// biaffineScores returns the scores (n*O, npad) of sentence s: row x*O+o,
// column y holds [l(x);1]ᵀ w[o] [r(y);1] for y >= x (other columns are
// not set). Rows go by blocks of 16 (columns from the block's first x).
func (g *group) biaffineScores(mr *modRun, s *groupSentence, O, Dd int) []float32 {
	n, np := s.n, npad(s.n)
	rt := g.ar.zeros(Dd * np) // [r;1]ᵀ of the sentence, zero-padded
	transposeInto(rt, np, mr.r1[s.word0*Dd:], Dd, n, Dd)
	out := g.ar.take(n * O * np)
	for x0 := 0; x0 < n; x0 += 16 { // rows x in [x0, x0+16): columns from x0
		x1 := min(n, x0+16)
		g.k.gemmNN(false, (x1-x0)*O, np-x0, Dd, mr.t[(s.word0+x0)*O*Dd:], Dd, rt[x0:], np, out[x0*O*np+x0:], np)
	}
	return out
}

// loss computes every sentence's loss terms and, when grads, the gradients
// of the scores and tag logits, scaled by scale.
func (g *group) loss(exs []*Example, scale float64, grads bool, parts [][numParts]float64) {
	c := g.p.cfg
	L, K := c.Labels, c.Tags
	var e []float32
	for i := range g.sents {
		s := &g.sents[i]
		t := &exs[i].Targets
		n := s.n
		for k, target := range [numKinds][]int{t.Cont, t.Disc, t.Gap} {
			if grads {
				s.dScores[k] = g.ar.take(n * n * L) // x > y: never read
			}
			soft, weight := t.softOf(k)
			parts[i][k], e = spanCE32(s.scores[k], target, &soft, weight, n, L, scale, s.dScores[k], e)
		}
		if t.Tags != nil {
			if grads {
				s.dTags = g.ar.zeros(n * K)
			}
			parts[i][3] = tagCE(s.tags, t.Tags, K, scale, s.dTags)
		}
		if t.Hinge != nil {
			if g.dec == nil {
				g.dec = decode.NewDecoder(nil)
			}
			parts[i][4], _ = hingeLoss(t.Hinge, s.scores, t, n, L, scale, s.dScores, g.dec)
		}
	}
}

// spanCE32 is spanCE for the optimised path: the same loss, and the same
// gradient WRITTEN (not added) to d for x <= y, with the exponentials
// computed once, in float32, and summed in float32 (e is scratch).
func spanCE32(s []float32, target []int, soft *softCursor, weight float64, n, labels int, scale float64, d []float32, e []float32) (float64, []float32) {
	if cap(e) < labels {
		e = make([]float32, labels)
	}
	e = e[:labels]
	var loss float64
	goldW := 1 - weight
	for x := 0; x < n; x++ {
		for y := x; y < n; y++ {
			off := (x*n + y) * labels
			row := s[off : off+labels]
			m := rowMax0(row)
			expShift(e, row, m)
			sum := math.Exp(-float64(m)) + float64(rowSum(e))
			lse := float64(m) + math.Log(sum)
			t := target[x*n+y]
			q := soft.at(x*n + y)
			loss += lse
			if t > 0 {
				loss -= goldW * float64(row[t-1])
			}
			for a, p := range q {
				loss -= weight * float64(p) * float64(row[a])
			}
			if d == nil {
				continue
			}
			inv := scale / sum
			scaleRow(d[off:off+labels], e, float32(inv))
			if t > 0 {
				d[off+t-1] = float32(float64(e[t-1])*inv - scale*goldW)
			}
			if q != nil {
				sw := float32(scale * weight)
				for a, p := range q {
					d[off+a] -= sw * p
				}
			}
		}
	}
	return loss, e
}

// backward adds to gn the gradient of the loss whose score and tag-logit
// gradients loss recorded.
func (g *group) backward(gn *net[float32]) {
	p, ar, c := g.p, g.ar, g.p.cfg
	T, W := g.T, g.W
	L := c.Labels
	H1, H2 := c.LSTM1Hidden, c.LSTM2Hidden
	I := 2 * H2
	slope := float32(c.LeakySlope)

	// Modules, with scratch shared by the six.
	dWords := ar.zeros(W * I)
	maxT, maxD, maxQ := 0, 0, 0
	for mod := range 2 {
		d, O := c.moduleDims(mod)
		maxT, maxD, maxQ = max(maxT, O*(d+1)), max(maxD, d+1), max(maxQ, (d+1)*O*(d+1))
	}
	dTbuf, dR1buf, dL1buf, dQbuf, dzbuf := ar.take(W*maxT), ar.take(W*maxD), ar.take(W*maxD), ar.take(maxQ), ar.take(W*maxD)
	for k := range numKinds {
		for mod := range 2 {
			md, mr, gm := p.w.mods[k][mod], &g.mods[k][mod], gn.mods[k][mod]
			d, O := md.left.out, md.bi.outs
			Dd := d + 1
			dT := dTbuf[:W*O*Dd]
			dR1 := dR1buf[:W*Dd]
			for i := range g.sents {
				s := &g.sents[i]
				n, np := s.n, npad(s.n)
				// ds[x*O+o][y]: the score gradient for x <= y < n, else 0.
				ds := ar.take(n * O * np)
				dsc := s.dScores[k]
				for x := 0; x < n; x++ {
					for o := 0; o < O; o++ {
						row := ds[(x*O+o)*np : (x*O+o+1)*np]
						clear(row[:x])
						clear(row[n:])
					}
				}
				if mod == modLabel {
					for x := 0; x < n; x++ {
						for y := x; y < n; y++ {
							for a, v := range dsc[(x*n+y)*L : (x*n+y+1)*L] {
								ds[(x*O+a)*np+y] = v
							}
						}
					}
				} else {
					for x := 0; x < n; x++ {
						for y := x; y < n; y++ {
							var v float32
							for _, u := range dsc[(x*n+y)*L : (x*n+y+1)*L] {
								v += u
							}
							ds[x*np+y] = v
						}
					}
				}
				// dT[x*O+o] = Σ_{y>=x} ds[x*O+o][y] r1[y], by blocks of 16
				// rows x (from the block's first x, ds being 0 below x).
				for x0 := 0; x0 < n; x0 += 16 {
					x1 := min(n, x0+16)
					gemmNN(false, (x1-x0)*O, Dd, n-x0, ds[x0*O*np+x0:], np, mr.r1[(s.word0+x0)*Dd:], Dd, dT[(s.word0+x0)*O*Dd:], Dd)
				}
				// dR1[y] = Σ_{x<=y, o} ds[x*O+o][y] t[x*O+o], computed
				// transposed (Dd, np) by blocks of 16 columns y (summing
				// up to the block's last y), then transposed back.
				rT := ar.take(Dd * np)
				for y0 := 0; y0 < n; y0 += 16 {
					y1 := min(n, y0+16)
					gemmTN(false, Dd, 16, y1*O, mr.t[s.word0*O*Dd:], Dd, ds[y0:], np, rT[y0:], np)
				}
				transposeInto(dR1[s.word0*Dd:], Dd, rT, np, Dd, n)
			}
			dL1 := dL1buf[:W*Dd]
			gemmNN(false, W, Dd, O*Dd, dT, O*Dd, p.biR[k][mod], Dd, dL1, Dd)
			dQ := dQbuf[:Dd*O*Dd]
			gemmTN(false, Dd, O*Dd, W, mr.l1, Dd, dT, O*Dd, dQ, O*Dd)
			gw := gm.bi.w
			for o := 0; o < O; o++ {
				for i := 0; i < Dd; i++ {
					dst := gw[(o*Dd+i)*Dd : (o*Dd+i+1)*Dd]
					addTo(dst, dQ[i*O*Dd+o*Dd:i*O*Dd+(o+1)*Dd])
				}
			}
			// Endpoint MLPs.
			for side, l := range [2]linear[float32]{md.left, md.right} {
				dz := dzbuf[:W*d]
				src := dL1
				if side == 1 {
					src = dR1
				}
				for x := 0; x < W; x++ {
					copy(dz[x*d:(x+1)*d], src[x*Dd:x*Dd+d])
				}
				applyMask(dz, mr.mask[side])
				leakyBack(dz, mr.z[side], slope)
				gl := gm.left
				if side == 1 {
					gl = gm.right
				}
				gemmTN(true, d, I, W, dz, d, g.words, I, gl.w, I)
				colSums(gl.b, dz, W, d)
				gemmNN(true, W, I, d, dz, d, l.w, I, dWords, I)
			}
		}
	}

	// BiLSTM2 (through its dropout), the tagger, BiLSTM1.
	dh2 := ar.zeros(T * I)
	for _, s := range g.sents {
		copy(dh2[(s.tok0+1)*I:(s.tok0+1+s.n)*I], dWords[s.word0*I:(s.word0+s.n)*I])
	}
	applyMask(dh2, g.h2Mask)
	dh1 := ar.zeros(T * 2 * H1)
	for d := range 2 {
		gl := gn.lstm2.fwd
		if d == 1 {
			gl = gn.lstm2.bwd
		}
		p.l2[d].backward(ar, g.l2Run[d], dh2[d*H2:], I, nil, 0, gl, dh1)
	}
	K := c.Tags
	dTag := ar.zeros(T * K)
	anyTags := false
	for _, s := range g.sents {
		if s.dTags != nil {
			copy(dTag[(s.tok0+1)*K:(s.tok0+1+s.n)*K], s.dTags)
			anyTags = true
		}
	}
	if anyTags {
		gemmTN(true, K, 2*H1, T, dTag, K, g.h1, 2*H1, gn.tagger.w, 2*H1)
		colSums(gn.tagger.b, dTag, T, K)
		gemmNN(true, T, 2*H1, K, dTag, K, p.w.tagger.w, 2*H1, dh1, 2*H1)
	}
	D, Dw := c.featDim(), c.WordDim
	dfeat := ar.zeros(T * D)
	for d := range 2 {
		gl := gn.lstm1.fwd
		if d == 1 {
			gl = gn.lstm1.bwd
		}
		p.l1[d].backward(ar, g.l1Run[d], dh1[d*H1:], 2*H1, nil, 0, gl, dfeat)
	}
	applyMask(dfeat, g.featMask)

	// Word embeddings and the character BiLSTM.
	ge := gn.wordEmb.w
	Hc := c.CharHidden
	nseq := len(g.charPk.lens)
	dcf := ar.zeros(nseq * 2 * Hc)
	for t, id := range g.tokens {
		addTo(ge[id*Dw:(id+1)*Dw], dfeat[t*D:t*D+Dw])
		q := g.tokSeq[t]
		addTo(dcf[q*2*Hc:(q+1)*2*Hc], dfeat[t*D+Dw:(t+1)*D])
	}
	Rc, Dc := len(g.charIDs), c.CharDim
	dx := ar.zeros(Rc * Dc)
	for d := range 2 {
		gl := gn.charLSTM.fwd
		if d == 1 {
			gl = gn.charLSTM.bwd
		}
		p.char[d].backward(ar, g.chRun[d], nil, 0, dcf[d*Hc:], 2*Hc, gl, dx)
	}
	applyMask(dx, g.charMask)
	gc := gn.charEmb.w
	for r, id := range g.charIDs {
		addTo(gc[id*Dc:(id+1)*Dc], dx[r*Dc:(r+1)*Dc])
	}
}
