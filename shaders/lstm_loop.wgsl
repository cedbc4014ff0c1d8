// lstm_loop.wgsl: a whole BiLSTM layer in one dispatch, every chunk on a
// hardware adapter, chunks of few sentences on a software one. Two entry
// points:
//
//   main   a sentence BiLSTM layer (lstm1 or lstm2): one workgroup per
//          (sentence, direction) runs a persistent loop over the sentence's
//          N = n+2 tokens, keeping h in workgroup memory, one barrier per
//          step; with grid z > 1, the layer of each model of an ensemble at
//          once (model m's W_hh, G and states at the offsets plus m times
//          whhM, xM and outM);
//   split  main with each unit's recurrent sum split over S = p.slices
//          invocations (slice r: rows [r*L, (r+1)*L) of W_hhᵀ, L =
//          p.sliceLen), so that a step's chain of dependent loads is S
//          times shorter: 1024 invocations, H <= 512, S*H <= 1024,
//          (S-1)*H <= 768; slices 1..S-1 leave their partial sums in
//          workgroup memory (part, then the half of hbuf that h leaves
//          free: see putPartial), a barrier, slice 0 adds them to its own and the gate
//          inputs and updates the unit, a barrier. Only on a device that
//          allows 1024 invocations a workgroup (webgpu.splitLoopWidth);
//          the planner uses it for chunks of few sentences on a hardware
//          adapter (webgpu.(*planner).lstmLoop);
//   chars  the character BiLSTM: one workgroup per (WG/H tokens,
//          direction), each token's H units on H invocations, a loop over
//          the characters [BOW, c_1 .. c_m, EOW] of the workgroup's longest
//          token (the token order is by decreasing length; a shorter token's
//          invocations idle at its end), gate inputs from the char table,
//          and each token's final h written to its feature row at
//          out + tok*ldo + col + dir*H + j; grid z as for main. Where it runs, it replaces
//          lstm.wgsl's chars entry (one dispatch per character step);
//   charsSplit  chars with each unit's sum split over S = p.slices
//          invocations as split does (1024 invocations: slice r is
//          invocations [r*WG, (r+1)*WG), each holding chars' WG/H tokens;
//          S <= 4, so (S-1)*WG <= 768 partial sums), the same tokens a
//          workgroup and the same grid as chars; the planner uses it where
//          it uses split.
//
// lstm.wgsl (entries sentence and chars), one tiled dispatch per step over
// every sequence, reads W_hh once per step for all of them instead of once
// per sequence: on a software adapter that wins for
// large chunks; on an NVIDIA H200 the loop won or tied at every batch size
// (see webgpu.hardwareLoopSentences).
//
// Per step, for unit j (G's gates interleaved as in lstm.wgsl: column 4j+q
// is gate q = i, f, g, o of unit j; W_hhᵀ (H, 4H) gate-major, its own copy
// (webgpu.loopCopies): column q*H+j; or, with p.interleaved, lstm.wgsl's
// interleaved W_hhᵀ itself, column 4j+q, the four gates of a unit one wt4
// load; which is faster on a GPU is measured by webgpu's profile
// benchmarks):
//
//   a_q = G[t, dir, 4j+q] + Σ_k h_prev[k] · W_hhᵀ[k, q*H+j]   (or W_hhᵀ[k, 4j+q])
//   c_j = σ(a_f) c_j + σ(a_i) tanh(a_g),  h_j = σ(a_o) tanh(c_j)
//   arena[out + t*ldo + dir*H + j] = h_j
//
// with t = first+s (forward) or first+N-1-s (backward) at step s.
//
// Bindings:
//   group 0, binding 0, wts,   array<f32|u32|f16>, storage, read:       W_hhᵀ of both directions, gate-major (weights_*.wgsl)
//   group 0, binding 4, wts4,  the same, by 4,     storage, read:       W_hhᵀ of both directions, interleaved (weights_*.wgsl)
//   group 0, binding 1, arena, array<f32>,         storage, read_write: G or the char table (read), the states (written)
//   group 0, binding 2, ints,  array<u32>,         storage, read:       main: sentence table [first token, words, score offset, span offset];
//                                                                       chars: token order, token table [word id, first char, char count], char ids
//   group 0, binding 3, p,     LSTMParams,         uniform: the parameters (webgpu/params.go; the fields of lstm.wgsl: main uses hid, seqs, x, ldx,
//                                                           whh, whhZ, out, ldo, whhM, xM, outM, interleaved; split those and slices, sliceLen;
//                                                           chars hid (at most 256), rows, seqs, tokTable, x, whh, whhZ, out, ldo, col, whhM, xM,
//                                                           outM, interleaved)
// Workgroup size: main 256 x 1 x 1, split 1024 x 1 x 1, chars 256 x 1 x 1, charsSplit 1024 x 1 x 1; grid main and
// split (sentences, 2, models), chars and charsSplit (ceil(tokens / (256/H)), 2, models).
// Dispatched by: webgpu.(*planner).lstmLoop and webgpu.(*planner).charLoop (webgpu/dispatch.go).

