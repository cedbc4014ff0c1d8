// gather.wgsl: embedding gather. Row r of the output is row ids[r] of an
// embedding table held in the parameters:
//
//   arena[dst + r*ldd + c] = wt(src + ints[ids + r*idStride] * dim + c)   for r < rows, c < dim
//
// Used for the word embeddings of every token of a chunk (ids = the token
// table, stride 3) and, at load time, for the whole character embedding table
// (ids = 0..CharVocab-1) before its input projection. With grid z = M > 1,
// the word embeddings of an ensemble's M models at once: model z's table
// and output lie z*srcM and z*dstM further.
//
// Bindings:
//   group 0, binding 0, wts,   array<f32|u32|f16>, storage, read:       the embedding table (weights_*.wgsl)
//   group 0, binding 1, arena, array<f32>,         storage, read_write: the output rows (written)
//   group 0, binding 2, ints,  array<u32>,         storage, read:       the row ids
//   group 0, binding 3, p,     GatherParams,       uniform: the parameters (webgpu/params.go)
// Workgroup size: 64 x 1 x 1; grid (min(ceil(rows*dim/64), 4096), 1, models), grid-stride loop.
// Dispatched by: webgpu.(*planner).gather (webgpu/dispatch.go).

struct GatherParams {
    rows: u32,      // output rows
    dim: u32,       // embedding size (columns)
    ids: u32,       // ints offset of the first row id
    idStride: u32,  // ints distance between consecutive row ids
    src: u32,       // weights offset of the embedding table (rows of dim values)
    dst: u32,       // arena offset of the output
    ldd: u32,       // output row stride
    srcM: u32,      // weights offset step of the table per model (grid z)
    dstM: u32,      // arena offset step of the output per model
}

@group(0) @binding(1) var<storage, read_write> arena: array<f32>;
@group(0) @binding(2) var<storage, read> ints: array<u32>;
@group(0) @binding(3) var<uniform> p: GatherParams;

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    let total = p.rows * p.dim;
    let stride = nwg.x * 64u;
    for (var i = gid.x; i < total; i += stride) {
        let r = i / p.dim;
        let c = i % p.dim;
        let id = ints[p.ids + r * p.idStride];
        arena[p.dst + gid.z * p.dstM + r * p.ldd + c] = wt(p.src + gid.z * p.srcM + id * p.dim + c);
    }
}
