// Package network is the CPU implementation, in Go (with AVX2 kernels on
// amd64), of
// the span-scoring network of Corro (2020): it turns a sentence into the
// decode.Scores tensors the chart decoders read, and it computes the training
// loss and the gradient of every parameter by hand-written backpropagation.
// GPU kernels (WGSL, CUDA) are tested against this package. It holds the
// math twice: a clear generic reference (net.go and the layer files, float32
// or float64) and the optimised float32 path that Model runs (fast_*.go,
// see Implementation), tested against each other.
//
// # Architecture (model.md)
//
// A sentence of n words becomes N = n+2 tokens: a BOS token, the words and an
// EOS token. For each token t:
//
//	e_t   = WordEmb[lower(word_t)]                          (WordDim)
//	chars = [BOW, c_1 .. c_min(len,MaxChars), EOW]          (BOS/EOS tokens: [BOW, BOS, EOW])
//	x     = dropout(CharEmb[chars], DropChar)               (len(chars), CharDim)
//	f_t   = [charLSTM.fwd(x)[last]; charLSTM.bwd(x)[first]] (2*CharHidden)
//	u_t   = dropout([e_t; f_t], DropFeat)                   (WordDim + 2*CharHidden)
//
// then, over the N tokens,
//
//	H1 = BiLSTM1(U)                          (N, 2*LSTM1Hidden): [fwd state; bwd state]
//	H2 = dropout(BiLSTM2(H1), DropLSTM)      (N, 2*LSTM2Hidden)
//	tag logits   = H1[1..n] Wtᵀ + bt         (n, Tags)   (auxiliary POS tagger)
//
// and, for each kind k in {cont, disc, gap} and module m in {span, label}, over
// the word rows W = H2[1..n] only (BOS/EOS excluded):
//
//	L_km = dropout(LeakyReLU(W Wlᵀ + bl, LeakySlope), DropMLP)   (n, d)
//	R_km = dropout(LeakyReLU(W Wrᵀ + br, LeakySlope), DropMLP)   (n, d)
//	S_km[x,y,o] = [L_km(x);1]ᵀ B_km[o] [R_km(y);1]                (n, n, O)
//
// with d = SpanMLP, O = 1 for span modules and d = LabelMLP, O = Labels for
// label modules, and the final score, for words x <= y and label a,
//
//	k[x,y,a] = S_k,span[x,y,0] + S_k,label[x,y,a]
//
// written to decode.Scores (entries x > y stay 0). The "no constituent" class
// has the fixed logit 0.
//
// # Conventions
//
// Matrices are row-major; a Linear weight has shape (out, in). An LSTM
// direction has w_ih (4H, in), w_hh (4H, H) and ONE bias b (4H) (PyTorch's
// b_ih + b_hh folded into one vector); the four gate blocks of the rows are
// in PyTorch's order i, f, g, o:
//
//	a = W_ih x_t + W_hh h_prev + b
//	i = σ(a[0:H]), f = σ(a[H:2H]), g = tanh(a[2H:3H]), o = σ(a[3H:4H])
//	c = f*c_prev + i*g,  h = o*tanh(c),  h_prev = c_prev = 0 at the first step.
//
// The backward direction runs the same equations from the last position to
// the first; its output at position t is the state after reading t..N-1.
//
// Dropout is inverted dropout (kept units scaled by 1/(1-p)), only during
// training. Masks are drawn from a PCG generator seeded with (seed, index of
// the sentence in the batch), so a batch's result does not depend on which
// goroutine handles which sentence.
//
// # Loss
//
// For one sentence: the sum, over every word pair x <= y and each of cont,
// disc and gap, of the softmax cross-entropy over [0 (null); k[x,y,0..L-1]]
// against the gold class (0 = null, a+1 = label a), plus the sum over words of
// the POS tagger's cross-entropy. A batch's loss is the MEAN over its
// sentences of these per-sentence SUMS (the authors' release sums over spans
// and averages over the batch); gradients are those of this batch loss.
// With Targets.Soft (distillation), a cell's target is the mixture
// (1-w)·gold + w·teacher instead of the gold class alone, and its term the
// cross-entropy against that distribution. With Targets.Hinge, a sentence's
// loss also has a structured margin term over whole trees, found by the
// chart decoder on cost-augmented scores (see Hinge).
//
// # Precision
//
// The reference layers are written once, generically over float32 and
// float64; the float64 instantiation is what the finite-difference gradient
// tests check. The model runs in float32 (the weights are float32) on the
// optimised path, which fast_test.go checks against the float64 reference:
// scores, tag logits, losses and every gradient agree to 1e-4 relative (in
// practice to a few 1e-7).
//
// # Implementation
//
// Forward, ForwardBatch, Loss and LossGrad run the same equations as the
// reference, with the same dropout masks drawn in the same order from the
// same generators, reorganised for speed (5 to 8 times the reference's
// tokens per CPU-second for the Tiny preset, training and inference; see
// bench_test.go and fast_bench_test.go):
//
//   - sentences are spread over Workers goroutines (balanced by length) and
//     each goroutine processes its sentences as GROUPS (up to 1024 words):
//     the character BiLSTM runs over the characters of all tokens of a group
//     at once, the sentence BiLSTMs over all sentences, the MLPs and the
//     first product of every biaffine over all words; only the pairwise
//     biaffine products are per sentence (for x <= y, by blocks of 16);
//   - an LSTM direction keeps its record step-major (tokens or sentences
//     sorted by length, the ones still running at a step forming a
//     prefix): GEMMs for the input projections of chunks of steps, then per
//     step one GEMM for the recurrence and one vectorised pass for the
//     cells;
//   - every product is a GEMM with a register-tiled kernel (AVX2/FMA
//     assembly on amd64 when the CPU has it, Go otherwise or with the
//     purego build tag) on weights transposed or permuted once per
//     training call; inference keeps its rearranged weights with the Params
//     while they do not change (a version number, see Params.Changed, and
//     the tensors' slices; nothing proportional to the model is allocated or
//     compared per call); sigmoid, tanh and exp are float32 polynomials
//     (Cephes, about 2 ulp), vectorised;
//   - in the browser (js/wasm), where Go emits no SIMD, inference runs its
//     products and LSTM cells in a small WebAssembly module using 128-bit
//     SIMD (relaxed-SIMD fused multiply-adds where the engine has them),
//     assembled by package internal/wasmsimd and instantiated on the Go
//     program's own memory, so that it reads and writes the slices in place
//     (kernels_js.go; Kernels says which code runs). Plain SIMD gives the Go
//     code's results bit for bit; relaxed SIMD within 1e-5;
//   - inference computes the characters of identical words once;
//   - working memory comes from arenas each Model keeps between its calls
//     (see Model.Release).
//
// The GEMM kernel is batch-invariant: each output element is accumulated in
// the order of k with the same instruction whatever the shape, the blocking
// or the row's place in the batch. So a sentence's scores and loss do not
// depend on the sentences it is batched with nor on the worker count, and
// ForwardBatch equals Forward bit for bit; LossGrad's gradients are summed
// per worker and then in worker order, deterministic for a given seed and
// worker count.
package network
