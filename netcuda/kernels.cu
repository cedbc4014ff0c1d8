// CUDA kernels of the span-scoring network's training step (package
// netcuda). Compiled at run time by NVRTC; no headers. Matrices are
// row-major; "rows x cols" with a leading dimension ld (values between the
// starts of two rows). Every kernel covers its elements with a grid-stride
// loop, so any grid size is correct. The math mirrors package network's
// optimised float32 path (fast_*.go), which the tests compare against.

#define LOOP(i, n) for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < (long)(n); i += (long)blockDim.x * gridDim.x)

// dst[r, c] (+)= src[idx[r], c] for r < rows, c < cols; idx[r] < 0 gives 0
// (or adds nothing).
extern "C" __global__ void gather(float *dst, int ldd, const float *src, int lds, const int *idx, int rows, int cols, int acc) {
	LOOP(i, (long)rows * cols) {
		int r = (int)(i / cols), c = (int)(i % cols);
		int q = idx[r];
		float v = q < 0 ? 0.0f : src[(long)q * lds + c];
		if (acc) dst[(long)r * ldd + c] += v;
		else dst[(long)r * ldd + c] = v;
	}
}

// dst[idx[r], c] += src[r, c] (atomically: rows may share a destination).
extern "C" __global__ void scatter_add(float *dst, int ldd, const float *src, int lds, const int *idx, int rows, int cols) {
	LOOP(i, (long)rows * cols) {
		int r = (int)(i / cols), c = (int)(i % cols);
		int q = idx[r];
		if (q >= 0) atomicAdd(&dst[(long)q * ldd + c], src[(long)r * lds + c]);
	}
}

// x *= m, elementwise.
extern "C" __global__ void mul_mask(float *x, const float *m, long n) {
	LOOP(i, n) x[i] *= m[i];
}

// x[r, c] += b[c].
extern "C" __global__ void add_bias(float *x, int ld, const float *b, int rows, int cols) {
	LOOP(i, (long)rows * cols) {
		int r = (int)(i / cols), c = (int)(i % cols);
		x[(long)r * ld + c] += b[c];
	}
}

__device__ __forceinline__ float sigm(float x) { return 1.0f / (1.0f + expf(-x)); }

// One LSTM step over rows sequences: a (rows, 4H) holds the gate
// pre-activations without bias (i, f, g, o blocks); they are replaced by the
// activated gates. cp: previous cells (null at the first step).
extern "C" __global__ void lstm_fwd(float *a, const float *b, const float *cp, float *c, float *tc, float *h, int H, int rows) {
	LOOP(e, (long)rows * H) {
		int r = (int)(e / H), j = (int)(e % H);
		float *g = a + (long)r * 4 * H;
		float i_ = sigm(g[j] + b[j]);
		float f_ = sigm(g[H + j] + b[H + j]);
		float g_ = tanhf(g[2 * H + j] + b[2 * H + j]);
		float o_ = sigm(g[3 * H + j] + b[3 * H + j]);
		g[j] = i_;
		g[H + j] = f_;
		g[2 * H + j] = g_;
		g[3 * H + j] = o_;
		float cprev = cp ? cp[e] : 0.0f;
		float cj = f_ * cprev + i_ * g_;
		float t = tanhf(cj);
		c[e] = cj;
		tc[e] = t;
		h[e] = o_ * t;
	}
}

// The backward LSTM step: dh = dhs (this step's output gradients) + dhn
// (from the next step, rows < an); dc (in/out) carries the cell gradient
// from the next step (rows < an; 0 beyond) and leaves the gradient of the
// previous cells; da (rows, 4H) receives the pre-activation gradients.
extern "C" __global__ void lstm_bwd(const float *gt, const float *cp, const float *tc, const float *dhs, const float *dhn, float *dc, float *da, int H, int rows, int an) {
	LOOP(e, (long)rows * H) {
		int r = (int)(e / H), j = (int)(e % H);
		const float *g = gt + (long)r * 4 * H;
		float i_ = g[j], f_ = g[H + j], g_ = g[2 * H + j], o_ = g[3 * H + j];
		float t = tc[e];
		float dh = dhs[e] + (r < an ? dhn[e] : 0.0f);
		float dcj = dh * o_ * (1.0f - t * t) + (r < an ? dc[e] : 0.0f);
		float cprev = cp ? cp[e] : 0.0f;
		dc[e] = dcj * f_;
		float *d = da + (long)r * 4 * H;
		d[j] = dcj * g_ * i_ * (1.0f - i_);
		d[H + j] = dcj * cprev * f_ * (1.0f - f_);
		d[2 * H + j] = dcj * i_ * (1.0f - g_ * g_);
		d[3 * H + j] = dh * t * o_ * (1.0f - o_);
	}
}

