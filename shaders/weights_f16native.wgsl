// weights_f16native.wgsl: parameter access for float16 weights read as f16
// (WGSL "enable f16"; the device must have the shader-f16 feature). A
// snippet, not a kernel: webgpu.kernelSource prepends it to every kernel
// when the weights are uploaded as float16 and the device has shader-f16.
// Arithmetic stays in f32: only the loads are f16.
//
// Bindings:
//   group 0, binding 0, wts,  array<f16>,       storage, read: every parameter tensor as float16 (webgpu/pack.go)
//   group 0, binding 4, wts4, array<vec4<f16>>, storage, read: the same buffer, four elements at a time
// Workgroup size: none (no entry point).
// Dispatched by: none; prepended by webgpu.kernelSource.

enable f16;

@group(0) @binding(0) var<storage, read> wts: array<f16>;

// wt returns parameter element i (an index into the packed parameters).
fn wt(i: u32) -> f32 {
    return f32(wts[i]);
}

@group(0) @binding(4) var<storage, read> wts4: array<vec4<f16>>;

// wt4 returns parameter elements 4i .. 4i+3 in one load.
fn wt4(i: u32) -> vec4<f32> {
    return vec4<f32>(wts4[i]);
}
