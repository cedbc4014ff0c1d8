//go:build js

package browser

import (
	"errors"
	"fmt"
	"syscall/js"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/webgpu"
)

// GPU builds a WebGPU scorer (an parser.GPUFunc): float16 weights stay
// float16 on the device. Unless allowSoftware, it first asks for an adapter
// and gives up, wrapping parser.ErrSoftwareAdapter, when it is a fallback
// (software) one, before compiling the kernels.
func GPU(p *network.Params, f16, allowSoftware bool) (scorer.Scorer, bool, error) {
	if !allowSoftware {
		software, err := probeAdapter()
		if err != nil {
			return nil, false, classified{err, parser.ErrNoAdapter}
		}
		if software {
			return nil, true, fmt.Errorf("browser: %w", parser.ErrSoftwareAdapter)
		}
	}
	var o webgpu.Options
	if f16 {
		o.Weights = webgpu.WeightsF16
	}
	s, err := webgpu.New(p, o)
	switch {
	case errors.Is(err, webgpu.ErrSelfCheck):
		return nil, false, classified{err, parser.ErrSelfCheck}
	case err != nil:
		return nil, false, err
	}
	return s, s.Adapter().Software, nil
}

// classified is err, also matching kind (a parser.Err... sentinel) so that
// the engine can say why WebGPU is not used; its message is err's.
type classified struct{ err, kind error }

func (c classified) Error() string   { return c.err.Error() }
func (c classified) Unwrap() []error { return []error{c.err, c.kind} }

// probeAdapter asks navigator.gpu for an adapter and reports whether it is
// a fallback (software) one.
func probeAdapter() (software bool, err error) {
	gpu := js.Global().Get("navigator").Get("gpu")
	if !gpu.Truthy() {
		return false, fmt.Errorf("no WebGPU in this browser")
	}
	ad, err := await(gpu.Call("requestAdapter", map[string]any{"powerPreference": "high-performance"}))
	if err != nil || !ad.Truthy() {
		return false, fmt.Errorf("no WebGPU adapter (%v)", err)
	}
	if info := ad.Get("info"); info.Truthy() && info.Get("isFallbackAdapter").Truthy() {
		return true, nil
	}
	return ad.Get("isFallbackAdapter").Truthy(), nil
}
