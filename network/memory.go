package network

import "github.com/discspan/discspan/chart/decode"

// InferenceBytes returns an upper bound of the memory, in bytes, that
// scoring one sentence of n words allocates on the CPU (Forward) when it is
// longer than any the model scored before: its outputs (decode.ScoreBytes:
// the span scores of the three kinds; the tag logits) and the work memory
// of the forward pass, with every word counted at MaxChars characters, so
// that the bound holds whatever the words. The weights a model prepares
// once are not included. Callers check it against a budget before
// scoring: at 300 words, the tiny preset with 40 labels gives 41 MiB of
// outputs and at most 50 MiB of work memory (mostly the character
// BiLSTM's), 63 MiB with the quarter the arena reserves beyond it.
func (c Config) InferenceBytes(n int) int64 {
	if n <= 0 {
		return 0
	}
	n64 := int64(n)
	rows := n64*int64(c.MaxChars+2) + 2*3
	// Besides the float32 values, the bookkeeping (measured): character
	// ids, the map that reads repeated words once, the packings.
	books := 256<<10 + 8*(2*rows+256*(n64+2))
	work := c.inferenceWork(n64, rows)
	work += work / reserveSlack // the room the arena adds (reserve)
	return decode.ScoreBytes(n, c.Labels) + 4*n64*int64(c.Tags) + 4*work + books
}

// inferenceWork returns the number of float32 values the forward pass
// (inference) takes from the arena for the group: that of each sentence
// without its characters, and of the character rows of the group (words
// repeated in the group are read once).
func (g *group) inferenceWork() int64 {
	c := g.p.cfg
	var work int64
	for _, s := range g.sents {
		work += c.inferenceWork(int64(s.n), 0)
	}
	return work + int64(len(g.charIDs))*c.charRowWork()
}

// charRowWork returns the number of float32 values the forward pass takes
// for each row of the character BiLSTM: its input and both directions'.
func (c Config) charRowWork() int64 {
	Dc, Hc := int64(c.CharDim), int64(c.CharHidden)
	return Dc + 2*(Dc+6*Hc)
}

// inferenceWork returns the number of float32 values the forward pass
// (inference) takes from its arena for one sentence of n words whose
// tokens give the character BiLSTM rows rows (BOW, at most MaxChars
// characters and EOW for every word read; BOS and EOS three each).
func (c Config) inferenceWork(n, rows int64) int64 {
	T := n + 2                                            // tokens: BOS, the words, EOS
	lstm := func(rows, in, hid int64, seqs int64) int64 { // one direction
		return rows*(in+4*hid+2*hid) + 2*seqs*hid
	}
	Hc := int64(c.CharHidden)
	D, H1, H2 := int64(c.featDim()), int64(c.LSTM1Hidden), int64(c.LSTM2Hidden)
	work := rows*c.charRowWork() + T*2*Hc + 2*2*T*Hc // characters
	work += T*D + T*2*H1 + 2*lstm(T, D, H1, 1)       // BiLSTM1
	work += T * int64(c.Tags)                        // tagger
	work += T*2*H2 + 2*lstm(T, 2*H1, H2, 1) + n*2*H2 // BiLSTM2, word rows
	np := (n + 15) &^ 15
	for mod := range 2 {
		d, outs := c.moduleDims(mod)
		dd := int64(d) + 1
		perKind := 4*n*int64(d) + 2*n*dd + n*int64(outs)*dd // z, y; [l;1], [r;1]; t
		if mod == modSpan {
			perKind += dd*np + n*np // biaffineScores
		}
		work += numKinds * perKind
	}
	return work
}

// TrainingBytes returns an upper bound of the work memory, in bytes, that
// one training step (LossGrad) takes for a sentence of n words, every
// word counted at MaxChars characters: twice what its worker's arena
// hands out (trainingWork), for the chunks the arena holds while it grows
// to that. The parameters, their gradients and the optimiser's state are
// not included. Most of it is quadratic in n and linear in the labels:
// the span scores of the three kinds, their gradients and the biaffine
// outputs behind them (at 300 words, 100 labels, the tiny preset: about
// 1.3 GiB; 499 labels: 5.7 GiB).
func (c Config) TrainingBytes(n int) int64 {
	if n <= 0 {
		return 0
	}
	n64 := int64(n)
	rows := n64*int64(c.MaxChars+2) + 2*3
	return 4 * 2 * c.trainingWork(n64, rows)
}

// trainingWork returns an upper bound of the float32 values a training
// step takes from its arena for one sentence of n words whose tokens
// give the character BiLSTM rows rows: per kind, the biaffine outputs of
// both modules and their gradients (n x outputs x n rounded up to 16),
// the label scores and their gradients (n x n x labels), the label
// module's [l;1]W' rows and one gradient of them, and for the rest (the
// BiLSTMs with what backward keeps, masks, MLPs and their gradients)
// three times what inference takes (TestTrainingWorkBound measures it).
func (c Config) trainingWork(n, rows int64) int64 {
	np := (n + 15) &^ 15
	L, dl := int64(c.Labels), int64(c.LabelMLP)+1
	spans := numKinds * (2*n*np*(L+1) + 2*n*n*L)
	labelRows := (numKinds + 1) * n * L * dl
	return spans + labelRows + 3*c.inferenceWork(n, rows)
}
