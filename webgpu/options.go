package webgpu

import (
	"fmt"
	"runtime"

	"github.com/discspan/discspan/network"
)

// Weights selects how the parameters are stored on the device.
type Weights int

const (
	// WeightsF32 stores every parameter as float32.
	WeightsF32 Weights = iota
	// WeightsF16 stores every parameter as float16 (rounded to nearest,
	// ties to even; values of a float16 weights file are kept exactly).
	// Kernels read them as f16 where the device has the shader-f16 feature,
	// and otherwise unpack pairs with unpack2x16float; arithmetic is float32
	// either way.
	WeightsF16
)

// elemBytes returns the bytes of one parameter on the device.
func (w Weights) elemBytes() int {
	if w == WeightsF16 {
		return 2
	}
	return 4
}

// String returns "f32" or "f16".
func (w Weights) String() string {
	switch w {
	case WeightsF32:
		return "f32"
	case WeightsF16:
		return "f16"
	}
	return fmt.Sprintf("Weights(%d)", int(w))
}

// Defaults of Options.
const (
	// DefaultMaxWords is the longest sentence accepted by default.
	DefaultMaxWords = 200
	// DefaultChunkTokens bounds the tokens (words + BOS + EOS) of one chunk
	// by default on a hardware adapter, SoftwareChunkTokens on a software
	// one (where a single dispatch over 1024 tokens, the MLPs', takes over
	// a second). Every chunk runs its LSTM loops in sequence, each as long
	// as the chunk's longest sentence, so fewer chunks take less time: the
	// shipped pair scored the Alpino test set (15,445 tokens) on an NVIDIA
	// H200 in a median 58.0 ms in 5 chunks of 4096 tokens, 53.2 in 3 of
	// 8192, 46.7 in one of 16384 (618 MiB of activations with the small
	// preset, which a native device binds where its adapter allows:
	// largeStorageLimit) and 44.7 in one of 32768 (1235 MiB; session 19,
	// BenchmarkChunks_Ensemble). The layout halves it where the device
	// binds less. In the browser, where batches are small and the tab's
	// GPU memory is shared, BrowserChunkTokens (62 MiB of activations per
	// model).
	DefaultChunkTokens  = 16384
	BrowserChunkTokens  = 2048
	SoftwareChunkTokens = 256
	// SoftwareSubmitWork bounds the estimated multiply-adds of one
	// submission on a software adapter by default: at most about 0.7 s on
	// lavapipe with 2 busy cores (load 14; TestSubmissionWork), so that the
	// device stays responsive between submissions. (The scorer polls
	// without blocking, so a longer submission no longer meets the 5 s
	// after which a blocking native Device.Poll gave up and lavapipe
	// crashed.) A hardware adapter has no bound by default: a batch is one
	// submission (see doc.go, Submissions).
	SoftwareSubmitWork = 60e6
	// maxHidden is the largest LSTM state the kernels hold in workgroup
	// memory (MAXH in lstm.wgsl and charlstm.wgsl).
	maxHidden = 1024
	// storageLimit is the largest buffer binding the backend counts on
	// by default (WebGPU's default maxStorageBufferBindingSize, which the
	// app keeps in the browser).
	storageLimit = 128 << 20
	// largeStorageLimit is the binding size (and buffer size) a native
	// device asks for where its adapter allows it (NVIDIA's do), so that a
	// chunk of DefaultChunkTokens tokens fits: the small preset's arena at
	// 16384 tokens is 618 MiB.
	largeStorageLimit = 1 << 30
)

