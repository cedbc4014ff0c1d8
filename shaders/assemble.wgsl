// assemble.wgsl: the final scores of one kind (cont, disc or gap), the
// label and span scores summed into the kind's block of each sentence's
// results, packed: only the spans x <= y, row by row, so that the
// read-back is about half the decoder's layout (chart/decode.Scores:
// (x*n + y)*L + a), whose zeros below the diagonal need no transfer (the
// host copies each packed row into place: webgpu.chunk.pieces). For every
// sentence z, every x <= y < n and every label a:
//
//   B[row(x) + y - x, a] = S_label[x, y, a] + S_span[x, y]    row(x) = x(2n+1-x)/2 (the cells of rows 0..x-1)
//
// with accum = 1 added to the value stored there (an ensemble's later
// model, scored on the same device), and with mean = M > 1 the sum then
// multiplied by 1/M (the ensemble's last model).
//
// B is the kind's block of the sentence, at arena[out + scoreOff + kind *
// n(n+1)/2 * L] (n(n+1)/2 rows of L); S_label the label module's scores
// that biaffine_pair.wgsl wrote in the decoder's layout at arena[lab +
// spanOff*L], S_span the span module's at arena[spans + spanOff].
//
// With kindSents = S > 0 (a small chunk: the three kinds at once),
// workgroup z is sentence z % S of kind p.kind + z / S, whose label and
// span scores lie labKind and spanKind further per kind. With models = M
// > 1 (an ensemble's models at once), S_label + S_span is the sum over
// the M models' scores, model m's labM and spanM further.
//
// Bindings:
//   group 0, binding 1, arena, array<f32>,     storage, read_write: span and label scores (read), results (written, or read and written)
//   group 0, binding 2, ints,  array<u32>,     storage, read:       sentence table [first token, words, score offset, span offset]
//   group 0, binding 3, p,     AssembleParams, uniform: the parameters (webgpu/params.go)
// Workgroup size: 256 x 1 x 1; grid (min(ceil(maxN*maxN*L/256), 4096), 1, sentences (times 3 kinds)), grid-stride loop.
// Dispatched by: webgpu.(*planner).assemble (webgpu/dispatch.go).

struct AssembleParams {
    labels: u32,     // L
    sentTable: u32,  // ints offset of the sentence table (4 u32 per sentence)
    out: u32,        // arena offset of the out region (score offsets are relative to it)
    spans: u32,      // arena offset of the span scratch (span offsets are relative to it)
    kind: u32,       // 0 cont, 1 disc, 2 gap
    mean: u32,       // M > 1: multiply by 1/M (an ensemble's last model)
    lab: u32,        // arena offset of the label scratch (span offsets times L are relative to it)
    accum: u32,      // 1: add to the stored value (an ensemble's later model)
    kindSents: u32,  // S > 0: grid z is kind*S + sentence (the three kinds at once); 0: z is the sentence
    labKind: u32,    // arena offset step of the label scratch per kind
    spanKind: u32,   // arena offset step of the span scratch per kind
    models: u32,     // M > 1: sum the scores of M models
    labM: u32,       // arena offset step of the label scratch per model
    spanM: u32,      // arena offset step of the span scratch per model
}

@group(0) @binding(1) var<storage, read_write> arena: array<f32>;
@group(0) @binding(2) var<storage, read> ints: array<u32>;
@group(0) @binding(3) var<uniform> p: AssembleParams;

@compute @workgroup_size(256, 1, 1)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    var z = wid.z;
    var kind = 0u;
    if (p.kindSents > 0u) {
        kind = wid.z / p.kindSents;
        z = wid.z % p.kindSents;
    }
    let n = ints[p.sentTable + 4u * z + 1u];
    let L = p.labels;
    let total = n * n * L;
    let block = p.out + ints[p.sentTable + 4u * z + 2u] + (p.kind + kind) * (n * (n + 1u) / 2u) * L;
    let spanOff = ints[p.sentTable + 4u * z + 3u];
    let span = p.spans + kind * p.spanKind + spanOff;
    let lab = p.lab + kind * p.labKind + spanOff * L;
    let stride = nwg.x * 256u;
    // i runs over the decoder's layout (x*n + y)*L + a, so that the label
    // scores are read in order; the entries x > y are skipped.
    for (var i = wid.x * 256u + lid.x; i < total; i += stride) {
        let x = i / (n * L);
        let y = (i / L) % n;
        if (x > y) {
            continue;
        }
        let at = block + (x * (2u * n + 1u - x) / 2u + y - x) * L + i % L;
        var v = arena[lab + i] + arena[span + x * n + y];
        for (var m = 1u; m < p.models; m++) {
            v += arena[lab + m * p.labM + i] + arena[span + m * p.spanM + x * n + y];
        }
        if (p.accum == 1u) {
            v += arena[at];
        }
        if (p.mean > 1u) {
            v *= 1.0 / f32(p.mean);
        }
        arena[at] = v;
    }
}