struct LSTMParams {
    hid: u32,        // H, at most 1024
    step: u32,       // unused
    rows: u32,       // chars: tokens of the chunk; main: unused
    seqs: u32,       // ints offset of the sentence table (main) or of the token order (chars)
    tokTable: u32,   // chars: ints offset of the token table; main: unused
    x: u32,          // arena offset of G (tokens, 2, 4H), or of the char table (chars, 2, 4H)
    ldx: u32,        // row stride of G (8H; main)
    whh: u32,        // weights offset of the forward W_hhᵀ (H, 4H), gate-major (column q*H+j)
    whhZ: u32,       // weights offset step to the backward W_hhᵀ
    hIn: u32,        // unused
    hOut: u32,       // unused
    c: u32,          // unused
    out: u32,        // arena offset of the states (tokens, 2H), or of the feature rows (chars)
    ldo: u32,        // row stride of the states (2H) or of the feature rows
    col: u32,        // chars: first column of the char states in a feature row; main: unused
    whhM: u32,       // weights offset step of W_hhᵀ per model (grid z: an ensemble's models at once)
    xM: u32,         // arena offset step of G (main) or of the char table (chars) per model
    outM: u32,       // arena offset step of the states (main) or of the feature rows (chars) per model
    interleaved: u32, // 1: W_hhᵀ interleaved (column 4j+q, lstm.wgsl's layout, no copy), four gates a load (wt4); 0: gate-major
    slices: u32,     // split: S, the invocations that share a unit's sum (H <= 512, S*H <= 1024, (S-1)*H <= 768)
    sliceLen: u32,   // split: L, the rows of W_hhᵀ of a slice (S*L >= H)
}

@group(0) @binding(1) var<storage, read_write> arena: array<f32>;
@group(0) @binding(2) var<storage, read> ints: array<u32>;
@group(0) @binding(3) var<uniform> p: LSTMParams;

const WG: u32 = 256u;
const MAXH: u32 = 1024u;

var<workgroup> hbuf: array<f32, 2048>; // h before and after a step, MAXH each (split: SPLITH each)

var<workgroup> part: array<vec4<f32>, 512>; // split: slices 1..S-1's first PARTS partial sums

// split keeps h before and after a step in hbuf[0 .. 2*SPLITH) (H <= 512)
// and the partial sums past the first PARTS, four floats each, in the rest
// of hbuf: (S-1)*H <= PARTS + (2048 - 2*SPLITH)/4 = 768 in all, 16 KiB of
// workgroup memory with part (WebGPU's default limit).
const SPLITH: u32 = 512u;
const PARTS: u32 = 512u;

// putPartial stores partial sum i (slice r's of unit j: i = (r-1)*H + j).
fn putPartial(i: u32, a: vec4<f32>) {
    if (i < PARTS) {
        part[i] = a;
        return;
    }
    let o = 2u * SPLITH + 4u * (i - PARTS);
    hbuf[o] = a.x;
    hbuf[o + 1u] = a.y;
    hbuf[o + 2u] = a.z;
    hbuf[o + 3u] = a.w;
}

