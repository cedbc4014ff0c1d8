// Package webgpu runs the span-scoring network's forward pass (package
// network, the CPU reference) as WGSL compute shaders (package shaders) on a
// WebGPU device, through github.com/cogentcore/webgpu v0.23.0: natively
// (wgpu-native over Vulkan, Metal or DX12; Mesa's lavapipe where there is no
// GPU) and in the browser (GOOS=js, navigator.gpu). Its Scorer implements
// scorer.Scorer; no WebGPU type appears in its API.
//
//	s, err := webgpu.New(params, webgpu.Options{Weights: webgpu.WeightsF16})
//	if err != nil { ... }          // errors.Is(err, scorer.ErrUnavailable): use the CPU
//	defer s.Close()
//	results, err := s.Score(batch) // one scorer.Result (decode.Scores + tag logits) per sentence
//
// or, choosing the backend and falling back to the CPU with a message:
//
//	sc := scorer.Select(preferGPU, model, func() (scorer.Scorer, error) { return webgpu.New(model.Params, opts) }, log.Printf)
//
// An ensemble's models score on one device, their mean computed there
// (NewEnsemble: one weights buffer, each model's dispatches in turn adding
// into the results, one read-back), or with NewMean, which falls back to a
// scorer per model averaged by scorer.Mean when the models do not fit one
// buffer together:
//
//	sc, adapter, err := webgpu.NewMean([]*network.Params{a, b}, opts)
//
// # Forward pass
//
// A batch is sorted by length and cut into chunks that fit the buffers
// (Options.ChunkTokens tokens, MaxWords² pairs at least; see Submissions
// for how they reach the device). For a chunk of T
// tokens (n+2 per sentence), its dispatches, in order:
//
//	gather.wgsl          U[:, :WordDim] = WordEmb[word ids]
//	lstm_loop.wgsl chars one dispatch: a loop over the characters of 256/CharHidden
//	                     tokens per workgroup and direction, gates from the char table,
//	                     final states into U[:, WordDim:] (where the sentence loops run;
//	                     else lstm.wgsl chars: one dispatch per character step over every
//	                     token, h W_hhᵀ tiled)
//	matmul.wgsl          G = U W_ihᵀ + b for both directions of lstm1
//	lstm_loop.wgsl       one dispatch: a persistent loop per sentence and direction: H1
//	                     (on a software adapter, for a chunk of more than 4 sentences
//	                     or past llvmpipe's loop limit, lstm.wgsl sentence instead: one
//	                     dispatch per time step over every sentence)
//	matmul.wgsl          tag logits = H1 W_tᵀ + b_t (written to the results)
//	matmul.wgsl, lstm_loop.wgsl   the same for lstm2: H2
//	matmul.wgsl          the twelve endpoint MLPs in one product, LeakyReLU: M
//	per kind (cont, disc, gap), per module (span, label):
//	  matmul.wgsl        T = [M_left; 1] W (all O outputs at once)
//	  biaffine_pair.wgsl S[x,y,o] = T[x,o,:]·[M_right(y); 1], per sentence, x <= y,
//	                     into the span or label scratch
//	  assemble.wgsl      kind scores = label + span for x <= y, packed row by row
//	                     into the results (the host puts each row in place)
//
// In a small chunk (a third of the rows: one sentence, a few) the three
// kinds run together, each of those five dispatches once for cont, disc
// and gap (grid z = kind). An ensemble's models on one device run model
// after model, but where a chunk fits the rows once per model they share
// dispatches (grid z = model): the LSTM loops, the word gather, the input
// projections, the endpoint MLPs and, where the scratch holds every
// model's kinds, the score stages, whose one assembly averages the models;
// the tagger runs per model.
//
// On a hardware adapter a Linear product (the input projections, the
// tagger, the MLPs) with fewer than 128 workgroups and a long inner
// dimension (one sentence's, or the tagger's 40 columns) is split over
// that dimension: matmul.wgsl main sums a slice of it per workgroup into
// the label scratch, then matmul.wgsl reduce adds the slices and applies
// the bias, activation and ensemble mean (planner.innerSlices). A small
// product's few workgroups would otherwise each walk hundreds of inner
// columns while most of the GPU idles.
//
// Likewise, where the device allows workgroups of 1024 invocations (a
// native device asks for them, as does the browser's where the adapter
// has them; AdapterInfo.Workgroup), the sentence LSTM loops of a hardware
// adapter's chunks of at most 128 sentences run lstm_loop.wgsl split: each
// unit's recurrent sum is shared by 2-8 invocations (loopSlices: 3 for
// 288 units, 5 for 192), whose partial sums meet in workgroup memory, so a
// step's chain of dependent loads is that many times shorter; the char
// loop likewise (lstm_loop.wgsl charsSplit: 4 slices, charSlices).
//
// At load time, gather.wgsl and matmul.wgsl compute the char table
// CharEmb W_ihᵀ + b of both char LSTM directions, so that a char step reads
// its input projection with one lookup.
//
// # Buffers
//
// Allocated by New and reused by every call: the parameters (float32, or
// float16 kept as stored; see pack.go for the order and the LSTM gate
// interleaving), the arena (every activation and a chunk's results, see
// layout.go), the ints (ids and tables of the chunk, see plan.go), the
// uniforms (one 256-byte slot per dispatch of a chunk), the upload buffer
// (every chunk's uniforms and tables of a batch), the staging buffer (every
// chunk's results of a batch, for the read-back) and a 4-byte fence. Upload
// and staging start at one chunk's size and grow to the largest batch seen
// (staging at most 256 MiB). All kernels share one explicit bind group
// layout (weights, arena, ints, uniform); one bind group per uniform slot.
//
// # Submissions
//
// A batch's chunks are scheduled in groups (schedule.go): one group unless
// their results exceed the 256 MiB staging limit (the Alpino test set's
// take 59 MiB with the shipped model: 114 MiB before its score blocks were
// read back packed, session 12). A group costs one write of the
// upload buffer; then, in one command encoder, for each chunk in turn: the
// copy of its uniforms and tables from the upload buffer to the uniform and
// ints buffers, its dispatches in one compute pass, and the copy of its
// results from the arena to its place in the staging buffer; one
// submission; and one map of the staging buffer, whose bytes are copied
// once into a []float32 per chunk (allocated while the device works) that
// the results' decode.Scores (cont, disc, gap: the decoder's layout) and
// tag logits slice: assemble.wgsl writes each score block packed, the
// spans x <= y row by row, and each row is copied to its place, so the
// zeros below the diagonal (half the layout) cross no bus. On a hardware adapter
// that is all: per batch one upload, one submission, one map, no CPU wait
// between chunks, and one dispatch per kernel launch (per chunk
// fixedDispatches, one for the character BiLSTM and one per sentence
// BiLSTM layer, and a reduction after each split product). For the
// Alpino test set in one batch with the shipped model: 5 chunks, 120
// dispatches (TestHardwareSchedule, which runs that schedule on lavapipe
// and counts the device's calls).
//
// On a software adapter (lavapipe, SwiftShader) chunks are smaller
// (SoftwareChunkTokens) and a group's dispatches go in consecutive
// submissions of at most Options.SubmitWork estimated multiply-adds, each
// waited for (a map of the fence) before the next (a pair product above it
// is split into dispatches of row tiles), so that every submission stays
// short (TestSubmissionWork); the LSTM loop kernel runs only for chunks of
// at most 4 sentences, within that bound and within llvmpipe's 65535 loop
// iterations per invocation (softwareLoopLimit), the per-step kernel
// otherwise. Natively, a wait
// polls the device without blocking: a blocking Device.Poll gives up after
// 5 s, and wgpu-native then failed the device while lavapipe still ran the
// submission, which crashed it.
//
// # Errors
//
// Natively, wgpu-native's Create* calls run in error scopes and return
// errors (the details go to wgpu's log on stderr). In the browser they
// return no errors: New and every Score push validation, out-of-memory and
// internal error scopes and pop them, and a failed compilation is reported
// with the shader's compilation messages (file:line:col). A lost device
// (js: GPUDevice.lost) fails the next call. Every such failure matches
// scorer.ErrUnavailable; sentences over Options.MaxWords words fail with
// scorer.ErrTooLong.
//
// # In the browser
//
// The page must set globalThis.wasm to the result of
// WebAssembly.instantiateStreaming (the js backend's Queue.WriteBuffer reads
// the wasm memory from it; New fails without it). New and Score block until
// the browser's promises resolve: call them from a goroutine, never inside a
// js.FuncOf callback. The device is requested through syscall/js (with
// shader-f16 when the weights are float16 and the adapter has it) and
// wrapped with wgpu.NewDevice. A fallback adapter (SwiftShader) reports
// AdapterInfo.Software: it is correct but much slower than the CPU backend.
//
// # Testing
//
// The TestEquivalence* tests compare the scorer with the CPU reference on a
// WebGPU adapter: natively on lavapipe where there is no GPU (Debian:
// apt-get install -y mesa-vulkan-drivers libvulkan1), and in headless
// Chromium with SwiftShader (apt-get install -y chromium;
// TestEquivalenceBrowser, skipped with -short). They skip, saying why, only
// where there is no adapter and no Vulkan driver; with a driver installed,
// a missing adapter or a kernel that fails to compile fails them.
// TestRobustness reruns them with the buffers and workgroup memory
// poisoned, invocation and workgroup order reversed and every index
// bounds-checked (where a hardware GPU may behave unlike lavapipe);
// TestDispatchByDispatch checks every dispatch of a chunk on its own against
// a float64 emulation, naming the first kernel that deviates on a device.
// BenchmarkScore_Tiny20 compares sentences/s with the CPU reference.
//
// # Builds without a device
//
// Natively the scorer runs on wgpu-native, linked through cgo, whose
// library the cogentcore/webgpu module ships for linux and windows (amd64,
// arm64) and darwin. In any other build (CGO_ENABLED=0, a cross-compilation
// without a C compiler, linux/386 and the rest) the package still builds
// (nodevice.go): ProbeAdapter and the constructors fail with an error
// matching ErrNoAdapter and scorer.ErrUnavailable that says why, so that
// callers score on the CPU (TestNoNativeWebGPU, run by make test-nocgo).
//
// # Precision
//
// Arithmetic is float32 throughout; float16 weights are read with
// unpack2x16float, or as f16 where the device has shader-f16 and its WGSL
// compiler accepts "enable f16" (not wgpu-native v0.23.0's). Against the CPU
// reference on the same parameters (RoundFloat16 for float16), scores agree
// within 1e-3 (TestEquivalence*; about 5e-7 observed).
package webgpu
