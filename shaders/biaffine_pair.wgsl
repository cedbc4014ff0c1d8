// biaffine_pair.wgsl: the second biaffine product of a module, per sentence,
// tiled. With T[t, o, :] = [L(t); 1]ᵀ W[o] from matmul.wgsl (rows (t, o),
// D = d+1 columns) and the right endpoint features R (d columns, a 1
// appended), for the words x, y < n of sentence z (token rows first+1+x):
//
//   S[x, y, o] = Σ_k T[first+1+x, o, k] · [R(first+1+y); 1][k]       for x <= y
//
// written in the decoder's layout ((x*n + y)*O + o) at
//   arena[out + spanOff*O + ...]
// in the label scratch (O = Labels) or the span scratch (O = 1), where
// assemble.wgsl reads them. Entries with x > y are not written.
//
// With kindSents = S > 0 (a small chunk: the three kinds of a module at
// once), workgroup z is sentence z % S of kind (z / S) % 3 of model
// z / (3S) (an ensemble's models at once), whose T and scratch lie tKind
// and outKind further per kind (the models' one after the other: 3 kinds
// a model), and R rKind further per kind and rM per model.
//
// The rows (x, o) of a sentence are contiguous in T, so the product is a
// (n*O, D) x (D, n) matrix product: each workgroup computes a 32x32 tile,
// staging 32x16 tiles of T and 16x32 tiles of Rᵀ in workgroup memory, 4x4
// per invocation; tiles entirely below the diagonal (x > y) are skipped.
//
// Bindings:
//   group 0, binding 1, arena, array<f32>,   storage, read_write: T and R (read), scores (written to a scratch)
//   group 0, binding 2, ints,  array<u32>,   storage, read:       sentence table [first token, words, score offset, span offset]
//   group 0, binding 3, p,     PairParams,   uniform: the parameters (webgpu/params.go)
// Workgroup size: 8 x 8 x 1; grid (row tiles of this part, ceil(maxN/32), sentences (times 3 kinds)),
// the row tiles tile0 .. of ceil(maxN*O/32).
// Dispatched by: webgpu.(*planner).biaffinePair (webgpu/dispatch.go).

struct PairParams {
    outs: u32,       // O: outputs of the module (1 or Labels)
    dim: u32,        // D = d+1
    sentTable: u32,  // ints offset of the sentence table (4 u32 per sentence)
    t: u32,          // arena offset of T (tokens, O, D)
    r: u32,          // arena offset of the right features of token 0 (column offset included)
    ldr: u32,        // row stride of the right features
    out: u32,        // arena offset of the scratch (a sentence's block at its span offset times O)
    tile0: u32,      // first row tile of this dispatch (a large product is split over dispatches)
    kindSents: u32,  // S > 0: grid z is kind*S + sentence (the three kinds at once); 0: z is the sentence
    tKind: u32,      // arena offset step of T per kind
    rKind: u32,      // arena offset step of R per kind
    outKind: u32,    // arena offset step of the scratch per kind
    rM: u32,         // arena offset step of R per model
}

@group(0) @binding(1) var<storage, read_write> arena: array<f32>;
@group(0) @binding(2) var<storage, read> ints: array<u32>;
@group(0) @binding(3) var<uniform> p: PairParams;

const TM: u32 = 32u;
const TN: u32 = 32u;
const TK: u32 = 16u;

var<workgroup> As: array<f32, 512>; // [TM][TK]
var<workgroup> Bs: array<f32, 512>; // [TK][TN]

fn store(rr: u32, y0: u32, n: u32, base: u32, v: vec4<f32>) {
    if (rr >= n * p.outs) {
        return;
    }
    let x = rr / p.outs;
    let o = rr % p.outs;
    for (var j = 0u; j < 4u; j++) {
        let y = y0 + j;
        if (y < n && x <= y) {
            arena[base + (x * n + y) * p.outs + o] = v[j];
        }
    }
}

@compute @workgroup_size(8, 8, 1)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
    var z = wid.z;
    var kk = 0u; // the model's kind: model*3 + kind
    if (p.kindSents > 0u) {
        kk = wid.z / p.kindSents;
        z = wid.z % p.kindSents;
    }
    let first = ints[p.sentTable + 4u * z];
    let n = ints[p.sentTable + 4u * z + 1u];
    let row0 = (wid.x + p.tile0) * TM;
    let col0 = wid.y * TN;
    let rows = n * p.outs;
    // Uniform exit: outside the sentence, or every x of the tile > every y.
    if (row0 >= rows || col0 >= n || row0 / p.outs > col0 + TN - 1u) {
        return;
    }
    let base = p.out + kk * p.outKind + ints[p.sentTable + 4u * z + 3u] * p.outs;
    let D = p.dim;
    let tbase = p.t + kk * p.tKind + (first + 1u) * p.outs * D;
    let rbase = p.r + (kk % 3u) * p.rKind + (kk / 3u) * p.rM + (first + 1u) * p.ldr;
    var acc0 = vec4<f32>(0.0);
    var acc1 = vec4<f32>(0.0);
    var acc2 = vec4<f32>(0.0);
    var acc3 = vec4<f32>(0.0);
    let ry = lid.y * 4u;
    let cx = lid.x * 4u;
    for (var k0 = 0u; k0 < D; k0 += TK) {
        for (var e = li; e < TM * TK; e += 64u) {
            let ar = row0 + e / TK;
            let ak = k0 + e % TK;
            var av = 0.0;
            if (ar < rows && ak < D) {
                av = arena[tbase + ar * D + ak];
            }
            As[e] = av;
            let by = col0 + e / TK;
            let bk = k0 + e % TK;
            var bv = 0.0;
            if (by < n && bk < D) {
                bv = 1.0;
                if (bk < D - 1u) {
                    bv = arena[rbase + by * p.ldr + bk];
                }
            }
            Bs[(e % TK) * TN + e / TK] = bv;
        }
        workgroupBarrier();
        for (var k = 0u; k < TK; k++) {
            let b = vec4<f32>(Bs[k * TN + cx], Bs[k * TN + cx + 1u], Bs[k * TN + cx + 2u], Bs[k * TN + cx + 3u]);
            acc0 += As[(ry + 0u) * TK + k] * b;
            acc1 += As[(ry + 1u) * TK + k] * b;
            acc2 += As[(ry + 2u) * TK + k] * b;
            acc3 += As[(ry + 3u) * TK + k] * b;
        }
        workgroupBarrier();
    }
    store(row0 + ry + 0u, col0 + cx, n, base, acc0);
    store(row0 + ry + 1u, col0 + cx, n, base, acc1);
    store(row0 + ry + 2u, col0 + cx, n, base, acc2);
    store(row0 + ry + 3u, col0 + cx, n, base, acc3);
}
