// Package onnxexport writes a discspan scoring network (network.Params and
// its Config) as an ONNX model that computes the same span scores and tag
// logits as the CPU forward pass (network.Model.Forward), so that ONNX
// Runtime (Web) can be timed against the in-tab scoring on the very same
// model: see BenchmarkBrowserORT and docs/browser-app.md.
//
// The protobuf is written by hand (onnx.proto's field numbers, proto.go
// and onnx.go), with standard operators only (opset 17): Gather for the
// embeddings, LSTM (bidirectional, with sequence_lens for the characters)
// for the three BiLSTMs, Gemm, LeakyRelu, Split, Pad and MatMul for the
// endpoint MLPs and the biaffines. One model scores one sentence:
//
//	inputs  word_ids  int64 (tokens)          BOS, the words' ids, EOS
//	        char_ids  int64 (chars, tokens)   each token's [BOW, chars, EOW], time-major, padded
//	        char_lens int32 (tokens)          the lengths of those sequences
//	outputs cont, disc, gap float (words, words, labels)
//	        tags            float (words, tags)
//
// (NewFeeds builds the inputs from a network.Input.) The score of a pair
// x > y is computed too (the network's Forward leaves it 0; the decoders
// never read it): the graph scores all n² pairs where discspan's kernels
// score the n(n+1)/2 pairs x <= y.
package onnxexport

import (
	"errors"
	"fmt"

	"github.com/discspan/discspan/network"
)

// Export returns the ONNX encoding of the network p (any preset; p's
// Config gives the sizes). Cost O(number of weights).
func Export(p *network.Params) ([]byte, error) {
	c := p.Config()
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("onnxexport: %w", err)
	}
	var missing []error
	get := func(name string) []float32 {
		t := p.Get(name)
		if t == nil {
			missing = append(missing, fmt.Errorf("no tensor %s", name))
			return nil
		}
		return t.Data
	}
	g := &graph{}
	g.input("word_ids", typeInt64, "tokens")
	g.input("char_ids", typeInt64, "chars", "tokens")
	g.input("char_lens", typeInt32, "tokens")

	// Character BiLSTM: Y_h (2, tokens, Hc) is [forward state after the
	// last valid character; backward state after the first].
	Hc := c.CharHidden
	charX := g.op("Gather", []string{g.floats("char.emb", dims(c.CharVocab, c.CharDim), get("char.emb")), "char_ids"})
	charH := g.fresh("char_h")
	w, r, b := lstmWeights(get, "char_lstm", c.CharDim, Hc)
	g.opNamed("LSTM", []string{charX, g.floats("char_lstm.W", dims(2, 4*Hc, c.CharDim), w),
		g.floats("char_lstm.R", dims(2, 4*Hc, Hc), r), g.floats("char_lstm.B", dims(2, 8*Hc), b), "char_lens"},
		[]string{"", charH}, stringAttr("direction", "bidirectional"), intAttr("hidden_size", int64(Hc)))
	charF := g.op("Reshape", []string{g.op("Transpose", []string{charH}, intsAttr("perm", 1, 0, 2)), g.ints(nil, -1, int64(2*Hc))})

	// Word features [embedding; char features] and the sentence BiLSTMs;
	// Y (tokens, 2, 1, H) reshaped to (tokens, 2H) is [fwd; bwd].
	wordE := g.op("Gather", []string{g.floats("word.emb", dims(c.WordVocab, c.WordDim), get("word.emb")), "word_ids"})
	feat := g.op("Concat", []string{wordE, charF}, intAttr("axis", 1))
	bilstm := func(x, prefix string, in, H int) string {
		w, r, b := lstmWeights(get, prefix, in, H)
		y := g.op("LSTM", []string{g.op("Unsqueeze", []string{x, g.ints(nil, 1)}),
			g.floats(prefix+".W", dims(2, 4*H, in), w), g.floats(prefix+".R", dims(2, 4*H, H), r), g.floats(prefix+".B", dims(2, 8*H), b)},
			stringAttr("direction", "bidirectional"), intAttr("hidden_size", int64(H)))
		return g.op("Reshape", []string{y, g.ints(nil, -1, int64(2*H))})
	}
	wordRows := func(x string) string { // rows 1..n: the words, without BOS and EOS
		return g.op("Slice", []string{x, g.ints(nil, 1), g.ints(nil, -1), g.ints(nil, 0)})
	}
	h1 := bilstm(feat, "lstm1", c.WordDim+2*Hc, c.LSTM1Hidden)
	g.opNamed("Gemm", []string{wordRows(h1), g.floats("tagger.w", dims(c.Tags, 2*c.LSTM1Hidden), get("tagger.w")),
		g.floats("tagger.b", dims(c.Tags), get("tagger.b"))}, []string{"tags"}, intAttr("transB", 1))
	words := wordRows(bilstm(h1, "lstm2", 2*c.LSTM1Hidden, c.LSTM2Hidden))

	// The twelve endpoint MLPs ([kind][span, label][left, right]) as one
	// product, then split.
	I := 2 * c.LSTM2Hidden
	var mlpW, mlpB []float32
	var split []int64
	kinds := [3]string{"cont", "disc", "gap"}
	for _, k := range kinds {
		for _, mod := range []string{"span", "label"} {
			for _, side := range []string{"left", "right"} {
				pre := k + "." + mod + "." + side
				mlpW = append(mlpW, get(pre+".w")...)
				mlpB = append(mlpB, get(pre+".b")...)
				split = append(split, int64(len(get(pre+".b"))))
			}
		}
	}
	if err := errors.Join(missing...); err != nil {
		return nil, fmt.Errorf("onnxexport: %w", err)
	}
	z := g.op("Gemm", []string{words, g.floats("mlp.w", dims(len(mlpB), I), mlpW), g.floats("mlp.b", dims(len(mlpB)), mlpB)}, intAttr("transB", 1))
	ys := g.opN("Split", []string{g.op("LeakyRelu", []string{z}, floatAttr("alpha", float32(c.LeakySlope))), g.ints(nil, split...)}, len(split), intAttr("axis", 1))

	// Biaffines: t = [l;1] W' as (words, D, O), then s[x] = [r;1] t[x],
	// (words, words, O); the score is span + label.
	one := g.scalar(1)
	pad := g.ints(nil, 0, 0, 0, 1)
	for ki, k := range kinds {
		var s [2]string
		for mi, mod := range []string{"span", "label"} {
			d, O := c.SpanMLP, 1
			if mi == 1 {
				d, O = c.LabelMLP, c.Labels
			}
			D := d + 1
			l1 := g.op("Pad", []string{ys[4*ki+2*mi], pad, one})
			r1 := g.op("Pad", []string{ys[4*ki+2*mi+1], pad, one})
			bw := get(k + "." + mod + ".biaffine") // (O, D, D)
			if bw == nil {
				continue // reported below
			}
			q := make([]float32, D*D*O) // (D, D*O): q[i][j*O+o] = w[o][i][j]
			for o := range O {
				for i := range D {
					for j := range D {
						q[i*D*O+j*O+o] = bw[(o*D+i)*D+j]
					}
				}
			}
			t := g.op("MatMul", []string{l1, g.floats(k+"."+mod+".biaffine.q", dims(D, D*O), q)})
			t3 := g.op("Reshape", []string{t, g.ints(nil, -1, int64(D), int64(O))})
			s[mi] = g.op("MatMul", []string{g.op("Unsqueeze", []string{r1, g.ints(nil, 0)}), t3})
		}
		g.opNamed("Add", []string{s[0], s[1]}, []string{k})
		g.output(k, typeFloat, "words", "words", c.Labels)
	}
	g.output("tags", typeFloat, "words", c.Tags)
	if err := errors.Join(missing...); err != nil {
		return nil, fmt.Errorf("onnxexport: %w", err)
	}
	return g.model("discspan", fmt.Sprintf("discspan span scorer, config %+v", c)), nil
}