// The dropout factor of padded row r, column j: mask (words, d) is indexed
// by word row mrow[r] (< 0: a padding row, factor 0); a null mask is 1.
__device__ __forceinline__ float mask_at(const float *mask, const int *mrow, int r, int d, int j) {
	if (!mask) return 1.0f;
	int w = mrow[r];
	return w < 0 ? 0.0f : mask[(long)w * d + j];
}

// out[r] = [LeakyReLU(z[r]) * mask; 1] (rows, d+1).
extern "C" __global__ void leaky_one(const float *z, const float *mask, const int *mrow, float *out, int rows, int d, float slope) {
	int D = d + 1;
	LOOP(i, (long)rows * D) {
		int r = (int)(i / D), j = (int)(i % D);
		if (j == d) {
			out[i] = 1.0f;
			continue;
		}
		float v = z[(long)r * d + j];
		v = v > 0.0f ? v : slope * v;
		out[i] = v * mask_at(mask, mrow, r, d, j);
	}
}

// dz[r, j] = src[r, j] * mask * LeakyReLU'(z[r, j]) for j < d.
extern "C" __global__ void leaky_back(float *dz, const float *src, int lds, const float *z, const float *mask, const int *mrow, int rows, int d, float slope) {
	LOOP(i, (long)rows * d) {
		int r = (int)(i / d), j = (int)(i % d);
		float v = src[(long)r * lds + j] * mask_at(mask, mrow, r, d, j);
		if (z[i] <= 0.0f) v *= slope;
		dz[i] = v;
	}
}

// dst[o][j][i] = src[o][i][j] for O matrices D x D.
extern "C" __global__ void transpose_batched(float *dst, const float *src, int O, int D) {
	LOOP(e, (long)O * D * D) {
		long o = e / ((long)D * D);
		int rest = (int)(e % ((long)D * D));
		int j = rest / D, i = rest % D;
		dst[e] = src[o * D * D + (long)i * D + j];
	}
}

// Block-wide sum of v into *out (atomically), blockDim.x a power of two <= 1024.
__device__ void block_sum_add(double v, double *out) {
	__shared__ double part[1024];
	part[threadIdx.x] = v;
	__syncthreads();
	for (int s = blockDim.x / 2; s > 0; s >>= 1) {
		if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
		__syncthreads();
	}
	if (threadIdx.x == 0 && part[0] != 0.0) atomicAdd(out, part[0]);
}

