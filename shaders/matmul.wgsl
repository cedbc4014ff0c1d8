// matmul.wgsl: tiled matrix product with optional bias and LeakyReLU, one
// (z-indexed) matrix of the parameters on the right:
//
//   C_z[r, c] = act( Σ_k A[r, k] · B_z(k, c) + bias_z[c] )       r < rows, c < cols, k < inner
//   A[r, k]   = arena[a + z*az + r*lda + k] for k < aCols, 1.0 for aCols <= k < inner (appended ones)
//   B_z(k, c) = wt(w + z*wz + c*ldw + k)  when transW = 1 (a Linear weight, shape (out, in))
//             = wt(w + z*wz + k*ldw + c)  when transW = 0 (a plain (inner, cols) matrix)
//             = wt(w + z*wz + (c / ldw)*ldw*ldw + k*ldw + c % ldw)  when transW = 2 (a biaffine
//               weight (O, D, D), D = ldw, its O slices side by side: column c = o*D + j)
//   act(v)    = v, or LeakyReLU(v) = v > 0 ? v : slope*v when leaky = 1
//   stored at arena[c + z*cz + r*ldc + c]; with accum = 1 added to the value
//   stored there, and with mean = M > 1 the sum multiplied by 1/M (an
//   ensemble's models scored on one device: see webgpu/dispatch.go)
//
// Used for: the character table (CharEmb W_ihᵀ + b, z = direction), the LSTM
// input projections (z = direction), the POS tagger, the twelve endpoint MLPs
// in one product (LeakyReLU), and the first biaffine product of a module,
// T[x, o, :] = [L(x); 1]ᵀ W[o] for every o at once (transW = 2, aCols = d,
// inner = d+1, cols = O*(d+1); for a small chunk the three kinds' at once,
// z = kind, az the step between their endpoint features).
//
// With zIn > 0 (an ensemble's models at once, for a chunk whose rows hold
// every model's activations), workgroup z is index z % zIn of model z /
// zIn, whose A, B, bias and C lie aM, wM, biasM and cM further per model:
// every z above reads z % zIn, plus the model's steps.
//
// Split inner dimension (split = S > 1, for products with few tiles and a
// long inner dimension, such as one sentence's: webgpu.(*planner).linear):
// grid x is the column tiles times S, and workgroup x sums only slice
// s = x / (column tiles) of the inner dimension, k in [s*kPer, (s+1)*kPer)
// (kPer a multiple of 16), storing its raw sums at
//
//   arena[part + m*partM + ((z*S + s)*rows + r)*cols + c]      (m the model, z within it)
//
// with no bias, activation, accumulation or mean; the entry point reduce,
// dispatched next with the same parameters over grid (ceil(rows*cols/64),
// 1, z count), sums the S slices in order and applies all of those, so
// that a product of a few workgroups walking hundreds of inner columns
// becomes S times as many walking a slice each.
//
// Tiling: each workgroup computes a 64x64 tile of C; the k loop steps by 16,
// staging 64x16 tiles of A and 16x64 tiles of B in workgroup memory as vec4s;
// each invocation accumulates an 8x8 block in registers (16 vec4), so that
// every value read from workgroup memory feeds 8 multiply-adds. The next
// tiles are read from storage into registers while the current ones are
// multiplied; tiles wholly inside A and B are read without bounds checks,
// and a biaffine weight's column offsets are computed once. The 16
// accumulators are named variables, not an array: on an NVIDIA H200 the
// same kernel with `var acc: array<vec4<f32>, 8>` indexed in loops ran
// 6 times slower (the array lived in memory, not in registers).
//
// Bindings:
//   group 0, binding 0, wts,   array<f32|u32|f16>, storage, read:       B and the bias (weights_*.wgsl)
//   group 0, binding 1, arena, array<f32>,         storage, read_write: A (read), C (written)
//   group 0, binding 3, p,     MatmulParams,       uniform: the parameters (webgpu/params.go)
// Workgroup size: main 8 x 8 x 1, reduce 64 x 1 x 1; grid main (ceil(cols/64) * max(split, 1),
// ceil(rows/64), z count), reduce (ceil(rows*cols/64), 1, z count).
// Dispatched by: webgpu.(*planner).linear and webgpu.(*planner).biaffineLeft (webgpu/dispatch.go).