// lstmWeights returns the ONNX LSTM inputs W (2, 4H, in), R (2, 4H, H)
// and B (2, 8H) of the BiLSTM prefix ("fwd" then "bwd"): ONNX orders the
// gate blocks i, o, f, c where discspan (PyTorch) has i, f, g, o, and has
// two biases (input and recurrent) where discspan folds them into one.
func lstmWeights(get func(string) []float32, prefix string, in, H int) (w, r, b []float32) {
	onnxOrder := [4]int{0, 3, 1, 2} // ONNX block k is discspan's block onnxOrder[k]
	for _, dir := range []string{"fwd", "bwd"} {
		wih, whh, bias := get(prefix+"."+dir+".w_ih"), get(prefix+"."+dir+".w_hh"), get(prefix+"."+dir+".b")
		if wih == nil || whh == nil || bias == nil {
			return nil, nil, nil
		}
		for _, k := range onnxOrder {
			w = append(w, wih[k*H*in:(k+1)*H*in]...)
		}
		for _, k := range onnxOrder {
			r = append(r, whh[k*H*H:(k+1)*H*H]...)
		}
		for _, k := range onnxOrder {
			b = append(b, bias[k*H:(k+1)*H]...)
		}
		b = append(b, make([]float32, 4*H)...) // recurrent bias: 0
	}
	return w, r, b
}

func dims(ds ...int) []int64 {
	out := make([]int64, len(ds))
	for i, d := range ds {
		out[i] = int64(d)
	}
	return out
}

// Feeds holds the inputs of the exported model for one sentence.
type Feeds struct {
	Tokens   int     // n+2: BOS, the words, EOS
	Chars    int     // the longest character sequence (BOW and EOW included)
	WordIDs  []int64 // (Tokens)
	CharIDs  []int64 // (Chars, Tokens), time-major; padding positions hold 0
	CharLens []int32 // (Tokens)
}

// NewFeeds returns the model inputs for in, read as network.Model does:
// BOS and EOS tokens around the words, and per token the sequence [BOW,
// the word's first MaxChars characters, EOW] ([BOW, BOS, EOW] and [BOW,
// EOS, EOW] for BOS and EOS).
func NewFeeds(c network.Config, in network.Input) Feeds {
	n := in.Len()
	N := n + 2
	seqs := make([][]int, N)
	seqs[0] = []int{network.BOWChar, network.BOSChar, network.EOWChar}
	seqs[N-1] = []int{network.BOWChar, network.EOSChar, network.EOWChar}
	f := Feeds{Tokens: N, WordIDs: make([]int64, N), CharLens: make([]int32, N)}
	f.WordIDs[0], f.WordIDs[N-1] = network.BOSWord, network.EOSWord
	for i, id := range in.WordIDs {
		f.WordIDs[i+1] = int64(id)
		chars := in.CharIDs[i][:min(len(in.CharIDs[i]), c.MaxChars)]
		seq := append([]int{network.BOWChar}, chars...)
		seqs[i+1] = append(seq, network.EOWChar)
	}
	for _, s := range seqs {
		f.Chars = max(f.Chars, len(s))
	}
	f.CharIDs = make([]int64, f.Chars*N)
	for t, s := range seqs {
		f.CharLens[t] = int32(len(s))
		for p, ch := range s {
			f.CharIDs[p*N+t] = int64(ch)
		}
	}
	return f
}
