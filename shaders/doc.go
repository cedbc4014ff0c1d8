// Package shaders holds the WGSL compute shaders of the span-scoring
// network's forward pass (see package network for the math and package
// webgpu for the Go code that compiles and dispatches them). The files are
// embedded in FS so that the WebGPU backend, native or in the browser, needs
// nothing from the file system.
//
// Every kernel file opens with a comment listing its bindings (group,
// binding, name, type, access), its workgroup size and the Go function that
// dispatches it. All kernels share one bind group layout:
//
//	group 0, binding 0  wts    the parameters, one buffer (weights_*.wgsl)
//	group 0, binding 1  arena  array<f32>, storage read_write: activations
//	group 0, binding 2  ints   array<u32>, storage read: ids and tables
//	group 0, binding 3  p      the kernel's parameter struct, uniform
//
// A kernel reads its weights only through the function wt(i) -> f32, which
// one of the weights_*.wgsl snippets defines and which is prepended to the
// kernel before compilation: float32 weights (weights_f32.wgsl), float16
// weights unpacked with unpack2x16float (weights_f16.wgsl) or read as f16
// where the device has the shader-f16 feature (weights_f16native.wgsl).
//
// Kernels, in the order of the forward pass:
//
//	gather.wgsl          embedding rows -> activation rows (word embeddings; the char table at load time)
//	matmul.wgsl          tiled C = act(A Bᵀ + b) or A·B with an appended ones column:
//	                     LSTM input projections, the tagger, the endpoint MLPs (LeakyReLU),
//	                     the first biaffine product [L;1]·W[o]
//	lstm.wgsl            one time step of a BiLSTM for every sequence of a chunk, tiled:
//	                     entry point chars (the character BiLSTM over every token) and
//	                     entry point sentence (the two sentence BiLSTMs)
//	lstm_loop.wgsl       a whole sentence BiLSTM layer as a persistent workgroup loop
//	                     (chunks of at most 4 sentences: latency)
//	biaffine_pair.wgsl   tiled second biaffine product (L W)[x,o]·[R(y);1] per sentence
//	assemble.wgsl        span + label scores in the decoder's layout, 0 for x > y
package shaders

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

// FS holds every .wgsl file of this directory.
//
//go:embed *.wgsl
var FS embed.FS

// Source returns the text of the named file (e.g. "lstm.wgsl"). It returns
// an error for a name that is not one of the embedded files.
func Source(name string) (string, error) {
	b, err := FS.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("shaders: %w", err)
	}
	return string(b), nil
}

// Names returns the embedded file names in sorted order.
func Names() []string {
	entries, err := fs.ReadDir(FS, ".")
	if err != nil {
		panic("shaders: " + err.Error()) // an embed.FS root always reads
	}
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".wgsl") {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}
