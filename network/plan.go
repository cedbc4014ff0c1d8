package network

// BatchPlan is the layout of one training batch as the optimised path lays
// it out, with the dropout masks it draws, exported for the GPU backends
// (package netcuda) so that they compute exactly the network of this
// package, masks included, and can be checked against it.
//
// The batch's non-empty sentences form one group: their tokens (BOS, words,
// EOS) are the rows of a token matrix, sentence after sentence; their words
// the rows of a word matrix. Masks are inverted-dropout masks (0 or
// 1/(1-p)) drawn from the same generators as LossGrad with the same seed, or
// nil where the rate is 0 (or without training).
type BatchPlan struct {
	// Sentences lists the non-empty sentences, in batch order.
	Sentences []PlanSentence
	// Tokens (T) holds the word id of every token row.
	Tokens []int
	// TokenSeq (T) is the character sequence of every token row.
	TokenSeq []int
	// CharIDs holds the character ids of the sequences, one sequence after
	// another; CharSeqs packs them for the character BiLSTM.
	CharIDs  []int
	CharSeqs Packing
	// SentSeqs packs the sentences' token rows for the sentence BiLSTMs.
	SentSeqs Packing
	// CharMask (rows of CharIDs, CharDim), FeatMask (T, WordDim +
	// 2*CharHidden) and H2Mask (T, 2*LSTM2Hidden) are the masks of the
	// character embeddings, the word features and BiLSTM2's output.
	CharMask, FeatMask, H2Mask []float32
	// MLPMask[kind][module][side] (words, d) masks the endpoint MLPs'
	// outputs (kinds cont, disc, gap; modules span, label; sides left,
	// right).
	MLPMask [3][2][2][]float32
}

// PlanSentence places one sentence of a BatchPlan.
type PlanSentence struct {
	// Index is the sentence's place in the batch.
	Index int
	// Words is the number of words n; the sentence has n+2 tokens.
	Words int
	// Token0 and Word0 are its first token and first word rows.
	Token0, Word0 int
}

// Packing describes sequences stored as consecutive row ranges of a matrix,
// ordered for a batched recurrence: at step s the sequences longer than s
// are the first Active[s] of Order. A recurrence keeps its record
// step-major: step s owns rows Offset[s] .. Offset[s]+Active[s]-1, rank r of
// the step being sequence Order[r].
type Packing struct {
	Starts, Lens []int // first row and length of each sequence
	Order        []int // sequences by decreasing length, ties by index
	Active       []int // Active[s]: number of sequences longer than s
	Offset       []int // Offset[s]: first step-major row of step s (MaxLen+1 entries)
	Rows, MaxLen int
}

// Row returns the (sequence-major) row that the r-th sequence of Order reads
// at step s, from its start or, when reverse, from its end.
func (pk *Packing) Row(r, s int, reverse bool) int {
	q := pk.Order[r]
	if reverse {
		return pk.Starts[q] + pk.Lens[q] - 1 - s
	}
	return pk.Starts[q] + s
}

func exportPacking(pk *packing) Packing {
	return Packing{Starts: pk.starts, Lens: pk.lens, Order: pk.order, Active: pk.act, Offset: pk.off, Rows: pk.rows, MaxLen: pk.maxLen}
}

// PlanBatch returns the layout of batch for c and, when train, the dropout
// masks that LossGrad(batch, seed, ...) draws. It checks the batch as
// LossGrad does.
func PlanBatch(c Config, batch []Example, seed uint64, train bool) (*BatchPlan, error) {
	for i := range batch {
		if err := c.checkExample(&batch[i]); err != nil {
			return nil, err
		}
	}
	var ins []Input
	var rngs []pcg
	bp := &BatchPlan{}
	for i := range batch {
		if batch[i].Input.Len() == 0 {
			continue
		}
		ins = append(ins, batch[i].Input)
		if train {
			rngs = append(rngs, pcg{seed, uint64(i)}) // the source of sentenceRNG(seed, i)
		}
		bp.Sentences = append(bp.Sentences, PlanSentence{Index: i})
	}
	if len(ins) == 0 {
		return bp, nil
	}
	ar := &arena{} // not pooled: the masks are handed out
	g := newGroup(&prepared{cfg: c}, ar, ins, rngs, 0)
	for i, s := range g.sents {
		bp.Sentences[i].Words, bp.Sentences[i].Token0, bp.Sentences[i].Word0 = s.n, s.tok0, s.word0
	}
	bp.Tokens, bp.TokenSeq, bp.CharIDs = g.tokens, g.tokSeq, g.charIDs
	bp.CharSeqs = exportPacking(g.charPk)
	lens := make([]int, len(g.sents))
	for i, s := range g.sents {
		lens[i] = s.N
	}
	bp.SentSeqs = exportPacking(newPacking(lens))
	bp.CharMask, bp.FeatMask, bp.H2Mask = g.charMask, g.featMask, g.h2Mask
	for k := range numKinds {
		for mod := range 2 {
			bp.MLPMask[k][mod] = g.mods[k][mod].mask
		}
	}
	return bp, nil
}

// SumLoss returns the batch loss of per-sentence loss parts (cont, disc,
// gap, tag, hinge; one entry per sentence of batch, as LossGrad sums them).
func SumLoss(parts [][5]float64, batch []Example) Loss { return sumLoss(parts, batch) }