// sliceSum returns slice r's share of a split unit's sum (rows [k0, k1)
// of W_hhᵀ for unit j, see gatesOf) and, for a slice other than the
// first, leaves it as partial sum (r-1)*stride + i for slice 0 to add
// (plusPartials).
fn sliceSum(j: u32, k0: u32, k1: u32, hin: u32, whh: u32, r: u32, stride: u32, i: u32) -> vec4<f32> {
    let a = gatesOf(vec4<f32>(0.0), j, k0, k1, hin, whh);
    if (r > 0u) {
        putPartial((r - 1u) * stride + i, a);
    }
    return a;
}

// plusPartials returns a plus the partial sums of slices 1..S-1 that
// sliceSum left for the same unit.
fn plusPartials(a: vec4<f32>, S: u32, stride: u32, i: u32) -> vec4<f32> {
    var b = a;
    for (var q = 1u; q < S; q++) {
        b += getPartial((q - 1u) * stride + i);
    }
    return b;
}

// getPartial returns partial sum i (see putPartial).
fn getPartial(i: u32) -> vec4<f32> {
    if (i < PARTS) {
        return part[i];
    }
    let o = 2u * SPLITH + 4u * (i - PARTS);
    return vec4<f32>(hbuf[o], hbuf[o + 1u], hbuf[o + 2u], hbuf[o + 3u]);
}

fn sigm(x: f32) -> f32 {
    return 1.0 / (1.0 + exp(-clamp(x, -60.0, 60.0)));
}

// tanh_ avoids the builtin, which some drivers compute as a quotient of
// exponentials that overflows to NaN for large |x|.
fn tanh_(x: f32) -> f32 {
    let e = exp(2.0 * clamp(x, -15.0, 15.0));
    return 1.0 - 2.0 / (e + 1.0);
}

// gates returns the four gates' weights of one unit in one row of W_hhᵀ:
// w + q*H for gate q.
fn gates(w: u32, H: u32) -> vec4<f32> {
    return vec4<f32>(wt(w), wt(w + H), wt(w + 2u * H), wt(w + 3u * H));
}

// gateInputs returns the four gate inputs of unit j at arena offset g.
fn gateInputs(j: u32, g: u32) -> vec4<f32> {
    return vec4<f32>(arena[g + 4u * j], arena[g + 4u * j + 1u], arena[g + 4u * j + 2u], arena[g + 4u * j + 3u]);
}

// preact returns a0 plus the rows [k0, k1) of the previous state
// hbuf[hin ..] times W_hhᵀ, for the four gates of unit j.
fn preact(a0_: vec4<f32>, j: u32, k0: u32, k1: u32, hin: u32, whh: u32) -> vec4<f32> {
    let H = p.hid;
    let G = 4u * H;
    // Four partial sums, four rows of W_hhᵀ an iteration; gate q of unit j
    // is column q*H + j, so the invocations of a warp read neighbouring
    // values (one cache line) with every load.
    var a0 = a0_;
    var a1 = vec4<f32>(0.0);
    var a2 = vec4<f32>(0.0);
    var a3 = vec4<f32>(0.0);
    var k = k0;
    for (; k + 4u <= k1; k += 4u) {
        let w = whh + k * G + j;
        a0 += hbuf[hin + k] * gates(w, H);
        a1 += hbuf[hin + k + 1u] * gates(w + G, H);
        a2 += hbuf[hin + k + 2u] * gates(w + 2u * G, H);
        a3 += hbuf[hin + k + 3u] * gates(w + 3u * G, H);
    }
    for (; k < k1; k++) {
        a0 += hbuf[hin + k] * gates(whh + k * G + j, H);
    }
    return (a0 + a1) + (a2 + a3);
}

