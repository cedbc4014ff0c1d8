package parser

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
)

// warmupWords is the length of the sentence timed to choose a backend.
const warmupWords = 20

// chooseBackend returns the scorer for the backend asked for (cpu being
// the CPU's, see cpuScorer), and records
// what it is and why in info:
//
//   - cpu: the CPU reference;
//   - webgpu: WebGPU whatever the adapter, the CPU when there is none;
//   - auto: WebGPU on a hardware adapter when it scores a 20-word sentence
//     faster than the CPU (both are timed once warm), else the CPU. A
//     software adapter (SwiftShader, lavapipe) is skipped before anything
//     is compiled: it is 50-100 times slower than the CPU.
//
// The WebGPU scorer is wrapped by scorer.WithFallback, so that it falls
// back to the CPU for good when the device is lost, and per batch for
// sentences longer than it accepts. An ensemble's models all go to the
// GPUFunc, which averages them (on the device); the CPU averages them with
// scorer.Mean.
func (e *Engine) chooseBackend(ctx context.Context, p *Parser, models *lazyModels, cpu scorer.Scorer, f16 bool, backend string, info *Info) (scorer.Scorer, error) {
	info.Backend = cpu.Backend()
	switch backend {
	case BackendCPU:
		info.Choice, info.Reason = "CPU asked for", ReasonAsked
		return cpu, nil
	case "", BackendAuto, BackendWebGPU:
	default:
		return nil, fmt.Errorf("unknown backend %q (want auto, cpu or webgpu)", backend)
	}
	if e.GPU == nil {
		info.Choice, info.Reason = "no WebGPU here", ReasonNoWebGPU
		return cpu, nil
	}
	g, software, err := e.GPU(models.params, f16, backend == BackendWebGPU)
	switch {
	case errors.Is(err, ErrSoftwareAdapter):
		info.Choice, info.Reason = "the WebGPU adapter is a software one (about 50-100x slower than the CPU): using the CPU; add ?backend=webgpu to use it anyway", ReasonSoftware
		return cpu, nil
	case errors.Is(err, ErrSelfCheck):
		info.Choice, info.Reason = "WebGPU refused by its self-check, the CPU scores: "+firstLine(err.Error()), ReasonSelfCheck
		return cpu, nil
	case errors.Is(err, ErrNoAdapter):
		info.Choice, info.Reason = "WebGPU unavailable: "+firstLine(err.Error()), ReasonNoWebGPU
		return cpu, nil
	case err != nil:
		info.Choice, info.Reason = "WebGPU unavailable: "+firstLine(err.Error()), ReasonFailed
		return cpu, nil
	}
	all, err := models.all() // converted already: the GPU has them
	if err != nil {
		_ = g.Close()
		return nil, err
	}
	var notes []string
	sel := scorer.WithFallback(g, scorer.MeanCPU(all), func(f string, a ...any) {
		notes = append(notes, fmt.Sprintf(f, a...))
	})
	use := func(s scorer.Scorer, reason, why string) scorer.Scorer {
		info.Backend, info.Choice, info.Reason = s.Backend(), why, reason
		info.GPU = s != cpu
		info.Software = info.GPU && software
		if s != sel {
			_ = sel.Close()
		}
		return s
	}
	if backend == BackendWebGPU {
		return use(sel, ReasonAsked, "WebGPU asked for"), nil
	}
	tg, terr := timeScorer(ctx, p, sel)
	tc, cerr := timeScorer(ctx, p, cpu)
	switch {
	case terr != nil:
		return use(cpu, ReasonFailed, "WebGPU failed on a test sentence: "+firstLine(terr.Error())), nil
	case cerr != nil:
		return nil, cerr
	case len(notes) > 0:
		return use(cpu, ReasonFailed, "WebGPU fell back: "+notes[0]), nil
	case tg < tc:
		return use(sel, ReasonFaster, fmt.Sprintf("WebGPU %s vs CPU %s for %d words", ms(tg), ms(tc), warmupWords)), nil
	}
	return use(cpu, ReasonFaster, fmt.Sprintf("CPU %s vs WebGPU %s for %d words", ms(tc), ms(tg), warmupWords)), nil
}

// timeScorer scores a sentence of warmupWords words twice with s and
// returns the time of the second run.
func timeScorer(ctx context.Context, p *Parser, s scorer.Scorer) (time.Duration, error) {
	words := make([]string, warmupWords)
	for i := range words {
		words[i] = p.Vocab.Words[min(3+i, len(p.Vocab.Words)-1)]
	}
	in := []network.Input{p.Vocab.Encode(words)}
	var d time.Duration
	for range 2 {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		start := time.Now()
		if _, err := s.Score(in); err != nil {
			return 0, err
		}
		d = time.Since(start)
	}
	return d, nil
}

// firstLine returns s up to its first newline.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// ms formats a duration in milliseconds, one decimal below 10.
func ms(d time.Duration) string {
	f := float64(d) / float64(time.Millisecond)
	if f < 10 {
		return fmt.Sprintf("%.1f ms", f)
	}
	return fmt.Sprintf("%.0f ms", f)
}
