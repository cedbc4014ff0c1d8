//go:build js || (cgo && ((linux && (amd64 || arm64)) || darwin || (windows && (amd64 || arm64))))

package webgpu

import (
	"strings"

	"github.com/cogentcore/webgpu/wgpu"
	"github.com/discspan/discspan/shaders"
)

// createBuffers allocates every device buffer.
func (s *Scorer) createBuffers(slots int) error {
	l := s.lay
	wbytes := s.opts.Weights.elemBytes() * s.wms[0].total // within the limit: see NewEnsemble
	// upload and staging start at one chunk's size and grow with the
	// batches (see Scorer.prepare).
	s.uploadSize, s.stagingSize = uniformSlot*slots+4*l.ints, 4*l.outCap
	specs := []struct {
		buf   **wgpu.Buffer
		label string
		size  int
		usage wgpu.BufferUsage
	}{
		// The arena is CopyDst only so that tests can fill it with NaN
		// before a run (TestRobustness: no kernel reads what no kernel
		// wrote).
		{&s.weights, "weights", (wbytes + 3) &^ 3, wgpu.BufferUsageStorage | wgpu.BufferUsageCopyDst},
		{&s.arena, "arena", 4 * l.arena, wgpu.BufferUsageStorage | wgpu.BufferUsageCopySrc | wgpu.BufferUsageCopyDst},
		{&s.ints, "ints", 4 * l.ints, wgpu.BufferUsageStorage | wgpu.BufferUsageCopyDst},
		{&s.uniforms, "uniforms", uniformSlot * slots, wgpu.BufferUsageUniform | wgpu.BufferUsageCopyDst},
		{&s.upload, "upload", s.uploadSize, wgpu.BufferUsageCopySrc | wgpu.BufferUsageCopyDst},
		{&s.staging, "staging", s.stagingSize, wgpu.BufferUsageMapRead | wgpu.BufferUsageCopyDst},
		{&s.fence, "fence", 256, wgpu.BufferUsageMapRead | wgpu.BufferUsageCopyDst},
	}
	for _, b := range specs {
		buf, err := s.d.dev.CreateBuffer(&wgpu.BufferDescriptor{Label: b.label, Size: uint64(b.size), Usage: b.usage})
		if err != nil {
			return unavailable(ErrDevice, "creating the %s buffer (%d bytes): %v", b.label, b.size, err)
		}
		*b.buf = buf
	}
	return nil
}

// compile creates the pipelines with the weights snippet inside error
// scopes of their own, so that compilation errors come back here on every
// backend (on js, Create* report none).
func (s *Scorer) compile(snippet string) error {
	s.d.pushScopes()
	err := s.createPipelines(snippet)
	if perr := s.d.popScopes(); err == nil && perr != nil {
		err = unavailable(ErrShader, "compiling the kernels with %s: %v%s", snippet, perr, s.diagnostics(snippet))
	}
	return err
}

// createPipelines compiles the kernels, each with the weights snippet, with
// the pipeline layout of createLayouts.
func (s *Scorer) createPipelines(snippet string) error {
	return s.createPipelinesFrom(snippet, func(k kernel) (string, error) {
		code, _, err := kernelSource(k, snippet)
		// A replacement body stands in for the kernels whose entry point
		// it has (matmul_indexed.wgsl has no reduce).
		if body, ok := s.opts.kernelBodies[kernelFiles[k]]; ok && err == nil && strings.Contains(body, "fn "+kernelEntries[k]+"(") {
			head, _ := shaders.Source(snippet)
			code = head + "\n" + body
		}
		return perturbed(code, kernelFiles[k], s.opts.TestPerturb), err
	})
}