// preact4 is preact for W_hhᵀ interleaved (column 4j+q; whh a multiple of
// 4): the four gates of unit j in row k are one wt4 load, and eight rows an
// iteration keep eight loads in flight per invocation.
fn preact4(a0_: vec4<f32>, j: u32, k0: u32, k1: u32, hin: u32, whh: u32) -> vec4<f32> {
    let H = p.hid;
    var a0 = a0_;
    var a1 = vec4<f32>(0.0);
    var a2 = vec4<f32>(0.0);
    var a3 = vec4<f32>(0.0);
    var a4 = vec4<f32>(0.0);
    var a5 = vec4<f32>(0.0);
    var a6 = vec4<f32>(0.0);
    var a7 = vec4<f32>(0.0);
    // Row k's gates of unit j are vec4 element k*H + j from whh/4.
    let w0 = whh / 4u + j;
    var k = k0;
    for (; k + 8u <= k1; k += 8u) {
        let w = w0 + k * H;
        a0 += hbuf[hin + k] * wt4(w);
        a1 += hbuf[hin + k + 1u] * wt4(w + H);
        a2 += hbuf[hin + k + 2u] * wt4(w + 2u * H);
        a3 += hbuf[hin + k + 3u] * wt4(w + 3u * H);
        a4 += hbuf[hin + k + 4u] * wt4(w + 4u * H);
        a5 += hbuf[hin + k + 5u] * wt4(w + 5u * H);
        a6 += hbuf[hin + k + 6u] * wt4(w + 6u * H);
        a7 += hbuf[hin + k + 7u] * wt4(w + 7u * H);
    }
    for (; k < k1; k++) {
        a0 += hbuf[hin + k] * wt4(w0 + k * H);
    }
    return ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7));
}

// gatesOf returns a0 plus the rows [k0, k1) of h times W_hhᵀ for unit j,
// in the layout p.interleaved names (a uniform branch).
fn gatesOf(a0: vec4<f32>, j: u32, k0: u32, k1: u32, hin: u32, whh: u32) -> vec4<f32> {
    if (p.interleaved != 0u) {
        return preact4(a0, j, k0, k1, hin, whh);
    }
    return preact(a0, j, k0, k1, hin, whh);
}

// lstmCell returns the new cell state and h of a unit from its gate
// pre-activations a (i, f, g, o) and its previous cell state.
fn lstmCell(a: vec4<f32>, cell: f32) -> vec2<f32> {
    let c = sigm(a.y) * cell + sigm(a.x) * tanh_(a.z);
    return vec2<f32>(c, sigm(a.w) * tanh_(c));
}

// unitStep computes step t of unit j (if j < H) from the previous state in
// hbuf[hin ..] and the gate inputs at arena offset g, writes h to hbuf[hout
// + j] and to the output row, and returns the new cell state (cell, the
// old one, when j >= H). A function of scalars, called once per unit an
// invocation owns, rather than a loop over a private array of cell states
// (such an array lived in memory on NVIDIA; see matmul.wgsl).
fn unitStep(j: u32, cell: f32, t: u32, g: u32, hin: u32, hout: u32, whh: u32, dir: u32, out: u32) -> f32 {
    let H = p.hid;
    if (j >= H) {
        return cell;
    }
    let ch = lstmCell(gatesOf(gateInputs(j, g), j, 0u, H, hin, whh), cell);
    hbuf[hout + j] = ch.y;
    arena[out + t * p.ldo + dir * H + j] = ch.y;
    return ch.x;
}