struct MatmulParams {
    rows: u32,     // rows of A and C
    cols: u32,     // columns of B and C
    inner: u32,    // the summed dimension
    a: u32,        // arena offset of A
    lda: u32,      // row stride of A
    aCols: u32,    // stored columns of A; columns aCols..inner-1 read as 1
    w: u32,        // weights offset of B for z = 0
    wz: u32,       // weights offset step per z
    ldw: u32,      // row stride of the stored B
    transW: u32,   // 1: B stored (cols, inner); 0: stored (inner, cols); 2: biaffine (see above)
    bias: u32,     // weights offset of the bias for z = 0
    biasZ: u32,    // weights offset step of the bias per z
    hasBias: u32,  // 1: add the bias
    c: u32,        // arena offset of C for z = 0
    ldc: u32,      // row stride of C
    cz: u32,       // arena offset step of C per z
    leaky: u32,    // 1: apply LeakyReLU
    slope: f32,    // LeakyReLU negative slope
    accum: u32,    // 1: add to the value stored at C (an ensemble's later model)
    mean: u32,     // M > 1: multiply the stored value by 1/M (an ensemble's last model)
    az: u32,       // arena offset step of A per z (the three kinds' biaffines in one product)
    zIn: u32,      // Z > 0: grid z is model*Z + z (an ensemble's models at once); 0: z alone
    aM: u32,       // arena offset step of A per model
    wM: u32,       // weights offset step of B per model
    biasM: u32,    // weights offset step of the bias per model
    cM: u32,       // arena offset step of C per model
    split: u32,    // S > 1: slices of the inner dimension (see above); 0 or 1: none
    kPer: u32,     // inner columns per slice, a multiple of 16
    part: u32,     // arena offset of the slices' sums for model 0
    partM: u32,    // arena offset step of the slices' sums per model
}

@group(0) @binding(1) var<storage, read_write> arena: array<f32>;
@group(0) @binding(3) var<uniform> p: MatmulParams;

const TM: u32 = 64u;
const TN: u32 = 64u;
const TK: u32 = 16u;

var<workgroup> As: array<vec4<f32>, 256>; // [TK][TM/4]: rows 4q..4q+3 of column k
var<workgroup> Bs: array<vec4<f32>, 256>; // [TK][TN/4]: columns 4q..4q+3 of row k

// The offsets of this workgroup's A (arena), bias (weights) and C (arena):
// a + z*az, bias + z*biasZ, c + z*cz, plus the model's steps.
var<private> aBase: u32;
var<private> biasBase: u32;
var<private> cBase: u32;

fn loadA(r: u32, k: u32) -> f32 {
    if (r >= p.rows || k >= p.inner) {
        return 0.0;
    }
    if (k >= p.aCols) {
        return 1.0;
    }
    return arena[aBase + r * p.lda + k];
}

fn loadB(base: u32, k: u32, c: u32) -> f32 {
    if (k >= p.inner || c >= p.cols) {
        return 0.0;
    }
    switch p.transW {
        case 1u: {
            return wt(base + c * p.ldw + k);
        }
        case 2u: {
            let D = p.ldw;
            return wt(base + (c / D) * D * D + k * D + c % D);
        }
        default: {
            return wt(base + k * p.ldw + c);
        }
    }
}

// storeValue finishes C[r, c] from its sum x: bias, activation,
// accumulation, mean.
fn storeValue(r: u32, c: u32, sum: f32) {
    var x = sum;
    if (p.hasBias == 1u) {
        x += wt(biasBase + c);
    }
    if (p.leaky == 1u && x <= 0.0) {
        x *= p.slope;
    }
    let at = cBase + r * p.ldc + c;
    if (p.accum == 1u) {
        x += arena[at];
    }
    if (p.mean > 1u) {
        x *= 1.0 / f32(p.mean);
    }
    arena[at] = x;
}

// store finishes C[r, c0..c0+3], or with split > 1 stores the raw sums of
// slice `slice` at partBase (see above).
fn store(r: u32, c0: u32, v: vec4<f32>, slice: u32, partBase: u32) {
    if (r >= p.rows) {
        return;
    }
    for (var j = 0u; j < 4u; j++) {
        let c = c0 + j;
        if (c < p.cols) {
            if (p.split > 1u) {
                arena[partBase + (slice * p.rows + r) * p.cols + c] = v[j];
            } else {
                storeValue(r, c, v[j]);
            }
        }
    }
}

// fetchA returns A[r..r+3, k]; fast: all four are stored values.
fn fetchA(r: u32, k: u32, fast: bool) -> vec4<f32> {
    if (fast) {
        let o = aBase + r * p.lda + k;
        return vec4<f32>(arena[o], arena[o + p.lda], arena[o + 2u * p.lda], arena[o + 3u * p.lda]);
    }
    return vec4<f32>(loadA(r, k), loadA(r + 1u, k), loadA(r + 2u, k), loadA(r + 3u, k));
}

