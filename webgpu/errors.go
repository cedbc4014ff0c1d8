package webgpu

import (
	"errors"
	"fmt"

	"github.com/discspan/discspan/scorer"
)

var (
	// ErrNoAdapter means that no WebGPU adapter could be had: no
	// navigator.gpu, no Vulkan/Metal/DX12 driver, or a request refused.
	ErrNoAdapter = errors.New("webgpu: no adapter")
	// ErrShader means that a kernel failed to compile or to build its
	// pipeline.
	ErrShader = errors.New("webgpu: shader compilation failed")
	// ErrDevice means that the device failed or was lost while scoring.
	ErrDevice = errors.New("webgpu: device failure")
	// ErrTooLarge means that the weights exceed what one storage binding
	// holds (for an ensemble: all its models' together; NewMean then
	// gives each model a scorer of its own).
	ErrTooLarge = errors.New("weights too large for one storage binding")
)

// unavailable returns an error matching kind and scorer.ErrUnavailable.
func unavailable(kind error, format string, args ...any) error {
	return fmt.Errorf("%w: %s (%w)", kind, fmt.Sprintf(format, args...), scorer.ErrUnavailable)
}