// createLayouts creates the one bind group layout every kernel uses and its
// pipeline layout, explicitly (the js backend has no automatic layouts).
func (s *Scorer) createLayouts() error {
	storage := func(binding uint32, t wgpu.BufferBindingType) wgpu.BindGroupLayoutEntry {
		return wgpu.BindGroupLayoutEntry{Binding: binding, Visibility: wgpu.ShaderStageCompute, Buffer: wgpu.BufferBindingLayout{Type: t}}
	}
	var err error
	s.bgl, err = s.d.dev.CreateBindGroupLayout(&wgpu.BindGroupLayoutDescriptor{Label: "discspan", Entries: []wgpu.BindGroupLayoutEntry{
		storage(0, wgpu.BufferBindingTypeReadOnlyStorage),
		storage(1, wgpu.BufferBindingTypeStorage),
		storage(2, wgpu.BufferBindingTypeReadOnlyStorage),
		storage(3, wgpu.BufferBindingTypeUniform),
		storage(4, wgpu.BufferBindingTypeReadOnlyStorage),
	}})
	if err != nil {
		return unavailable(ErrShader, "bind group layout: %v", err)
	}
	s.pl, err = s.d.dev.CreatePipelineLayout(&wgpu.PipelineLayoutDescriptor{BindGroupLayouts: []*wgpu.BindGroupLayout{s.bgl}})
	if err != nil {
		return unavailable(ErrShader, "pipeline layout: %v", err)
	}
	return nil
}

// createPipelinesFrom is createPipelines with the WGSL of each kernel from
// source.
func (s *Scorer) createPipelinesFrom(snippet string, source func(kernel) (string, error)) error {
	for k := range numKernels {
		if !s.opts.fits(k) {
			continue // the device cannot run it; plans do not use it (planLimits.splitLoop)
		}
		code, err := source(k)
		if err != nil {
			return err
		}
		mod, err := s.d.dev.CreateShaderModule(&wgpu.ShaderModuleDescriptor{
			Label: kernelFiles[k], WGSLDescriptor: &wgpu.ShaderModuleWGSLDescriptor{Code: code},
		})
		if err != nil {
			return unavailable(ErrShader, "%s (with %s): %v%s", kernelFiles[k], snippet, err, s.d.compilerLog())
		}
		if s.pipes[k] != nil {
			s.pipes[k].Release()
			s.pipes[k] = nil
		}
		s.pipes[k], err = s.d.dev.CreateComputePipeline(&wgpu.ComputePipelineDescriptor{
			Layout: s.pl, Compute: wgpu.ProgrammableStageDescriptor{Module: mod, EntryPoint: kernelEntries[k]},
		})
		mod.Release()
		if err != nil {
			return unavailable(ErrShader, "%s (with %s): pipeline: %v%s", kernelFiles[k], snippet, err, s.d.compilerLog())
		}
	}
	return nil
}

// diagnostics returns the compiler messages of every kernel, where the
// backend can get them (js: getCompilationInfo), one per line.
func (s *Scorer) diagnostics(snippet string) string {
	out := ""
	done := map[string]bool{}
	for k := range numKernels {
		if done[kernelFiles[k]] {
			continue
		}
		done[kernelFiles[k]] = true
		code, lines, err := kernelSource(k, snippet)
		if err != nil {
			continue
		}
		out += s.d.shaderDiagnostics(kernelFiles[k], code, lines)
	}
	return out
}

// createGroups creates one bind group per uniform slot.
func (s *Scorer) createGroups(slots int) error {
	sizes := []uint64{s.bufSize(s.weights), s.bufSize(s.arena), s.bufSize(s.ints)}
	for i := range slots {
		g, err := s.d.dev.CreateBindGroup(&wgpu.BindGroupDescriptor{Layout: s.bgl, Entries: []wgpu.BindGroupEntry{
			{Binding: 0, Buffer: s.weights, Size: sizes[0]},
			{Binding: 1, Buffer: s.arena, Size: sizes[1]},
			{Binding: 2, Buffer: s.ints, Size: sizes[2]},
			{Binding: 3, Buffer: s.uniforms, Offset: uint64(i * uniformSlot), Size: uniformSlot},
			{Binding: 4, Buffer: s.weights, Size: sizes[0]}, // wts4: the weights again, four elements a load
		}})
		if err != nil {
			return unavailable(ErrShader, "bind group %d: %v", i, err)
		}
		s.groups = append(s.groups, g)
	}
	return nil
}

// bufSize returns the size a buffer was created with.
func (s *Scorer) bufSize(b *wgpu.Buffer) uint64 {
	switch b {
	case s.weights:
		if s.opts.Weights == WeightsF16 {
			return uint64((2*s.wms[0].total + 3) &^ 3)
		}
		return uint64(4 * s.wms[0].total)
	case s.arena:
		return uint64(4 * s.lay.arena)
	case s.ints:
		return uint64(4 * s.lay.ints)
	}
	panic("webgpu: bufSize of an unknown buffer")
}