// The span cross-entropy of one kind. Grid: (cells blocks, sentences).
// Sentence b has n[b] words and padded size nm: its span scores are
// sspan[b*nm*nm + x*nm + y], its label scores slab[b*nm*L*nm + (x*L+a)*nm + y]
// and its gold classes tgt[b*nm*nm + x*nm + y] (0 null, a+1 label a). The
// score of label a is sspan + slab; the null class has the logit 0. For
// every cell x <= y < n it adds the loss to parts[b*5+kind] and writes the
// gradients (times scale) to dspan and dlab; other cells get 0.
//
// Distillation (network.Soft): when sidx is not null, a cell's target is
// (1-w)·gold + w·teacher with w = sweight[b]; sidx[b*nm*nm + x*nm + y] is
// the row of sprob (L probabilities a row) holding the teacher's label
// probabilities at the cell, or < 0 where the teacher puts everything on the
// null class. Without sidx every w is 0 (the gold class alone).
extern "C" __global__ void span_ce(const float *sspan, const float *slab, const int *tgt, const int *sidx, const float *sprob, const double *sweight, const int *nwords, float *dspan, float *dlab, double *parts, int kind, int nm, int L, float scale) {
	int b = blockIdx.y;
	int n = nwords[b];
	long cell = (long)blockIdx.x * blockDim.x + threadIdx.x;
	double loss = 0.0;
	if (cell < (long)nm * nm) {
		int x = (int)(cell / nm), y = (int)(cell % nm);
		long sb = (long)b * nm * nm + cell;
		const float *lab = slab + (long)b * nm * L * nm + (long)x * L * nm + y;
		float *dl = dlab + (long)b * nm * L * nm + (long)x * L * nm + y;
		if (x > y || y >= n) {
			dspan[sb] = 0.0f;
			for (int a = 0; a < L; a++) dl[(long)a * nm] = 0.0f;
		} else {
			float sp = sspan[sb];
			float m = 0.0f;
			for (int a = 0; a < L; a++) m = fmaxf(m, sp + lab[(long)a * nm]);
			float sum = expf(-m);
			for (int a = 0; a < L; a++) sum += expf(sp + lab[(long)a * nm] - m);
			int t = tgt[sb];
			double w = 0.0;
			const float *q = 0;
			if (sidx) {
				w = sweight[b];
				if (sidx[sb] >= 0) q = sprob + (long)sidx[sb] * L;
			}
			double gw = 1.0 - w;
			loss = (double)m + log((double)sum);
			if (t > 0) loss -= gw * (double)(sp + lab[(long)(t - 1) * nm]);
			float inv = scale / sum, ds = 0.0f;
			float sg = (float)((double)scale * gw), sw = (float)((double)scale * w);
			for (int a = 0; a < L; a++) {
				float s = sp + lab[(long)a * nm];
				float g = expf(s - m) * inv;
				if (a == t - 1) g -= sg;
				if (q) {
					loss -= w * (double)q[a] * (double)s;
					g -= sw * q[a];
				}
				dl[(long)a * nm] = g;
				ds += g;
			}
			dspan[sb] = ds;
		}
	}
	block_sum_add(loss, &parts[b * 5 + kind]);
}

// The tagger's cross-entropy: row r of logits (rows, K) against tags[r]
// (< 0: no tag, gradient 0); the loss goes to parts[sent[r]*5+3].
extern "C" __global__ void tag_ce(const float *logits, const int *tags, const int *sent, float *d, double *parts, int rows, int K, float scale) {
	LOOP(r, rows) {
		const float *row = logits + r * K;
		float *dr = d + r * K;
		int t = tags[r];
		if (t < 0) {
			for (int a = 0; a < K; a++) dr[a] = 0.0f;
			continue;
		}
		double m = -1e300;
		for (int a = 0; a < K; a++) m = fmax(m, (double)row[a]);
		double sum = 0.0;
		for (int a = 0; a < K; a++) sum += exp((double)row[a] - m);
		double lse = m + log(sum);
		atomicAdd(&parts[sent[r] * 5 + 3], lse - (double)row[t]);
		for (int a = 0; a < K; a++) {
			double p = exp((double)row[a] - lse);
			if (a == t) p -= 1.0;
			dr[a] = (float)(scale * p);
		}
	}
}

// out += the sum of squares of g (float64).
extern "C" __global__ void sum_squares(const float *g, long n, double *out) {
	double s = 0.0;
	LOOP(i, n) s += (double)g[i] * (double)g[i];
	block_sum_add(s, out);
}

// One Adam update (network.Adam.Update): the gradient is scaled by
// min(1, clip/(norm+1e-6)) when clip > 0 and the norm sqrt(*sq) exceeds it.
extern "C" __global__ void adam(float *p, const float *g, float *m, float *v, long n, const double *sq, double clip, double b1, double c1, double b2, double c2, double lrb, double ib2, double eps) {
	double norm = sqrt(*sq);
	double scale = (clip > 0.0 && norm > clip) ? clip / (norm + 1e-6) : 1.0;
	LOOP(j, n) {
		double gj = scale * (double)g[j];
		double mj = b1 * (double)m[j] + c1 * gj;
		double vj = b2 * (double)v[j] + c2 * gj * gj;
		m[j] = (float)mj;
		v[j] = (float)vj;
		p[j] -= (float)(lrb * mj / (sqrt(vj * ib2) + eps));
	}
}

// avg = df*avg + ef*p (the parameter average).
extern "C" __global__ void average(float *avg, const float *p, long n, float df, float ef) {
	LOOP(i, n) avg[i] = __fadd_rn(__fmul_rn(df, avg[i]), __fmul_rn(ef, p[i]));
}

// x[i] = v.
extern "C" __global__ void fill(float *x, long n, float v) {
	LOOP(i, n) x[i] = v;
}
