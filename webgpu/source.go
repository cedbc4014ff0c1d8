package webgpu

import (
	"strings"

	"github.com/discspan/discspan/shaders"
)

// weightSnippet returns the weights_*.wgsl file defining wt() for the
// storage of the weights: float32, float16 read as f16 (shader-f16), or
// float16 unpacked with unpack2x16float.
func weightSnippet(w Weights, shaderF16 bool) string {
	switch {
	case w == WeightsF32:
		return "weights_f32.wgsl"
	case shaderF16:
		return "weights_f16native.wgsl"
	}
	return "weights_f16.wgsl"
}

// kernelSource returns the WGSL compiled for kernel k: the weights snippet,
// then the kernel file, and the number of lines the snippet takes (to map
// compiler positions back to the kernel file).
func kernelSource(k kernel, snippet string) (code string, snippetLines int, err error) {
	head, err := shaders.Source(snippet)
	if err != nil {
		return "", 0, err
	}
	body, err := shaders.Source(kernelFiles[k])
	if err != nil {
		return "", 0, err
	}
	if !strings.HasSuffix(head, "\n") {
		head += "\n"
	}
	return head + body, strings.Count(head, "\n"), nil
}
