//go:build js

package browser

import (
	"fmt"
	"syscall/js"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/webgpu"
)

// GPU builds a WebGPU scorer (a parser.GPUFunc): an ensemble's models on
// one device, averaged there (webgpu.NewMean); with f16 (the engine sets
// it for files stored as F16, I8 or I4) the weights are float16 on the
// device. Unless allowSoftware, it first asks for an
// adapter and gives up, wrapping parser.ErrSoftwareAdapter, when it is a
// fallback (software) one, before compiling the kernels.
func GPU(params func() ([]*network.Params, error), f16, allowSoftware bool) (scorer.Scorer, bool, error) {
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
	ps, err := params()
	if err != nil {
		return nil, false, err
	}
	s, adapter, err := webgpu.NewMean(ps, o)
	if err != nil {
		return nil, false, classifyGPUError(err)
	}
	return s, adapter.Software, nil
}

// probeAdapter asks navigator.gpu for an adapter and reports whether it is
// a fallback (software) one.
func probeAdapter() (software bool, err error) {
	gpu := js.Global().Get("navigator").Get("gpu")
	if !gpu.Truthy() {
		return false, fmt.Errorf("no WebGPU in this browser")
	}
	ad, err := await(gpu.Call("requestAdapter", map[string]any{"powerPreference": "high-performance"}))
	if err != nil || !ad.Truthy() {
		return false, noAdapter(err)
	}
	if info := ad.Get("info"); info.Truthy() && info.Get("isFallbackAdapter").Truthy() {
		return true, nil
	}
	return ad.Get("isFallbackAdapter").Truthy(), nil
}
