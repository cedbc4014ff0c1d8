package netcuda

import (
	"github.com/discspan/discspan/cuda"
	"github.com/discspan/discspan/network"
)

// The training step on the device, in the order of network's group.forward,
// group.loss and group.backward (fast_net.go), over the whole batch at once:
//
//   - the recurrences keep their records step-major as on the CPU (the same
//     network.Packing): one product for the input projections of all rows,
//     then per step one product for the recurrence and one cell kernel;
//   - the word rows of the modules are PADDED: sentence b owns rows
//     b*nm .. b*nm+nm-1 (nm: the longest sentence), so that the pairwise
//     biaffine products are strided batched products over sentences (the
//     cells x > y and the padding are computed and then get gradient 0).

// lstmDir is one direction's index arrays over a packing (device, int32).
type lstmDir struct {
	pk      *network.Packing
	rev     bool
	rows    int
	rowIdx  cuda.Ptr // step-major row -> sequence-major row
	invIdx  cuda.Ptr // sequence-major row -> step-major row
	prevIdx cuda.Ptr // step-major row (from the second step) -> the same sequence's row at the previous step
	lastIdx cuda.Ptr // sequence -> its last step-major row
	lastOf  cuda.Ptr // step-major row -> its sequence if it is the last step, else -1
}

func (g *gpu) newLSTMDir(pk *network.Packing, rev bool) *lstmDir {
	R := pk.Rows
	row, inv := make([]int32, R), make([]int32, R)
	var prev []int32
	last := make([]int32, len(pk.Lens))
	lastOf := make([]int32, R)
	rank := make([]int, len(pk.Lens))
	for r, q := range pk.Order {
		rank[q] = r
	}
	for s := 0; s < pk.MaxLen; s++ {
		for r := 0; r < pk.Active[s]; r++ {
			sm := pk.Offset[s] + r
			sr := pk.Row(r, s, rev)
			row[sm], inv[sr] = int32(sr), int32(sm)
			if s > 0 {
				prev = append(prev, int32(pk.Offset[s-1]+r))
			}
			lastOf[sm] = -1
			if q := pk.Order[r]; s == pk.Lens[q]-1 {
				lastOf[sm] = int32(q)
			}
		}
	}
	for q, l := range pk.Lens {
		last[q] = int32(pk.Offset[l-1] + rank[q])
	}
	return &lstmDir{pk: pk, rev: rev, rows: R, rowIdx: upload(g, row), invIdx: upload(g, inv), prevIdx: upload(g, prev), lastIdx: upload(g, last), lastOf: upload(g, lastOf)}
}

// lstmRec records one direction's forward pass.
type lstmRec struct {
	dir                *lstmDir
	in, H              int
	wih, whh, b        cuda.Ptr // weights
	gwih, gwhh, gb     cuda.Ptr // their gradients
	x, gates, c, h, tc cuda.Ptr
}

// lstmForward runs one direction over the rows of x (sequence-major, row
// stride ldx, in values per row).
func (t *Trainer) lstmForward(dir *lstmDir, prefix string, in, H int, x cuda.Ptr, ldx int) *lstmRec {
	g := t.g
	R, G := dir.rows, 4*H
	rec := &lstmRec{dir: dir, in: in, H: H,
		wih: t.w(t.p, prefix+".w_ih"), whh: t.w(t.p, prefix+".w_hh"), b: t.w(t.p, prefix+".b"),
		gwih: t.w(t.gr, prefix+".w_ih"), gwhh: t.w(t.gr, prefix+".w_hh"), gb: t.w(t.gr, prefix+".b")}
	rec.x, rec.gates = g.take(R*in), g.take(R*G)
	rec.c, rec.h, rec.tc = g.take(R*H), g.take(R*H), g.take(R*H)
	g.gather(rec.x, in, x, ldx, dir.rowIdx, R, in, false)
	g.gemm(false, true, R, G, in, 1, rec.x, in, rec.wih, in, 0, rec.gates, G)
	pk := dir.pk
	for s := 0; s < pk.MaxLen; s++ {
		a, o := pk.Active[s], pk.Offset[s]
		var cp cuda.Ptr
		if s > 0 {
			p := pk.Offset[s-1]
			g.gemm(false, true, a, G, H, 1, rec.h.Add(p*H), H, rec.whh, H, 1, rec.gates.Add(o*G), G)
			cp = rec.c.Add(p * H)
		}
		g.launch("lstm_fwd", a*H, cuda.P(rec.gates.Add(o*G)), cuda.P(rec.b), cuda.P(cp), cuda.P(rec.c.Add(o*H)),
			cuda.P(rec.tc.Add(o*H)), cuda.P(rec.h.Add(o*H)), cuda.I(H), cuda.I(a))
	}
	return rec
}

