// lstm.wgsl: one time step of a BiLSTM layer for every sequence of a chunk at
// once, as a tiled product h_prev W_hh (one dispatch per step, both
// directions; never one submission per step or per sequence). Two entry
// points share the code:
//
//   sentence  a sentence BiLSTM (lstm1, lstm2): the sequences are the chunk's
//             sentences, N = n+2 tokens each (BOS, words, EOS); step s reads
//             token t = first+s (forward) or first+N-1-s (backward)
//   chars     the character BiLSTM: the sequences are the chunk's tokens,
//             their characters [BOW, c_1 .. c_m, EOW]; step s reads character
//             s (forward) or m+1-s (backward)
//
// Sequences are rows, sorted by decreasing length (sentences: the chunk
// order; tokens: the order list in ints), so the rows still running at step s
// are the first `rows`. For row r, direction dir = z and unit j, with the
// gate rows interleaved (column 4j+q is gate q = i, f, g, o of unit j; the
// weights are packed so, webgpu/pack.go):
//
//   a[4j+q] = x[r, 4j+q] + Σ_k h_prev[r, k] · W_hhᵀ[k, 4j+q]
//   c_j = σ(a_f) c_j + σ(a_i) tanh(a_g),  h_j = σ(a_o) tanh(c_j)      (h_prev = c = 0 at s = 0)
//
// where x is the input projection x_t W_ihᵀ + b: for sentences row t of G
// (matmul.wgsl), for characters row (char, dir) of the char table. Sentence
// states are written to the BiLSTM output, h_t at out + t*ldo + dir*H + j,
// which the next step reads back as h_prev; character states go to a
// ping-pong pair (hIn -> hOut), and at a token's last step to its feature
// row at out + tok*ldo + col + dir*H + j. Cell states c stay in place at
// c + (r*2 + dir)*H + j (each is read and written by one invocation).
//
// Tiling: a workgroup computes 16 rows x 64 gate columns (16 units); the k
// loop steps by 32 with A (h_prev) and B (W_hhᵀ) tiles in workgroup memory
// (few barriers: they dominate on software GPUs);
// each invocation holds 2 rows x 8 columns, i.e. the four gates of 2 units,
// and applies the cell update to them in registers.
//
// Bindings:
//   group 0, binding 0, wts,   array<f32|u32|f16>, storage, read:       W_hh of both directions (weights_*.wgsl)
//   group 0, binding 1, arena, array<f32>,         storage, read_write: inputs, states (read and written)
//   group 0, binding 2, ints,  array<u32>,         storage, read:       sentence table; token table, char ids, token order
//   group 0, binding 3, p,     LSTMParams,         uniform: the parameters (webgpu/params.go)
// Workgroup size: 8 x 8 x 1; grid (ceil(4H/64), ceil(rows/16), 2).
// Dispatched by: webgpu.(*planner).lstmSteps and webgpu.(*planner).charSteps (webgpu/dispatch.go).

struct LSTMParams {
    hid: u32,        // H
    step: u32,       // s
    rows: u32,       // sequences still running at step s
    seqs: u32,       // ints offset: sentence table (sentence) or token order (chars)
    tokTable: u32,   // ints offset of the token table (chars)
    x: u32,          // arena offset of the input projections: G (sentence) or the char table (chars)
    ldx: u32,        // row stride of G (8H; sentence)
    whh: u32,        // weights offset of the forward W_hhᵀ (H, 4H), gate columns interleaved
    whhZ: u32,       // weights offset step to the backward W_hhᵀ
    hIn: u32,        // arena offset of h_prev (chars: (rows, 2, H))
    hOut: u32,       // arena offset of h (chars: (rows, 2, H))
    c: u32,          // arena offset of the cell states (rows, 2, H)
    out: u32,        // arena offset of the output rows (sentence: the states (T, 2H); chars: the features U)
    ldo: u32,        // row stride of the output rows
    col: u32,        // first output column (chars: WordDim; sentence: 0)
    whhM: u32,       // unused here (lstm_loop.wgsl: offset steps per model of an ensemble)
    xM: u32,         // unused here
    outM: u32,       // unused here
    interleaved: u32, // unused here
    slices: u32,     // unused here (lstm_loop.wgsl split)
    sliceLen: u32,   // unused here
}