@compute @workgroup_size(256, 1, 1)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>) {
    let dir = wid.y;
    let H = p.hid;
    let G = 4u * H;
    let first = ints[p.seqs + 4u * wid.x]; // sentence wid.x's first token
    let count = ints[p.seqs + 4u * wid.x + 1u] + 2u; // and its tokens
    let m = wid.z; // the model, for an ensemble's models in one dispatch
    let whh = p.whh + m * p.whhM + dir * p.whhZ;
    let out = p.out + m * p.outM;
    // Invocation lid.x owns units lid.x + u*WG, u < 4 (MAXH = 4 WG); their
    // cell states are cell0 .. cell3.
    var cell0 = 0.0;
    var cell1 = 0.0;
    var cell2 = 0.0;
    var cell3 = 0.0;
    for (var j = lid.x; j < H; j += WG) {
        hbuf[j] = 0.0;
    }
    workgroupBarrier();
    var cur = 0u;
    for (var s = 0u; s < count; s++) {
        let t = first + select(s, count - 1u - s, dir == 1u);
        let g = p.x + m * p.xM + t * p.ldx + dir * G;
        let hin = cur * MAXH;
        let hout = (1u - cur) * MAXH;
        cell0 = unitStep(lid.x, cell0, t, g, hin, hout, whh, dir, out);
        cell1 = unitStep(lid.x + WG, cell1, t, g, hin, hout, whh, dir, out);
        cell2 = unitStep(lid.x + 2u * WG, cell2, t, g, hin, hout, whh, dir, out);
        cell3 = unitStep(lid.x + 3u * WG, cell3, t, g, hin, hout, whh, dir, out);
        workgroupBarrier();
        cur = 1u - cur;
    }
}

// split is main with each unit's sum over the rows of W_hhᵀ split over
// p.slices invocations (see the header): invocation lid.x is slice
// r = lid.x / H of unit j = lid.x % H; invocations past S*H only keep the
// barriers.
@compute @workgroup_size(1024, 1, 1)
fn split(@builtin(workgroup_id) wid: vec3<u32>,
         @builtin(local_invocation_id) lid: vec3<u32>) {
    let H = p.hid;
    let S = p.slices;
    let r = lid.x / H;  // the slice
    let j = lid.x % H;  // and the unit
    let tokens = vec2<u32>(ints[p.seqs + 4u * wid.x], ints[p.seqs + 4u * wid.x + 1u] + 2u); // first, count
    let dir = wid.y;
    let m = wid.z;
    let whh = p.whh + m * p.whhM + dir * p.whhZ;
    let out = p.out + m * p.outM;
    let k0 = min(r * p.sliceLen, H);
    let k1 = min(k0 + p.sliceLen, H);
    if (lid.x < H) {
        hbuf[lid.x] = 0.0;
    }
    workgroupBarrier();
    var cell = 0.0;
    var cur = 0u;
    for (var s = 0u; s < tokens.y; s++) {
        let t = tokens.x + select(s, tokens.y - 1u - s, dir == 1u);
        let hin = cur * SPLITH;
        var a = vec4<f32>(0.0);
        if (r < S) {
            a = sliceSum(j, k0, k1, hin, whh, r, H, j);
        }
        workgroupBarrier();
        if (r == 0u) {
            a = plusPartials(a + gateInputs(j, p.x + m * p.xM + t * p.ldx + dir * 4u * H), S, H, j);
            let ch = lstmCell(a, cell);
            cell = ch.x;
            hbuf[(1u - cur) * SPLITH + j] = ch.y;
            arena[out + t * p.ldo + dir * H + j] = ch.y;
        }
        workgroupBarrier();
        cur = 1u - cur;
    }
}

// charToken returns the token of row row of the chunk's token order, the
// ints offset of its char ids and its char count; (0, 0, 0) where has is
// false (an invocation without a token).
fn charToken(has: bool, row: u32) -> vec3<u32> {
    if (!has) {
        return vec3<u32>(0u);
    }
    let tok = ints[p.seqs + row];
    return vec3<u32>(tok, ints[p.tokTable + 3u * tok + 1u], ints[p.tokTable + 3u * tok + 2u]);
}

