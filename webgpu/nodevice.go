//go:build !js && !(cgo && ((linux && (amd64 || arm64)) || darwin || (windows && (amd64 || arm64))))

package webgpu

import (
	"fmt"
	"runtime"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
)

// This file is the package in a build without wgpu-native: one made with
// CGO_ENABLED=0 (a static binary, or any cross-compilation, where Go turns
// cgo off), or for a platform whose wgpu-native library the
// cogentcore/webgpu module does not ship (linux/386, for one). Everything
// that does not need a device works as in every build (the plan, the
// layouts, the WGSL sources, float16 rounding); ProbeAdapter and the
// constructors fail with an error matching ErrNoAdapter and
// scorer.ErrUnavailable, so that callers score on the CPU and say why.

// errNotBuilt is the error ProbeAdapter and the constructors return.
func errNotBuilt() error {
	return unavailable(ErrNoAdapter, "this binary has no native WebGPU: %s", whyNotBuilt(runtime.GOOS, runtime.GOARCH))
}

// whyNotBuilt says why a binary for goos/goarch has no wgpu-native: the
// platform has none, or (where it has) cgo was off.
func whyNotBuilt(goos, goarch string) string {
	switch {
	case (goos == "linux" || goos == "windows") && (goarch == "amd64" || goarch == "arm64"), goos == "darwin",
		goos == "ios", goos == "android" && (goarch == "amd64" || goarch == "arm64"):
		return "it was built with cgo off (CGO_ENABLED=0, or a cross-compilation without a C compiler); build it with CGO_ENABLED=1"
	}
	return "wgpu-native has no library for " + goos + "/" + goarch + " (it has for linux and windows on amd64 and arm64, and darwin)"
}

// Scorer is WebGPU's scorer; in this build none can be made (New fails),
// and its methods are those of the other builds, for callers that name
// them.
type Scorer struct{}

var _ scorer.Starter = (*Scorer)(nil)

// ProbeAdapter fails in this build: there is no native WebGPU.
func ProbeAdapter(Options) (AdapterInfo, error) { return AdapterInfo{}, errNotBuilt() }

// New fails in this build: there is no native WebGPU.
func New(*network.Params, Options) (*Scorer, error) { return nil, errNotBuilt() }

// NewMean fails in this build: there is no native WebGPU.
func NewMean([]*network.Params, Options) (scorer.Scorer, AdapterInfo, error) {
	return nil, AdapterInfo{}, errNotBuilt()
}

// NewEnsemble fails in this build: there is no native WebGPU.
func NewEnsemble([]*network.Params, Options) (*Scorer, error) { return nil, errNotBuilt() }

// Backend describes the scorer.
func (s *Scorer) Backend() string { return "webgpu (not in this build)" }

// Models returns 0: no scorer exists in this build.
func (s *Scorer) Models() int { return 0 }

// Phases returns no time.
func (s *Scorer) Phases() Phases { return Phases{} }

// ResetPhases does nothing.
func (s *Scorer) ResetPhases() {}

// Adapter returns no adapter.
func (s *Scorer) Adapter() AdapterInfo { return AdapterInfo{} }

// MaxWords returns 0.
func (s *Scorer) MaxWords() int { return 0 }

// SelfCheck returns no outcome.
func (s *Scorer) SelfCheck() SelfCheck { return SelfCheck{} }

// Close does nothing.
func (s *Scorer) Close() error { return nil }

// Start fails: there is no device.
func (s *Scorer) Start(batch []network.Input) func() ([]scorer.Result, error) {
	return func() ([]scorer.Result, error) { return s.Score(batch) }
}

// Score fails: there is no device.
func (s *Scorer) Score([]network.Input) ([]scorer.Result, error) {
	return nil, fmt.Errorf("webgpu: score: %w", errNotBuilt())
}
