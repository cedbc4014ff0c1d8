package main

import (
	"errors"
	"fmt"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/webgpu"
)

// parse's --backend values.
const (
	backendCPU    = "cpu"
	backendWebGPU = "webgpu"
	backendAuto   = "auto"
)

// checkBackend refuses a --backend value that is none of parse's.
func checkBackend(backend string) error {
	switch backend {
	case backendCPU, backendWebGPU, backendAuto:
		return nil
	}
	return fmt.Errorf("%w: --backend %q: want cpu, webgpu or auto", errUsage, backend)
}

// gpuOpener is how parse reaches WebGPU: probe describes the adapter
// without compiling anything, open builds the scorer of the models' mean
// (webgpu.NewMean, which runs the self-check). Tests replace both.
type gpuOpener struct {
	probe func(webgpu.Options) (webgpu.AdapterInfo, error)
	open  func([]*network.Params, webgpu.Options) (scorer.Scorer, webgpu.AdapterInfo, error)
}

// nativeGPU returns the WebGPU of this machine (wgpu-native).
func nativeGPU() gpuOpener { return gpuOpener{probe: webgpu.ProbeAdapter, open: webgpu.NewMean} }

// chooseParseScorer returns the scorer parse uses for backend (cpu:
// the CPU reference, the mean of the models ms'), and one line saying which
// backend scores and, where WebGPU was asked for and is not used, why:
//
//   - cpu: the CPU;
//   - webgpu: WebGPU on whatever adapter there is, a software one included;
//   - auto: WebGPU on a hardware adapter only (a software adapter is
//     slower than the CPU, and is skipped before anything is compiled).
//
// WebGPU is used only once its self-check has passed; when the self-check
// refuses the adapter, or there is none, the CPU scores. Its scorer is
// wrapped by scorer.WithFallback, so that a device lost later, or a
// sentence longer than it takes, is scored on the CPU, reported by logf.
// maxWords is the longest sentence to be scored, and batchTokens the most
// tokens (words, BOS and EOS) of one batch parse scores: the device's
// chunks hold no more (at most webgpu.DefaultChunkTokens, whose arena
// takes 618 MiB with the small preset; 0: that default). Before the
// kernels are built, logf says so (on a software adapter that takes a
// minute or more).
func chooseParseScorer(backend string, ms *parser.Models, maxWords, batchTokens int, gpu gpuOpener, logf func(string, ...any)) (scorer.Scorer, string, error) {
	if err := checkBackend(backend); err != nil {
		return nil, "", err
	}
	cpu := scorer.MeanCPU(ms.Models)
	if backend == backendCPU {
		return cpu, "scoring on the CPU", nil
	}
	o := webgpu.Options{MaxWords: max(webgpu.DefaultMaxWords, maxWords), ChunkTokens: min(batchTokens, webgpu.DefaultChunkTokens)}
	info, err := gpu.probe(o)
	if err != nil {
		return cpu, fmt.Sprintf("scoring on the CPU: no WebGPU adapter (%v)", err), nil
	}
	if info.Software && backend == backendAuto {
		return cpu, fmt.Sprintf("scoring on the CPU: WebGPU's only adapter, %s, is slower than the CPU (--backend webgpu uses it anyway)", info), nil
	}
	// The kernels and the self-check take a second on a GPU, a minute or
	// more on a software adapter: say what is going on first.
	wait := ""
	if info.Software {
		wait = " (a software adapter: a minute or more)"
	}
	logf("building the WebGPU kernels on %s and checking them against the CPU%s", info, wait)
	g, info, err := gpu.open(ms.Params(), o)
	switch {
	case errors.Is(err, webgpu.ErrSelfCheck):
		return cpu, fmt.Sprintf("scoring on the CPU: WebGPU refused by its self-check (%v)", err), nil
	case err != nil:
		return cpu, fmt.Sprintf("scoring on the CPU: WebGPU unavailable (%v)", err), nil
	}
	line := "scoring with WebGPU on " + info.String()
	if w, ok := g.(*webgpu.Scorer); ok {
		line += "; " + w.SelfCheck().String()
	}
	return scorer.WithFallback(g, cpu, logf), line, nil
}