// Options configures a WebGPU scorer. The zero value is valid.
type Options struct {
	// Weights is how the parameters are stored on the device.
	Weights Weights
	// NoShaderF16 makes WeightsF16 use unpack2x16float even on a device
	// with the shader-f16 feature.
	NoShaderF16 bool
	// MaxWords is the longest sentence Score accepts (0: DefaultMaxWords);
	// longer ones make Score fail with an error wrapping scorer.ErrTooLong.
	MaxWords int
	// ChunkTokens bounds the tokens of one chunk, the sentences whose
	// activations the buffers hold at once (0: DefaultChunkTokens,
	// BrowserChunkTokens in the browser, SoftwareChunkTokens on a software
	// adapter). It is lowered when the buffers would exceed the device's
	// storage binding limit (128 MiB, or up to 1 GiB natively where the
	// adapter allows it), and raised to MaxWords+2 when below.
	ChunkTokens int
	// SubmitWork bounds the estimated multiply-adds of one submission (0:
	// SoftwareSubmitWork on a software adapter, no bound on a hardware
	// one): a batch's dispatches are split into submissions within it, each
	// waited for before the next. A single dispatch above the bound gets a
	// submission of its own.
	SubmitWork float64
	// ForceFallbackAdapter asks for the software (fallback) adapter.
	ForceFallbackAdapter bool
	// SkipSelfCheck skips New's comparison of a canary batch with the CPU
	// reference (for tests and benchmarks that compare on their own).
	SkipSelfCheck bool
	// TestSplitInner, for tests only, splits Linear products over their
	// inner dimension on a software adapter too, as the plan of a hardware
	// one does (so that lavapipe and SwiftShader run matmul.wgsl reduce).
	TestSplitInner bool
	// TestSplitLoop, for tests only, lets the sentence LSTM loops of small
	// chunks split each unit's sum over several invocations on a software
	// adapter too (lstm_loop.wgsl split), as a hardware one does where the
	// device allows workgroups of 1024 invocations.
	TestSplitLoop bool
	// TestPerturb, for the self-check's tests only, names a kernel file
	// ("lstm.wgsl", ...) whose weight reads are scaled by 1.05: a
	// deliberately wrong kernel that the self-check must refuse.
	TestPerturb string

	// asHardware, for tests only, plans and submits as on a hardware
	// adapter (DefaultChunkTokens, no SubmitWork bound: one submission and
	// one read-back per batch) on a software one, so that lavapipe runs the
	// hardware schedule (TestHardwareSchedule).
	asHardware bool
	// timestamps, for the profile benchmark only, asks for the
	// timestamp-query feature where the adapter has it.
	timestamps bool
	// loopSentences, for benchmarks and tests, is the most sentences of a chunk
	// whose BiLSTMs run as persistent loops (0: the adapter's default,
	// loopSentences or hardwareLoopSentences).
	loopSentences int
	// modelsInTurn, for benchmarks only, runs an ensemble's LSTM loops
	// model after model where they would share a dispatch (ensemblePlan).
	modelsInTurn bool
	// charSteps, for benchmarks only, runs the char BiLSTM one dispatch
	// per step (lstm.wgsl chars) where the char loop would run.
	charSteps bool
	// loopInterleaved, for benchmarks until measured on a GPU, makes
	// lstm_loop.wgsl read lstm.wgsl's interleaved W_hhᵀ four gates a load
	// (wt4) instead of the gate-major copies (which are still packed).
	loopInterleaved bool
	// noSplitInner, for benchmarks and tests, keeps a hardware adapter's Linear
	// products whole where the plan would split them over their inner
	// dimension (planLimits.splitInner).
	noSplitInner bool
	// noSplitLoop, for benchmarks and tests, keeps every LSTM loop on
	// lstm_loop.wgsl main where the plan would split the units' sums
	// (planLimits.splitLoop).
	noSplitLoop bool
	// loopSlicesMost, for benchmarks only, caps how many invocations share
	// a unit's sum where the LSTM loops split them (loopSlices); 0: as
	// many as the workgroup holds.
	loopSlicesMost int
	// noSplitChars, for benchmarks only, keeps the char loop on
	// lstm_loop.wgsl chars where the plan would split its units' sums
	// (planLimits.charsWhole).
	noSplitChars bool
	// kindsInTurn, for benchmarks only, runs the three kinds' biaffines
	// and assemblies one after the other where a small chunk would run
	// them at once (kindsTogether).
	kindsInTurn bool
	// kernelBodies, for benchmarks only, replaces kernel files (by name:
	// "matmul.wgsl") with other sources, to compare variants in one run.
	kernelBodies map[string]string
	// weightLimit, for tests only, lowers the bytes the weights buffer may
	// hold (0: the binding limit), so that an ensemble too large for one
	// device is met with small models.
	weightLimit int
	// storageWanted, for benchmarks only, is the binding and buffer size a
	// native device asks for where its adapter allows it (0:
	// largeStorageLimit), to time chunks larger than 1 GiB of activations
	// allow.
	storageWanted int
	// bindingLimit is the device's largest storage binding and buffer in
	// bytes (0: storageLimit): set from the device once it is open, or by
	// tests to plan for a device.
	bindingLimit int
	// workgroupLimit is the most invocations of one workgroup the device
	// allows (0: WebGPU's default, 256): set from the device once it is
	// open, or by tests to plan for a device.
	workgroupLimit int
}

// fits says whether the device (o.workgroupLimit) can run kernel k's
// workgroups.
func (o Options) fits(k kernel) bool {
	return kernelInvocations(k) <= max(defaultWorkgroupLimit, o.workgroupLimit)
}

// bindingBytes returns the largest storage binding the buffers may use.
func (o Options) bindingBytes() int {
	if o.bindingLimit > 0 {
		return o.bindingLimit
	}
	return storageLimit
}

// weightBytesLimit returns the most bytes of the weights buffer.
func (o Options) weightBytesLimit() int {
	if o.weightLimit > 0 {
		return min(o.weightLimit, o.bindingBytes())
	}
	return o.bindingBytes()
}

// withDefaults returns o with zero fields set to their defaults for a
// software or hardware adapter (SubmitWork stays 0, no bound, on a hardware
// one).
func (o Options) withDefaults(software bool) Options {
	if o.MaxWords <= 0 {
		o.MaxWords = DefaultMaxWords
	}
	if o.ChunkTokens <= 0 {
		o.ChunkTokens = DefaultChunkTokens
		if runtime.GOOS == "js" {
			o.ChunkTokens = BrowserChunkTokens
		}
		if software {
			o.ChunkTokens = SoftwareChunkTokens
		}
	}
	if o.SubmitWork <= 0 && software {
		o.SubmitWork = SoftwareSubmitWork
	}
	return o
}

// checkConfig reports an error when the kernels cannot run c.
func checkConfig(c network.Config) error {
	if err := c.Validate(); err != nil {
		return err
	}
	for _, h := range []struct {
		name string
		v    int
	}{{"char_hidden", c.CharHidden}, {"lstm1_hidden", c.LSTM1Hidden}, {"lstm2_hidden", c.LSTM2Hidden}} {
		if h.v > maxHidden {
			return fmt.Errorf("webgpu: %s = %d, the kernels hold at most %d", h.name, h.v, maxHidden)
		}
	}
	return nil
}
