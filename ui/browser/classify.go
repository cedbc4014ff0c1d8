package browser

import (
	"errors"

	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/webgpu"
)

// classified is err, also matching kind (a parser.Err... sentinel) so that
// the engine can say why WebGPU is not used; its message is err's.
type classified struct{ err, kind error }

func (c classified) Error() string   { return c.err.Error() }
func (c classified) Unwrap() []error { return []error{c.err, c.kind} }

// classifyGPUError makes an error of webgpu.New match the parser's reason
// for not using WebGPU: parser.ErrSelfCheck when the self-check refused
// the GPU (the message, naming the adapter and the largest difference,
// is kept).
func classifyGPUError(err error) error {
	if errors.Is(err, webgpu.ErrSelfCheck) {
		return classified{err, parser.ErrSelfCheck}
	}
	return err
}
