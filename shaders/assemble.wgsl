// assemble.wgsl: the final scores of one kind (cont, disc or gap) in the
// decoder's layout (chart/decode.Scores: (x*n + y)*L + a). For every sentence
// z and every entry of its n*n*L block, in place:
//
//   S[x, y, a] = S_label[x, y, a] + S_span[x, y]     for x <= y
//   S[x, y, a] = 0                                   for x > y
//
// and with mean = M > 1 the upper entries are then multiplied by 1/M: an
// ensemble of M models scored on one device, whose label scores
// biaffine_pair.wgsl and span scores this kernel have summed in the block
// model after model.
//
// where S_label is the block biaffine_pair.wgsl wrote at
// arena[out + scoreOff + kind*n*n*L] and S_span the span module's scores at
// arena[spans + spanOff].
//
// Bindings:
//   group 0, binding 1, arena, array<f32>,     storage, read_write: span scores (read), label scores (read and written)
//   group 0, binding 2, ints,  array<u32>,     storage, read:       sentence table [first token, words, score offset, span offset]
//   group 0, binding 3, p,     AssembleParams, uniform: the parameters (webgpu/params.go)
// Workgroup size: 256 x 1 x 1; grid (min(ceil(maxN*maxN*L/256), 4096), 1, sentences), grid-stride loop.
// Dispatched by: webgpu.(*planner).assemble (webgpu/dispatch.go).

struct AssembleParams {
    labels: u32,     // L
    sentTable: u32,  // ints offset of the sentence table (4 u32 per sentence)
    out: u32,        // arena offset of the score region (score offsets are relative to it)
    spans: u32,      // arena offset of the span scratch (span offsets are relative to it)
    kind: u32,       // 0 cont, 1 disc, 2 gap
    mean: u32,       // M > 1: multiply by 1/M (an ensemble's last model)
}

@group(0) @binding(1) var<storage, read_write> arena: array<f32>;
@group(0) @binding(2) var<storage, read> ints: array<u32>;
@group(0) @binding(3) var<uniform> p: AssembleParams;

@compute @workgroup_size(256, 1, 1)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    let z = wid.z;
    let n = ints[p.sentTable + 4u * z + 1u];
    let L = p.labels;
    let total = n * n * L;
    let block = p.out + ints[p.sentTable + 4u * z + 2u] + p.kind * total;
    let span = p.spans + ints[p.sentTable + 4u * z + 3u];
    let stride = nwg.x * 256u;
    for (var i = wid.x * 256u + lid.x; i < total; i += stride) {
        let x = i / (n * L);
        let y = (i / L) % n;
        var v = 0.0;
        if (x <= y) {
            v = arena[block + i] + arena[span + x * n + y];
            if (p.mean > 1u) {
                v *= 1.0 / f32(p.mean);
            }
        }
        arena[block + i] = v;
    }
}