// lstmBackward backpropagates through one direction, adds the weight
// gradients and adds the input gradient to dx (sequence-major, row stride
// in). The gradient of step-major row r's output is row idx[r] of dout (row
// stride ldo; idx[r] < 0: none): the sequence rows' gradients (rowIdx) or
// the last states' (lastOf).
func (t *Trainer) lstmBackward(rec *lstmRec, dout cuda.Ptr, ldo int, idx cuda.Ptr, dx cuda.Ptr, ones cuda.Ptr) {
	g := t.g
	pk, H, in := rec.dir.pk, rec.H, rec.in
	R, G := rec.dir.rows, 4*H
	dh := g.take(R * H)
	g.gather(dh, H, dout, ldo, idx, R, H, false)
	a0 := pk.Active[0]
	dA := g.take(R * G)
	dhn := g.take(a0 * H)
	dcn := g.take(a0 * H)
	for s := pk.MaxLen - 1; s >= 0; s-- {
		a, o, an := pk.Active[s], pk.Offset[s], 0
		if s+1 < pk.MaxLen {
			an = pk.Active[s+1]
		}
		var cp cuda.Ptr
		if s > 0 {
			cp = rec.c.Add(pk.Offset[s-1] * H)
		}
		g.launch("lstm_bwd", a*H, cuda.P(rec.gates.Add(o*G)), cuda.P(cp), cuda.P(rec.tc.Add(o*H)), cuda.P(dh.Add(o*H)),
			cuda.P(dhn), cuda.P(dcn), cuda.P(dA.Add(o*G)), cuda.I(H), cuda.I(a), cuda.I(an))
		if s > 0 {
			g.gemm(false, false, a, H, G, 1, dA.Add(o*G), G, rec.whh, H, 0, dhn, H)
		}
	}
	if R > a0 {
		hp := g.take((R - a0) * H)
		g.gather(hp, H, rec.h, H, rec.dir.prevIdx, R-a0, H, false)
		g.gemm(true, false, G, H, R-a0, 1, dA.Add(a0*G), G, hp, H, 1, rec.gwhh, H)
	}
	g.gemm(true, false, G, in, R, 1, dA, G, rec.x, in, 1, rec.gwih, in)
	g.gemm(false, false, 1, G, R, 1, ones, R, dA, G, 1, rec.gb, G)
	dxs := g.take(R * in)
	g.gemm(false, false, R, in, G, 1, dA, G, rec.wih, in, 0, dxs, in)
	g.gather(dx, in, dxs, in, rec.dir.invIdx, R, in, true)
}

// modRec records one module (kind k, span or label) over the padded words.
type modRec struct {
	d, O, Dd int
	z, mask  [2]cuda.Ptr // per side: pre-activations (P, d), dropout mask (words, d; or 0)
	lr       [2]cuda.Ptr // [l;1], [r;1] (P, Dd)
	tq       cuda.Ptr    // (P, O*Dd): t[x][o*Dd+j] = Σ_i l1[x][i] w[o][i][j]
	s        cuda.Ptr    // (B, nm*O, nm) scores
}

var kindNames = [3]string{"cont", "disc", "gap"}
var modNames = [2]string{"span", "label"}
var sideNames = [2]string{"left", "right"}

// forwardOut is where a forward pass alone leaves its results (device
// buffers of the arena): each kind's span scores (B, nm, nm) and label
// scores (B, nm*L, nm), and the tag logits of every token (T, Tags).
type forwardOut struct {
	nm          int
	span, label [3]cuda.Ptr
	tags        cuda.Ptr
}