// fetchB returns B(k, c..c+3); cb holds the biaffine offsets of the four
// columns (transW = 2); fast: all four are inside B.
fn fetchB(base: u32, k: u32, c: u32, cb: vec4<u32>, fast: bool) -> vec4<f32> {
    if (fast && p.transW == 1u) {
        let o = base + c * p.ldw + k;
        return vec4<f32>(wt(o), wt(o + p.ldw), wt(o + 2u * p.ldw), wt(o + 3u * p.ldw));
    }
    if (fast && p.transW == 2u) {
        let o = base + k * p.ldw;
        return vec4<f32>(wt(o + cb.x), wt(o + cb.y), wt(o + cb.z), wt(o + cb.w));
    }
    return vec4<f32>(loadB(base, k, c), loadB(base, k, c + 1u), loadB(base, k, c + 2u), loadB(base, k, c + 3u));
}

@compute @workgroup_size(8, 8, 1)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
    let row0 = wid.y * TM;
    // The column tile, and with split > 1 the slice of the inner dimension.
    var tile = wid.x;
    var slice = 0u;
    var kStart = 0u;
    var kEnd = p.inner;
    if (p.split > 1u) {
        let colTiles = (p.cols + TN - 1u) / TN;
        tile = wid.x % colTiles;
        slice = wid.x / colTiles;
        kStart = min(slice * p.kPer, p.inner);
        kEnd = min(kStart + p.kPer, p.inner);
    }
    let col0 = tile * TN;
    var z = wid.z;
    var m = 0u;
    if (p.zIn > 0u) {
        z = wid.z % p.zIn;
        m = wid.z / p.zIn;
    }
    let partBase = p.part + m * p.partM + z * p.split * p.rows * p.cols;
    let wbase = p.w + z * p.wz + m * p.wM;
    aBase = p.a + z * p.az + m * p.aM;
    biasBase = p.bias + z * p.biasZ + m * p.biasM;
    cBase = p.c + z * p.cz + m * p.cM;
    // Invocation li stages, for j < 4: A rows row0 + 4(q+4j) .. +3 at
    // column k (q = li / 16, k = li % 16), neighbours along k; B the same
    // way, or for a biaffine weight, whose columns are stored contiguously,
    // columns col0 + 4(li % 16) .. +3 at row li / 16 + 4j.
    let k = li % 16u;
    let q = li / 16u;
    let bi = p.transW == 2u;
    let cB = select(col0 + 4u * q, col0 + 4u * k, bi);
    var cb = vec4<u32>(0u);
    if (bi) {
        let D = max(p.ldw, 1u);
        let c = vec4<u32>(cB, cB + 1u, cB + 2u, cB + 3u);
        cb = (c / D) * D * D + c % D;
    }
    let rowsFull = row0 + TM <= p.rows;
    let colsFull = col0 + TN <= p.cols;
    var ra0 = vec4<f32>(0.0);
    var rb0 = vec4<f32>(0.0);
    var ra1 = vec4<f32>(0.0);
    var rb1 = vec4<f32>(0.0);
    var ra2 = vec4<f32>(0.0);
    var rb2 = vec4<f32>(0.0);
    var ra3 = vec4<f32>(0.0);
    var rb3 = vec4<f32>(0.0);
    // c<i> holds row 8*lid.y + i, columns 8*lid.x .. +3; d<i> columns +4 .. +7.
    var c0 = vec4<f32>(0.0);
    var d0 = vec4<f32>(0.0);
    var c1 = vec4<f32>(0.0);
    var d1 = vec4<f32>(0.0);
    var c2 = vec4<f32>(0.0);
    var d2 = vec4<f32>(0.0);
    var c3 = vec4<f32>(0.0);
    var d3 = vec4<f32>(0.0);
    var c4 = vec4<f32>(0.0);
    var d4 = vec4<f32>(0.0);
    var c5 = vec4<f32>(0.0);
    var d5 = vec4<f32>(0.0);
    var c6 = vec4<f32>(0.0);
    var d6 = vec4<f32>(0.0);
    var c7 = vec4<f32>(0.0);
    var d7 = vec4<f32>(0.0);
    let steps = (kEnd - kStart + TK - 1u) / TK;
    for (var s = 0u; s <= steps; s++) {
        if (s > 0u) {
            As[k * 16u + q + 0u] = ra0;
            Bs[select(k * 16u + q + 0u, (q + 0u) * 16u + k, bi)] = rb0;
            As[k * 16u + q + 4u] = ra1;
            Bs[select(k * 16u + q + 4u, (q + 4u) * 16u + k, bi)] = rb1;
            As[k * 16u + q + 8u] = ra2;
            Bs[select(k * 16u + q + 8u, (q + 8u) * 16u + k, bi)] = rb2;
            As[k * 16u + q + 12u] = ra3;
            Bs[select(k * 16u + q + 12u, (q + 12u) * 16u + k, bi)] = rb3;
            workgroupBarrier();
        }
        if (s < steps) { // the next tiles, in flight during the products
            let k0 = kStart + s * TK;
            let fastA = rowsFull && k0 + TK <= p.aCols;
            let fastB = colsFull && k0 + TK <= p.inner;
            ra0 = fetchA(row0 + 4u * (q + 0u), k0 + k, fastA);
            rb0 = fetchB(wbase, select(k0 + k, k0 + q + 0u, bi), select(col0 + 4u * (q + 0u), cB, bi), cb, fastB);
            ra1 = fetchA(row0 + 4u * (q + 4u), k0 + k, fastA);
            rb1 = fetchB(wbase, select(k0 + k, k0 + q + 4u, bi), select(col0 + 4u * (q + 4u), cB, bi), cb, fastB);
            ra2 = fetchA(row0 + 4u * (q + 8u), k0 + k, fastA);
            rb2 = fetchB(wbase, select(k0 + k, k0 + q + 8u, bi), select(col0 + 4u * (q + 8u), cB, bi), cb, fastB);
            ra3 = fetchA(row0 + 4u * (q + 12u), k0 + k, fastA);
            rb3 = fetchB(wbase, select(k0 + k, k0 + q + 12u, bi), select(col0 + 4u * (q + 12u), cB, bi), cb, fastB);
        }
        if (s > 0u) {
            for (var kk = 0u; kk < TK; kk++) {
                let a0 = As[kk * 16u + 2u * lid.y];
                let a1 = As[kk * 16u + 2u * lid.y + 1u];
                let b0 = Bs[kk * 16u + 2u * lid.x];
                let b1 = Bs[kk * 16u + 2u * lid.x + 1u];
                c0 += a0.x * b0;
                d0 += a0.x * b1;
                c4 += a1.x * b0;
                d4 += a1.x * b1;
                c1 += a0.y * b0;
                d1 += a0.y * b1;
                c5 += a1.y * b0;
                d5 += a1.y * b1;
                c2 += a0.z * b0;
                d2 += a0.z * b1;
                c6 += a1.z * b0;
                d6 += a1.z * b1;
                c3 += a0.w * b0;
                d3 += a0.w * b1;
                c7 += a1.w * b0;
                d7 += a1.w * b1;
            }
            workgroupBarrier();
        }
    }
    let r = row0 + 8u * lid.y;
    let c = col0 + 8u * lid.x;
    store(r + 0u, c, c0, slice, partBase);
    store(r + 0u, c + 4u, d0, slice, partBase);
    store(r + 1u, c, c1, slice, partBase);
    store(r + 1u, c + 4u, d1, slice, partBase);
    store(r + 2u, c, c2, slice, partBase);
    store(r + 2u, c + 4u, d2, slice, partBase);
    store(r + 3u, c, c3, slice, partBase);
    store(r + 3u, c + 4u, d3, slice, partBase);
    store(r + 4u, c, c4, slice, partBase);
    store(r + 4u, c + 4u, d4, slice, partBase);
    store(r + 5u, c, c5, slice, partBase);
    store(r + 5u, c + 4u, d5, slice, partBase);
    store(r + 6u, c, c6, slice, partBase);
    store(r + 6u, c + 4u, d6, slice, partBase);
    store(r + 7u, c, c7, slice, partBase);
    store(r + 7u, c + 4u, d7, slice, partBase);
}

// reduce finishes a product split over its inner dimension (split > 1):
// C[r, c] from the sum of the slices' sums, in slice order.
@compute @workgroup_size(64, 1, 1)
fn reduce(@builtin(workgroup_id) wid: vec3<u32>,
          @builtin(local_invocation_id) lid: vec3<u32>) {
    let i = wid.x * 64u + lid.x;
    if (i >= p.rows * p.cols) {
        return;
    }
    var z = wid.z;
    var m = 0u;
    if (p.zIn > 0u) {
        z = wid.z % p.zIn;
        m = wid.z / p.zIn;
    }
    biasBase = p.bias + z * p.biasZ + m * p.biasM;
    cBase = p.c + z * p.cz + m * p.cM;
    let size = p.rows * p.cols;
    let base = p.part + m * p.partM + z * p.split * size + i;
    var x = 0.0;
    for (var s = 0u; s < p.split; s++) {
        x += arena[base + s * size];
    }
    storeValue(i / p.cols, i % p.cols, x);
}