@compute @workgroup_size(256, 1, 1)
fn chars(@builtin(workgroup_id) wid: vec3<u32>,
         @builtin(local_invocation_id) lid: vec3<u32>) {
    let H = p.hid;
    let G = 4u * H;
    let dir = wid.y;
    let per = WG / H;            // tokens of the workgroup
    let slot = lid.x / H;        // this invocation's token
    let j = lid.x % H;           // and unit
    let row = wid.x * per + slot;
    let m = wid.z; // the model, for an ensemble's models in one dispatch
    let whh = p.whh + m * p.whhM + dir * p.whhZ;
    let x = p.x + m * p.xM;
    let out = p.out + m * p.outM;
    // count 0: no token (invocations past per*H; the last workgroup's slots past the tokens)
    let tf = charToken(slot < per && row < p.rows, row);
    let tok = tf.x;
    let first = tf.y;
    let count = tf.z;
    // The workgroup's longest token is its first: the steps of the loop.
    let steps = ints[p.tokTable + 3u * ints[p.seqs + wid.x * per] + 2u];
    hbuf[lid.x] = 0.0;
    workgroupBarrier();
    var cell = 0.0;
    var cur = 0u;
    for (var s = 0u; s < steps; s++) {
        if (s < count) {
            let id = ints[first + select(s, count - 1u - s, dir == 1u)];
            let hin = cur * MAXH + slot * H;
            let ch = lstmCell(gatesOf(gateInputs(j, x + (id * 2u + dir) * G), j, 0u, H, hin, whh), cell);
            cell = ch.x;
            let h = ch.y;
            hbuf[(1u - cur) * MAXH + slot * H + j] = h;
            if (s + 1u == count) {
                arena[out + tok * p.ldo + p.col + dir * H + j] = h;
            }
        }
        workgroupBarrier();
        cur = 1u - cur;
    }
}

// charsSplit is chars with each unit's sum over the rows of W_hhᵀ split
// over p.slices invocations (see the header): invocation lid.x is slice
// r = lid.x / WG of chars' invocation u = lid.x % WG (token slot u / H,
// unit u % H). States at stride WG in hbuf[0 .. 2*WG), partial sums as in
// split (sliceSum, plusPartials: stride WG, index u).
@compute @workgroup_size(1024, 1, 1)
fn charsSplit(@builtin(workgroup_id) wid: vec3<u32>,
              @builtin(local_invocation_id) lid: vec3<u32>) {
    let H = p.hid;
    let G = 4u * H;
    let S = p.slices;
    let dir = wid.y;
    let per = WG / H;
    let r = lid.x / WG;          // the slice
    let u = lid.x % WG;
    let slot = u / H;            // this invocation's token
    let j = u % H;               // and unit
    let row = wid.x * per + slot;
    let m = wid.z;
    let whh = p.whh + m * p.whhM + dir * p.whhZ;
    let x = p.x + m * p.xM;
    let out = p.out + m * p.outM;
    // count 0: no token (as in chars) or no slice (r >= S)
    let tf = charToken(slot < per && row < p.rows && r < S, row);
    let tok = tf.x;
    let first = tf.y;
    let count = tf.z;
    let k0 = min(r * p.sliceLen, H);
    let k1 = min(k0 + p.sliceLen, H);
    let steps = ints[p.tokTable + 3u * ints[p.seqs + wid.x * per] + 2u];
    if (lid.x < WG) {
        hbuf[lid.x] = 0.0;
    }
    workgroupBarrier();
    var cell = 0.0;
    var cur = 0u;
    for (var s = 0u; s < steps; s++) {
        let hin = cur * WG + slot * H;
        var a = vec4<f32>(0.0);
        if (s < count) {
            a = sliceSum(j, k0, k1, hin, whh, r, WG, u);
        }
        workgroupBarrier();
        if (s < count && r == 0u) {
            let id = ints[first + select(s, count - 1u - s, dir == 1u)];
            a = plusPartials(a + gateInputs(j, x + (id * 2u + dir) * G), S, WG, u);
            let ch = lstmCell(a, cell);
            cell = ch.x;
            hbuf[(1u - cur) * WG + slot * H + j] = ch.y;
            if (s + 1u == count) {
                arena[out + tok * p.ldo + p.col + dir * H + j] = ch.y;
            }
        }
        workgroupBarrier();
        cur = 1u - cur;
    }
}