// lossGrad runs the forward pass, the losses and the backward pass of the
// planned batch, adding the gradients to t.gr; it returns the device
// buffer of the per-sentence loss parts (float64, 5 per planned sentence).
// With out, it stops after the forward pass and records the scores there.
func (t *Trainer) lossGrad(plan *network.BatchPlan, batch []network.Example, out *forwardOut) cuda.Ptr {
	g, c := t.g, t.cfg
	B := len(plan.Sentences)
	T := len(plan.Tokens)
	nm := 0
	for _, s := range plan.Sentences {
		nm = max(nm, s.Words)
	}
	P := B * nm
	Dw, Dc, Hc := c.WordDim, c.CharDim, c.CharHidden
	D := Dw + 2*Hc
	H1, H2 := c.LSTM1Hidden, c.LSTM2Hidden
	I := 2 * H2
	K, L := c.Tags, c.Labels
	Rc := len(plan.CharIDs)
	nseq := len(plan.CharSeqs.Lens)
	scale := float32(1 / float64(len(batch)))

	// Indices, targets and masks: one copy each.
	i32 := func(xs []int) []int32 {
		out := make([]int32, len(xs))
		for i, x := range xs {
			out[i] = int32(x)
		}
		return out
	}
	charIDs, tokens, tokSeq := upload(g, i32(plan.CharIDs)), upload(g, i32(plan.Tokens)), upload(g, i32(plan.TokenSeq))
	padIdx := make([]int32, P)
	wordRow := make([]int32, P) // padded row -> word row, -1 for padding
	wordTok := make([]int32, T)
	tags := make([]int32, T)
	tokSent := make([]int32, T)
	nwords := make([]int32, B)
	var tgt [3][]int32
	for k := range tgt {
		tgt[k] = make([]int32, B*nm*nm)
	}
	for i := range wordTok {
		wordTok[i], tags[i] = -1, -1
	}
	for b, s := range plan.Sentences {
		nwords[b] = int32(s.Words)
		ex := &batch[s.Index]
		for t := 0; t < s.Words+2; t++ {
			tokSent[s.Token0+t] = int32(b)
		}
		for x := 0; x < nm; x++ {
			padIdx[b*nm+x], wordRow[b*nm+x] = -1, -1
			if x < s.Words {
				wordRow[b*nm+x] = int32(s.Word0 + x)
				padIdx[b*nm+x] = int32(s.Token0 + 1 + x)
				wordTok[s.Token0+1+x] = int32(b*nm + x)
				if ex.Targets.Tags != nil {
					tags[s.Token0+1+x] = int32(ex.Targets.Tags[x])
				}
			}
		}
		n := s.Words
		for k, gold := range [3][]int{ex.Targets.Cont, ex.Targets.Disc, ex.Targets.Gap} {
			for x := 0; x < n; x++ {
				for y := x; y < n; y++ {
					tgt[k][b*nm*nm+x*nm+y] = int32(gold[x*n+y])
				}
			}
		}
	}
	dPad, dWordRow, dWordTok, dTags, dTokSent, dN := upload(g, padIdx), upload(g, wordRow), upload(g, wordTok), upload(g, tags), upload(g, tokSent), upload(g, nwords)
	var dTgt [3]cuda.Ptr
	for k := range tgt {
		dTgt[k] = upload(g, tgt[k])
	}
	soft := softTargets(plan, batch, nm, L)
	var dSoft [3]softRows
	var dSoftWeight cuda.Ptr
	if soft != nil {
		dSoftWeight = upload(g, soft.weight)
		for k := range dSoft {
			dSoft[k] = softRows{idx: upload(g, soft.idx[k]), prob: upload(g, soft.prob[k])}
		}
	}
	charMask, featMask, h2Mask := upload(g, plan.CharMask), upload(g, plan.FeatMask), upload(g, plan.H2Mask)
	charDirs := [2]*lstmDir{g.newLSTMDir(&plan.CharSeqs, false), g.newLSTMDir(&plan.CharSeqs, true)}
	sentDirs := [2]*lstmDir{g.newLSTMDir(&plan.SentSeqs, false), g.newLSTMDir(&plan.SentSeqs, true)}
	ones := g.take(max(Rc, T, P, 1))
	g.launch("fill", max(Rc, T, P, 1), cuda.P(ones), cuda.Arg(max(Rc, T, P, 1)), cuda.F(1))
	parts := g.zeros(2 * 5 * B)

	// Characters.
	charX := g.take(Rc * Dc)
	g.gather(charX, Dc, t.w(t.p, "char.emb"), Dc, charIDs, Rc, Dc, false)
	g.mulMask(charX, charMask, Rc*Dc)
	charFeat := g.take(nseq * 2 * Hc)
	var chRec [2]*lstmRec
	for d, dirName := range [2]string{"fwd", "bwd"} {
		chRec[d] = t.lstmForward(charDirs[d], "char_lstm."+dirName, Dc, Hc, charX, Dc)
		g.gather(charFeat.Add(d*Hc), 2*Hc, chRec[d].h, Hc, charDirs[d].lastIdx, nseq, Hc, false)
	}

	// Word features, BiLSTM1, the tagger, BiLSTM2.
	feat := g.take(T * D)
	g.gather(feat, D, t.w(t.p, "word.emb"), Dw, tokens, T, Dw, false)
	g.gather(feat.Add(Dw), D, charFeat, 2*Hc, tokSeq, T, 2*Hc, false)
	g.mulMask(feat, featMask, T*D)
	h1 := g.take(T * 2 * H1)
	var l1Rec, l2Rec [2]*lstmRec
	for d, dirName := range [2]string{"fwd", "bwd"} {
		l1Rec[d] = t.lstmForward(sentDirs[d], "lstm1."+dirName, D, H1, feat, D)
		g.gather(h1.Add(d*H1), 2*H1, l1Rec[d].h, H1, sentDirs[d].invIdx, T, H1, false)
	}
	tagLogits := g.take(T * K)
	g.gemm(false, true, T, K, 2*H1, 1, h1, 2*H1, t.w(t.p, "tagger.w"), 2*H1, 0, tagLogits, K)
	g.addBias(tagLogits, K, t.w(t.p, "tagger.b"), T, K)
	h2 := g.take(T * I)
	for d, dirName := range [2]string{"fwd", "bwd"} {
		l2Rec[d] = t.lstmForward(sentDirs[d], "lstm2."+dirName, 2*H1, H2, h1, 2*H1)
		g.gather(h2.Add(d*H2), I, l2Rec[d].h, H2, sentDirs[d].invIdx, T, H2, false)
	}
	g.mulMask(h2, h2Mask, T*I)
	words := g.take(P * I)
	g.gather(words, I, h2, I, dPad, P, I, false)

	// Modules over the padded words, then the sentences' biaffine scores.
	slope := float32(c.LeakySlope)
	var mods [3][2]modRec
	for k := range 3 {
		for mod := range 2 {
			mr := &mods[k][mod]
			name := kindNames[k] + "." + modNames[mod]
			mr.d, mr.O = c.SpanMLP, 1
			if mod == 1 {
				mr.d, mr.O = c.LabelMLP, L
			}
			d, O := mr.d, mr.O
			Dd := d + 1
			mr.Dd = Dd
			for side := range 2 {
				mr.mask[side] = upload(g, plan.MLPMask[k][mod][side]) // (words, d), read through dWordRow
				wn := name + "." + sideNames[side]
				mr.z[side] = g.take(P * d)
				g.gemm(false, true, P, d, I, 1, words, I, t.w(t.p, wn+".w"), I, 0, mr.z[side], d)
				g.addBias(mr.z[side], d, t.w(t.p, wn+".b"), P, d)
				mr.lr[side] = g.take(P * Dd)
				g.launch("leaky_one", P*Dd, cuda.P(mr.z[side]), cuda.P(mr.mask[side]), cuda.P(dWordRow), cuda.P(mr.lr[side]), cuda.I(P), cuda.I(d), cuda.F(slope))
			}
			bw := t.w(t.p, name+".biaffine")
			mr.tq = g.take(P * O * Dd)
			g.gemmBatched(false, false, P, Dd, Dd, 1, mr.lr[0], Dd, 0, bw, Dd, Dd*Dd, 0, mr.tq, O*Dd, Dd, O)
			mr.s = g.take(B * nm * O * nm)
			g.gemmBatched(false, true, nm*O, nm, Dd, 1, mr.tq, Dd, nm*O*Dd, mr.lr[1], Dd, nm*Dd, 0, mr.s, nm, nm*O*nm, B)
		}
	}

	if out != nil {
		out.nm, out.tags = nm, tagLogits
		for k := range 3 {
			out.span[k], out.label[k] = mods[k][0].s, mods[k][1].s
		}
		return 0
	}

	// Losses and the score gradients.
	var dspan, dlab [3]cuda.Ptr
	for k := range 3 {
		dspan[k], dlab[k] = g.take(B*nm*nm), g.take(B*nm*L*nm)
		if g.err == nil && nm > 0 {
			g.after("span_ce", g.dev.Launch(g.k["span_ce"], [3]int{(nm*nm + threads - 1) / threads, B, 1}, [3]int{threads, 1, 1}, 0,
				cuda.P(mods[k][0].s), cuda.P(mods[k][1].s), cuda.P(dTgt[k]), cuda.P(dSoft[k].idx), cuda.P(dSoft[k].prob), cuda.P(dSoftWeight),
				cuda.P(dN), cuda.P(dspan[k]), cuda.P(dlab[k]), cuda.P(parts),
				cuda.I(k), cuda.I(nm), cuda.I(L), cuda.F(scale)))
		}
	}
	dTag := g.take(T * K)
	g.launch("tag_ce", T, cuda.P(tagLogits), cuda.P(dTags), cuda.P(dTokSent), cuda.P(dTag), cuda.P(parts), cuda.I(T), cuda.I(K), cuda.F(scale))

	// Backward: modules.
	dWords := g.zeros(P * I)
	for k := range 3 {
		for mod := range 2 {
			mr := &mods[k][mod]
			name := kindNames[k] + "." + modNames[mod]
			d, O, Dd := mr.d, mr.O, mr.Dd
			ds := dspan[k]
			if mod == 1 {
				ds = dlab[k]
			}
			dT := g.take(P * O * Dd)
			g.gemmBatched(false, false, nm*O, Dd, nm, 1, ds, nm, nm*O*nm, mr.lr[1], Dd, nm*Dd, 0, dT, Dd, nm*O*Dd, B)
			dR := g.take(P * Dd)
			g.gemmBatched(true, false, nm, Dd, nm*O, 1, ds, nm, nm*O*nm, mr.tq, Dd, nm*O*Dd, 0, dR, Dd, nm*Dd, B)
			bw := t.w(t.p, name+".biaffine")
			bT := g.take(O * Dd * Dd)
			g.launch("transpose_batched", O*Dd*Dd, cuda.P(bT), cuda.P(bw), cuda.I(O), cuda.I(Dd))
			dL := g.take(P * Dd)
			g.gemm(false, false, P, Dd, O*Dd, 1, dT, O*Dd, bT, Dd, 0, dL, Dd)
			g.gemmBatched(true, false, Dd, Dd, P, 1, mr.lr[0], Dd, 0, dT, O*Dd, Dd, 1, t.w(t.gr, name+".biaffine"), Dd, Dd*Dd, O)
			for side, src := range [2]cuda.Ptr{dL, dR} {
				wn := name + "." + sideNames[side]
				dz := g.take(P * d)
				g.launch("leaky_back", P*d, cuda.P(dz), cuda.P(src), cuda.I(Dd), cuda.P(mr.z[side]), cuda.P(mr.mask[side]), cuda.P(dWordRow), cuda.I(P), cuda.I(d), cuda.F(slope))
				g.gemm(true, false, d, I, P, 1, dz, d, words, I, 1, t.w(t.gr, wn+".w"), I)
				g.gemm(false, false, 1, d, P, 1, ones, P, dz, d, 1, t.w(t.gr, wn+".b"), d)
				g.gemm(false, false, P, I, d, 1, dz, d, t.w(t.p, wn+".w"), I, 1, dWords, I)
			}
		}
	}

	// BiLSTM2 (through its dropout), the tagger, BiLSTM1.
	dh2 := g.take(T * I)
	g.gather(dh2, I, dWords, I, dWordTok, T, I, false)
	g.mulMask(dh2, h2Mask, T*I)
	dh1 := g.zeros(T * 2 * H1)
	for d := range 2 {
		t.lstmBackward(l2Rec[d], dh2.Add(d*H2), I, sentDirs[d].rowIdx, dh1, ones)
	}
	g.gemm(true, false, K, 2*H1, T, 1, dTag, K, h1, 2*H1, 1, t.w(t.gr, "tagger.w"), 2*H1)
	g.gemm(false, false, 1, K, T, 1, ones, T, dTag, K, 1, t.w(t.gr, "tagger.b"), K)
	g.gemm(false, false, T, 2*H1, K, 1, dTag, K, t.w(t.p, "tagger.w"), 2*H1, 1, dh1, 2*H1)
	dfeat := g.zeros(T * D)
	for d := range 2 {
		t.lstmBackward(l1Rec[d], dh1.Add(d*H1), 2*H1, sentDirs[d].rowIdx, dfeat, ones)
	}
	g.mulMask(dfeat, featMask, T*D)

	// Word embeddings and the character BiLSTM.
	g.scatterAdd(t.w(t.gr, "word.emb"), Dw, dfeat, D, tokens, T, Dw)
	dcf := g.zeros(nseq * 2 * Hc)
	g.scatterAdd(dcf, 2*Hc, dfeat.Add(Dw), D, tokSeq, T, 2*Hc)
	dcx := g.zeros(Rc * Dc)
	for d := range 2 {
		t.lstmBackward(chRec[d], dcf.Add(d*Hc), 2*Hc, charDirs[d].lastOf, dcx, ones)
	}
	g.mulMask(dcx, charMask, Rc*Dc)
	g.scatterAdd(t.w(t.gr, "char.emb"), Dc, dcx, Dc, charIDs, Rc, Dc)
	return parts
}
