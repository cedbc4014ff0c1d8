package scorer

import (
	"errors"
	"fmt"
	"log"
	"sync"

	"github.com/discspan/discspan/network"
)

// Select returns the scorer to use: the GPU scorer gpu builds when preferGPU
// is set and gpu succeeds, otherwise the CPU reference over model. Every
// fallback is reported through logf (log.Printf when nil) with its reason:
// the GPU was not asked for, building it failed (no adapter, a shader that
// does not compile, ...), or, later, it failed while scoring. The returned
// scorer switches to the CPU for good when the GPU fails with an error
// matching ErrUnavailable (a lost device), and scores a batch on the CPU
// when the GPU refuses it with ErrTooLong; other errors are returned.
func Select(preferGPU bool, model *network.Model, gpu func() (Scorer, error), logf func(format string, args ...any)) Scorer {
	if logf == nil {
		logf = log.Printf
	}
	cpu := NewCPU(model)
	if !preferGPU || gpu == nil {
		return cpu
	}
	g, err := gpu()
	if err != nil {
		logf("scorer: GPU backend unavailable, using the CPU: %v", err)
		return cpu
	}
	return WithFallback(g, cpu, logf)
}

// WithFallback returns a Scorer that scores with gpu, and with cpu (the
// same model, or the same ensemble, on the CPU) after gpu fails as Select
// says: for good after an error matching ErrUnavailable, for the batch
// after ErrTooLong. Fallbacks are reported through logf (log.Printf when
// nil).
func WithFallback(gpu, cpu Scorer, logf func(format string, args ...any)) Scorer {
	if logf == nil {
		logf = log.Printf
	}
	return &fallback{gpu: gpu, cpu: cpu, logf: logf}
}

// fallback scores with gpu until it fails, then with cpu.
type fallback struct {
	mu   sync.Mutex
	gpu  Scorer // nil after a failure
	cpu  Scorer
	logf func(format string, args ...any)
}

func (f *fallback) current() Scorer {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.gpu == nil {
		return f.cpu
	}
	return f.gpu
}

// Score scores with the GPU, or with the CPU after a failure (see Select).
func (f *fallback) Score(batch []network.Input) ([]Result, error) {
	s := f.current()
	if s == f.cpu {
		return f.cpu.Score(batch)
	}
	out, err := s.Score(batch)
	return f.settle(s, batch, out, err)
}

// Start starts the GPU on batch when it is a Starter (see Select and
// Starter); otherwise the batch is scored when waited for.
func (f *fallback) Start(batch []network.Input) func() ([]Result, error) {
	s := f.current()
	st, ok := s.(Starter)
	if s == f.cpu || !ok {
		return func() ([]Result, error) { return f.Score(batch) }
	}
	wait := st.Start(batch)
	return func() ([]Result, error) {
		out, err := wait()
		return f.settle(s, batch, out, err)
	}
}

// settle returns the GPU s's answer for batch, or the CPU's after a
// failure of s (see Select).
func (f *fallback) settle(s Scorer, batch []network.Input, out []Result, err error) ([]Result, error) {
	switch {
	case err == nil:
		return out, nil
	case errors.Is(err, ErrTooLong):
		return f.cpu.Score(batch)
	case errors.Is(err, ErrUnavailable):
		f.mu.Lock()
		if f.gpu == s {
			f.gpu = nil
			f.logf("scorer: %s failed, using the CPU from now on: %v", s.Backend(), err)
			if cerr := s.Close(); cerr != nil {
				f.logf("scorer: closing %s: %v", s.Backend(), cerr)
			}
		}
		f.mu.Unlock()
		return f.cpu.Score(batch)
	}
	return nil, err
}

// Backend names the backend in use.
func (f *fallback) Backend() string { return f.current().Backend() }

// Close closes the GPU backend if it is still in use.
func (f *fallback) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.gpu == nil {
		return nil
	}
	err := f.gpu.Close()
	f.gpu = nil
	if err != nil {
		return fmt.Errorf("scorer: %w", err)
	}
	return nil
}
