package network

import (
	"fmt"
	"math/rand/v2"
)

// tape records the forward pass of one sentence for the backward pass.
type tape[T float] struct {
	n      int   // words
	tokens []int // n+2 word ids: BOS, words, EOS

	chars     []*charTape[T]              // per token
	feat      []T                         // (N, featDim) BiLSTM1 input, after dropout
	featMask  []T                         // (N, featDim)
	l1        bilstmTape[T]               // BiLSTM1
	h1        []T                         // (N, 2*LSTM1Hidden)
	tagLogits []T                         // (n, Tags)
	l2        bilstmTape[T]               // BiLSTM2
	h2        []T                         // (N, 2*LSTM2Hidden), after dropout
	h2Mask    []T                         // (N, 2*LSTM2Hidden)
	mlps      [numKinds][2][2]*mlpTape[T] // [kind][module][left, right]
	bis       [numKinds][2]*biaffineTape[T]
	scores    [numKinds][]T // (n, n, Labels): span + label score, 0 for x > y
}

// checkInput reports an error when in does not fit c.
func (c Config) checkInput(in Input) error {
	if len(in.CharIDs) != len(in.WordIDs) {
		return fmt.Errorf("%d words but %d character sequences", len(in.WordIDs), len(in.CharIDs))
	}
	for i, id := range in.WordIDs {
		if id < 0 || id >= c.WordVocab {
			return fmt.Errorf("word %d: id %d outside [0,%d)", i, id, c.WordVocab)
		}
		for _, ch := range in.CharIDs[i] {
			if ch < 0 || ch >= c.CharVocab {
				return fmt.Errorf("word %d: char id %d outside [0,%d)", i, ch, c.CharVocab)
			}
		}
	}
	return nil
}

// forward runs the network on one sentence. rng draws the dropout masks; nil
// means inference (no dropout). Cost, per sentence of n words, dominated by
// the BiLSTMs (O(n*H*(in+H))) and the label biaffines (O(n*Labels*d^2)).
func (m *net[T]) forward(in Input, rng *rand.Rand) *tape[T] {
	c := m.cfg
	n := in.Len()
	N := n + 2
	tp := &tape[T]{n: n, tokens: make([]int, N)}
	tp.tokens[0], tp.tokens[N-1] = BOSWord, EOSWord
	copy(tp.tokens[1:], in.WordIDs)

	// Character features: [fwd state after EOW; bwd state after BOW].
	Hc := c.CharHidden
	charFeat := make([]T, N*2*Hc)
	tp.chars = make([]*charTape[T], N)
	for p := 0; p < N; p++ {
		var f []T
		f, tp.chars[p] = m.charForward(c.charSequence(in, p), rng)
		copy(charFeat[p*2*Hc:], f)
	}

	// Word features [word embedding; char features], then BiLSTM1.
	D, Dw := c.featDim(), c.WordDim
	emb := m.wordEmb.forward(tp.tokens)
	tp.feat = make([]T, N*D)
	for p := 0; p < N; p++ {
		copy(tp.feat[p*D:], emb[p*Dw:(p+1)*Dw])
		copy(tp.feat[p*D+Dw:(p+1)*D], charFeat[p*2*Hc:(p+1)*2*Hc])
	}
	tp.featMask = dropoutMask[T](rng, len(tp.feat), c.DropFeat)
	applyMask(tp.feat, tp.featMask)
	tp.h1, tp.l1 = m.lstm1.forward(tp.feat, N)

	// POS tagger on the words' BiLSTM1 states.
	H1 := 2 * c.LSTM1Hidden
	tp.tagLogits = m.tagger.forward(tp.h1[H1:(n+1)*H1], n)

	// BiLSTM2 and its output dropout.
	tp.h2, tp.l2 = m.lstm2.forward(tp.h1, N)
	tp.h2Mask = dropoutMask[T](rng, len(tp.h2), c.DropLSTM)
	applyMask(tp.h2, tp.h2Mask)
	H2 := 2 * c.LSTM2Hidden
	words := tp.h2[H2 : (n+1)*H2]

	// Six biaffine modules over the words.
	slope := T(c.LeakySlope)
	var out [numKinds][2][]T
	for k := range numKinds {
		for mod := range 2 {
			md := m.mods[k][mod]
			d := md.left.out
			l := md.left.mlpForward(words, n, slope, dropoutMask[T](rng, n*d, c.DropMLP))
			r := md.right.mlpForward(words, n, slope, dropoutMask[T](rng, n*d, c.DropMLP))
			tp.mlps[k][mod] = [2]*mlpTape[T]{l, r}
			out[k][mod], tp.bis[k][mod] = md.bi.forward(l.y, r.y, n)
		}
	}

	// Final scores: span score + label score, for x <= y only.
	L := c.Labels
	for k := range numKinds {
		s := make([]T, n*n*L)
		span, label := out[k][modSpan], out[k][modLabel]
		for x := 0; x < n; x++ {
			for y := x; y < n; y++ {
				off := (x*n + y) * L
				for a := 0; a < L; a++ {
					s[off+a] = span[x*n+y] + label[off+a]
				}
			}
		}
		tp.scores[k] = s
	}
	return tp
}

