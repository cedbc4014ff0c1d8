package network

import "math/rand/v2"

// charSequence returns the character ids the char BiLSTM reads for token p
// of a sentence (0 = BOS, 1..n = the words, n+1 = EOS): [BOW, the word's
// first MaxChars characters, EOW], or [BOW, BOS, EOW] and [BOW, EOS, EOW].
func (c Config) charSequence(in Input, p int) []int {
	switch p {
	case 0:
		return []int{BOWChar, BOSChar, EOWChar}
	case in.Len() + 1:
		return []int{BOWChar, EOSChar, EOWChar}
	}
	ids := in.CharIDs[p-1]
	ids = ids[:min(len(ids), c.MaxChars)]
	seq := make([]int, 0, len(ids)+2)
	seq = append(seq, BOWChar)
	seq = append(seq, ids...)
	return append(seq, EOWChar)
}

// charTape records the char BiLSTM over one token.
type charTape[T float] struct {
	seq  []int // [BOW, chars..., EOW]
	mask []T   // (len(seq), CharDim) dropout mask of the char embeddings
	bi   bilstmTape[T]
}

// charForward returns a token's character features (2*CharHidden): the
// forward LSTM's state after the last character and the backward LSTM's
// state after the first, over the (dropped-out) embeddings of seq.
func (m *net[T]) charForward(seq []int, rng *rand.Rand) ([]T, *charTape[T]) {
	Hc, ns := m.cfg.CharHidden, len(seq)
	x := m.charEmb.forward(seq)
	mask := dropoutMask[T](rng, len(x), m.cfg.DropChar)
	applyMask(x, mask)
	_, bt := m.charLSTM.forward(x, ns)
	f := make([]T, 2*Hc)
	copy(f, bt.fwd.h[(ns-1)*Hc:ns*Hc])
	copy(f[Hc:], bt.bwd.h[:Hc])
	return f, &charTape[T]{seq: seq, mask: mask, bi: bt}
}

// charBackward adds to g the gradients of the char BiLSTM and the char
// embeddings, given df (2*CharHidden), the gradient of the features.
func (m *net[T]) charBackward(ct *charTape[T], df []T, g *net[T]) {
	Hc, ns := m.cfg.CharHidden, len(ct.seq)
	dh := make([]T, ns*2*Hc) // only the two end states receive gradient
	copy(dh[(ns-1)*2*Hc:(ns-1)*2*Hc+Hc], df[:Hc])
	copy(dh[Hc:2*Hc], df[Hc:2*Hc])
	dx := make([]T, ns*m.cfg.CharDim)
	m.charLSTM.backward(ct.bi, dh, g.charLSTM, dx)
	applyMask(dx, ct.mask)
	m.charEmb.backward(ct.seq, dx, g.charEmb)
}
