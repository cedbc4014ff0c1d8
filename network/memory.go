package network

import "github.com/discspan/discspan/chart/decode"

// InferenceBytes returns an upper bound of the memory, in bytes, that
// scoring one sentence of n words allocates on the CPU (Forward) when it is
// longer than any the model scored before: its outputs (decode.ScoreBytes:
// the span scores of the three kinds; the tag logits) and the work memory
// of the forward pass, with every word counted at MaxChars characters, so
// that the bound holds whatever the words. The weights a model prepares
// once are not included. Callers check it against a budget before
// scoring: at 300 words the outputs of the tiny preset take about 28 MiB
// and its work memory at most 34 MiB, mostly the character BiLSTM's.
func (c Config) InferenceBytes(n int) int64 {
	if n <= 0 {
		return 0
	}
	n64 := int64(n)
	rows := n64*int64(c.MaxChars+2) + 2*3
	// Besides the float32 values, the bookkeeping (measured): character
	// ids, the map that reads repeated words once, the packings.
	books := 256<<10 + 8*(2*rows+192*(n64+2))
	return decode.ScoreBytes(n, c.Labels) + 4*n64*int64(c.Tags) + 4*c.inferenceWork(n64, rows) + books
}

// charRows returns the number of rows the character BiLSTM reads for in:
// BOW, at most MaxChars characters and EOW for every word, and three rows
// for each of BOS and EOS.
func (c Config) charRows(in Input) int64 {
	rows := int64(2 * 3)
	for _, w := range in.CharIDs {
		rows += int64(min(len(w), c.MaxChars) + 2)
	}
	return rows
}

// inferenceWork returns an upper bound of the number of float32 values the
// forward pass takes from its arena for one sentence of n words whose
// tokens give the character BiLSTM rows rows (charRows), without dropout
// (group.forward with out set). It is exact for distinct words; repeated
// ones are read once.
func (c Config) inferenceWork(n, rows int64) int64 {
	T := n + 2                                            // tokens: BOS, the words, EOS
	lstm := func(rows, in, hid int64, seqs int64) int64 { // one direction
		return rows*(in+4*hid+2*hid) + 2*seqs*hid
	}
	Dc, Hc := int64(c.CharDim), int64(c.CharHidden)
	D, H1, H2 := int64(c.featDim()), int64(c.LSTM1Hidden), int64(c.LSTM2Hidden)
	work := rows*Dc + T*2*Hc + 2*lstm(rows, Dc, Hc, T) // characters
	work += T*D + T*2*H1 + 2*lstm(T, D, H1, 1)         // BiLSTM1
	work += T * int64(c.Tags)                          // tagger
	work += T*2*H2 + 2*lstm(T, 2*H1, H2, 1) + n*2*H2   // BiLSTM2, word rows
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