// backward backpropagates the gradients dScores[k] (n, n, Labels) of the
// final scores and dTags (n, Tags) of the tag logits (nil: none) through the
// network, adding the parameter gradients to g.
func (m *net[T]) backward(tp *tape[T], dScores [numKinds][]T, dTags []T, g *net[T]) {
	c := m.cfg
	n, N, L := tp.n, tp.n+2, c.Labels
	H1, H2 := 2*c.LSTM1Hidden, 2*c.LSTM2Hidden
	slope := T(c.LeakySlope)

	// Modules: the span module's gradient is the sum over labels.
	dWords := make([]T, n*H2)
	for k := range numKinds {
		dSpan := make([]T, n*n)
		for xy := range dSpan {
			for _, v := range dScores[k][xy*L : (xy+1)*L] {
				dSpan[xy] += v
			}
		}
		for mod, ds := range [2][]T{dSpan, dScores[k]} {
			md, gm := m.mods[k][mod], g.mods[k][mod]
			d := md.left.out
			dl, dr := make([]T, n*d), make([]T, n*d)
			md.bi.backward(tp.bis[k][mod], ds, gm.bi, dl, dr)
			md.left.mlpBackward(tp.mlps[k][mod][0], dl, slope, gm.left, dWords)
			md.right.mlpBackward(tp.mlps[k][mod][1], dr, slope, gm.right, dWords)
		}
	}

	// BiLSTM2 (through its output dropout), the tagger, BiLSTM1.
	dh2 := make([]T, N*H2)
	copy(dh2[H2:], dWords)
	applyMask(dh2, tp.h2Mask)
	dh1 := make([]T, N*H1)
	m.lstm2.backward(tp.l2, dh2, g.lstm2, dh1)
	if dTags != nil {
		m.tagger.backward(tp.h1[H1:(n+1)*H1], dTags, n, g.tagger, dh1[H1:(n+1)*H1])
	}
	D, Dw := c.featDim(), c.WordDim
	dfeat := make([]T, N*D)
	m.lstm1.backward(tp.l1, dh1, g.lstm1, dfeat)
	applyMask(dfeat, tp.featMask)

	// Word embeddings (sparse rows) and the char BiLSTM of every token.
	dEmb := make([]T, N*Dw)
	for p := 0; p < N; p++ {
		copy(dEmb[p*Dw:(p+1)*Dw], dfeat[p*D:])
	}
	m.wordEmb.backward(tp.tokens, dEmb, g.wordEmb)
	for p := 0; p < N; p++ {
		m.charBackward(tp.chars[p], dfeat[p*D+Dw:(p+1)*D], g)
	}
}
