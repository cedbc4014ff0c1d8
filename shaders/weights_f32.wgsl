// weights_f32.wgsl: parameter access for float32 weights. A snippet, not a
// kernel: webgpu.kernelSource prepends it to every kernel when the weights
// are uploaded as float32.
//
// Bindings:
//   group 0, binding 0, wts,  array<f32>,       storage, read: every parameter tensor, packed (webgpu/pack.go)
//   group 0, binding 4, wts4, array<vec4<f32>>, storage, read: the same buffer, four elements at a time
// Workgroup size: none (no entry point).
// Dispatched by: none; prepended by webgpu.kernelSource.

@group(0) @binding(0) var<storage, read> wts: array<f32>;

// wt returns parameter element i (an index into the packed parameters).
fn wt(i: u32) -> f32 {
    return wts[i];
}

@group(0) @binding(4) var<storage, read> wts4: array<vec4<f32>>;

// wt4 returns parameter elements 4i .. 4i+3 in one load.
fn wt4(i: u32) -> vec4<f32> {
    return wts4[i];
}