@group(0) @binding(1) var<storage, read_write> arena: array<f32>;
@group(0) @binding(2) var<storage, read> ints: array<u32>;
@group(0) @binding(3) var<uniform> p: LSTMParams;

const TM: u32 = 16u;
const TN: u32 = 64u;
const TK: u32 = 32u;

var<workgroup> As: array<vec2<f32>, 256>; // [TK][TM/2]: h_prev of rows 2q, 2q+1 at column k
var<workgroup> Bs: array<vec4<f32>, 512>; // [TK][TN/4]: W_hhᵀ columns 4q..4q+3 of row k
var<workgroup> prevAt: array<u32, 16>;    // arena offset of h_prev of each row of the tile
var<workgroup> running: array<u32, 16>;   // 1u when the row is one of the p.rows (u32, not bool:
                                          // an NVIDIA driver miscompiled a workgroup bool array)

fn sigm(x: f32) -> f32 {
    return 1.0 / (1.0 + exp(-clamp(x, -60.0, 60.0)));
}

// tanh_ avoids the builtin, which some drivers compute as a quotient of
// exponentials that overflows to NaN for large |x|.
fn tanh_(x: f32) -> f32 {
    let e = exp(2.0 * clamp(x, -15.0, 15.0));
    return 1.0 - 2.0 / (e + 1.0);
}

// Seq locates row r at the current step.
struct Seq {
    t: u32,      // token row of the step (sentence) or the token (chars)
    x: u32,      // arena offset of the gate inputs of the step (4H values)
    prev: u32,   // arena offset of h_prev (H values)
    last: bool,  // chars: the token's last step
}

fn locate(r: u32, dir: u32, chars: bool) -> Seq {
    let H = p.hid;
    var q: Seq;
    if (chars) {
        let tok = ints[p.seqs + r];
        let first = ints[p.tokTable + 3u * tok + 1u];
        let count = ints[p.tokTable + 3u * tok + 2u];
        let ch = ints[first + select(p.step, count - 1u - p.step, dir == 1u)];
        q.t = tok;
        q.x = p.x + (ch * 2u + dir) * 4u * H;
        q.prev = p.hIn + (r * 2u + dir) * H;
        q.last = p.step + 1u == count;
    } else {
        let first = ints[p.seqs + 4u * r];
        let n = ints[p.seqs + 4u * r + 1u] + 2u;
        let t = first + select(p.step, n - 1u - p.step, dir == 1u);
        q.t = t;
        q.x = p.x + t * p.ldx + dir * 4u * H;
        // The previous token's state (unused at step 0).
        let tp = select(t - 1u, t + 1u, dir == 1u);
        q.prev = p.out + tp * p.ldo + dir * H;
        q.last = false;
    }
    return q;
}

// cell applies the LSTM update to unit j of row r given its gate
// pre-activations a (i, f, g, o) without the input part.
fn cell(r: u32, dir: u32, j: u32, a: vec4<f32>, s: Seq, chars: bool) {
    let H = p.hid;
    let g = a + vec4<f32>(arena[s.x + 4u * j], arena[s.x + 4u * j + 1u], arena[s.x + 4u * j + 2u], arena[s.x + 4u * j + 3u]);
    let ci = p.c + (r * 2u + dir) * H + j;
    var cprev = 0.0;
    if (p.step > 0u) {
        cprev = arena[ci];
    }
    let c = sigm(g.y) * cprev + sigm(g.x) * tanh_(g.z);
    let h = sigm(g.w) * tanh_(c);
    arena[ci] = c;
    if (chars) {
        arena[p.hOut + (r * 2u + dir) * H + j] = h;
        if (s.last) {
            arena[p.out + s.t * p.ldo + p.col + dir * H + j] = h;
        }
    } else {
        arena[p.out + s.t * p.ldo + p.col + dir * H + j] = h;
    }
}

