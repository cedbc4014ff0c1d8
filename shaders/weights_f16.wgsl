// weights_f16.wgsl: parameter access for float16 weights kept as stored, two
// per 32-bit word (element 2k in the low half), unpacked with
// unpack2x16float. Needs no device feature. A snippet, not a kernel:
// webgpu.kernelSource prepends it to every kernel when the weights are
// uploaded as float16 and the device lacks shader-f16 (or it is disabled).
//
// Bindings:
//   group 0, binding 0, wts,  array<u32>,       storage, read: every parameter tensor as packed float16 pairs (webgpu/pack.go)
//   group 0, binding 4, wts4, array<vec2<u32>>, storage, read: the same buffer, four elements at a time
// Workgroup size: none (no entry point).
// Dispatched by: none; prepended by webgpu.kernelSource.

@group(0) @binding(0) var<storage, read> wts: array<u32>;

// wt returns parameter element i (an index into the packed parameters).
fn wt(i: u32) -> f32 {
    let pair = unpack2x16float(wts[i >> 1u]);
    return select(pair.x, pair.y, (i & 1u) == 1u);
}

@group(0) @binding(4) var<storage, read> wts4: array<vec2<u32>>;

// wt4 returns parameter elements 4i .. 4i+3 in one load.
fn wt4(i: u32) -> vec4<f32> {
    let q = wts4[i];
    return vec4<f32>(unpack2x16float(q.x), unpack2x16float(q.y));
}
