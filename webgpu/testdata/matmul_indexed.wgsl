// matmul.wgsl: tiled matrix product with optional bias and LeakyReLU, one
// (z-indexed) matrix of the parameters on the right:
//
//   C_z[r, c] = act( Σ_k A[r, k] · B_z(k, c) + bias_z[c] )       r < rows, c < cols, k < inner
//   A[r, k]   = arena[a + r*lda + k] for k < aCols, 1.0 for aCols <= k < inner (appended ones)
//   B_z(k, c) = wt(w + z*wz + c*ldw + k)  when transW = 1 (a Linear weight, shape (out, in))
//             = wt(w + z*wz + k*ldw + c)  when transW = 0 (a plain (inner, cols) matrix)
//             = wt(w + z*wz + (c / ldw)*ldw*ldw + k*ldw + c % ldw)  when transW = 2 (a biaffine
//               weight (O, D, D), D = ldw, its O slices side by side: column c = o*D + j)
//   act(v)    = v, or LeakyReLU(v) = v > 0 ? v : slope*v when leaky = 1
//   stored at arena[c + z*cz + r*ldc + c]
//
// Used for: the character table (CharEmb W_ihᵀ + b, z = direction), the LSTM
// input projections (z = direction), the POS tagger, the twelve endpoint MLPs
// in one product (LeakyReLU), and the first biaffine product of a module,
// T[x, o, :] = [L(x); 1]ᵀ W[o] for every o at once (transW = 2, aCols = d,
// inner = d+1, cols = O*(d+1)).
//
// Tiling: each workgroup computes a 64x64 tile of C; the k loop steps by 16,
// staging 64x16 tiles of A and 16x64 tiles of B in workgroup memory as vec4s;
// each invocation accumulates an 8x8 block in registers (16 vec4), so that
// every value read from workgroup memory feeds 8 multiply-adds.
//
// Bindings:
//   group 0, binding 0, wts,   array<f32|u32|f16>, storage, read:       B and the bias (weights_*.wgsl)
//   group 0, binding 1, arena, array<f32>,         storage, read_write: A (read), C (written)
//   group 0, binding 3, p,     MatmulParams,       uniform: the parameters (webgpu/params.go)
// Workgroup size: 8 x 8 x 1; grid (ceil(cols/64), ceil(rows/64), z count).
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
}

@group(0) @binding(1) var<storage, read_write> arena: array<f32>;
@group(0) @binding(3) var<uniform> p: MatmulParams;

const TM: u32 = 64u;
const TN: u32 = 64u;
const TK: u32 = 16u;

var<workgroup> As: array<vec4<f32>, 256>; // [TK][TM/4]: rows 4q..4q+3 of column k
var<workgroup> Bs: array<vec4<f32>, 256>; // [TK][TN/4]: columns 4q..4q+3 of row k

fn loadA(r: u32, k: u32) -> f32 {
    if (r >= p.rows || k >= p.inner) {
        return 0.0;
    }
    if (k >= p.aCols) {
        return 1.0;
    }
    return arena[p.a + r * p.lda + k];
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

fn store(r: u32, c0: u32, z: u32, v: vec4<f32>) {
    if (r >= p.rows) {
        return;
    }
    for (var j = 0u; j < 4u; j++) {
        let c = c0 + j;
        if (c < p.cols) {
            var x = v[j];
            if (p.hasBias == 1u) {
                x += wt(p.bias + z * p.biasZ + c);
            }
            if (p.leaky == 1u && x <= 0.0) {
                x *= p.slope;
            }
            arena[p.c + z * p.cz + r * p.ldc + c] = x;
        }
    }
}

@compute @workgroup_size(8, 8, 1)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
    let row0 = wid.y * TM;
    let col0 = wid.x * TN;
    let z = wid.z;
    let wbase = p.w + z * p.wz;
    // acc[i] holds row 8*lid.y + i, columns 8*lid.x .. +3; acc2[i] columns +4 .. +7.
    var acc: array<vec4<f32>, 8>;
    var acc2: array<vec4<f32>, 8>;
    for (var k0 = 0u; k0 < p.inner; k0 += TK) {
        // Neighbouring invocations load neighbouring stored values: along k
        // for A and a Linear weight, along the columns for a biaffine weight.
        for (var e = li; e < 256u; e += 64u) {
            let k = e % 16u;
            let q = e / 16u;
            var a = vec4<f32>(0.0);
            for (var i = 0u; i < 4u; i++) {
                a[i] = loadA(row0 + 4u * q + i, k0 + k);
            }
            As[k * 16u + q] = a;
            var b = vec4<f32>(0.0);
            if (p.transW == 2u) {
                let kb = e / 16u;
                let qb = e % 16u;
                for (var i = 0u; i < 4u; i++) {
                    b[i] = loadB(wbase, k0 + kb, col0 + 4u * qb + i);
                }
                Bs[e] = b;
            } else {
                for (var i = 0u; i < 4u; i++) {
                    b[i] = loadB(wbase, k0 + k, col0 + 4u * q + i);
                }
                Bs[k * 16u + q] = b;
            }
        }
        workgroupBarrier();
        for (var k = 0u; k < TK; k++) {
            let a0 = As[k * 16u + 2u * lid.y];
            let a1 = As[k * 16u + 2u * lid.y + 1u];
            let b0 = Bs[k * 16u + 2u * lid.x];
            let b1 = Bs[k * 16u + 2u * lid.x + 1u];
            for (var i = 0u; i < 4u; i++) {
                acc[i] += a0[i] * b0;
                acc2[i] += a0[i] * b1;
                acc[i + 4u] += a1[i] * b0;
                acc2[i + 4u] += a1[i] * b1;
            }
        }
        workgroupBarrier();
    }
    for (var i = 0u; i < 8u; i++) {
        let r = row0 + 8u * lid.y + i;
        store(r, col0 + 8u * lid.x, z, acc[i]);
        store(r, col0 + 8u * lid.x + 4u, z, acc2[i]);
    }
}