fn step(wid: vec3<u32>, lid: vec3<u32>, li: u32, chars: bool) {
    let H = p.hid;
    let G = 4u * H;
    let row0 = wid.y * TM;
    let col0 = wid.x * TN;
    let dir = wid.z;
    let wbase = p.whh + dir * p.whhZ;
    // accI: row row0 + 2*lid.y + I, columns col0 + 8*lid.x .. +3 (unit u0);
    // acc2I: columns +4 .. +7 (unit u0 + 1). Named, not an array: an
    // indexed private array can live in slow memory (matmul.wgsl).
    var acc0 = vec4<f32>(0.0);
    var acc1 = vec4<f32>(0.0);
    var acc20 = vec4<f32>(0.0);
    var acc21 = vec4<f32>(0.0);
    if (p.step > 0u) {
        if (li < TM) {
            let r = row0 + li;
            running[li] = select(0u, 1u, r < p.rows);
            if (r < p.rows) {
                prevAt[li] = locate(r, dir, chars).prev;
            }
        }
        workgroupBarrier();
        for (var k0 = 0u; k0 < H; k0 += TK) {
            // Neighbouring invocations stage neighbouring values: along k for
            // h_prev, along the gate columns for W_hhᵀ.
            for (var e = li; e < 256u; e += 64u) {
                let ak = e % 32u;
                let ar = e / 32u;
                var a = vec2<f32>(0.0);
                if (k0 + ak < H) {
                    if (running[2u * ar] == 1u) {
                        a.x = arena[prevAt[2u * ar] + k0 + ak];
                    }
                    if (running[2u * ar + 1u] == 1u) {
                        a.y = arena[prevAt[2u * ar + 1u] + k0 + ak];
                    }
                }
                As[ak * 8u + ar] = a;
            }
            for (var e = li; e < 512u; e += 64u) {
                let k = e / 16u;
                let q = e % 16u;
                var b = vec4<f32>(0.0);
                let c = col0 + 4u * q;
                if (k0 + k < H && c < G) {
                    // G = 4H: the four gate columns of a unit are all inside or all outside.
                    let o = wbase + (k0 + k) * G + c;
                    b = vec4<f32>(wt(o), wt(o + 1u), wt(o + 2u), wt(o + 3u));
                }
                Bs[e] = b;
            }
            workgroupBarrier();
            for (var k = 0u; k < TK; k++) {
                let av = As[k * 8u + lid.y];
                let b0 = Bs[k * 16u + 2u * lid.x];
                let b1 = Bs[k * 16u + 2u * lid.x + 1u];
                acc0 += av.x * b0;
                acc20 += av.x * b1;
                acc1 += av.y * b0;
                acc21 += av.y * b1;
            }
            workgroupBarrier();
        }
    }
    let u0 = (col0 + 8u * lid.x) / 4u;
    finish(row0 + 2u * lid.y, dir, u0, acc0, acc20, chars);
    finish(row0 + 2u * lid.y + 1u, dir, u0, acc1, acc21, chars);
}

// finish computes the cells of units u0 and u0 + 1 of row r from their
// recurrent sums a and a2.
fn finish(r: u32, dir: u32, u0: u32, a: vec4<f32>, a2: vec4<f32>, chars: bool) {
    if (r < p.rows) {
        let s = locate(r, dir, chars);
        if (u0 < p.hid) {
            cell(r, dir, u0, a, s, chars);
        }
        if (u0 + 1u < p.hid) {
            cell(r, dir, u0 + 1u, a2, s, chars);
        }
    }
}

@compute @workgroup_size(8, 8, 1)
fn sentence(@builtin(workgroup_id) wid: vec3<u32>,
            @builtin(local_invocation_id) lid: vec3<u32>,
            @builtin(local_invocation_index) li: u32) {
    step(wid, lid, li, false);
}

@compute @workgroup_size(8, 8, 1)
fn chars(@builtin(workgroup_id) wid: vec3<u32>,
         @builtin(local_invocation_id) lid: vec3<u32>,
         @builtin(local_invocation_index) li: u32) {
    step(wid, lid, li, true);
}
